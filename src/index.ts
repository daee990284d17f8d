/**
 * canvasflow: a runtime for agent canvases stored as JSON DSL (RAGFlow's format).
 */
export {
  loadCanvas,
  validateCanvas,
  validateDsl,
  registerComponent,
  defaultRegistry,
  readSource,
  canvasFromSource,
  compileCanvas,
  CanvasValidationError,
  type LoadOptions,
} from "./api.js";
export { Canvas, type CanvasRuntimeOptions, type CompiledCanvas, CheckpointReplayError } from "./engine/canvas.js";
export { DEFAULT_MAX_STEPS, type RunRequest } from "./engine/run.js";
export { DEFAULT_CONCURRENCY, DEFAULT_COMPONENT_TIMEOUT_MS } from "./engine/runner.js";
export {
  EVENT_NAMES,
  type CanvasEvent,
  type CanvasEventOf,
  type EventName,
  type EventDataMap,
  type WorkflowStartedData,
  type NodeStartedData,
  type NodeFinishedData,
  type MessageData,
  type MessageEndData,
  type UserInputsData,
  type WorkflowFinishedData,
  type TokenUsage,
} from "./engine/events.js";
export type { PersistedRunState, PendingInput, RunStatus } from "./engine/state.js";
export { ComponentRegistry, RegistrationError } from "./components/registry.js";
export { builtinRegistry, BUILTIN_COMPONENTS } from "./components/builtins.js";
export { LLM_COMPONENTS } from "./components/llm/index.js";
export { TOOL_COMPONENTS, defineTool, type MetaParam, type ToolSpec } from "./tools/index.js";
export { ProviderMissingError, needsProvider, type ProviderKind } from "./components/needs-provider.js";
export type { EgressServiceOptions, HttpServiceOptions, HostResolver, ResolvedAddress } from "./components/invoke.js";
export { TextStream, isTextStream, THINK_START, THINK_END } from "./components/text-stream.js";
export type * from "./components/types.js";
export type { CanvasDsl, ComponentEntry, TemplateEnvelope, HistoryEntry, GraphNode, GraphEdge } from "./dsl/types.js";
export type { ValidationIssue, ValidationReport, Severity } from "./dsl/validate.js";
export { PIPELINE_MESSAGE, type DslKind } from "./dsl/kind.js";
export { MAX_DSL_DEPTH } from "./dsl/structure.js";
export { DslReadError, type DslSource } from "./dsl/source.js";
export {
  parseSelector,
  parseExpression,
  findReferences,
  isSelector,
  referenceKey,
  compileTemplate,
  renderTemplate,
  stringifyValue,
  type Reference,
  type ComponentReference,
  type GlobalReference,
  type AliasReference,
  type IterationAlias,
  type CompiledTemplate,
  type TemplateSegment,
  type TemplateReference,
} from "./refs/index.js";
export {
  VariablePool,
  MissingReferenceError,
  UnsafePathError,
  PathWriteError,
  getByPath,
  setByPath,
  type VariableDeclaration,
} from "./pool/index.js";
export * from "./backends/index.js";
export {
  migrateDsl,
  needsMigration,
  DSL_MIGRATIONS,
  MigrationError,
  formatMigrationReport,
  migrationReport,
  type MigrationNote,
  type MigrationResult,
  type MigrationStep,
  type MigrationReport,
  type UnsupportedPart,
} from "./migrate/index.js";
export { Unsupported, UNSUPPORTED_COMPONENT } from "./components/unsupported.js";
export { registerDify, DIFY_FRONT_END } from "./dify/front-end.js";
export { registerPipelines, PIPELINE_STEPS } from "./pipelines/register.js";
export { PIPELINE_FRONT_END } from "./pipelines/front-end.js";
export { localDocuments, DOCUMENTS_SERVICE, DocumentUnavailableError, type DocumentOpener, type PipelineFile } from "./pipelines/documents.js";
export type { Chunk, ParsedItem, Payload, DocumentSource, ParseLimits } from "./pipelines/payload.js";
export { isDifyDocument } from "./dify/document.js";
export type { DifyGraph } from "./dify/graph.js";
export type { DslFrontEnd } from "./dsl/front-end.js";
export { UnavailableError, isUnavailable } from "./components/unavailable.js";
export type * from "./llm/types.js";
export { LlmRequestError, ModelResolutionError, type LlmFailureKind } from "./llm/errors.js";
export { OpenAIChatModel, type OpenAIChatModelOptions } from "./llm/openai-chat-model.js";
export { createLlmProvider, resolveModel, modelPart, bareModelName, type ResolvedModel } from "./llm/provider.js";
export { loadConfig, loadConfigFile, validateConfig, buildServices, ConfigError, CONFIG_FILE_NAME, type LoadedConfig, type BuildServicesOptions } from "./config/load.js";
export type { EmbeddingModel, RerankModel, KnowledgeModels } from "./knowledge/model-types.js";
export type * from "./config/types.js";
export { McpHub } from "./tools/mcp/hub.js";
export {
  InProcessMemoryStore,
  ProcessMemoryStore,
  FileMemoryStore,
  openMemoryStore,
  searchMemories,
  MemoryStoreError,
  TenantMemories,
  DEFAULT_MEMORY_TENANT,
  type MemoryStore,
  type MemoryRef,
  type MemoryMessage,
  type MemoryHit,
  type MemoryQuery,
} from "./memories/index.js";
export { DurableSession, SessionNotFoundError, type DurableSessionOptions, type LoggedRunEvent, type OpenedAs, type Durability, type DurableRunRequest, type RunEndRecord } from "./durable/session.js";
export { DURABILITIES } from "./durable/writer.js";
export type { RunDelta, CheckpointOp, CheckpointSink } from "./engine/checkpoint.js";
export { cancelRun, type CancelRunOptions } from "./durable/cancel.js";
export { followEvents, endsRun, type FollowOptions } from "./durable/follow.js";
export {
  ComponentPolicy,
  ComponentPolicyError,
  policyRefusalMessage,
  POLICY_LISTS,
  type PolicyDenial,
  type PolicyList,
  type PolicyRule,
  type PolicyVocabulary,
} from "./policy/policy.js";
export { createSessionIfAbsent, type CreateSessionOptions } from "./durable/create.js";
