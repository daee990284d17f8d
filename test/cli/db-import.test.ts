/**
 * `canvasflow db import --data-folder DIR`: the data folder of the release before SQLite
 * (test/fixtures/data-folder, made by that release) copied into a database, whose server then
 * authenticates the old keys, lists the old agents and continues the old sessions; run again, it
 * finds everything there already; a record the database holds with other content refuses the
 * whole import before anything is written.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteMemoryStore } from "../../src/backends/sqlite/memories.js";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import { createServer } from "../../src/server/app.js";
import { cli } from "../helpers/cli.js";
import { scratchDir } from "../helpers/scratch.js";

const FIXTURE = "test/fixtures/data-folder";
const KEYS = { acme: "cf--l4oquro4uV5FkdntId_4QhtciVmBCqaUKrjhJM2fXc", globex: "cf-1xl9WyumaK9NXAA41z7ngCBLLxB1WdR1j6L9d_EQNGs" };
const ACME_AGENT = "16612e9dd2af4619ba8c761ddfcd0290";
const SESSION = "749b824bef4440da82617208d2da0add";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A copy of the fixture (the import only reads, but a test never touches what is checked in). */
function dataFolder(): string {
  const dir = join(scratchDir("cf-db-import-").dir, "data");
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

const count = (file: string, table: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("canvasflow db import --data-folder DIR", () => {
  it("copies keys, agents, sessions with their run state, uploads and memories; the server goes on from them", async () => {
    const dir = dataFolder();
    const run = await cli(["db", "import", "--data-folder", dir]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const file = join(dir, "canvasflow.db");
    expect(run.stdout).toBe(
      `imported the data folder ${dir} into ${file}:\n` +
        "  agents: 2 imported\n" +
        "  API keys: 2 imported\n" +
        "  session records: 2 imported\n" +
        "  sessions' run state: 2 imported\n" +
        "  uploads: 1 imported\n" +
        "  memories: 1 imported (2 messages)\n" +
        `start the server with: canvasflow serve --data ${dir}\n`,
    );

    const store = new SqliteServerStore({ file });
    const memories = new SqliteMemoryStore({ file });
    const app = createServer({ store, canvas: { services: { memories } } });
    closers.push(async () => {
      await app.close();
      await memories.close();
      await store.close();
    });
    const as = (tenant: keyof typeof KEYS) => ({ authorization: `Bearer ${KEYS[tenant]}` });
    // The old keys authenticate; each tenant sees its own agent.
    const listed = await app.inject({ method: "GET", url: "/api/v1/agents", headers: as("acme") });
    expect(listed.json().data.canvas.map((a: { id: string; title: string }) => [a.id, a.title])).toEqual([[ACME_AGENT, "Greeter"]]);
    expect((await app.inject({ method: "GET", url: "/api/v1/agents", headers: as("globex") })).json().data.canvas).toHaveLength(1);
    // The old session goes on from its run state: a third turn, and its messages are all there.
    const turn = await app.inject({ method: "POST", url: "/api/v1/agents/chat/completions", headers: as("acme"), payload: { agent_id: ACME_AGENT, query: "Cy", session_id: SESSION } });
    expect(turn.json().data.data.content).toBe("Hello, Cy!");
    const session = await app.inject({ method: "GET", url: `/api/v1/agents/${ACME_AGENT}/sessions/${SESSION}`, headers: as("acme") });
    expect(session.json().data.message.map((m: { content: string }) => m.content)).toEqual(["Hi! Tell me your name.", "Ada", "Hello, Ada!", "Bob", "Hello, Bob!", "Cy", "Hello, Cy!"]);
    // The event log came along: a re-attach replays the old turns' events before the new one's.
    const events = await store.runs.events(SESSION);
    expect(events.filter((e) => e.event.event === "workflow_finished")).toHaveLength(3);
    // Memories keep their message ids and times.
    const source = readFileSync(join(FIXTURE, "memories/tenants/_acme/_support-notes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(await memories.messages({ tenant: "acme", id: "support-notes" })).toEqual(source);
    const upload = await store.uploads.get("acme", "0d9f2a52-9a52-4a7e-a3c1-6a1f7d7c1a01", Date.now());
    expect(upload?.data.toString()).toBe("hello");
    expect(upload?.record.name).toBe("notes.txt");
  });

  it("gives the messages of memories from before tenants to their sessions' tenants; those of unknown sessions stay, counted", async () => {
    const dir = dataFolder();
    const globexSession = "6992acd4e5844033ac81eaee11ca2920";
    const old = (n: number, session: string, content: string) => ({
      message_id: `${String(1_700_000_000_000 + n).padStart(15, "0")}-000001-abcdef`,
      memory_id: "support-notes",
      message_type: "raw",
      user_id: "",
      agent_id: "",
      session_id: session,
      content,
      valid_at: new Date(1_700_000_000_000 + n).toISOString(),
      source_key: `${session}:Message:M`,
    });
    const legacy = [old(1, SESSION, "acme: card 4111"), old(2, globexSession, "globex: order 77"), old(3, "f".repeat(32), "a deleted session's note")];
    writeFileSync(join(dir, "memories", "support-notes.jsonl"), legacy.map((m) => `${JSON.stringify(m)}\n`).join(""));
    const run = await cli(["db", "import", "--data-folder", dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("  memories: 2 imported (4 messages)\n");
    expect(run.stdout).toContain(`  1 message of memories from before tenants had no known session: left in ${join(dir, "memories")}, where no run reads them\n`);
    const memories = new SqliteMemoryStore({ file: join(dir, "canvasflow.db") });
    closers.push(() => memories.close());
    const acme = await memories.messages({ tenant: "acme", id: "support-notes" });
    expect(acme.map((m) => m.content)).toEqual(["acme: card 4111", "User Input: Ada\nAgent Response: Hello, Ada!", "User Input: Bob\nAgent Response: Hello, Bob!"]);
    expect((await memories.messages({ tenant: "globex", id: "support-notes" })).map((m) => m.content)).toEqual(["globex: order 77"]);
  });

  it("run again, finds everything there already and writes nothing", async () => {
    const dir = dataFolder();
    expect((await cli(["db", "import", "--data-folder", dir])).code).toBe(0);
    const again = await cli(["db", "import", "--data-folder", dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("  agents: 0 imported, 2 there already\n");
    expect(again.stdout).toContain("  sessions' run state: 0 imported, 2 there already\n");
    expect(again.stdout).toContain("  memories: 0 imported, 1 there already (0 messages)\n");
    expect(count(join(dir, "canvasflow.db"), "memory_messages")).toBe(2);
  });

  it("a record the database holds with other content refuses the whole import, naming it; nothing is written", async () => {
    const dir = dataFolder();
    const file = join(dir, "elsewhere.db");
    const store = new SqliteServerStore({ file });
    const agent = JSON.parse(readFileSync(join(FIXTURE, "agents", `${ACME_AGENT}.json`), "utf8"));
    await store.agents.create({ ...agent, title: "Changed since" });
    await store.close();

    const run = await cli(["db", "import", "--data-folder", dir, "--sqlite", file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`canvasflow: sqlite:${file} already holds 1 record the data folder has with other content; nothing was imported:\n  agent ${ACME_AGENT} ("Greeter", tenant "acme")\n`);
    for (const table of ["api_keys", "session_records", "sessions", "uploads", "memory_messages"]) expect(count(file, table), table).toBe(0);
    expect(count(file, "agents")).toBe(1);
  });

  it("names what is wrong with its flags and folders (exit 2), and a damaged record (exit 1)", async () => {
    expect(await cli(["db", "import"])).toMatchObject({ code: 2, stderr: expect.stringContaining("db import needs --data-folder DIR") });
    const empty = scratchDir("cf-db-import-empty-").dir;
    expect(await cli(["db", "import", "--data-folder", empty])).toMatchObject({ code: 2, stderr: expect.stringContaining(`--data-folder: ${empty} holds no data folder (no agents/, session-records/ or keys/ in it)`) });
    expect(await cli(["db", "import", "--data-folder", empty, "--redis", "redis://127.0.0.1"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--redis does not apply") });
    expect(readdirSync(empty)).toEqual([]);

    const dir = dataFolder();
    const agentFile = join(dir, "agents", `${ACME_AGENT}.json`);
    const text = readFileSync(agentFile, "utf8");
    writeFileSync(agentFile, text.slice(0, 40));
    const run = await cli(["db", "import", "--data-folder", dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`canvasflow: data folder ${dir}: agents/${ACME_AGENT}.json: the stored agent is not valid JSON`);
    // No database was left behind: serve --data DIR still refuses the folder instead of starting empty.
    expect(readdirSync(dir).filter((name) => name.includes(".db"))).toEqual([]);
    expect((await cli(["keys", "list", "--data", dir])).stderr).toContain("holds the data folder of an earlier canvasflow");
  });
});
