/**
 * Tenant isolation: every agent and session is checked against the key's tenant. Another
 * tenant's agents do not exist for a tenant (102); another tenant's session is code 103, as in
 * RAGFlow; its runs cannot be cancelled and its sessions cannot be deleted.
 */
import { describe, expect, it } from "vitest";
import { addKey, call, createAgent, injectTestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

describe("tenants", () => {
  it("see only their own agents and sessions", async () => {
    const server = await injectTestServer();
    const other = await addKey(server.store, "t2");
    const mine = await createAgent(server, hello(), "Mine");
    const theirs = await createAgent(server, hello(), "Mine", other);
    expect(theirs).not.toBe(mine);

    const listMine = await call(server, "/api/v1/agents");
    expect(listMine.json.data.canvas.map((a: { id: string }) => a.id)).toEqual([mine]);
    expect(listMine.json.data.canvas[0].user_id).toBe("t1");
    expect((await call(server, `/api/v1/agents/${theirs}`)).json).toMatchObject({ code: 102 });
    expect((await call(server, `/api/v1/agents/${theirs}`, { method: "PUT", body: { title: "stolen" } })).json).toMatchObject({ code: 103 });
    expect((await call(server, `/api/v1/agents/${theirs}`, { method: "DELETE" })).json).toMatchObject({ code: 103 });
    expect((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: theirs, query: "hi" } })).json).toMatchObject({ code: 103, message: "Make sure you have permission to access the agent." });

    const theirTurn = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: theirs, query: "Eve" }, key: other });
    const theirSession = theirTurn.json.data.session_id;
    // Their session, through my own agent: 103.
    const answer = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: mine, query: "hi", session_id: theirSession } });
    expect(answer.json).toMatchObject({ code: 103, message: "Only authorized users can access this agent session." });
    expect((await call(server, `/api/v1/agents/${mine}/sessions/${theirSession}`)).json).toMatchObject({ code: 102, message: "Session not found!" });
    // Cancelling their task answers as an unknown task does (RAGFlow: code 0, data true) and cancels nothing.
    expect((await call(server, `/api/v1/tasks/${theirSession}/cancel`, { method: "POST" })).json).toEqual({ code: 0, message: "success", data: true });
    const deleting = await call(server, `/api/v1/agents/${mine}/sessions`, { method: "DELETE", body: { ids: [theirSession] } });
    expect(deleting.json).toMatchObject({ code: 102, message: `The agent doesn't own the session ${theirSession}` });
    expect(await server.store.sessions.get("t2", theirSession)).toBeDefined();
    expect(await server.store.cancel.isRequested(theirSession)).toBe(false);

    // Their session goes on for them.
    const next = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: theirs, query: "Eve", session_id: theirSession }, key: other });
    expect(next.json.data.data.content).toBe("Hello, Eve! This is turn 2.");
  });
});
