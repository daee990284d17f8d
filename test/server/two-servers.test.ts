/**
 * Two `canvasflow serve` processes sharing one store (real child processes of the built CLI): the
 * real Redis on 127.0.0.1:6379 under a key prefix of this test run (`--redis-prefix`), and one
 * SQLite database file (`--sqlite`, issue 26). On each: a session created on A continues on B; a
 * cancel sent to A stops a run on B within 100 ms; a re-attach on B replays a run A started and
 * follows it live; a re-attach reader cut by its server's SIGTERM (no [DONE]) resumes on the
 * other server from its last id.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";
import { SERVING, waitFor } from "../helpers/serve-banner.js";
import { hello, llmCanvas } from "./canvases.js";

const WORDS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = any;

interface Server {
  proc: CliProcess;
  base: string;
}

const prefix = uniqueTestPrefix();
const folder = scratchDir("cf-two-servers-");
const script = folder.write("script.json", {
  rules: [
    { match: "stall", delay_ms: 60_000, reply: "never" },
    { match: "slow", reply: WORDS, chunk_delay_ms: 200 },
    // Slower still: a server is started, attached and stopped while it runs.
    { match: "crawl", reply: WORDS, chunk_delay_ms: 500 },
    { match: ".", reply: "fine" },
  ],
});
/** A cancel sent to one server ends the run on the other within this (as on every store). */
const CANCEL_LIMIT_MS = 100;

interface SharedStore {
  name: string;
  /** The flags of serve and keys that name the store. */
  args: string[];
}

const STORES: SharedStore[] = [
  { name: "Redis", args: ["--redis", TEST_REDIS_URL, "--redis-prefix", prefix] },
  { name: "SQLite", args: ["--sqlite", join(folder.dir, "shared.db")] },
];

let key = "";
let storeArgs: string[] = [];
const started: Server[] = [];

async function startServer(): Promise<Server> {
  const proc = spawnCli(["serve", "--port", "0", ...storeArgs, "--mock-llm-script", script, "--grace", "0"]);
  const base = await waitFor(`the banner (stderr so far: ${proc.stderr()})`, () => SERVING.exec(proc.stderr())?.[1]);
  const server = { proc, base };
  started.push(server);
  return server;
}

async function stop(server: Server): Promise<void> {
  if (server.proc.child.exitCode !== null) return;
  server.proc.child.kill("SIGTERM");
  expect(await server.proc.exited).toEqual({ code: 0, signal: null });
}

const headers = () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(server: Server, path: string, body?: unknown, method = body === undefined ? "GET" : "POST"): Promise<any> {
  const response = await fetch(`${server.base}${path}`, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
  return response.json();
}

/** An SSE stream read as it comes: its frames with the time each arrived, and its end. */
function reading(response: Response) {
  const got: Array<{ frame: string; at: number }> = [];
  let buffer = "";
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  const ended = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        got.push({ frame: buffer.slice(0, end), at: performance.now() });
        buffer = buffer.slice(end + 2);
      }
    }
    return performance.now();
  })();
  return {
    got,
    ended,
    /** The events so far (the frame's data line, parsed). */
    events: (): Event[] => got.filter((g) => g.frame !== "data:[DONE]").map((g) => JSON.parse(g.frame.slice(g.frame.indexOf("data:") + 5))),
    ids: (): string[] => got.filter((g) => g.frame.startsWith("id:")).map((g) => g.frame.slice(3, g.frame.indexOf("\n"))),
    done: () => got.at(-1)?.frame === "data:[DONE]",
  };
}

function streamTurn(server: Server, body: Record<string, unknown>) {
  return fetch(`${server.base}/api/v1/agents/chat/completions`, { method: "POST", headers: headers(), body: JSON.stringify({ ...body, stream: true }) }).then(reading);
}

function reattach(server: Server, sessionId: string, lastEventId?: string) {
  return fetch(`${server.base}/api/v1/sessions/${sessionId}/events`, { headers: { ...headers(), ...(lastEventId ? { "last-event-id": lastEventId } : {}) } }).then(reading);
}

let a: Server;
let b: Server;
let helloAgent = "";
let llmAgent = "";

afterAll(async () => {
  const redis = await connectTestRedis();
  await deleteKeys(redis, prefix);
  redis.disconnect();
}, 60_000);

describe.each(STORES)("two servers sharing one store: $name", (store) => {
  beforeAll(async () => {
    storeArgs = store.args;
    const created = await cli(["keys", "create", "--tenant", "acme", "--name", "two servers", ...store.args]);
    if (created.code !== 0) throw new Error(`keys create failed on ${store.name}: ${created.stderr}`);
    key = created.stdout.trim();
    [a, b] = await Promise.all([startServer(), startServer()]);
    helloAgent = (await api(a, "/api/v1/agents", { title: "hello", dsl: hello() })).data.id;
    llmAgent = (await api(a, "/api/v1/agents", { title: "llm", dsl: llmCanvas() })).data.id;
  }, 180_000);

  afterAll(async () => {
    for (const server of started.splice(0)) await stop(server);
  }, 60_000);

  it("a session created on A continues on B", async () => {
    const first = await api(a, "/api/v1/agents/chat/completions", { agent_id: helloAgent, query: "Ada" });
    expect(first.data.data.content).toBe("Hello, Ada! This is turn 1.");
    const sessionId = first.data.session_id;
    const second = await api(b, "/api/v1/agents/chat/completions", { agent_id: helloAgent, query: "Bob", session_id: sessionId });
    expect(second.data.data.content).toBe("Hello, Bob! This is turn 2.");
    const session = await api(b, `/api/v1/agents/${helloAgent}/sessions/${sessionId}`);
    expect(session.data.message.map((m: { content: string }) => m.content)).toEqual([
      "Hi! Tell me your name and I will greet you.",
      "Ada",
      "Hello, Ada! This is turn 1.",
      "Bob",
      "Hello, Bob! This is turn 2.",
    ]);
  });

  it("a cancel sent to A stops a run on B within 100 ms: B's stream ends with a cancelled workflow_finished and [DONE]; the next turn works", async () => {
    const onB = await streamTurn(b, { agent_id: llmAgent, query: "stall" });
    await waitFor("the LLM step on B", () => (onB.events().some((e) => e.event === "node_started" && e.data.component_id === "LLM:A") ? true : undefined));
    const sessionId = onB.events()[0].session_id;
    const sentAt = performance.now();
    const answer = await api(a, `/api/v1/tasks/${sessionId}/cancel`, {});
    const answeredAt = performance.now();
    expect(answer).toEqual({ code: 0, message: "success", data: true });
    const endedAt = await onB.ended;
    console.log(`${store.name}: cancel sent to A, run on B: [DONE] ${(endedAt - answeredAt).toFixed(1)} ms after A's answer, ${(endedAt - sentAt).toFixed(1)} ms after the request was sent`);
    expect(endedAt - sentAt).toBeLessThan(CANCEL_LIMIT_MS);
    expect(onB.done()).toBe(true);
    expect(onB.events().at(-1)).toMatchObject({ event: "workflow_finished", session_id: sessionId, data: { error: "cancelled" } });

    const next = await api(a, "/api/v1/agents/chat/completions", { agent_id: llmAgent, query: "now", session_id: sessionId });
    expect(next.data.data.content).toBe("fine");
  });

  it("a re-attach on B replays a run A started and follows it live to its end; from an id, the rest", async () => {
    const onA = await streamTurn(a, { agent_id: llmAgent, query: "slow" });
    await waitFor("the reply streaming on A", () => (onA.events().some((e) => e.event === "message") ? true : undefined));
    const sessionId = onA.events()[0].session_id;
    const onB = await reattach(b, sessionId);
    const aEnded = await onA.ended;
    await onB.ended;

    expect(onA.done()).toBe(true);
    expect(onB.done()).toBe(true);
    expect(onB.events()).toEqual(onA.events());
    expect(onA.events().at(-1)).toMatchObject({ event: "workflow_finished", session_id: sessionId });
    expect(onA.events().filter((e: Event) => e.event === "message").map((e: Event) => e.data.content).join("")).toBe(WORDS);
    // B was following while A's run went on: its first frames came before A's stream ended.
    expect(onB.got[0].at).toBeLessThan(aEnded);

    const ids = onB.ids();
    const rest = await reattach(b, sessionId, ids[5]);
    await rest.ended;
    expect(rest.ids()).toEqual(ids.slice(6));
    expect(rest.events()).toEqual(onA.events().slice(6));
    expect(rest.done()).toBe(true);
  });

  it("SIGTERM on a server following another's run cuts its re-attach stream without [DONE]; the reader resumes on the other server from its last id", async () => {
    const c = await startServer();
    const onA = await streamTurn(a, { agent_id: llmAgent, query: "crawl" });
    await waitFor("the reply streaming on A", () => (onA.events().some((e) => e.event === "message") ? true : undefined));
    const sessionId = onA.events()[0].session_id;
    const onC = await reattach(c, sessionId);
    await waitFor("a frame on C", () => (onC.got.length > 0 ? true : undefined));
    await stop(c);
    await onC.ended;
    await onA.ended;
    expect(onC.done()).toBe(false);
    expect(onC.events().some((e: Event) => e.event === "workflow_finished")).toBe(false);

    const resumed = await reattach(b, sessionId, onC.ids().at(-1));
    await resumed.ended;
    expect([...onC.events(), ...resumed.events()]).toEqual(onA.events());
    expect(resumed.done()).toBe(true);
  });
});
