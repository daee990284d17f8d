/**
 * canvasflow's configuration (`canvasflow.config.json`, `--config FILE`) and the runtime services
 * it turns into. A canvas DSL says *which* model, dataset or tool it uses; this says *where* they
 * are and which keys to use, so the same DSL runs against OpenAI, Ollama, vLLM or a mock.
 */
import type { EgressServiceOptions, HttpServiceOptions } from "../sandbox/egress/service.js";
import type { LlmProvider } from "../llm/types.js";
import type { KnowledgeModels } from "../knowledge/model-types.js";
import type { EmbeddingConfig, LocalKnowledgeBaseConfig } from "../knowledge/config-types.js";
import type { PipelineChunkerOpener } from "../knowledge/chunkers.js";
import type { McpHub } from "../tools/mcp/hub.js";
import type { McpServerConfig } from "../tools/mcp/config.js";
import type { MemoryStore } from "../backends/contracts.js";
import type { CodeExecOptions } from "../sandbox/code/options.js";
import type { TenantMemories } from "../memories/scope.js";

export type { EmbeddingConfig, LocalKnowledgeBaseConfig, McpServerConfig };

export interface ProviderConfig {
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseURL: string;
  /** Name of the environment variable holding the API key (never the key itself in the file). */
  apiKeyEnv?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
}

export interface ModelRoute {
  /** A key of `providers`. */
  provider: string;
  /**
   * The model name the provider knows, e.g. "gpt-4o-mini" or "qwen2.5:7b". Left out, it is the
   * llm_id's model part ("deepseek-chat" for "deepseek-chat@DeepSeek").
   */
  model?: string;
  /** Tokens the model's context window holds; conversations are trimmed to 97% of it before each call. */
  maxContextTokens?: number;
}

/** A knowledge base a Retrieval reads, keyed by RAGFlow kb_id / dataset_id. */
export type KnowledgeBaseConfig =
  | LocalKnowledgeBaseConfig
  | { type: "ragflow"; /** RAGFlow server, e.g. http://localhost:9380. */ baseURL: string; apiKeyEnv?: string; /** Defaults to the key. */ datasetId?: string };

/** Where a tool's API lives and which key it uses, keyed by component_name (e.g. "TavilySearch"). */
export interface ToolEndpointConfig {
  /** Overrides the public API's base URL (a self-hosted or test stand-in). */
  baseURL?: string;
  /** Environment variable with the API key, used when the DSL's own api_key param is empty. */
  apiKeyEnv?: string;
}

export interface CanvasflowConfig {
  providers?: Record<string, ProviderConfig>;
  /** llm_id (exactly as in the DSL, e.g. "deepseek-chat@DeepSeek") or its model part → route. */
  models?: Record<string, ModelRoute>;
  /** The route for any llm_id not listed in `models`. */
  defaultModel?: ModelRoute;
  knowledgeBases?: Record<string, KnowledgeBaseConfig>;
  /** The embedding model of local knowledge bases that name none. */
  embedding?: EmbeddingConfig;
  /** RAGFlow rerank_id (exactly, or its model part) → the rerank endpoint's provider and model. */
  rerankModels?: Record<string, ModelRoute>;
  /** The route for any rerank_id not listed in `rerankModels`. */
  defaultRerankModel?: ModelRoute;
  tools?: Record<string, ToolEndpointConfig>;
  /** `canvasflow serve`'s settings (schemas/config.schema.json#/$defs/server). */
  server?: ServerConfig;
  /** MCP servers by the mcp_id an Agent's `mcp` entries name. */
  mcpServers?: Record<string, McpServerConfig>;
  /** Where produced files go (DocGenerator, ExcelProcessor). */
  files?: FilesConfig;
  /** The SMTP server the Email tool sends through when its own params name none. */
  smtp?: SmtpConfig;
  /** Where conversation memories are kept (default: with the run's session). */
  memories?: MemoriesConfig;
  /** The Chromium the Browser component drives. */
  browser?: BrowserConfig;
  /** The sandbox CodeExec and Dify's code node run scripts in. */
  codeExec?: CodeExecOptions;
  /** The egress guard's allow-list (every outbound connection a canvas causes passes the guard). */
  egress?: EgressConfig;
  /** What ingestion pipelines may read of a document. */
  pipelines?: PipelinesConfig;
  /** OpenTelemetry tracing of run, serve and worker (docs/observability.md). */
  tracing?: TracingConfig;
}

/** The `tracing` section (docs/observability.md); the OTEL_* variables fill in what it leaves out. */
export interface TracingConfig {
  /** Default: on when an endpoint is named here or by OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT. */
  enabled?: boolean;
  /** A base URL (`/v1/traces` appended) or the traces URL itself. */
  endpoint?: string;
  /** Sent with every export; `${VAR}` in a value is read from the environment. Never logged. */
  headers?: Record<string, string>;
  protocol?: "http/protobuf" | "http/json";
  /** The resource's service.name (default OTEL_SERVICE_NAME, else "canvasflow"). */
  serviceName?: string;
  /** Record prompts and completions as span attributes (default false: they can hold personal data). */
  recordContent?: boolean;
  /** Characters of a recorded prompt or completion kept (default 4000). */
  contentLimit?: number;
  /** The share of new traces recorded, 0 to 1 (default 1). */
  sampleRatio?: number;
}

/** The runtime service `tracing` (ctx.services.tracing): what the engine's spans record. */
export interface TracingService {
  /** Prompts and completions as `gen_ai.prompt` / `gen_ai.completion` attributes. */
  recordContent: boolean;
  /** Characters of each kept. */
  contentLimit: number;
}

/** The `egress` section (docs/configuration.md, Egress). */
export interface EgressConfig {
  /**
   * Non-public addresses canvases may reach: host names, IPs, `host:port`, `[v6]:port`, CIDR
   * ranges (sandbox/egress/allow-list.ts).
   */
  allow?: string[];
}

export interface MemoriesConfig {
  /** A folder, redis://…, postgres://… or sqlite:FILE (see backends/open-memories.ts). */
  location?: string;
  /** Message text one memory keeps; the oldest messages are forgotten first. */
  maxBytes?: number;
}

export interface BrowserConfig {
  /** Default: CANVASFLOW_CHROMIUM, else /usr/bin/chromium (Debian's chromium package). */
  executablePath?: string;
}

export interface FilesConfig {
  /** Default <tmp>/canvasflow-files. A relative path is relative to the config file's folder. */
  dir?: string;
  /** A TTF/OTF font for DocGenerator's PDFs (pdfkit's standard fonts cover Latin-1 only). */
  pdfFont?: string;
}

export interface SmtpConfig {
  host: string;
  /** Default 465 with implicit TLS, else 587 with STARTTLS. */
  port?: number;
  /** "implicit" (port 465), "starttls" (required), "none" (plain: loopback relays only). Default by port. */
  tls?: "implicit" | "starttls" | "none";
  /** Accept a self-signed certificate (a local relay). Default false. */
  allowSelfSigned?: boolean;
  /** The login; default the `from` address. */
  username?: string;
  /** The environment variable holding the password (never the password itself). */
  passwordEnv?: string;
  /** The sender address. */
  from: string;
  senderName?: string;
}

/** Sizes and times (docs/server.md, Limits). */
export interface ServerLimitsConfig {
  bodyBytes?: number;
  agentBodyBytes?: number;
  dslBytes?: number;
  dslComponents?: number;
  runMs?: number;
  setupsAtOnce?: number;
  requestMs?: number;
  headersMs?: number;
  wsHighWaterBytes?: number;
  wsMaxQueuedBytes?: number;
  wsStallMs?: number;
  wsBadFrames?: number;
  wsBadFramesMs?: number;
  wsConnectionsPerKey?: number;
  sessionMessageChars?: number;
  uploadBytes?: number;
}

/** Per-key and per-process rate limits; 0 turns one off (docs/server.md, Rate limits). */
export interface RateLimitsConfig {
  /** Completion requests per key per minute (default 6000). */
  completionsPerMinute?: number;
  /** Other API requests per key per minute (default 12000). */
  requestsPerMinute?: number;
  /** Runs of one key going at once (default 0: no per-key limit, runsPerServer bounds them). */
  runsPerKey?: number;
  /** Runs going at once in one server process, all keys together (default 256). */
  runsPerServer?: number;
}

/** One list of a component policy: names allowed (only these) and denied. */
export interface PolicyRulesConfig {
  allow?: string[];
  deny?: string[];
}

/** A component policy's lists (server-wide, or one tenant's). */
export interface PolicyListsConfig {
  /** Component types: RAGFlow component names, Dify node types, Dify tools (`provider/tool`). */
  components?: PolicyRulesConfig;
  /** Tools an Agent may hand its model (and `Agent`: sub-agents). */
  tools?: PolicyRulesConfig;
  /** MCP servers (ids of `mcpServers`) an Agent may bind to. */
  mcpServers?: PolicyRulesConfig;
}

/** What agents may use on this server (docs/server.md, Component policy). */
export interface ComponentPolicyConfig extends PolicyListsConfig {
  /** Per tenant: `deny` adds to the server-wide lists, `allow` grants past them. */
  tenants?: Record<string, PolicyListsConfig>;
}

/** The `server` section: what `canvasflow serve` passes to `createServer`. */
export interface ServerConfig {
  limits?: ServerLimitsConfig;
  rateLimits?: RateLimitsConfig;
  allowPrivateNetwork?: boolean;
  /** Component types, tools and MCP servers agents may use (docs/server.md, Component policy). */
  policy?: ComponentPolicyConfig;
  metrics?: { enabled?: boolean; public?: boolean };
  openapi?: { enabled?: boolean };
  playground?: { enabled?: boolean };
  logLevel?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
}

/** Resolved knowledge bases and tool endpoints, as components find them in `ctx.services`. */
export interface ToolServices {
  knowledgeBases: Readonly<Record<string, KnowledgeBaseConfig>>;
  /** Embedding and rerank models of local knowledge bases; without it, local search is by keywords only. */
  knowledgeModels?: KnowledgeModels;
  endpoints: Readonly<Record<string, ToolEndpointConfig>>;
  /** Environment to read `apiKeyEnv` variables from (process.env by default). */
  env: Readonly<Record<string, string | undefined>>;
  files?: FilesConfig;
  smtp?: SmtpConfig;
  browser?: BrowserConfig;
  /**
   * Opens an ingestion pipeline as a knowledge base's chunker (a local knowledge base's `pipeline`,
   * or the one its index was made with), running it with these services' models.
   */
  pipelineChunker?: PipelineChunkerOpener;
}

/**
 * The well-known keys of `RuntimeServices` (components read them from `ctx.services`):
 * - `llm`: chat models for LLM, Agent and Categorize;
 * - `tools`: knowledge bases and tool endpoints;
 * - `egress`: the egress guard's policy for every outbound connection (sandbox/egress/service.ts);
 * - `http`: its older spelling, still read;
 * - `mcp`: the MCP servers an Agent's `mcp` entries bind to (tools/mcp/hub.ts);
 * - `memories`: where conversation memories are written and searched (MemoryStore in backends/contracts.ts);
 * - `codeExec`: the code sandbox's limits, network and trust (sandbox/code/options.ts);
 * - `tracing`: whether spans record prompts and completions, and how much of them (TracingService).
 */
/** What ingestion pipelines may read of a document (research/ragflow-pipelines.md: every input that can grow has a limit). */
export interface PipelinesConfig {
  limits?: {
    /** Bytes a document may have (default 100 MiB), checked before it is read. */
    maxFileBytes?: number;
    /** Bytes the entries of a DOCX, XLSX, PPTX or EPUB may inflate to (default 200 MiB). */
    maxInflatedBytes?: number;
    /** Characters of text one document may give (default 20 million). */
    maxTextChars?: number;
    /** Rows a spreadsheet or CSV may give (default 200 000). */
    maxRows?: number;
  };
}

export interface CanvasflowServices {
  llm?: LlmProvider;
  tools?: ToolServices;
  egress?: EgressServiceOptions;
  http?: HttpServiceOptions;
  mcp?: McpHub;
  /**
   * Conversation memories (Message `memory_ids`, Retrieval `retrieval_from: "memory"`): one
   * tenant's, or a whole store, whose tenant "default" the run then uses. A server or worker given
   * a store scopes it to each run's tenant.
   */
  memories?: MemoryStore | TenantMemories;
  /** The code sandbox's limits and network (sandbox/code/options.ts). */
  codeExec?: CodeExecOptions;
  /** What ingestion pipelines may read of a document (the config's `pipelines.limits`). */
  parseLimits?: PipelinesConfig["limits"];
  /** What the run's spans record, when tracing is on (the config's `tracing.recordContent`, `contentLimit`). */
  tracing?: TracingService;
}
