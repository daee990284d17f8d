/** Chat models on OpenAI-compatible endpoints, llm_id resolution, and the mock server. */
export type * from "./types.js";
export { LlmRequestError, ModelResolutionError, type LlmFailureKind } from "./errors.js";
export { OpenAIChatModel, type OpenAIChatModelOptions } from "./openai-chat-model.js";
export { createLlmProvider, resolveModel, modelPart, bareModelName, type ResolvedModel } from "./provider.js";
export { startMockLlmServer, MOCK_MODEL, type MockLlmServer, type MockLlmServerOptions, type MockRecordedRequest } from "./mock-server.js";
export { loadMockLlmScript, parseMockLlmScript, MockScriptError, type MockLlmScript, type MockLlmRule, type MockToolCall, type MockMatchTarget } from "./mock-script.js";
