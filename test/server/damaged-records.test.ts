/**
 * One damaged record affects one thing (issue 24, item 14): an agent, session record or API key
 * whose row in the SQLite database was cut short or garbled (by hand, by a tool that wrote the
 * file) is skipped by every list and every title check, told to its owner only (`damaged` beside
 * `data`, no path), and written to the server's log with where it is. Two tenants through inject().
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/server/store/api-keys.js";
import { createServer } from "../../src/server/app.js";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";

const opened: Array<{ app: FastifyInstance; store: SqliteServerStore }> = [];
afterEach(async () => {
  for (const { app, store } of opened.splice(0)) {
    await app.close();
    await store.close();
  }
});

const DSL = canvasDsl({ begin: node("Begin", {}, ["Message:Hi"]), "Message:Hi": node("Message", { content: ["hi"] }, [], { upstream: ["begin"] }) });

const databaseOf = (dir: string) => join(dir, "canvasflow.db");

async function server(dir: string) {
  const lines: string[] = [];
  const store = new SqliteServerStore({ file: databaseOf(dir) });
  const keys = { t1: (await createApiKey(store, { tenant: "t1", name: "one" })).key, t2: (await createApiKey(store, { tenant: "t2", name: "two" })).key };
  const app = createServer({ store, logger: { level: "warn", stream: { write: (chunk: string) => lines.push(chunk) } } });
  await app.ready();
  opened.push({ app, store });
  const call = async (tenant: "t1" | "t2", method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: object) => {
    const answer = await app.inject({ method, url, headers: { authorization: `Bearer ${keys[tenant]}` }, ...(body ? { payload: body } : {}) });
    return { status: answer.statusCode, text: answer.body, json: answer.json() };
  };
  return { store, keys, call, log: () => lines.join("") };
}

/** Change rows behind the store's back (another connection, as a tool or a hand would). */
function damage(dir: string, sql: string, ...params: unknown[]): void {
  const db = new Database(databaseOf(dir));
  try {
    expect(db.prepare(sql).run(...params).changes).toBe(1);
  } finally {
    db.close();
  }
}

describe("damaged records in the database", () => {
  it("a truncated agent of one tenant: lists and creates work for both, only its owner is told, the log says where", async () => {
    const { dir } = scratchDir("cf-damaged-agent-");
    const s = await server(dir);
    const a1 = (await s.call("t1", "POST", "/api/v1/agents", { title: "A1", dsl: DSL })).json.data.id as string;
    const a2 = (await s.call("t1", "POST", "/api/v1/agents", { title: "A2", dsl: DSL })).json.data.id as string;
    const b1 = (await s.call("t2", "POST", "/api/v1/agents", { title: "B1", dsl: DSL })).json.data.id as string;
    damage(dir, "UPDATE agents SET dsl = substr(dsl, 1, length(dsl) / 2) WHERE id = ?", a1);

    const other = await s.call("t2", "GET", "/api/v1/agents");
    expect(other.json).toMatchObject({ code: 0, data: { total: 1, canvas: [{ id: b1 }] } });
    expect(other.json.damaged).toBeUndefined();
    expect(other.text).not.toContain(a1);
    expect(other.text).not.toContain(dir);

    const owner = await s.call("t1", "GET", "/api/v1/agents");
    expect(owner.json).toMatchObject({ code: 0, data: { total: 1, canvas: [{ id: a2 }] } });
    expect(owner.json.damaged).toEqual([{ kind: "agent", id: a1, problem: expect.stringMatching(/^its dsl column is not valid JSON/) }]);
    expect(owner.text).not.toContain(dir);
    // RAGFlow's list form: data is the array, the report beside it.
    expect((await s.call("t1", "GET", "/api/v1/agents?format=list")).json).toMatchObject({ code: 0, data: [{ id: a2 }], damaged: [{ id: a1 }] });

    // New agents, of either tenant, whatever the damaged file's title was.
    expect((await s.call("t2", "POST", "/api/v1/agents", { title: "B2", dsl: DSL })).json.code).toBe(0);
    expect((await s.call("t1", "POST", "/api/v1/agents", { title: "A3", dsl: DSL })).json.code).toBe(0);

    // The agent itself: another tenant finds nothing (RAGFlow's answer); its owner is told it is damaged.
    const foreign = await s.call("t2", "GET", `/api/v1/agents/${a1}`);
    expect(foreign.json).toMatchObject({ code: 102, message: "canvas not found." });
    expect(foreign.text).not.toContain(dir);
    const own = await s.call("t1", "GET", `/api/v1/agents/${a1}`);
    expect(own.json.code).toBe(100);
    expect(own.json.message).toMatch(new RegExp(`^agent ${a1} is damaged in the store: its dsl column is not valid JSON`));
    expect(own.text).not.toContain(dir);

    expect(s.log()).toContain(`a damaged stored record was skipped: SQLite database ${databaseOf(dir)}: table agents, row id \\"${a1}\\": its dsl column is not valid JSON`);
  });

  it("a damaged session record: its agent's other sessions still list, its owner is told", async () => {
    const { dir } = scratchDir("cf-damaged-session-");
    const s = await server(dir);
    const agent = (await s.call("t2", "POST", "/api/v1/agents", { title: "B", dsl: DSL })).json.data.id as string;
    const first = (await s.call("t2", "POST", `/api/v1/agents/${agent}/sessions`, {})).json.data.id as string;
    const second = (await s.call("t2", "POST", `/api/v1/agents/${agent}/sessions`, {})).json.data.id as string;
    damage(dir, "UPDATE session_records SET message = substr(message, 1, length(message) / 2) WHERE id = ?", first);

    const listed = await s.call("t2", "GET", `/api/v1/agents/${agent}/sessions`);
    expect(listed.json).toMatchObject({ code: 0, total: 1, data: [{ id: second }] });
    expect(listed.json.damaged).toEqual([{ kind: "session record", id: first, problem: expect.stringMatching(/^its message column is not valid JSON/) }]);
    expect(listed.text).not.toContain(dir);
    // Another tenant's lists never mention it.
    const theirs = (await s.call("t1", "POST", "/api/v1/agents", { title: "A", dsl: DSL })).json.data.id as string;
    const foreign = await s.call("t1", "GET", `/api/v1/agents/${theirs}/sessions`);
    expect(foreign.json).toEqual({ code: 0, message: "success", data: [], total: 0 });
    expect(s.log()).toContain(`table session_records, row id \\"${first}\\": its message column is not valid JSON`);
  });

  it("a damaged API key: the server starts, the other keys work, that key opens nothing", async () => {
    const { dir } = scratchDir("cf-damaged-key-");
    const first = await server(dir);
    const t1Key = (await first.store.keys.list("t1"))[0].id;
    await first.store.close();
    damage(dir, "UPDATE api_keys SET create_time = 'yesterday' WHERE id = ?", t1Key);

    const lines: string[] = [];
    const store = new SqliteServerStore({ file: databaseOf(dir) });
    expect((await store.keys.list()).map((key) => key.tenant)).toEqual(["t2"]);
    const app = createServer({ store, logger: { level: "warn", stream: { write: (chunk: string) => lines.push(chunk) } } });
    await app.ready();
    opened.push({ app, store });
    expect((await app.inject({ method: "GET", url: "/api/v1/agents", headers: { authorization: `Bearer ${first.keys.t2}` } })).json().code).toBe(0);
    const refused = await app.inject({ method: "GET", url: "/api/v1/agents", headers: { authorization: `Bearer ${first.keys.t1}` } });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).not.toContain(dir);
    expect(lines.join("")).toContain(`table api_keys, row id \\"${t1Key}\\": the stored API key is damaged: create_time must be a time in epoch milliseconds`);
  });
});
