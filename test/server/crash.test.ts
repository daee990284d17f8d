/**
 * The server's crash test (issue 24's acceptance), on each store (SQLite, the default since issue
 * 26; Redis; PostgreSQL): `canvasflow serve` as a child process of the built CLI runs 50 streaming turns at
 * once, one per session, each an LLM on the mock streaming slowly into a Message that starts with
 * its question; the server is killed with SIGKILL while they stream, started again on the same
 * store, and every session gets a new turn. Then:
 * - every turn whose client got workflow_finished (or message_end, where RAGFlow's SDK stops
 *   reading) is in its session's messages, under its question and message id, with the text the
 *   client got, not marked interrupted;
 * - every new turn answers its own question (never the dead turn's), and no session is refused;
 * - in every session's messages each reply answers the question before it, or is an interrupted
 *   turn's partial reply (what it had produced, possibly nothing);
 * - the SQLite database passes `PRAGMA integrity_check` right after the kill and at the end.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { connectTestPostgres, dropSchema, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";
import { SERVING } from "../helpers/serve-banner.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = any;

const SESSIONS = 50;
const folder = scratchDir("cf-server-crash-");
// One client sends every turn: the rate limits are off.
const config = folder.write("config.json", { server: { rateLimits: { completionsPerMinute: 0, requestsPerMinute: 0, runsPerKey: 0, runsPerServer: 0 } } });
// About 30 chunks 20 ms apart: a turn streams for about 0.6 s.
const REPLY = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
const script = folder.write("mock.json", { rules: [{ match: ".*", reply: REPLY, chunk_delay_ms: 20 }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children: CliProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
});

const canvas = canvasDsl({
  begin: node("Begin", { mode: "conversational", prologue: "Ask." }, ["LLM:Say"]),
  "LLM:Say": node("LLM", { llm_id: "mock", sys_prompt: "Say it.", prompts: [{ role: "user", content: "{sys.query}" }] }, ["Message:Out"]),
  "Message:Out": node("Message", { content: ["{sys.query} => {LLM:Say@content}"] }),
});

interface Server {
  proc: CliProcess;
  base: string;
}

async function startServer(storeArgs: string[]): Promise<Server> {
  const proc = spawnCli(["serve", "--port", "0", ...storeArgs, "--config", config, "--mock-llm", "--mock-llm-script", script, "--grace", "0", "--log-level", "warn"]);
  children.push(proc);
  for (let i = 0; i < 1500; i++) {
    const base = SERVING.exec(proc.stderr())?.[1];
    if (base) return { proc, base };
    if (proc.child.exitCode !== null) throw new Error(`serve exited (${proc.child.exitCode}): ${proc.stderr()}`);
    await sleep(20);
  }
  throw new Error(`serve did not start: ${proc.stderr()}`);
}

async function post(server: Server, path: string, body: unknown): Promise<Event> {
  const answer = await fetch(`${server.base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return answer.json();
}

/** A streaming turn read as far as it goes: the events the client got before the connection ended. */
async function streamTurn(server: Server, agentId: string, sessionId: string, query: string, onEvent: (event: Event) => void = () => undefined): Promise<Event[]> {
  const events: Event[] = [];
  try {
    const response = await fetch(`${server.base}/api/v1/agents/${agentId}/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_id: sessionId, query, stream: true }),
    });
    if (!response.headers.get("content-type")?.includes("text/event-stream")) return [{ refused: await response.json() }];
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.startsWith("data:") ? frame.slice(5) : "";
        if (data !== "" && data !== "[DONE]") {
          events.push(JSON.parse(data));
          onEvent(events.at(-1));
        }
      }
    }
  } catch {
    // The server was killed: what came before is what the client got.
  }
  return events;
}

const textOf = (events: Event[]) => events.filter((e) => e.event === "message").map((e) => String(e.data.content)).join("");
const got = (events: Event[], name: string) => events.some((e) => e.event === name);

interface Backend {
  name: string;
  args: string[];
  /** What is wrong with what the store holds on disk (nothing: sound). */
  problems?(): string[];
  cleanup(): Promise<void>;
}

const database = join(folder.dir, "canvasflow.db");

/** integrity_check on the database, read by a connection of this test's own. */
function integrityProblems(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const lines = (db.pragma("integrity_check") as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
    return lines.length === 1 && lines[0] === "ok" ? [] : lines;
  } finally {
    db.close();
  }
}

const redisPrefix = uniqueTestPrefix();
const pgSchema = uniqueTestSchema();
const backends: Backend[] = [
  { name: "SQLite", args: ["--sqlite", database], problems: () => integrityProblems(database), cleanup: async () => undefined },
  {
    name: "Redis",
    args: ["--redis", TEST_REDIS_URL, "--redis-prefix", redisPrefix],
    cleanup: async () => {
      const admin = await connectTestRedis();
      await deleteKeys(admin, redisPrefix);
      admin.disconnect();
    },
  },
  {
    name: "PostgreSQL",
    args: ["--postgres", TEST_POSTGRES_URL, "--schema", pgSchema],
    cleanup: async () => {
      const client = await connectTestPostgres();
      await dropSchema(client, pgSchema);
      await client.end();
    },
  },
];

describe.each(backends)("kill -9 under $name with 50 streaming turns, then a new turn on every session", (backend) => {
  afterAll(() => backend.cleanup(), 30_000);

  it("keeps every turn that reached workflow_finished, and every next turn answers its own question", async () => {
    const first = await startServer(backend.args);
    const created = await post(first, "/api/v1/agents", { title: `crash ${backend.name}`, dsl: canvas });
    expect(created.code, JSON.stringify(created)).toBe(0);
    const agentId = created.data.id as string;
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) sessions.push((await post(first, `/api/v1/agents/${agentId}/sessions`, { name: `s${i}` })).data.id);

    // The turns start over 1 s; the kill comes once a fifth of them have ended, while others stream.
    let ended = 0;
    let kill: () => void = () => undefined;
    const killed = new Promise<void>((resolve) => (kill = resolve));
    const onEvent = (event: Event) => {
      if (event.event === "workflow_finished" && ++ended === SESSIONS / 5) kill();
    };
    const turns = sessions.map((id, i) => sleep(Math.floor((i / SESSIONS) * 1000)).then(() => streamTurn(first, agentId, id, `q1-${i}`, onEvent)));
    await Promise.race([killed, sleep(20_000)]);
    first.proc.child.kill("SIGKILL");
    expect((await first.proc.exited).signal).toBe("SIGKILL");
    if (backend.problems) expect(backend.problems(), "integrity_check right after the kill").toEqual([]);
    const before = await Promise.all(turns);
    const finished = before.filter((events) => got(events, "workflow_finished")).length;
    const cut = before.filter((events) => got(events, "workflow_started") && !got(events, "workflow_finished")).length;

    const second = await startServer(backend.args);
    const after = await Promise.all(sessions.map((id, i) => streamTurn(second, agentId, id, `q2-${i}`)));
    let interrupted = 0;
    for (let i = 0; i < SESSIONS; i++) {
      const next = after[i];
      expect(next[0]?.refused, `session ${i}: ${JSON.stringify(next[0]?.refused)}`).toBeUndefined();
      const end = next.find((e) => e.event === "workflow_finished");
      expect(end?.data.error, `session ${i}'s new turn`).toBeUndefined();
      expect(got(next, "workflow_resumed")).toBe(false);
      expect(textOf(next)).toBe(`q2-${i} => ${REPLY}`);

      const view: Event = await (await fetch(`${second.base}/api/v1/agents/${agentId}/sessions/${sessions[i]}`)).json();
      expect(view.code, JSON.stringify(view)).toBe(0);
      const messages = view.data.message as Array<{ role: string; content: string; id?: string; interrupted?: boolean }>;
      // Each reply answers the question before it (an interrupted one, with what it had produced).
      for (let m = 1; m < messages.length; m += 2) {
        expect(messages[m].role, `session ${i}, message ${m}`).toBe("user");
        expect(messages[m + 1].role).toBe("assistant");
        expect(messages[m + 1].id).toBe(messages[m].id);
        if (messages[m + 1].interrupted) expect([`${messages[m].content} => ${REPLY}`, ""]).toContain(messages[m + 1].content);
        else expect(messages[m + 1].content).toBe(`${messages[m].content} => ${REPLY}`);
      }
      interrupted += messages.filter((m) => m.interrupted).length;
      const earlier = before[i];
      if (got(earlier, "message_end") || got(earlier, "workflow_finished")) {
        const id = earlier[0].message_id;
        const question = messages.findIndex((m) => m.role === "user" && m.id === id);
        expect(question, `session ${i}: the turn whose client got its end is in the messages`).toBeGreaterThan(0);
        expect(messages[question].content).toBe(`q1-${i}`);
        expect(messages[question + 1]).toMatchObject({ role: "assistant", content: textOf(earlier) });
        expect(messages[question + 1].interrupted).toBeUndefined();
      }
      expect(messages.slice(-2).map((m) => m.content)).toEqual([`q2-${i}`, `q2-${i} => ${REPLY}`]);
    }
    console.log(`${backend.name}: ${finished} turns finished before the kill, ${cut} cut mid-run, ${interrupted} recorded as interrupted`);
    second.proc.child.kill("SIGTERM");
    await second.proc.exited;
    if (backend.problems) expect(backend.problems(), "integrity_check at the end").toEqual([]);
  }, 120_000);
});
