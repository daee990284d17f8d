/**
 * Every bad input answers in RAGFlow's envelope with RAGFlow's HTTP status (200 with a code for
 * application errors; 401, 404 and 413 as real statuses), and leaves nothing half-written.
 */
import { describe, expect, it } from "vitest";
import { startMockLlm } from "../helpers/mock-llm.js";
import { addKey, call, createAgent, injectTestServer, send, startTestServer, type Answer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas } from "./canvases.js";

const COMPLETIONS = "/api/v1/agents/chat/completions";

function expectEnvelope(answer: Answer, status: number, code: number, message?: string | RegExp): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.json.code, answer.text).toBe(code);
  if (typeof message === "string") expect(answer.json.message).toBe(message);
  else if (message) expect(answer.json.message).toMatch(message);
}

async function agentCount(server: TestServer): Promise<number> {
  return (await call(server, "/api/v1/agents")).json.data.total;
}

describe("malformed requests", () => {
  it("malformed JSON: code 101 with the parser's reason", async () => {
    const server = await injectTestServer();
    const answer = await call(server, COMPLETIONS, { body: '{"agent_id": "x", ' });
    expectEnvelope(answer, 200, 101, /^The request body is not valid JSON: /);
  });

  it("a body that sets __proto__: code 101", async () => {
    const server = await injectTestServer();
    expectEnvelope(await call(server, COMPLETIONS, { body: '{"agent_id":"x","__proto__":{"polluted":true}}' }), 200, 101, /__proto__/);
  });

  it("wrong types: code 101 naming the field", async () => {
    const server = await injectTestServer();
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: "x", stream: "yes" } }), 200, 101, "Field `stream` must be boolean,null");
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: "x", inputs: [1] } }), 200, 101, /^Field `inputs` must be object,null/);
    // The OpenAI route answers errors with a real status (openai-errors.test.ts).
    expectEnvelope(await call(server, "/api/v1/agents_openai/x/chat/completions", { body: { messages: [{ content: "hi" }] } }), 400, 101, 'Field `messages.0` is missing the required property "role"');
    expectEnvelope(await call(server, COMPLETIONS, { body: [1, 2] }), 200, 101, /^The request body must be a JSON object/);
    expectEnvelope(await call(server, COMPLETIONS, { body: "hello", headers: { "content-type": "text/plain" } }), 200, 101, /^The request body must be a JSON object/);
    expectEnvelope(await call(server, "/api/v1/agents?page=abc"), 200, 101, "Query parameter `page` must be integer");
    expectEnvelope(await call(server, "/api/v1/agents?desc=maybe"), 200, 101, /^Query parameter `desc` must match pattern/);
  });

  it("an oversized body: 413 with RAGFlow's envelope; agent writes may carry up to 10 MiB", async () => {
    const server = await injectTestServer();
    const big = "x".repeat(1024 * 1024 + 1);
    const answer = await call(server, COMPLETIONS, { body: { agent_id: "x", query: big } });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ code: 413, message: "Request body is too large", data: null });

    const dsl = hello() as { components: { begin: { obj: { params: { prologue: string } } } } };
    dsl.components.begin.obj.params.prologue = "p".repeat(2 * 1024 * 1024);
    expectEnvelope(await call(server, "/api/v1/agents", { body: { title: "big", dsl } }), 200, 0);
    dsl.components.begin.obj.params.prologue = "p".repeat(10 * 1024 * 1024);
    const tooBig = await call(server, "/api/v1/agents", { body: { title: "too big", dsl } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toEqual({ code: 413, message: "Request body is too large", data: null });
    expect(await agentCount(server)).toBe(1);
  });

  it("an unknown route: 404 with RAGFlow's envelope, key or not", async () => {
    const server = await injectTestServer();
    for (const key of [undefined, null]) {
      const answer = await call(server, "/api/v1/agents/x/webhook?a=1", { method: "POST", key });
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ code: 404, message: "Not Found: /api/v1/agents/x/webhook", data: null, error: "Not Found" });
    }
  });
});

describe("keys", () => {
  const UNAUTHORIZED = { code: 401, message: "<Unauthorized '401: Unauthorized'>", data: null };

  it("a bad or missing key: HTTP 401 with RAGFlow's exact answer; the OpenAI route adds an error object", async () => {
    const server = await injectTestServer();
    for (const key of ["ragflow-wrong", null]) {
      const answer = await call(server, "/api/v1/agents", { key });
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual(UNAUTHORIZED);
    }
    const openAi = await call(server, "/api/v1/agents_openai/x/chat/completions", { key: "ragflow-wrong", body: { messages: [] } });
    expect(openAi.status).toBe(401);
    expect(openAi.json).toEqual({ ...UNAUTHORIZED, error: { message: UNAUTHORIZED.message, type: "invalid_request_error", code: 401 } });
  });

  it("the key is read after a Bearer prefix in any case, or as the whole header", async () => {
    const server = await injectTestServer();
    for (const authorization of [`Bearer ${server.key}`, `bearer ${server.key}`, `BEARER   ${server.key}`, server.key]) {
      expectEnvelope(await call(server, "/api/v1/agents", { headers: { authorization } }), 200, 0);
    }
    expect((await call(server, "/api/v1/agents", { headers: { authorization: "Bearer" } })).status).toBe(401);
  });

  it("a revoked key is refused", async () => {
    const server = await injectTestServer();
    const [record] = await server.store.keys.list("t1");
    await server.store.keys.revoke(record.id);
    expect((await call(server, "/api/v1/agents")).status).toBe(401);
  });

  it("health needs no key", async () => {
    const server = await injectTestServer();
    for (const path of ["/api/v1/system/healthz", "/v1/system/healthz", "/livez", "/readyz"]) {
      const answer = await call(server, path, { key: null });
      expect(answer.status, path).toBe(200);
      expect(answer.json.status).toBe("ok");
    }
    expect((await call(server, "/api/v1/system/healthz", { key: null })).json).toEqual({ store: "ok", status: "ok" });
    const ping = await call(server, "/api/v1/system/ping", { key: null });
    expect(ping.text).toBe("pong");
    expect(ping.headers.get("content-type")).toMatch(/^text\/plain/);
    const version = await call(server, "/api/v1/system/version", { key: null });
    expect(version.json).toMatchObject({ code: 0, message: "success" });
    expect(version.json.data).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("agents, sessions and completions that cannot be served", () => {
  it("a missing agent_id: 101; an unknown agent: 103 (102 canvas not found. on GET), as RAGFlow", async () => {
    const server = await injectTestServer();
    expectEnvelope(await call(server, COMPLETIONS, { body: { query: "hi" } }), 200, 101, "`agent_id` is required.");
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: "nope", query: "hi" } }), 200, 103, "Make sure you have permission to access the agent.");
    expectEnvelope(await call(server, "/api/v1/agents/nope/completions", { body: { query: "hi" } }), 200, 103, "Make sure you have permission to access the agent.");
    expectEnvelope(await call(server, "/api/v1/agents/nope"), 200, 102, "canvas not found.");
    expectEnvelope(await call(server, "/api/v1/agents/nope/sessions", { body: {} }), 200, 103, "Make sure you have permission to access the agent.");
    expectEnvelope(await call(server, "/api/v1/agents/nope/sessions"), 200, 103, "Make sure you have permission to access the agent.");
  });

  it("empty or missing messages on the OpenAI route: 400, code 102, with an error object", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, hello());
    for (const body of [{ messages: [] }, {}]) {
      const answer = await call(server, `/api/v1/agents_openai/${agentId}/chat/completions`, { body });
      expectEnvelope(answer, 400, 102, "You must provide at least one message.");
      expect(answer.json.error).toEqual({ message: "You must provide at least one message.", type: "invalid_request_error", code: 102 });
    }
    // The native route with "openai-compatible": true answers RAGFlow's way (test_agent_openai_compatible_mode).
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: agentId, "openai-compatible": true, messages: [] } }), 200, 102, "You must provide at least one message.");
  });

  it("an unknown session: 102; another agent's session: 103; no session was created by either", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, hello());
    const otherId = await createAgent(server, hello());
    const first = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "Ada" } });
    const sessionId = first.json.data.session_id;
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "x", session_id: "0".repeat(32) } }), 200, 102, "Session not found!");
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "x", session_id: "../../etc" } }), 200, 102, "Session not found!");
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: otherId, query: "x", session_id: sessionId } }), 200, 103, "Session does not belong to the requested agent.");
    expectEnvelope(await call(server, `/api/v1/agents/${agentId}/sessions/${"0".repeat(32)}`), 200, 102, "Session not found!");
    expect((await call(server, `/api/v1/agents/${otherId}/sessions`)).json.total).toBe(0);
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.total).toBe(1);
  });

  it("another tenant's session: 103 through the completion, 102 through the session routes (as RAGFlow); their session is untouched", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, hello());
    const otherKey = await addKey(server.store, "t2");
    const theirAgent = await createAgent(server, hello(), "theirs", otherKey);
    const theirSession = (await call(server, COMPLETIONS, { body: { agent_id: theirAgent, query: "Eve" }, key: otherKey })).json.data.session_id;
    const message = "Only authorized users can access this agent session.";
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "x", session_id: theirSession } }), 200, 103, message);
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "x", session_id: theirSession, stream: true } }), 200, 103, message);
    expectEnvelope(await call(server, `/api/v1/agents/${agentId}/sessions/${theirSession}`), 200, 102, "Session not found!");
    expect((await call(server, `/api/v1/agents/${theirAgent}/sessions/${theirSession}`, { key: otherKey })).json.data.message).toHaveLength(3);
  });

  it("inputs nested too deep: 101", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, hello());
    let inputs: Record<string, unknown> = {};
    for (let i = 0; i < 1_100; i++) inputs = { a: inputs };
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: agentId, inputs } }), 200, 101, /^`inputs` is nested deeper than/);
  });

  it("a second run on a session while one runs: 103; the first goes on", async () => {
    const mock = await startMockLlm({ rules: [{ match: "slow", delay_ms: 400, reply: "first" }, { match: ".", reply: "other" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const created = await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} });
    const sessionId = created.json.data.id;
    const running = send(server, COMPLETIONS, { body: { agent_id: agentId, session_id: sessionId, query: "slow", stream: true } });
    const response = await running;
    const reader = response.body!.getReader();
    await reader.read();
    expectEnvelope(await call(server, COMPLETIONS, { body: { agent_id: agentId, session_id: sessionId, query: "again" } }), 200, 103, "a run is already in progress on this session");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toContain('"content":"first"');
    expect(rest.endsWith("data:[DONE]\n\n")).toBe(true);
  });

  it("PATCH /tasks without a stop action: 101; an unknown task: code 0, data true (RAGFlow's answer)", async () => {
    const server = await injectTestServer();
    expectEnvelope(await call(server, "/api/v1/tasks/abc", { method: "PATCH", body: { action: "pause" } }), 200, 101, "Invalid action 'pause'. Only 'stop' is supported.");
    expectEnvelope(await call(server, "/api/v1/tasks/abc", { method: "PATCH", body: {} }), 200, 101, 'The request body is missing the required property "action"');
    expect((await call(server, "/api/v1/tasks/abc/cancel", { method: "POST" })).json).toEqual({ code: 0, message: "success", data: true });
  });
});

describe("agent writes", () => {
  it("no title or no DSL: 101 with RAGFlow's messages; nothing is stored", async () => {
    const server = await injectTestServer();
    expectEnvelope(await call(server, "/api/v1/agents", { body: { title: "t" } }), 200, 101, "No DSL data in request.");
    expectEnvelope(await call(server, "/api/v1/agents", { body: { dsl: hello() } }), 200, 101, "No title in request.");
    expectEnvelope(await call(server, "/api/v1/agents", { body: { title: "  ", dsl: hello() } }), 200, 101, "`title` must not be empty.");
    expectEnvelope(await call(server, "/api/v1/agents", { body: { title: "t", dsl: "{not json" } }), 200, 101, /^`dsl` is a string but not valid JSON/);
    expect(await agentCount(server)).toBe(0);
  });

  it("an invalid DSL: 101 whose message carries the JSON pointers (in the request body); nothing is stored", async () => {
    const server = await injectTestServer();
    const dsl = hello() as { components: Record<string, { obj: { params: Record<string, unknown> }; downstream: string[] }> };
    dsl.components.begin.obj.params.mode = "sideways";
    dsl.components["Message:Greet"].downstream = ["Nowhere"];
    const answer = await call(server, "/api/v1/agents", { body: { title: "bad", dsl } });
    expectEnvelope(answer, 200, 101, /^The DSL is not a valid agent canvas \(\d+ errors?\): /);
    expect(answer.json.message).toContain("/dsl/components/begin/obj/params/mode");
    expect(answer.json.data.issues.map((i: { pointer: string }) => i.pointer)).toContain("/dsl/components/begin/obj/params/mode");
    expect(await agentCount(server)).toBe(0);
  });

  it("a template envelope is unwrapped; a legacy canvas is migrated on write (issue 24: RAGFlow stores it, its clients send it)", async () => {
    const server = await injectTestServer();
    const id = await createAgent(server, { id: "tpl", title: "Template", description: "d", dsl: hello() });
    const stored = await call(server, `/api/v1/agents/${id}`);
    expect(stored.json.data.dsl.components.begin).toBeDefined();
    const legacy = { components: { begin: { obj: { component_name: "Begin", params: { prologue: "hi" } }, downstream: ["answer:0"], upstream: [] }, "answer:0": { obj: { component_name: "Answer", params: {} }, downstream: [], upstream: ["begin"] } }, graph: { nodes: [], edges: [] }, history: [], path: [], answer: [] };
    const migrated = await call(server, "/api/v1/agents", { body: { title: "old", dsl: legacy } });
    expect(migrated.json.code).toBe(0);
    expect(migrated.json.data.migration.applied).toEqual(["003-legacy-v019"]);
    expect(await agentCount(server)).toBe(2);
  });

  it("a duplicate title (any case): 102; an update that fails leaves the agent as it was", async () => {
    const server = await injectTestServer();
    const id = await createAgent(server, hello(), "Echo");
    await createAgent(server, hello(), "Other");
    expectEnvelope(await call(server, "/api/v1/agents", { body: { title: "ECHO", dsl: hello() } }), 200, 102, "ECHO already exists.");
    expectEnvelope(await call(server, `/api/v1/agents/${id}`, { method: "PUT", body: { title: "other" } }), 200, 102, "other already exists.");
    const bad = hello() as { components: { begin: { obj: { params: Record<string, unknown> } } } };
    bad.components.begin.obj.params.mode = "sideways";
    expectEnvelope(await call(server, `/api/v1/agents/${id}`, { method: "PUT", body: { title: "Renamed", dsl: bad } }), 200, 101, /\/dsl\/components\/begin\/obj\/params\/mode/);
    const after = await call(server, `/api/v1/agents/${id}`);
    expect(after.json.data.title).toBe("Echo");
    expect(after.json.data.dsl.components.begin.obj.params.mode).toBe("conversational");
    expect(await agentCount(server)).toBe(2);
    expectEnvelope(await call(server, `/api/v1/agents/${"0".repeat(32)}`, { method: "PUT", body: { title: "x" } }), 200, 103, "Make sure you have permission to access the agent.");
    expectEnvelope(await call(server, `/api/v1/agents/${"0".repeat(32)}`, { method: "DELETE" }), 200, 103, "Only the owner of the agent is authorized for this operation.");
  });
});

describe("nothing crashes the process", () => {
  it("after every kind of bad request the server still answers", async () => {
    const server = await injectTestServer();
    const other = await addKey(server.store, "t2");
    await call(server, COMPLETIONS, { body: "\u0000\u0001" });
    await call(server, COMPLETIONS, { body: "{}".repeat(10_000) });
    await call(server, "/api/v1/agents", { body: { title: 5, dsl: 5 } });
    await call(server, "/api/v1/agents/%", {});
    await call(server, COMPLETIONS, { body: { agent_id: "x" }, key: other });
    expectEnvelope(await call(server, "/api/v1/agents"), 200, 0);
    expect((await call(server, "/livez", { key: null })).json).toEqual({ status: "ok" });
  });
});
