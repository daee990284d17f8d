/**
 * A turn that does not finish: Ctrl+C (SIGINT), SIGTERM and a failed run leave the session file
 * exactly as it was before the turn, and the next turn starts from there; after kill -9 the
 * session file is untouched too, and the next run continues the killed one from its last
 * checkpoint. Real child processes, a canvas that loops 40 rounds and counts each round in a
 * conversation variable, and a loopback server that holds the 11th round's request, so the
 * signal always arrives with 10 of 40 rounds counted.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { cli, events } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";
import { canvasWithEnv, node } from "../helpers/dsl.js";
import { standIn } from "../helpers/http.js";
import { scratchDir } from "../helpers/scratch.js";

const ROUNDS = 40;
const HELD_ROUND = 11;

function countingLoop(tickUrl: string) {
  return canvasWithEnv({
    begin: node("Begin", { mode: "task", inputs: {} }, ["Loop:Rounds"]),
    "Loop:Rounds": node("Loop", {
      loop_variables: [{ variable: "round", input_mode: "constant", type: "number", value: 0 }],
      loop_termination_condition: [{ variable: "Loop:Rounds@round", operator: "≥", input_mode: "constant", value: ROUNDS }],
      logical_operator: "and",
      maximum_loop_count: ROUNDS + 10,
    }, ["Message:Done"]),
    "LoopItem:Tick": node("LoopItem", {}, ["Invoke:Tick"], { parent_id: "Loop:Rounds" }),
    "Invoke:Tick": node("Invoke", { url: tickUrl, method: "get", timeout: 600 }, ["VariableAssigner:Count"], { parent_id: "Loop:Rounds" }),
    "VariableAssigner:Count": node("VariableAssigner", {
      variables: [
        { variable: "env.counter", operator: "+=", parameter: 1 },
        { variable: "Loop:Rounds@round", operator: "+=", parameter: 1 },
      ],
    }, [], { parent_id: "Loop:Rounds" }),
    "Message:Done": node("Message", { content: ["counted {env.counter}"] }),
  }, { counter: 0 });
}

/** A tick server: answers every request, or (when `holdAt` is set) holds that request unanswered. */
async function tickServer() {
  let count = 0;
  let holdAt: number | undefined;
  let onHeld: (() => void) | undefined;
  const held: ServerResponse[] = [];
  const server = await standIn((_request, res) => {
    count++;
    if (holdAt !== undefined && count === holdAt) {
      held.push(res); // never answered: the run waits here until it is signalled
      onHeld?.();
      return;
    }
    res.end("tick");
  });
  return {
    url: `${server.base}/tick`,
    /** The next turn's `round`-th request will hang; resolves when it arrives. */
    holdRound(round: number): Promise<void> {
      count = 0;
      holdAt = round;
      return new Promise((resolve) => (onHeld = resolve));
    },
    answerAll(): void {
      count = 0;
      holdAt = undefined;
    },
    /** Requests since the last holdRound or answerAll. */
    requests: () => count,
  };
}

async function setUp() {
  const { dir, write } = scratchDir("canvasflow-cancel-");
  const server = await tickServer();
  const file = write("count.json", countingLoop(server.url));
  const session = join(dir, "session.json");
  const args = ["run", file, "--session", session, "--allow-private-network", "--events", "ndjson", "-q", "count"];
  // A first turn that finishes: the session the cancelled turns must leave alone.
  const first = spawnCli(args);
  expect(await first.exited, first.stderr()).toEqual({ code: 0, signal: null });
  const before = readFileSync(session, "utf8");
  expect(JSON.parse(before).globals["env.counter"]).toBe(ROUNDS);
  return { server, session, args, before, lockFile: join(dir, ".session.json.lock") };
}

describe("a turn that does not finish: a cancelled or failed one leaves the session as it was, a killed one is continued", () => {
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    it(`${signal} mid-run: nothing saved, a message on stderr, exit ${code}`, async () => {
      const { server, session, args, before, lockFile } = await setUp();
      const held = server.holdRound(HELD_ROUND);
      const turn = spawnCli(args);
      await held; // 10 of 40 rounds counted, the 11th waiting
      turn.child.kill(signal);
      const exit = await turn.exited;

      expect(readFileSync(session, "utf8")).toBe(before);
      expect(exit).toEqual({ code, signal: null });
      expect(turn.stderr()).toContain(`canvasflow: cancelled by ${signal}: the session ${session} was left as it was before this turn\n`);
      expect(events(turn.stdout()).at(-1)).toMatchObject({ event: "workflow_finished", data: { error: "cancelled" } });
      expect(existsSync(lockFile)).toBe(false);

      // The next turn starts from the saved session: 40 + 40, not 40 + 10 + 40.
      server.answerAll();
      const next = spawnCli(args);
      expect((await next.exited).code).toBe(0);
      expect(JSON.parse(readFileSync(session, "utf8")).globals["env.counter"]).toBe(2 * ROUNDS);
    });
  }

  it("kill -9 mid-run: the session file is untouched; the next run takes the stale lock over and continues the killed run", async () => {
    const { server, session, args, before, lockFile } = await setUp();
    const held = server.holdRound(HELD_ROUND);
    const turn = spawnCli(args);
    await held;
    turn.child.kill("SIGKILL");
    expect(await turn.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(readFileSync(session, "utf8")).toBe(before);
    expect(existsSync(lockFile)).toBe(true);

    server.answerAll();
    const next = spawnCli(args);
    expect((await next.exited).code, next.stderr()).toBe(0);
    // Continued, not restarted: the rounds counted before the kill are kept, the held one runs
    // again. (A file session writes its checkpoints behind the run by default, so the last one
    // may be a step behind the held request: LoopItem:Tick or Invoke:Tick is what was in flight.)
    const [resumed] = events(next.stdout());
    expect(resumed.event).toBe("workflow_resumed");
    const inFlight = (resumed.data as { in_flight: string[] }).in_flight;
    expect(inFlight.length).toBe(1);
    expect(next.stderr()).toContain(`canvasflow: the last run of session ${session} stopped before it finished; continuing it from its last checkpoint, running again what was in flight: ${inFlight[0]}\n`);
    expect(next.stderr()).toContain("--query and --input are ignored");
    expect(server.requests()).toBeGreaterThanOrEqual(ROUNDS - HELD_ROUND + 1);
    expect(JSON.parse(readFileSync(session, "utf8")).globals["env.counter"]).toBe(2 * ROUNDS);
    expect(existsSync(lockFile)).toBe(false);
  });

  it("a failed turn is not saved either: exit 1, and the next turn starts from the last saved one", async () => {
    const { dir } = scratchDir("canvasflow-failed-");
    const session = join(dir, "s.json");
    const first = await cli(["run", "fixtures/variables.json", "--session", session, "-q", "one"]);
    expect(first.code).toBe(0);
    const before = readFileSync(session, "utf8");
    expect(JSON.parse(before).globals["env.visits"]).toBe(1);

    // Two steps: Begin, then VariableAssigner:Remember counts the visit; the third step fails the run.
    const failed = await cli(["run", "fixtures/variables.json", "--session", session, "-q", "two", "--max-steps", "2"]);
    expect(failed.code).toBe(1);
    expect(events(failed.stdout).at(-1)).toMatchObject({ event: "workflow_finished", data: { error: expect.stringContaining("exceeded 2 component steps") } });
    expect(readFileSync(session, "utf8")).toBe(before);
    expect(failed.stderr).toBe(`canvasflow: the run failed: the session ${session} was left as it was before this turn\n`);

    const next = await cli(["run", "fixtures/variables.json", "--session", session, "-q", "three"]);
    expect(next.code).toBe(0);
    expect(JSON.parse(readFileSync(session, "utf8")).globals).toMatchObject({ "env.visits": 2, "env.topics": ["one", "three"] });
  });

  it("a second run on the session while the first runs fails at once, names the lock file and runs nothing", async () => {
    const { server, session, args, before, lockFile } = await setUp();
    const held = server.holdRound(HELD_ROUND);
    const turn = spawnCli(args);
    try {
      await held;
      const second = await cli(args);
      expect(second.code).toBe(4);
      expect(second.stdout).toBe("");
      expect(second.stderr).toContain(`session file ${session} is locked by another run (process ${turn.child.pid} on `);
      expect(second.stderr).toContain(lockFile);
      expect(second.stderr).toContain("delete the lock file");
    } finally {
      turn.child.kill("SIGINT");
      await turn.exited;
    }
    expect(readFileSync(session, "utf8")).toBe(before);
  });
});
