/**
 * A long Loop is one step and one checkpoint carrying thousands of events and pool writes. The
 * file store's event log stays capped at `maxEvents` (docs/durable.md) without a save, and the
 * checkpoints such turns leave are folded into a new base (compactAfterOps), so neither the log
 * nor what a load replays grows turn after turn.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DurableSession } from "../../src/durable/session.js";
import { FileSnapshotStore } from "../../src/backends/files/session-store.js";
import { scratchDir } from "../helpers/scratch.js";

const ROUNDS = 3000;

function countdown(rounds: number) {
  const dsl = JSON.parse(readFileSync("fixtures/loop.json", "utf8"));
  dsl.components["Loop:Countdown"].obj.params.maximum_loop_count = rounds;
  dsl.globals["env.start"] = rounds;
  dsl.variables.start.value = rounds;
  return dsl;
}

function logLines(file: string): { events: number; checkpoints: number } {
  let events = 0;
  let checkpoints = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    const parsed = JSON.parse(line) as { id?: string; seq?: number; events?: unknown[] };
    if (parsed.seq !== undefined) {
      checkpoints++;
      events += parsed.events!.length;
    } else if (parsed.id !== undefined) events++;
  }
  return { events, checkpoints };
}

describe("a long Loop on the file store", () => {
  it("keeps the log within twice maxEvents and its size flat across turns", async () => {
    const { dir } = scratchDir("cf-long-loop-");
    const maxEvents = 10_000;
    const store = new FileSnapshotStore({ directory: dir, maxEvents });
    const log = join(dir, ".s.json.log");
    const sizes: number[] = [];
    try {
      for (let turn = 0; turn < 4; turn++) {
        const session = await DurableSession.open({ store, key: "s", dsl: countdown(ROUNDS) });
        let emitted = 0;
        let last: string | undefined;
        for await (const event of session.run({ query: "go" })) {
          emitted++;
          last = event.event;
        }
        await session.close();
        expect(last).toBe("workflow_finished");
        expect(emitted).toBeGreaterThan(2 * maxEvents);
        const lines = logLines(log);
        expect(lines.events).toBeLessThanOrEqual(2 * maxEvents);
        sizes.push(statSync(log).size + statSync(join(dir, "s.json")).size);
        // What the store answers: the most recent events, ending with this turn's end.
        const kept = await store.events("s");
        expect(kept.length).toBe(maxEvents);
        expect(kept.at(-1)!.event.event).toBe("workflow_finished");
      }
      // 3 000 rounds log about 9 MB of events a turn; kept: at most twice maxEvents of them
      // (about 7 MB), and the checkpoints are folded into the base at each turn's end.
      expect(sizes.at(-1)!).toBeLessThan(8 * 1024 * 1024);
      expect(sizes.at(-1)! - sizes[1]).toBeLessThan(512 * 1024);
      // The session still loads, with nothing to replay.
      const reopened = await store.load("s");
      expect(reopened!.deltas.length).toBe(0);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("caps the log during a turn, before any new base, and the session reads back whole", async () => {
    const { dir } = scratchDir("cf-long-loop-cap-");
    const maxEvents = 1000;
    const store = new FileSnapshotStore({ directory: dir, maxEvents });
    const log = join(dir, ".s.json.log");
    try {
      // No new base at the turn's end: only the log's own cap can hold it.
      const session = await DurableSession.open({ store, key: "s", dsl: countdown(ROUNDS), compactAfterOps: Number.MAX_SAFE_INTEGER });
      let emitted = 0;
      for await (const _ of session.run({ query: "go" })) emitted++;
      await session.close();
      expect(emitted).toBeGreaterThan(20 * maxEvents);
      const lines = logLines(log);
      expect(lines.events).toBeLessThanOrEqual(2 * maxEvents);
      // The turn's checkpoints are still there to replay, and replay to the finished session.
      const stored = await store.load("s");
      expect(stored!.deltas.length).toBe(lines.checkpoints);
      expect(lines.checkpoints).toBeGreaterThan(0);
      const again = await DurableSession.open({ store, key: "s", compactAfterOps: Number.MAX_SAFE_INTEGER });
      expect(again.openedAs).toBe("idle");
      let answer = "";
      for await (const event of again.run({ query: "again" })) if (event.event === "message") answer += String((event.data as { content?: unknown }).content ?? "");
      await again.close();
      expect(answer).toContain("liftoff!");
      expect(logLines(log).events).toBeLessThanOrEqual(2 * maxEvents);
      const kept = await store.events("s");
      expect(kept.length).toBe(maxEvents);
      expect(kept.at(-1)!.event.event).toBe("workflow_finished");
    } finally {
      await store.close();
    }
  }, 120_000);
});
