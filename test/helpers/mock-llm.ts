/**
 * The mock OpenAI-compatible server on loopback, and an LLM provider that sends every llm_id to
 * it. Each mock is closed after the test that started it.
 */
import { afterEach } from "vitest";
import { createLlmProvider, startMockLlmServer, type MockLlmScript, type MockLlmServer } from "../../src/llm/index.js";
import type { LlmProvider } from "../../src/llm/types.js";

export interface MockLlm {
  server: MockLlmServer;
  provider: LlmProvider;
  /** The chat requests the server received, oldest first (their JSON bodies). */
  chatRequests(): Array<{ messages: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }>; tools?: Array<{ function: { name: string; description?: string; parameters?: unknown } }>; stream?: boolean; temperature?: number; [key: string]: unknown }>;
  close(): Promise<void>;
}

const closedAfterTest: MockLlm[] = [];

afterEach(async () => {
  await Promise.all(closedAfterTest.splice(0).map((mock) => mock.close()));
});

export async function startMockLlm(script?: MockLlmScript): Promise<MockLlm> {
  const server = await startMockLlmServer(script ? { script } : {});
  // An empty environment: OPENAI_* variables of the machine must not change where requests go.
  const provider = createLlmProvider({ providers: { mock: { baseURL: server.url } }, defaultModel: { provider: "mock", model: "mock" } }, {});
  const mock: MockLlm = {
    server,
    provider,
    chatRequests: () => server.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body as ReturnType<MockLlm["chatRequests"]>[number]),
    close: () => server.close(),
  };
  closedAfterTest.push(mock);
  return mock;
}
