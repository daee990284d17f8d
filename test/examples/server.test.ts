/**
 * The examples through the server, as `canvasflow serve --register examples/<name>.mjs
 * --mock-llm [--config examples/canvasflow.config.json]` serves them: the registry of the
 * `--register` module and the services of the flags, made by the CLI's own functions, under a
 * server answering through inject(). Each agent is created from the example's JSON through the
 * RAGFlow API and run with chat completions: the events streamed, the answer, and for
 * rag-approval the pause and its resumptions on the session. The modules import the built
 * "canvasflow/graph": `npm test` builds dist first.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registryWithModules } from "../../src/cli/register-modules.js";
import { openRunServices, type RunServices } from "../../src/cli/services.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { call, createAgent, frames, injectTestServer, send, type TestServer } from "../helpers/server.js";
import { ASK, exampleDsl, FEEDBACK, handbookCopy, messageText, QUESTION, REWRITTEN, SUMMARIES, SUMMARY, TEXTS, toolLoopMessages, updates, VACATION_PASSAGE, withoutCitationIds, WORDS_QUESTION, type ExampleName } from "./helpers.js";

const opened: RunServices[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.close()));
});

const quiet = { stdout: process.stdout, err: () => {} } as unknown as Parameters<typeof openRunServices>[1];

/** A server with the example's `--register` module and `--mock-llm` (and `--config`, for the knowledge base); its agent made from the example's JSON. */
async function serving(name: ExampleName, config?: string): Promise<{ server: TestServer; agentId: string }> {
  const registry = await registryWithModules([`examples/${name}.mjs`]);
  const services = await openRunServices({ mockLlm: true, ...(config ? { config } : {}) }, quiet);
  opened.push(services);
  const server = await injectTestServer({ registry, canvas: { services: { ...services.services } } });
  return { server, agentId: await createAgent(server, exampleDsl(name), name) };
}

/** A streamed chat completion: its events (session_id included), `[DONE]` left out. */
async function completion(server: TestServer, body: Record<string, unknown>): Promise<Array<CanvasEvent & { session_id: string }>> {
  const response = await send(server, "/api/v1/agents/chat/completions", { body: { ...body, stream: true } });
  expect(response.status).toBe(200);
  const parts = frames(await response.text());
  expect(parts.at(-1)).toBe("data:[DONE]");
  return parts.slice(0, -1).map((frame) => JSON.parse(frame.slice("data:".length)) as CanvasEvent & { session_id: string });
}

describe("the examples through the server", () => {
  it("rag-approval: the first completion pauses at the review; a rejection pauses again with the rewritten question; the approval answers", async () => {
    const { server, agentId } = await serving("rag-approval", join(handbookCopy(), "canvasflow.config.json"));
    const first = await completion(server, { agent_id: agentId, inputs: { question: QUESTION } });
    const sessionId = first[0].session_id;
    expect(updates(first).map(([id, update]) => (id === "retrieve" ? id : [id, id === "retrieve__state" ? { context: withoutCitationIds(update.context) } : update]))).toEqual([
      "retrieve",
      ["retrieve__state", { context: VACATION_PASSAGE }],
      ["answer", { content: `[mock reply] You said: ${QUESTION}` }],
      ["answer__state", { answer: `[mock reply] You said: ${QUESTION}` }],
    ]);
    expect(first.at(-1)).toMatchObject({ event: "user_inputs", data: { interrupts: [{ id: "review:0", component_id: "review", value: { question: QUESTION, answer: `[mock reply] You said: ${QUESTION}`, ask: ASK } }] } });

    const rejected = await completion(server, { agent_id: agentId, session_id: sessionId, inputs: { resume: { approved: false, feedback: FEEDBACK } } });
    expect(rejected.every((event) => event.session_id === sessionId)).toBe(true);
    expect(updates(rejected).filter(([id]) => !id.startsWith("retrieve") && id !== "answer")).toEqual([
      ["review", { approved: false, feedback: FEEDBACK }],
      ["rewrite", { question: REWRITTEN, rewrites: 1 }],
      ["answer__state", { answer: `[mock reply] You said: ${REWRITTEN}` }],
    ]);
    expect(rejected.at(-1)).toMatchObject({ event: "user_inputs", data: { interrupts: [{ id: "review:0", value: { question: REWRITTEN } }] } });

    // The approval, not streamed: the answer is the Message's text.
    const approved = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, inputs: { resume: { approved: true } } } });
    expect(approved.json.code).toBe(0);
    expect(approved.json.data).toMatchObject({ event: "message_end", session_id: sessionId, data: { content: `[mock reply] You said: ${REWRITTEN}` } });
  });

  it("map-reduce: one completion with the texts: summarise once per text, then combine; the summary is the run's output", async () => {
    const { server, agentId } = await serving("map-reduce");
    const events = await completion(server, { agent_id: agentId, inputs: { texts: TEXTS } });
    expect(updates(events)).toEqual([
      // A send map's node_finished shows the last payload's write; the state has both (combine read them).
      ["summarise__send", { summaries: [SUMMARIES[1]] }],
      ["combine", { summary: SUMMARY }],
    ]);
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished", data: { outputs: { summary: SUMMARY }, usage: { calls: 3 } } });

    const answer = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, inputs: { texts: TEXTS } } });
    expect(answer.json.data).toMatchObject({ event: "workflow_finished", data: { outputs: { summary: SUMMARY } } });
  });

  it("tool-loop: one completion with the user's message: agent calls the tool, tools answers, agent answers", async () => {
    const { server, agentId } = await serving("tool-loop");
    const events = await completion(server, { agent_id: agentId, inputs: { messages: [{ role: "user", content: WORDS_QUESTION }] } });
    const [, ...messages] = toolLoopMessages(expect.any(String));
    expect(updates(events)).toEqual([
      ["agent", { messages: messages[0] }],
      ["tools", { messages: [messages[1]] }],
      ["agent", { messages: messages[2] }],
    ]);
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished", data: { outputs: { messages: messages[2] }, usage: { calls: 2 } } });
    expect(messageText(events)).toBe("");
  });
});
