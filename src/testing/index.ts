/**
 * `canvasflow/testing`: a mock OpenAI-compatible LLM server driven by a script of rules, to test
 * canvases and the clients of a server without a real model.
 */
export { startMockLlmServer, MOCK_MODEL, type MockLlmServer, type MockLlmServerOptions, type MockRecordedRequest } from "../llm/mock-server.js";
export { loadMockLlmScript, parseMockLlmScript, MockScriptError, type MockLlmScript, type MockLlmRule, type MockToolCall, type MockMatchTarget } from "../llm/mock-script.js";
