/**
 * Limits (docs/server.md, Limits): body sizes (413 beyond them, the agent writes' own limit), the
 * DSL size cap on agent writes (code 101 naming the limit, nothing stored), and a run's wall-clock
 * limit (the run is cancelled, its workflow_finished says which limit, the session stays usable).
 * The defaults (1 MiB, 10 MiB) are asserted in errors.test.ts.
 */
import { defaultRegistry } from "../../src/api.js";
import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { resolveServerSettings, ServerOptionsError } from "../../src/server/settings.js";
import { runTimeLimitMessage } from "../../src/server/turn.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { call, createAgent, frames, send, startTestServer, type TestServer } from "../helpers/server.js";

/** What the component policy may name (no policy is given here). */
const NO_POLICY = { registry: defaultRegistry, mcpServers: [] };
import { hello, llmCanvas } from "./canvases.js";

const COMPLETIONS = "/api/v1/agents/chat/completions";
const TOO_LARGE = { code: 413, message: "Request body is too large", data: null };

async function agentCount(server: TestServer): Promise<number> {
  return (await call(server, "/api/v1/agents")).json.data.total;
}

/** hello() with a prologue of `bytes` characters. */
function helloOfSize(bytes: number): Record<string, unknown> {
  const dsl = hello() as { components: { begin: { obj: { params: { prologue: string } } } } };
  dsl.components.begin.obj.params.prologue = "p".repeat(bytes);
  return dsl;
}

/** Begin → Message, with `extra` more Messages hanging off Begin. */
function canvasWithComponents(count: number): ReturnType<typeof canvasDsl> {
  const components: Record<string, ReturnType<typeof node>> = {};
  const messages = Array.from({ length: count - 1 }, (_, i) => `Message:M${i}`);
  components.begin = node("Begin", {}, messages);
  for (const id of messages) components[id] = node("Message", { content: ["hi"] });
  return canvasDsl(components);
}

describe("body sizes", () => {
  it("limits.bodyBytes and limits.agentBodyBytes: 413 with RAGFlow's envelope beyond each; the OpenAI route adds its error object", async () => {
    const server = await startTestServer({ limits: { bodyBytes: 4096, agentBodyBytes: 16_384 } });
    const over = await call(server, COMPLETIONS, { body: { agent_id: "x", query: "q".repeat(5000) } });
    expect(over.status).toBe(413);
    expect(over.json).toEqual(TOO_LARGE);
    const openAi = await call(server, "/api/v1/agents_openai/x/chat/completions", { body: { messages: [{ role: "user", content: "q".repeat(5000) }] } });
    expect(openAi.status).toBe(413);
    expect(openAi.json).toMatchObject({ ...TOO_LARGE, error: { message: TOO_LARGE.message } });
    // Agent writes have their own, larger limit.
    expect((await call(server, "/api/v1/agents", { body: { title: "medium", dsl: helloOfSize(8000) } })).json.code).toBe(0);
    const agentId = (await call(server, "/api/v1/agents")).json.data.canvas[0].id as string;
    expect((await call(server, `/api/v1/agents/${agentId}`, { method: "PUT", body: { dsl: helloOfSize(9000) } })).json.code).toBe(0);
    const tooBig = await call(server, "/api/v1/agents", { body: { title: "big", dsl: helloOfSize(17_000) } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toEqual(TOO_LARGE);
    expect((await call(server, `/api/v1/agents/${agentId}`, { method: "PUT", body: { dsl: helloOfSize(17_000) } })).status).toBe(413);
    expect(await agentCount(server)).toBe(1);
  });
});

describe("the DSL size cap on agent writes", () => {
  it("limits.dslComponents: more components is code 101 naming the limit and the count; nothing is stored", async () => {
    const server = await startTestServer({ limits: { dslComponents: 5 } });
    expect((await call(server, "/api/v1/agents", { body: { title: "five", dsl: canvasWithComponents(5) } })).json.code).toBe(0);
    const refused = await call(server, "/api/v1/agents", { body: { title: "six", dsl: canvasWithComponents(6) } });
    expect(refused.status).toBe(200);
    expect(refused.json).toEqual({
      code: 101,
      message: "`dsl` has 6 components; this server accepts DSLs of at most 5 components (server.limits.dslComponents)",
      data: { limit: "dslComponents", max: 5, actual: 6 },
    });
    // Inside a template envelope, and as JSON text, the DSL is counted as well.
    const envelope = { title: "t", description: "", dsl: canvasWithComponents(6) };
    expect((await call(server, "/api/v1/agents", { body: { title: "six", dsl: envelope } })).json.data).toMatchObject({ limit: "dslComponents", actual: 6 });
    expect((await call(server, "/api/v1/agents", { body: { title: "six", dsl: JSON.stringify(canvasWithComponents(6)) } })).json.data).toMatchObject({ limit: "dslComponents" });
    const agentId = (await call(server, "/api/v1/agents")).json.data.canvas[0].id as string;
    expect((await call(server, `/api/v1/agents/${agentId}`, { method: "PUT", body: { dsl: canvasWithComponents(6) } })).json.code).toBe(101);
    expect(await agentCount(server)).toBe(1);
    expect((await call(server, `/api/v1/agents/${agentId}`)).json.data.dsl.components).toHaveProperty("Message:M3");
  });

  it("limits.dslBytes: a larger DSL (object or JSON text) is code 101 naming the limit; nothing is stored", async () => {
    const server = await startTestServer({ limits: { dslBytes: 4000 } });
    const size = Buffer.byteLength(JSON.stringify(helloOfSize(5000)));
    const refused = await call(server, "/api/v1/agents", { body: { title: "big", dsl: helloOfSize(5000) } });
    expect(refused.json).toEqual({
      code: 101,
      message: `\`dsl\` is ${size} bytes as JSON; this server accepts DSLs of at most 4000 bytes (server.limits.dslBytes)`,
      data: { limit: "dslBytes", max: 4000, actual: size },
    });
    expect((await call(server, "/api/v1/agents", { body: { title: "big", dsl: JSON.stringify(helloOfSize(5000)) } })).json.data).toMatchObject({ limit: "dslBytes" });
    expect((await call(server, "/api/v1/agents", { body: { title: "small", dsl: helloOfSize(1000) } })).json.code).toBe(0);
    expect(await agentCount(server)).toBe(1);
  });
});

describe("a run's wall-clock limit", () => {
  it("a run longer than limits.runMs is cancelled: its stream ends with workflow_finished saying the limit, then [DONE]; the session's next turn runs", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "fine" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } }, limits: { runMs: 500 } });
    const agentId = await createAgent(server, llmCanvas());
    const streamed = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "slow", stream: true } });
    const parts = frames(streamed.text);
    expect(parts.at(-1)).toBe("data:[DONE]");
    const last = JSON.parse(parts.at(-2)!.slice(5));
    expect(last).toMatchObject({ event: "workflow_finished", data: { error: runTimeLimitMessage(500) } });
    expect(last.data.error).toBe("run time limit reached: the run took longer than 500 ms (server.limits.runMs) and was cancelled");
    const sessionId = last.session_id as string;

    const next = await call(server, COMPLETIONS, { body: { agent_id: agentId, session_id: sessionId, query: "now" } });
    expect(next.json.code).toBe(0);
    expect(next.json.data.data.content).toBe("fine");

    // Non-streaming: code 100 with the limit's message.
    const answer = await call(server, COMPLETIONS, { body: { agent_id: agentId, session_id: sessionId, query: "slow" } });
    expect(answer.json).toMatchObject({ code: 100, message: runTimeLimitMessage(500) });
    const messages = (await call(server, `/api/v1/agents/${agentId}/sessions/${sessionId}`)).json.data.message.map((m: { content: string }) => m.content);
    expect(messages).toEqual(["Ask me.", "now", "fine"]);
  });
});

describe("setups at once", () => {
  it("limits.setupsAtOnce: 1 holds a turn's place only until its run's first event: a turn set up while a slow run streams finishes first", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "fine" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } }, limits: { setupsAtOnce: 1 } });
    const agentId = await createAgent(server, llmCanvas());
    const stopSlow = new AbortController();
    const slow = await send(server, COMPLETIONS, { body: { agent_id: agentId, query: "slow", stream: true }, signal: stopSlow.signal });
    const reader = slow.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"event":"workflow_started"');

    const answers = await Promise.all([0, 1, 2].map(() => call(server, COMPLETIONS, { body: { agent_id: agentId, query: "quick" } })));
    expect(answers.map((a) => [a.json.code, a.json.data.data.content])).toEqual([
      [0, "fine"],
      [0, "fine"],
      [0, "fine"],
    ]);
    expect(new Set(answers.map((a) => a.json.data.session_id)).size).toBe(3);
    stopSlow.abort();
  });
});

describe("bad settings", () => {
  it("createServer refuses options that do not fit the schema, naming each", () => {
    const store = new InProcessServerStore();
    const make = (options: object) => () => createServer({ store, ...options });
    expect(make({ limits: { bodyBytes: 0 } })).toThrow(ServerOptionsError);
    expect(make({ limits: { bodyBytes: 0 } })).toThrow("createServer options: /limits/bodyBytes: must be >= 1");
    expect(make({ limits: { runMillis: 5 } })).toThrow('createServer options: /limits/runMillis: has the unknown property "runMillis"');
    expect(make({ rateLimits: { runsPerKey: -1 } })).toThrow("/rateLimits/runsPerKey: must be >= 0");
    expect(make({ limits: { setupsAtOnce: -1 } })).toThrow("/limits/setupsAtOnce: must be >= 0");
    expect(make({ limits: { setupsAtOnce: 1.5 } })).toThrow("/limits/setupsAtOnce: must be integer");
    expect(make({ metrics: { public: "yes" } })).toThrow("/metrics/public: must be boolean");
    expect(make({ limits: { wsHighWaterBytes: 1024 } })).toThrow("/limits/wsHighWaterBytes: must be >= 65536");
    expect(make({ limits: { wsBadFramesMs: 0 } })).toThrow("/limits/wsBadFramesMs: must be >= 1");
    expect(make({ limits: { wsConnectionsPerKey: -1 } })).toThrow("/limits/wsConnectionsPerKey: must be >= 0");
  });

  it("refuses limits that contradict each other, naming both", () => {
    const store = new InProcessServerStore();
    expect(() => createServer({ store, limits: { wsHighWaterBytes: 4 * 1024 * 1024, wsMaxQueuedBytes: 2 * 1024 * 1024 } })).toThrow(
      "createServer options: /limits/wsMaxQueuedBytes: is 2097152, less than limits.wsHighWaterBytes (4194304): a queue is closed only past the mark where it stops growing",
    );
    // Against a default too.
    expect(() => createServer({ store, limits: { wsMaxQueuedBytes: 512 * 1024 } })).toThrow("/limits/wsMaxQueuedBytes: is 524288, less than limits.wsHighWaterBytes (1048576)");
    expect(() => createServer({ store, limits: { headersMs: 200_000 } })).toThrow("createServer options: /limits/headersMs: is 200000, more than limits.requestMs (120000): the headers are part of the request");
    // 0 is no limit: any headersMs goes with it.
    expect(resolveServerSettings({ limits: { requestMs: 0, headersMs: 200_000 } }, NO_POLICY).limits).toMatchObject({ requestMs: 0, headersMs: 200_000 });
  });

  it("the defaults of the request timeouts, the WebSocket limits and a session's messages", () => {
    expect(resolveServerSettings({}, NO_POLICY).limits).toMatchObject({
      requestMs: 120000,
      headersMs: 20000,
      wsHighWaterBytes: 1048576,
      wsMaxQueuedBytes: 8388608,
      wsStallMs: 60000,
      wsBadFrames: 20,
      wsBadFramesMs: 10000,
      // A backend that serves its users through one key holds a connection per user (issue 24, item 22).
      wsConnectionsPerKey: 1024,
      sessionMessageChars: 8_000_000,
    });
  });
});
