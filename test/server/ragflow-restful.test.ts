/**
 * The agent API answering as RAGFlow's own restful tests assert it (test/testcases/restful_api/
 * test_agents.py, test_sessions.py, test_task_routes.py and test_agents_go_mode.py at b1b8cd6; the
 * handlers in api/apps/restful_apis/agent_api.py and task_api.py), through createServer and
 * inject(): the codes, messages and data shapes a RAGFlow client checks.
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type CreateServerOptions } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import type { ServerStore } from "../../src/backends/contracts.js";
import { addKey } from "../helpers/server.js";
import { hello } from "./canvases.js";

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

interface RestServer {
  app: FastifyInstance;
  store: ServerStore;
  /** A request as the tenant t1 (or `tenant`) sends it. */
  call(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown, tenant?: string): Promise<Answer>;
  /** The same, answered as it came (an SSE body). */
  raw(method: "POST", url: string, body: unknown, tenant?: string): Promise<LightMyRequestResponse>;
  /** Create an agent of `tenant` (t1 by default); resolves to its id. */
  agent(title: string, dsl?: unknown, tenant?: string): Promise<string>;
  /** A new session of the agent; resolves to its id. */
  session(agentId: string, tenant?: string): Promise<string>;
}

/** A server with keys of the tenants t1 and t2. */
async function restServer(options: Partial<CreateServerOptions> = {}): Promise<RestServer> {
  const store = new InProcessServerStore();
  const keys: Record<string, string> = { t1: await addKey(store, "t1"), t2: await addKey(store, "t2") };
  const app = createServer({ ...options, store });
  apps.push(app);
  await app.ready();
  const raw = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown, tenant = "t1") =>
    app.inject({ method, url, headers: { authorization: `Bearer ${keys[tenant]}` }, ...(body !== undefined ? { payload: body as object } : {}) });
  const call: RestServer["call"] = async (method, url, body, tenant = "t1") => {
    const answer = await raw(method, url, body, tenant);
    return { status: answer.statusCode, json: answer.json() };
  };
  return {
    app,
    store,
    call,
    raw,
    async agent(title, dsl = hello(), tenant = "t1") {
      const answer = await call("POST", "/api/v1/agents", { title, dsl }, tenant);
      expect(answer.json.code, JSON.stringify(answer.json)).toBe(0);
      return answer.json.data.id as string;
    },
    async session(agentId, tenant = "t1") {
      const answer = await call("POST", `/api/v1/agents/${agentId}/sessions`, {}, tenant);
      expect(answer.json.code, JSON.stringify(answer.json)).toBe(0);
      return answer.json.data.id as string;
    },
  };
}

const NO_ACCESS = { code: 103, message: "Make sure you have permission to access the agent.", data: false };
const OWNER_ONLY = { code: 103, message: "Only the owner of the agent is authorized for this operation.", data: false };

describe("an unknown or another tenant's agent (test_agents_crud_validation_contract)", () => {
  it("PUT and DELETE answer code 103 with RAGFlow's messages; GET keeps 102 canvas not found.; nothing changes", async () => {
    const server = await restServer();
    const theirs = await server.agent("theirs", hello(), "t2");
    for (const id of ["invalid-agent-id", "0".repeat(32), theirs]) {
      const put = await server.call("PUT", `/api/v1/agents/${id}`, { title: "updated", dsl: hello() });
      expect(put.status).toBe(200);
      expect(put.json).toEqual(NO_ACCESS);
      const del = await server.call("DELETE", `/api/v1/agents/${id}`);
      expect(del.status).toBe(200);
      expect(del.json).toEqual(OWNER_ONLY);
      expect((await server.call("GET", `/api/v1/agents/${id}`)).json).toEqual({ code: 102, message: "canvas not found.", data: false });
    }
    // Their agent is as it was.
    expect((await server.call("GET", `/api/v1/agents/${theirs}`, undefined, "t2")).json.data.title).toBe("theirs");
  });

  it("its session routes answer code 103 too, and so do completions without a session", async () => {
    const server = await restServer();
    const theirs = await server.agent("theirs", hello(), "t2");
    const theirSession = await server.session(theirs, "t2");
    for (const id of ["invalid-agent-id", "0".repeat(32), theirs]) {
      expect((await server.call("POST", `/api/v1/agents/${id}/sessions`, { name: "s" })).json).toEqual(NO_ACCESS);
      expect((await server.call("GET", `/api/v1/agents/${id}/sessions`)).json).toEqual(NO_ACCESS);
      expect((await server.call("GET", `/api/v1/agents/${id}/sessions/${theirSession}`)).json).toEqual(NO_ACCESS);
      expect((await server.call("DELETE", `/api/v1/agents/${id}/sessions/${theirSession}`)).json).toEqual(NO_ACCESS);
      expect((await server.call("DELETE", `/api/v1/agents/${id}/sessions`, { ids: [theirSession] })).json).toEqual(NO_ACCESS);
      expect((await server.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "hi" })).json).toEqual(NO_ACCESS);
      expect((await server.call("POST", `/api/v1/agents/${id}/completions`, { query: "hi", stream: true })).json).toEqual(NO_ACCESS);
    }
    // Their session is untouched, and no session was made for t1.
    expect((await server.call("GET", `/api/v1/agents/${theirs}/sessions/${theirSession}`, undefined, "t2")).json.code).toBe(0);
    expect((await server.store.sessions.list("t1", theirs, { page: 1, page_size: 10, orderby: "create_time", desc: true })).total).toBe(0);
  });

  it("a completion with a session id checks the session first, as RAGFlow does", async () => {
    const server = await restServer();
    const mine = await server.agent("mine");
    const theirs = await server.agent("theirs", hello(), "t2");
    const mySession = await server.session(mine);
    const theirSession = await server.session(theirs, "t2");
    const ask = (agentId: string, sessionId: string) => server.call("POST", "/api/v1/agents/chat/completions", { agent_id: agentId, query: "hi", session_id: sessionId });
    expect((await ask("0".repeat(32), "0".repeat(32))).json).toEqual({ code: 102, message: "Session not found!", data: false });
    expect((await ask("0".repeat(32), mySession)).json).toEqual({ code: 103, message: "Session does not belong to the requested agent.", data: false });
    expect((await ask(theirs, theirSession)).json).toEqual({ code: 103, message: "Only authorized users can access this agent session.", data: false });
  });
});

describe("cancelling a task (test_task_routes.py)", () => {
  it("an unknown task answers code 0 with data true, POST .../cancel and PATCH stop alike; another tenant's too, and it is not cancelled", async () => {
    const server = await restServer();
    const theirs = await server.agent("theirs", hello(), "t2");
    const theirSession = await server.session(theirs, "t2");
    for (const id of ["missing_task", "0".repeat(32), theirSession]) {
      for (const [method, url, body] of [
        ["POST", `/api/v1/tasks/${id}/cancel`, undefined],
        ["PATCH", `/api/v1/tasks/${id}`, { action: "stop" }],
      ] as const) {
        const answer = await server.call(method, url, body);
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({ code: 0, message: "success", data: true });
      }
    }
    // Nothing was stored for the ids it never made, and their session was not touched.
    expect(await server.store.cancel.isRequested("0".repeat(32))).toBe(false);
    expect(await server.store.cancel.isRequested(theirSession)).toBe(false);
    expect((await server.call("PATCH", "/api/v1/tasks/missing_task", { action: "pause" })).json).toEqual({ code: 101, message: "Invalid action 'pause'. Only 'stop' is supported.", data: false });
  });
});

describe("a session of another agent on the session routes (test_get_agent_session.py)", () => {
  it("GET and DELETE /agents/{A}/sessions/{S} answer 102 Session not found! for another agent's or another tenant's session, and delete nothing", async () => {
    const server = await restServer();
    const a = await server.agent("a");
    const b = await server.agent("b");
    const ofB = await server.session(b);
    const theirs = await server.agent("theirs", hello(), "t2");
    const theirSession = await server.session(theirs, "t2");
    const notFound = { code: 102, message: "Session not found!", data: false };
    for (const id of [ofB, theirSession, "0".repeat(32), "invalid_session_id"]) {
      expect((await server.call("GET", `/api/v1/agents/${a}/sessions/${id}`)).json).toEqual(notFound);
      expect((await server.call("DELETE", `/api/v1/agents/${a}/sessions/${id}`)).json).toEqual(notFound);
    }
    expect((await server.call("GET", `/api/v1/agents/${b}/sessions/${ofB}`)).json.data.id).toBe(ofB);
    expect((await server.call("GET", `/api/v1/agents/${theirs}/sessions/${theirSession}`, undefined, "t2")).json.data.id).toBe(theirSession);
    expect((await server.call("DELETE", `/api/v1/agents/${b}/sessions/${ofB}`)).json).toEqual({ code: 0, message: "success", data: true });
  });
});

describe("deleting sessions with duplicate ids (test_session_delete_error_and_repeat_contract)", () => {
  it("answers code 0, Partially deleted 1 sessions with 1 errors, naming the duplicate; the session is deleted once", async () => {
    const server = await restServer();
    const agentId = await server.agent("a");
    const s = await server.session(agentId);
    const kept = await server.session(agentId);
    const answer = await server.call("DELETE", `/api/v1/agents/${agentId}/sessions`, { ids: [s, s] });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ code: 0, message: "Partially deleted 1 sessions with 1 errors", data: { success_count: 1, errors: [`Duplicate session ids: ${s}`] } });
    const left = (await server.call("GET", `/api/v1/agents/${agentId}/sessions`)).json.data.map((x: { id: string }) => x.id);
    expect(left).toEqual([kept]);
    // Sessions that are not the agent's are what is reported, as in RAGFlow; duplicates only when there are none.
    const mixed = await server.call("DELETE", `/api/v1/agents/${agentId}/sessions`, { ids: [kept, kept, "invalid_id"] });
    expect(mixed.json).toEqual({ code: 0, message: "Partially deleted 1 sessions with 1 errors", data: { success_count: 1, errors: ["The agent doesn't own the session invalid_id"] } });
  });
});

describe("updating an agent (update_agent)", () => {
  it("a successful PUT answers data: {update_time}, the agent's new update time", async () => {
    const server = await restServer();
    const id = await server.agent("a");
    const before = (await server.call("GET", `/api/v1/agents/${id}`)).json.data.update_time as number;
    const answer = await server.call("PUT", `/api/v1/agents/${id}`, { title: "restful_agent_crud_updated", dsl: hello() });
    const after = (await server.call("GET", `/api/v1/agents/${id}`)).json.data;
    expect(after.title).toBe("restful_agent_crud_updated");
    expect(answer.json).toEqual({ code: 0, message: "success", data: { update_time: after.update_time } });
    expect(after.update_time).toBeGreaterThanOrEqual(before);
  });
});

describe("the native completions route in OpenAI mode (test_agent_openai_compatible_mode)", () => {
  it("empty messages: HTTP 200, code 102; then a completion and a stream; /agents_openai/{id} keeps HTTP 400 with OpenAI's error", async () => {
    const server = await restServer();
    const agentId = await server.agent("restful_agent_openai_compat");
    const missing = await server.call("POST", "/api/v1/agents/chat/completions", { agent_id: agentId, "openai-compatible": true, model: "model", messages: [] });
    expect(missing.status).toBe(200);
    expect(missing.json).toEqual({ code: 102, message: "You must provide at least one message.", data: false });
    const nonstream = await server.call("POST", "/api/v1/agents/chat/completions", { agent_id: agentId, "openai-compatible": true, model: "model", messages: [{ role: "user", content: "hello" }], stream: false });
    expect(nonstream.status).toBe(200);
    expect(nonstream.json.object).toBe("chat.completion");
    expect(nonstream.json.choices).toBeDefined();
    const stream = await server.raw("POST", "/api/v1/agents/chat/completions", { agent_id: agentId, "openai-compatible": true, model: "model", messages: [{ role: "user", content: "hello" }], stream: true });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers["content-type"]).toContain("text/event-stream");
    expect(stream.body.endsWith("data: [DONE]\n\n")).toBe(true);
    const openAi = await server.call("POST", `/api/v1/agents_openai/${agentId}/chat/completions`, { model: "model", messages: [] });
    expect(openAi.status).toBe(400);
    expect(openAi.json).toEqual({ code: 102, message: "You must provide at least one message.", data: false, error: { message: "You must provide at least one message.", type: "invalid_request_error", code: 102 } });
  });
});

/** RAGFlow's test_agents_go_mode.py V2_DSL: an editor graph and components, with v0.19's Answer. */
function v2Dsl(): Record<string, unknown> {
  return {
    graph: {
      nodes: [
        { id: "begin", type: "beginNode", position: { x: 50, y: 200 }, data: { label: "Begin", name: "begin" } },
        { id: "answer:0", type: "messageNode", position: { x: 400, y: 200 }, data: { label: "Answer", name: "answer" } },
      ],
      edges: [{ id: "xy-edge__begin-answer:0", source: "begin", target: "answer:0", sourceHandle: "end", targetHandle: "start" }],
    },
    components: {
      begin: { obj: { component_name: "Begin", params: {} }, downstream: ["answer:0"], upstream: [] },
      "answer:0": { obj: { component_name: "Answer", params: {} }, downstream: [], upstream: ["begin"] },
    },
    retrieval: [],
    history: [],
    path: [],
    variables: [],
    globals: { "sys.query": "" },
  };
}

interface GraphNode {
  id: string;
  position: { x: number; y: number };
}

describe("a DSL with a legacy component (test_v2_dsl_round_trip_position_preserved)", () => {
  it("POST and PUT migrate it on write, keep the component positions, and say so in data.migration", async () => {
    const server = await restServer();
    const created = await server.call("POST", "/api/v1/agents", { title: "go_v2_e2e", dsl: v2Dsl() });
    expect(created.json.code, JSON.stringify(created.json)).toBe(0);
    const id = created.json.data.id as string;
    expect(created.json.data.migration.applied).toEqual(["003-legacy-v019"]);
    expect(created.json.data.migration.notes).toContainEqual(expect.objectContaining({ step: "003-legacy-v019", component_id: "answer:0", component_type: "Answer" }));

    const stored = (await server.call("GET", `/api/v1/agents/${id}`)).json.data;
    expect(stored.migration).toBeUndefined();
    expect(Object.keys(stored.dsl)).toEqual(expect.arrayContaining(["graph", "components"]));
    expect(stored.dsl._layout).toBeUndefined();
    const components = Object.values(stored.dsl.components) as Array<{ obj: { component_name: string } }>;
    expect(components.map((c) => c.obj.component_name)).not.toContain("Answer");
    expect((stored.dsl.graph.nodes as GraphNode[]).find((n) => n.id === "begin")!.position).toEqual({ x: 50, y: 200 });

    // The same legacy DSL with Begin moved, as the test PUTs it.
    const moved = v2Dsl();
    const graph = moved.graph as { nodes: GraphNode[] };
    graph.nodes = graph.nodes.map((n) => (n.id === "begin" ? { ...n, position: { x: 777, y: 888 } } : n));
    const updated = await server.call("PUT", `/api/v1/agents/${id}`, { title: "go_v2_e2e", dsl: moved });
    expect(updated.json.code, JSON.stringify(updated.json)).toBe(0);
    expect(updated.json.data.migration.applied).toEqual(["003-legacy-v019"]);
    expect(typeof updated.json.data.update_time).toBe("number");
    const after = (await server.call("GET", `/api/v1/agents/${id}`)).json.data.dsl;
    expect((after.graph.nodes as GraphNode[]).find((n) => n.id === "begin")!.position).toEqual({ x: 777, y: 888 });

    // A DSL already current is stored as sent, and the answer has no migration.
    const again = await server.call("PUT", `/api/v1/agents/${id}`, { dsl: after });
    expect(again.json.data).toEqual({ update_time: expect.any(Number) });
    // The migrated agent runs.
    const turn = await server.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "hello" });
    expect(turn.json.code, JSON.stringify(turn.json)).toBe(0);
  });

  it("a legacy component that cannot be converted is refused with 101 naming it after the migration; nothing is stored", async () => {
    const server = await restServer();
    const dsl = v2Dsl();
    const components = dsl.components as Record<string, unknown>;
    components.begin = { obj: { component_name: "Begin", params: {} }, downstream: ["jin10:0"], upstream: [] };
    components["jin10:0"] = { obj: { component_name: "Jin10", params: {} }, downstream: ["answer:0"], upstream: ["begin"] };
    components["answer:0"] = { obj: { component_name: "Answer", params: {} }, downstream: [], upstream: ["jin10:0"] };
    const answer = await server.call("POST", "/api/v1/agents", { title: "jin", dsl });
    expect(answer.json.code).toBe(101);
    expect(answer.json.message).toMatch(/^The DSL is not a valid agent canvas after its migration \(003-legacy-v019\) \(1 error\): \/dsl\/components\/jin10:0\/.*"Jin10" could not be migrated/);
    expect(answer.json.data.migration.applied).toEqual(["003-legacy-v019"]);
    expect((await server.call("GET", "/api/v1/agents")).json.data.total).toBe(0);
  });
});
