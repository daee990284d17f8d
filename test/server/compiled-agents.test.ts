/**
 * Agents compiled once per version (src/server/compiled-agents.ts): sessions of one agent share
 * its compiled DSL, an update is seen by the next new session, an invalid DSL is refused (never
 * cached), and the cache keeps at most its capacity.
 */
import { describe, expect, it } from "vitest";
import { CanvasValidationError, defaultRegistry } from "../../src/api.js";
import { CompiledAgents } from "../../src/server/compiled-agents.js";
import type { AgentRecord } from "../../src/backends/contracts.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { call, createAgent, injectTestServer } from "../helpers/server.js";

const echo = (text: string) => canvasDsl({ begin: node("Begin", { mode: "conversational", prologue: "" }, ["Message:M"]), "Message:M": node("Message", { content: [`${text} {sys.query}`] }) });

function agent(dsl: unknown, id = "a".repeat(32)): AgentRecord {
  return { id, tenant: "t1", title: "t", description: "", dsl: dsl as AgentRecord["dsl"], canvas_type: "", avatar: null, create_time: 1, update_time: 1 };
}

describe("CompiledAgents", () => {
  it("gives one compiled canvas per DSL content, another after a change", async () => {
    const cache = new CompiledAgents(defaultRegistry);
    const first = await cache.get(agent(echo("A")));
    // Another copy of the same DSL (as a store hands out on every read): the same entry.
    expect(await cache.get(agent(structuredClone(echo("A"))))).toBe(first);
    const changed = await cache.get(agent(echo("B")));
    expect(changed).not.toBe(first);
    expect(JSON.stringify(changed.dsl)).toContain("B {sys.query}");
    expect(cache.size).toBe(2);
  });

  it("refuses an invalid DSL with its report, and does not keep it", async () => {
    const cache = new CompiledAgents(defaultRegistry);
    const bad = canvasDsl({ begin: node("Begin", {}, ["Nowhere:1"]) });
    await expect(cache.get(agent(bad))).rejects.toBeInstanceOf(CanvasValidationError);
    expect(cache.size).toBe(0);
  });

  it("keeps the most recently used versions up to its capacity", async () => {
    const cache = new CompiledAgents(defaultRegistry, { maxEntries: 2 });
    const a = await cache.get(agent(echo("A")));
    await cache.get(agent(echo("B")));
    expect(await cache.get(agent(echo("A")))).toBe(a); // A is now the most recent
    await cache.get(agent(echo("C"))); // B goes
    expect(cache.size).toBe(2);
    expect(await cache.get(agent(echo("A")))).toBe(a);
  });

  it("keeps at most maxBytes of DSL: older versions go first, a larger DSL is compiled each time", async () => {
    const bytes = Buffer.byteLength(JSON.stringify(echo("A")));
    const cache = new CompiledAgents(defaultRegistry, { maxBytes: 2 * bytes + 1 });
    const a = await cache.get(agent(echo("A")));
    await cache.get(agent(echo("B")));
    expect(cache.size).toBe(2);
    await cache.get(agent(echo("C"))); // A goes: three would be over the bytes
    expect(cache.size).toBe(2);
    expect(await cache.get(agent(echo("A")))).not.toBe(a);
    const big = echo("x".repeat(3 * bytes));
    const first = await cache.get(agent(big));
    expect(await cache.get(agent(big))).not.toBe(first);
    expect(cache.size).toBe(2);
  });
});

describe("new sessions of an updated agent", () => {
  it("run the agent's new DSL from the next turn on, and sessions do not share state", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, echo("old"));
    const ask = async (query: string) => (await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query, stream: false } })).json;
    const one = await ask("one");
    const two = await ask("two");
    expect([one.data.data.content, two.data.data.content]).toEqual(["old one", "old two"]);
    expect(one.data.session_id).not.toBe(two.data.session_id);
    expect((await call(server, `/api/v1/agents/${agentId}`, { method: "PUT", body: { dsl: echo("new") } })).json.code).toBe(0);
    expect((await ask("three")).data.data.content).toBe("new three");
    // A second turn of an old session sees only its own first turn.
    const again = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: one.data.session_id, query: "four", stream: false } });
    expect(again.json.code).toBe(0);
    const record = await server.store.sessions.get("t1", one.data.session_id);
    expect(record?.message.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["one", "four"]);
  });
});
