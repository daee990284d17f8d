/**
 * The agent and session endpoints as RAGFlow's clients call them (research/ragflow-api.md §2.1,
 * §2.2): shapes, paging, the Python SDK's `desc=True`, and what deleting takes with it.
 */
import { describe, expect, it } from "vitest";
import { call, createAgent, injectTestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

describe("agents", () => {
  it("create, get, list, update and delete, in RAGFlow's shapes", async () => {
    const server = await injectTestServer();
    const created = await call(server, "/api/v1/agents", { body: { title: " Echo ", description: "demo", dsl: JSON.stringify(hello()) } });
    expect(created.json.code).toBe(0);
    const agent = created.json.data;
    expect(agent).toMatchObject({ title: "Echo", description: "demo", canvas_type: "", canvas_category: "agent_canvas", avatar: null, user_id: "t1" });
    expect(agent.id).toMatch(/^[0-9a-f]{32}$/);
    expect(agent.dsl.components.begin).toBeDefined();

    expect((await call(server, `/api/v1/agents/${agent.id}`)).json).toEqual({ code: 0, message: "success", data: agent });
    const listed = await call(server, "/api/v1/agents?page=1&page_size=30&orderby=update_time&desc=True&keywords=ech");
    expect(listed.json).toEqual({ code: 0, message: "success", data: { canvas: [agent], total: 1 } });
    // RAGFlow v0.24's list shape, for old scripts.
    expect((await call(server, "/api/v1/agents?format=list")).json.data).toEqual([agent]);

    const updated = await call(server, `/api/v1/agents/${agent.id}`, { method: "PUT", body: { title: "Echo2", description: null } });
    const after = (await call(server, `/api/v1/agents/${agent.id}`)).json.data;
    expect(updated.json).toEqual({ code: 0, message: "success", data: { update_time: after.update_time } });
    expect(after).toMatchObject({ title: "Echo2", description: "demo" });
    expect(after.update_time).toBeGreaterThanOrEqual(agent.update_time);

    const session = (await call(server, `/api/v1/agents/${agent.id}/sessions`, { body: {} })).json.data;
    expect((await call(server, `/api/v1/agents/${agent.id}`, { method: "DELETE" })).json).toEqual({ code: 0, message: "success", data: true });
    expect((await call(server, `/api/v1/agents/${agent.id}`)).json.code).toBe(102);
    // Its sessions went with it, run state included.
    expect(await server.store.sessions.get("t1", session.id)).toBeUndefined();
    expect(await server.store.runs.load(session.id)).toBeUndefined();
  });

  it("pages through agents newest first by default", async () => {
    const server = await injectTestServer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await createAgent(server, hello(), `a${i}`));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const page = async (query: string) => (await call(server, `/api/v1/agents?${query}`)).json.data;
    expect((await page("page=1&page_size=2")).canvas.map((a: { id: string }) => a.id)).toEqual([ids[4], ids[3]]);
    expect((await page("page=3&page_size=2")).canvas.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect((await page("page=1&page_size=2&desc=false")).canvas.map((a: { id: string }) => a.id)).toEqual([ids[0], ids[1]]);
    expect((await page("page=1&page_size=2")).total).toBe(5);
    expect((await page("title=A3")).canvas.map((a: { id: string }) => a.id)).toEqual([ids[3]]);
  });
});

describe("sessions", () => {
  it("create answers with agent_id, the prologue and the DSL; list, get and delete", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, hello());
    const created = await call(server, `/api/v1/agents/${agentId}/sessions?user_id=u-query`, { body: { name: "first" } });
    expect(created.json.code).toBe(0);
    const session = created.json.data;
    expect(session).toMatchObject({
      agent_id: agentId,
      name: "first",
      user_id: "u-query",
      exp_user_id: "u-query",
      source: "agent",
      message: [{ role: "assistant", content: "Hi! Tell me your name and I will greet you." }],
      version_title: null,
    });
    expect(session.id).toMatch(/^[0-9a-f]{32}$/);
    expect(session.dsl.components.begin).toBeDefined();
    // Its task id is its id.
    expect(session.dsl.task_id).toBe(session.id);
    expect(session.tenant).toBeUndefined();

    const turn = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: session.id, query: "Ada" } });
    expect(turn.json.data.task_id).toBe(session.id);

    const listed = await call(server, `/api/v1/agents/${agentId}/sessions?page=1&page_size=30&desc=True`);
    expect(listed.json).toMatchObject({ code: 0, message: "success", total: 1 });
    expect(listed.json.data[0].message.map((m: { content: string }) => m.content)).toEqual(["Hi! Tell me your name and I will greet you.", "Ada", "Hello, Ada! This is turn 1."]);
    expect(listed.json.data[0].dsl).toBeUndefined();
    expect((await call(server, `/api/v1/agents/${agentId}/sessions?dsl=true`)).json.data[0].dsl.components).toBeDefined();
    const one = await call(server, `/api/v1/agents/${agentId}/sessions/${session.id}`);
    expect(one.json.data).toMatchObject({ id: session.id, agent_id: agentId });
    expect(one.json.data.dsl.components).toBeDefined();

    expect((await call(server, `/api/v1/agents/${agentId}/sessions/${session.id}`, { method: "DELETE" })).json).toEqual({ code: 0, message: "success", data: true });
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.total).toBe(0);
    expect(await server.store.runs.load(session.id)).toBeUndefined();
  });

  it("bulk delete: ids, partial failures, delete_all, and nothing without either", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, hello());
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} })).json.data.id);
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`, { method: "DELETE", body: {} })).json).toEqual({ code: 0 });
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.total).toBe(3);
    const partial = await call(server, `/api/v1/agents/${agentId}/sessions`, { method: "DELETE", body: { ids: [ids[0], "nope"] } });
    expect(partial.json).toEqual({ code: 0, message: "Partially deleted 1 sessions with 1 errors", data: { success_count: 1, errors: ["The agent doesn't own the session nope"] } });
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`, { method: "DELETE", body: { delete_all: true } })).json).toEqual({ code: 0 });
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.total).toBe(0);
    for (const id of ids) expect(await server.store.runs.load(id)).toBeUndefined();
  });
});
