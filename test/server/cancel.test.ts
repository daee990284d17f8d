/**
 * Cancel through the API (research/ragflow-api.md §3): a slow run (the mock LLM's delay_ms) is
 * cancelled with `POST /api/v1/tasks/{session_id}/cancel` or `PATCH … {"action":"stop"}`; its
 * stream ends with a cancelled workflow_finished and [DONE] within 100 ms, and the session's next
 * turn runs normally (the cancel flag does not outlive the turn, unlike RAGFlow's).
 *
 * What is measured: from just before the cancel request is sent to the moment the stream's
 * `[DONE]` reaches this client, both on this process's clock; it includes the cancel request's
 * round trip. The figures are printed.
 */
import { describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import { call, createAgent, send, startTestServer, type TestServer } from "../helpers/server.js";
import { llmCanvas } from "./canvases.js";

const LIMIT_MS = 100;
const SAMPLES = 10;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

/** A streaming turn held in the mock LLM; resolves once the model was asked, with the stream's end to come. */
async function slowTurn(server: TestServer, agentId: string, sessionId: string, mock: MockLlm) {
  const asked = mock.chatRequests().length;
  const response = await send(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, query: "slow", stream: true } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const rest = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    return { text, at: performance.now() };
  })();
  while (mock.chatRequests().length === asked) await new Promise((resolve) => setTimeout(resolve, 5));
  // Wrapped: an async function returning the promise itself would wait for it.
  return { ended: rest };
}

describe("cancel through the API", () => {
  for (const how of ["POST /tasks/{id}/cancel", "PATCH /tasks/{id} stop"] as const) {
    it(`${how}: the stream ends with a cancelled workflow_finished and [DONE] within ${LIMIT_MS} ms (p50 and p95 of ${SAMPLES}); the next turn works`, async () => {
      const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "fine" }] });
      const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
      const agentId = await createAgent(server, llmCanvas());
      const sessionId = (await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} })).json.data.id as string;
      const latencies: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const { ended } = await slowTurn(server, agentId, sessionId, mock);
        const requestedAt = performance.now();
        const answer =
          how === "POST /tasks/{id}/cancel"
            ? await call(server, `/api/v1/tasks/${sessionId}/cancel`, { method: "POST" })
            : await call(server, `/api/v1/tasks/${sessionId}`, { method: "PATCH", body: { action: "stop" } });
        expect(answer.json).toEqual({ code: 0, message: "success", data: true });
        const { text, at } = await ended;
        latencies.push(at - requestedAt);
        const parts = text.split("\n\n").filter((p) => p !== "");
        expect(parts.at(-1)).toBe("data:[DONE]");
        const last = JSON.parse(parts.at(-2)!.slice(5));
        expect(last).toMatchObject({ event: "workflow_finished", session_id: sessionId, task_id: sessionId, data: { error: "cancelled" } });
      }
      // The flag stands until the session's next turn, which clears it and runs normally.
      expect(await server.store.cancel.isRequested(sessionId)).toBe(true);
      const next = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, query: "now" } });
      expect(next.json.code).toBe(0);
      expect(next.json.data.data.content).toBe("fine");
      expect(await server.store.cancel.isRequested(sessionId)).toBe(false);
      // The cancelled turns are not in the session's messages.
      const messages = (await call(server, `/api/v1/agents/${agentId}/sessions/${sessionId}`)).json.data.message.map((m: { content: string }) => m.content);
      expect(messages).toEqual(["Ask me.", "now", "fine"]);

      const sorted = [...latencies].sort((a, b) => a - b);
      const [p50, p95] = [percentile(sorted, 0.5), percentile(sorted, 0.95)];
      console.log(`API cancel (${how}) to [DONE], ${SAMPLES} cancels: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
      expect(p50).toBeLessThan(LIMIT_MS);
      expect(p95).toBeLessThan(LIMIT_MS);
    });
  }

  it("a non-stream run cancelled from another request answers code 100 with the cancelled error", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const sessionId = (await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} })).json.data.id as string;
    const answering = call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, query: "slow" } });
    while (mock.chatRequests().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await call(server, `/api/v1/tasks/${sessionId}/cancel`, { method: "POST" });
    const answer = await answering;
    expect(answer.json).toMatchObject({ code: 100, message: "cancelled", data: { session_id: sessionId, data: { error: "cancelled" } } });
  });
});
