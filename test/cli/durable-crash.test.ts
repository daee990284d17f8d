/**
 * Issue 9's acceptance tests for crashes, with real processes (the built CLI), a real Redis, a
 * real PostgreSQL, real files and a real SQLite database (issue 26):
 * - the crash test: fixtures/durable-counter.json (a Loop of 300 rounds, each POSTing to a counter
 *   server with an Idempotency-Key, then counting the round) killed with SIGKILL at random moments
 *   and rerun with the same command until it finishes;
 * - a kill while paused at a UserFillUp, then a resume with --input;
 * - two processes racing for one crashed session.
 *
 * The figures of the crash test (kills, in-flight components and repeated rounds per kill) are
 * printed to the test output.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { CheckpointStore } from "../../src/backends/contracts.js";
import { cli, events } from "../helpers/cli.js";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { testBackends, testEnv, type BackendName, type TestBackend } from "../helpers/durable-backends.js";
import { startLoopbackServer, type LoopbackServer } from "../helpers/http.js";
import { scratchDir } from "../helpers/scratch.js";

const ROUNDS = 300;
const KILLS = 5;
const cancelDir = scratchDir("canvasflow-durable-cancel-").dir;
const env = testEnv(cancelDir);
// The runs in this process (cli()) use the same cancel folder as the children.
process.env.CANVASFLOW_CANCEL_DIR = cancelDir;
const backends = testBackends(cancelDir);

/**
 * Why each backend runs with the durability it does. Redis's default is `sync`. Files and
 * PostgreSQL default to `async` (checkpoints written behind the run): a kill may then lose
 * checkpoints still queued, so more than the components in flight may run again. The test asserts
 * the bound that `sync` gives, so it asks for `sync` there.
 */
const DURABILITY: Record<BackendName, string[]> = { redis: [], file: ["--durability", "sync"], postgres: ["--durability", "sync"], sqlite: [] };

/** A request the counter server received: the step's Idempotency-Key and the round it said. */
interface Counted {
  key: string;
  round: number;
}

interface CounterServer {
  server: LoopbackServer;
  url: string;
  counted: Counted[];
  /** Called with each request as it arrives (its number from 1, and its response, not yet sent). */
  onRequest?: (n: number, res: ServerResponse) => boolean | void;
  close(): Promise<void>;
}

/** The loopback counter: records every request's key and round, answers "ok" unless onRequest takes the response. */
async function counterServer(): Promise<CounterServer> {
  const counter: Partial<CounterServer> & { counted: Counted[] } = { counted: [] };
  const server = await startLoopbackServer((request, res) => {
    const round = Number((JSON.parse(request.body) as { round: unknown }).round);
    counter.counted.push({ key: String(request.headers["idempotency-key"] ?? ""), round });
    if (counter.onRequest?.(counter.counted.length, res) === true) return;
    res.end("ok");
  });
  counter.server = server;
  counter.url = `${server.base}/count`;
  counter.close = () => server.close();
  return counter as CounterServer;
}

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

/** What an uninterrupted run of the counter canvas shows: node_finished per component, and the message. */
interface RunShape {
  finished: Record<string, number>;
  message: string;
}

function shapeOf(list: Array<Pick<CanvasEvent, "event" | "data">>): RunShape {
  const finished: Record<string, number> = {};
  let message = "";
  for (const event of list) {
    if (event.event === "node_finished") {
      const id = (event.data as { component_id: string }).component_id;
      finished[id] = (finished[id] ?? 0) + 1;
    }
    if (event.event === "message") message += (event.data as { content: string }).content;
  }
  return { finished, message };
}

let uninterrupted: RunShape;

beforeAll(async () => {
  const counter = await counterServer();
  try {
    const run = await cli(["run", "fixtures/durable-counter.json", "--input", `counter_url=${counter.url}`, "--allow-private-network", "--events", "ndjson"]);
    expect(run.code, run.stderr).toBe(0);
    uninterrupted = shapeOf(run.events);
    expect(uninterrupted.message).toBe(`counted ${ROUNDS} rounds`);
    expect(counter.counted).toHaveLength(ROUNDS);
  } finally {
    await counter.close();
  }
});

afterAll(async () => {
  for (const backend of Object.values(backends)) await backend.cleanup();
});

/** What happened at one kill. */
interface Kill {
  /** Requests the killed run had made (the kill came with the last of them). */
  requestsInRun: number;
  /** Killed as the request arrived (its Invoke in flight) or a few ms after it was answered. */
  moment: "on arrival" | "after the answer";
  /** From the workflow_resumed of the run after the kill. */
  inFlight?: string[];
  /**
   * Rounds whose request came again after the kill: requests of the next run with a key the
   * counter had seen before that run started (a request the killed process sent just before it
   * died may arrive a moment after the kill).
   */
  repeated?: number;
}

async function crashTest(backend: TestBackend): Promise<Kill[]> {
  const counter = await counterServer();
  const name = `crash-${backend.name}`;
  const args = [
    "run", "fixtures/durable-counter.json", "--session", backend.session(name), ...DURABILITY[backend.name],
    "--input", `counter_url=${counter.url}`, "--allow-private-network", "--events", "ndjson",
  ];
  const kills: Kill[] = [];
  const runs: Array<{ proc: CliProcess; firstRequest: number; lastRequest: number }> = [];
  try {
    for (let k = 0; k <= KILLS; k++) {
      const firstRequest = counter.counted.length;
      const proc = spawnCli(args, { env });
      const kill: Kill | undefined = k < KILLS
        ? { requestsInRun: randomInt(2, 45), moment: Math.random() < 0.5 ? "on arrival" : "after the answer" }
        : undefined;
      counter.onRequest = (n, res) => {
        if (!kill || n - firstRequest !== kill.requestsInRun) return;
        const killNow = () => proc.child.kill("SIGKILL");
        if (kill.moment === "on arrival") {
          killNow();
          res.destroy();
          return true;
        }
        res.end("ok");
        setTimeout(killNow, randomInt(0, 3));
        return true;
      };
      const exit = await proc.exited;
      runs.push({ proc, firstRequest, lastRequest: counter.counted.length });
      if (kill) {
        expect(exit, `run ${k + 1} should have been killed; stderr: ${proc.stderr()}`).toEqual({ code: null, signal: "SIGKILL" });
        kills.push(kill);
      } else {
        expect(exit, proc.stderr()).toEqual({ code: 0, signal: null });
      }
      if (k > 0) {
        // The run after a kill continues it: it says so, and names what was in flight.
        const first = events(proc.stdout())[0];
        expect(first?.event).toBe("workflow_resumed");
        const inFlight = (first!.data as { in_flight: string[] }).in_flight;
        expect(proc.stderr()).toContain(`continuing it from its last checkpoint, running again what was in flight: ${inFlight.join(", ")}\n`);
        expect(proc.stderr()).toContain("--query and --input are ignored");
        const previous = kills[k - 1];
        previous.inFlight = inFlight;
        const seenBefore = new Set(counter.counted.slice(0, firstRequest).map((c) => c.key));
        previous.repeated = counter.counted.slice(firstRequest).filter((c) => seenBefore.has(c.key)).length;
      } else {
        expect(events(proc.stdout())[0]?.event).toBe("workflow_started");
      }
    }

    // Every round reached the counter, each with its own key; repeats only where a kill came.
    const keys = new Set(counter.counted.map((c) => c.key));
    expect(keys.size).toBe(ROUNDS);
    expect(new Set(counter.counted.map((c) => c.round))).toEqual(new Set(Array.from({ length: ROUNDS }, (_, i) => i)));
    for (const kill of kills) expect(kill.repeated).toBeLessThanOrEqual(kill.inFlight!.length);
    expect(counter.counted.length).toBe(ROUNDS + kills.reduce((sum, kill) => sum + kill.repeated!, 0));

    const store: CheckpointStore = backend.store();
    try {
      // The variable is 300 (the finished turn was folded into the session's base).
      const stored = await store.load(backend.key(name));
      const state = stored!.snapshot.canvasflow as { status: string; outputs: Record<string, Record<string, unknown>> };
      expect(state.status).toBe("idle");
      expect(state.outputs["Loop:Rounds"].round).toBe(ROUNDS);
      // The event log: one node_finished per finished step, one workflow_resumed per kill, and
      // the message an uninterrupted run shows.
      const logged = (await store.events(backend.key(name))).map((e) => e.event as unknown as CanvasEvent);
      const shape = shapeOf(logged);
      expect(shape.finished).toEqual(uninterrupted.finished);
      expect(shape.message).toBe(uninterrupted.message);
      expect(logged.filter((e) => e.event === "workflow_resumed")).toHaveLength(KILLS);
      expect(logged.filter((e) => e.event === "workflow_started")).toHaveLength(1);
      expect(logged.filter((e) => e.event === "workflow_finished")).toHaveLength(1);
      // The last run's own message is the uninterrupted run's.
      expect(shapeOf(events(runs.at(-1)!.proc.stdout())).message).toBe(uninterrupted.message);
    } finally {
      await store.close();
    }
    return kills;
  } finally {
    counter.onRequest = undefined;
    for (const { proc } of runs) if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
    await counter.close();
  }
}

describe("crash test: kill -9 at random moments, rerun until it finishes", () => {
  for (const name of ["redis", "file", "postgres", "sqlite"] as const) {
    it(`${name} session: nothing finished runs again, every round counted once at least, the log is exact`, async () => {
      const kills = await crashTest(backends[name]);
      const figures = kills.map((k, i) => `kill ${i + 1}: after ${k.requestsInRun} requests (${k.moment}), in flight ${JSON.stringify(k.inFlight)}, repeated rounds ${k.repeated}`);
      console.log(`crash test, ${name} session${DURABILITY[name].length ? ` (${DURABILITY[name].join(" ")})` : " (default durability, sync)"}: ${kills.length} kills\n  ${figures.join("\n  ")}`);
    }, 240_000);
  }
});

/** Runs until `pred` holds for a stdout line, then kills the process with SIGKILL at once. */
function killOnLine(proc: CliProcess, pred: (line: string) => boolean): void {
  proc.onLine((line) => {
    if (pred(line)) proc.child.kill("SIGKILL");
  });
}

describe("a kill while paused at a UserFillUp", () => {
  for (const name of ["redis", "file", "postgres", "sqlite"] as const) {
    it(`${name} session: the pause is durable before user_inputs is shown; the next run resumes it with --input`, async () => {
      const backend = backends[name];
      // The kill must land while the process is still up after showing user_inputs (it exits
      // moments later): a session where it came too late is tried again with a new one.
      let session = "";
      let landed = false;
      for (let attempt = 0; attempt < 5 && !landed; attempt++) {
        session = backend.session(`paused-${attempt}`);
        const proc = spawnCli(["run", "fixtures/user-fill-up.json", "--session", session, "-q", "a badge please", "--events", "ndjson"], { env });
        killOnLine(proc, (line) => line.includes('"event":"user_inputs"'));
        const exit = await proc.exited;
        expect(events(proc.stdout()).at(-1)?.event).toBe("user_inputs");
        landed = exit.signal === "SIGKILL";
        if (!landed) expect(exit.code).toBe(3);
      }
      expect(landed, "the kill never landed before the process exited").toBe(true);

      const resumed = await cli(["run", "fixtures/user-fill-up.json", "--session", session, "--input", "name=Ada", "--input", "colour=blue", "--input", "note=VIP"]);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      const evs = resumed.events;
      expect(evs[0]).toMatchObject({ event: "node_started", data: { component_id: "UserFillUp:Details" } });
      expect(shapeOf(evs).message).toBe("[blue] Ada VIP");
    });
  }
});

describe("two processes race for one crashed session", () => {
  for (const name of ["redis", "file", "postgres", "sqlite"] as const) {
    it(`${name} session: exactly one resumes it; the other gets the lease error (exit 4)`, async () => {
      const backend = backends[name];
      const counter = await counterServer();
      const session = backend.session("race");
      const args = ["run", "fixtures/durable-counter.json", "--session", session, ...DURABILITY[name], "--input", `counter_url=${counter.url}`, "--allow-private-network", "--events", "ndjson"];
      const held: ServerResponse[] = [];
      try {
        // Crash it: kill -9 at its 5th request.
        const first = spawnCli(args, { env });
        counter.onRequest = (n) => {
          if (n === 5) first.child.kill("SIGKILL");
        };
        expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });

        // Two processes at once; the winner is held at its first request until the loser is out.
        counter.onRequest = (_n, res) => {
          held.push(res);
          return true;
        };
        const racers = [spawnCli(args, { env }), spawnCli(args, { env })];
        const loser = await Promise.race(racers.map((proc) => proc.exited.then(() => proc)));
        const winner = racers.find((proc) => proc !== loser)!;
        expect(await loser.exited, loser.stderr()).toEqual({ code: 4, signal: null });
        expect(loser.stdout()).toBe("");
        expect(loser.stderr()).toMatch(/^canvasflow: .* is locked by another run \(process \d+ on /);
        expect(loser.stderr()).toContain(`process ${winner.child.pid} on `);

        counter.onRequest = undefined;
        for (const res of held.splice(0)) res.end("ok");
        expect(await winner.exited, winner.stderr()).toEqual({ code: 0, signal: null });
        expect(events(winner.stdout())[0]?.event).toBe("workflow_resumed");
        expect(shapeOf(events(winner.stdout())).message).toBe(`counted ${ROUNDS} rounds`);
      } finally {
        counter.onRequest = undefined;
        for (const res of held) res.end("ok");
        await counter.close();
      }
    }, 120_000);
  }
});
