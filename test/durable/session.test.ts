/**
 * DurableSession over the memory store: a checkpoint per batch with its events, a base at every
 * stable point, continuing a run whose process died, cancel from outside, the rule that a failed
 * or cancelled turn never becomes the next one's start, and the three durability modes.
 */
import { describe, expect, it } from "vitest";
import { Canvas } from "../../src/engine/canvas.js";
import { cancelRun } from "../../src/durable/cancel.js";
import { compareEventIds } from "../../src/backends/shared/sessions.js";
import { SnapshotConflictError } from "../../src/backends/errors.js";
import type { AppendOptions, CheckpointRecord, Durability } from "../../src/backends/contracts.js";
import { DurableSession } from "../../src/durable/session.js";
import { InProcessCancelSignals } from "../../src/backends/process/cancel.js";
import { InProcessSnapshotStore } from "../../src/backends/process/session-store.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, canvasWithEnv, finished, messages, node } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";

/** A Loop of `rounds` rounds that counts into env.n and logs each round into env.seen. */
function countingLoop(rounds: number): CanvasDsl {
  return canvasWithEnv(
    {
      begin: node("Begin", {}, ["Loop:L"]),
      "Loop:L": node("Loop", { loop_variables: [], loop_termination_condition: [], maximum_loop_count: rounds }, ["Message:Done"]),
      "LoopItem:L": node("LoopItem", {}, ["VariableAssigner:Count"], { parent_id: "Loop:L" }),
      "VariableAssigner:Count": node(
        "VariableAssigner",
        {
          variables: [
            { variable: "env.n", operator: "+=", parameter: 1 },
            { variable: "env.seen", operator: "append", parameter: "LoopItem:L@index" },
          ],
        },
        [],
        { parent_id: "Loop:L" },
      ),
      "Message:Done": node("Message", { content: ["n={env.n} seen={env.seen}"] }),
    },
    { n: 0, seen: [] },
  );
}

/** A memory store whose appends fail from the `failAfter`-th on, like a process that died there. */
class DyingStore extends InProcessSnapshotStore {
  appends = 0;
  constructor(private failAfter = Number.POSITIVE_INFINITY) {
    super();
  }
  // Both ways of appending (append awaits appendNow) go through here.
  override appendNow(key: string, record: CheckpointRecord, options: AppendOptions): string {
    if (++this.appends > this.failAfter) throw new Error("the process died here");
    return super.appendNow(key, record, options);
  }
  revive(): void {
    this.failAfter = Number.POSITIVE_INFINITY;
  }
}

async function collect(events: AsyncIterable<CanvasEvent>): Promise<CanvasEvent[]> {
  const out: CanvasEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function uninterrupted(dsl: CanvasDsl): Promise<CanvasEvent[]> {
  const store = new InProcessSnapshotStore();
  const session = await DurableSession.open({ store, key: "clean", dsl });
  const events = await collect(session.run({ query: "go" }));
  await session.close();
  return events;
}

describe("DurableSession", () => {
  it("a delta kept in memory as a value loads as its text would; one holding a value the run may change is kept as text", async () => {
    // Make sets a list; Grow, a step later, pushes onto that same list (a component may change what
    // it reads). Had Make's checkpoint kept the list itself, replaying it would show Grow's push.
    const Make: ComponentDefinition = { name: "Make", invoke: (ctx) => ctx.setOutput("list", [1]) };
    const Grow: ComponentDefinition = {
      name: "Grow",
      invoke(ctx) {
        (ctx.get("Make:M@list") as number[]).push(2);
        ctx.setOutput("n", 2);
      },
    };
    const registry = registryWith(Make, Grow);
    const dsl = canvasDsl({ begin: node("Begin", {}, ["Make:M"]), "Make:M": node("Make", {}, ["Grow:G"]), "Grow:G": node("Grow", {}, []) });
    const store = new InProcessSnapshotStore();
    const session = await DurableSession.open({ store, key: "kept", dsl, registry });
    await collect(session.run({ query: "go" }));
    await session.close();
    const stored = (await store.load("kept"))!;
    const listAt = (k: number) => {
      const replayed = Canvas.fromCheckpoints(stored.snapshot as CanvasDsl, stored.deltas.slice(0, k) as never, registry);
      return (replayed.toJSON().canvasflow?.outputs as Record<string, Record<string, unknown>> | undefined)?.["Make:M"]?.list;
    };
    const afterMake = stored.deltas.findIndex((delta) => JSON.stringify(delta).includes('"Make:M","list"')) + 1;
    expect(afterMake).toBeGreaterThan(0);
    expect(listAt(afterMake)).toEqual([1]);
    // Loads are copies: changing one changes nothing stored.
    (stored.deltas[0] as { ops: unknown[] }).ops.length = 0;
    expect((await store.load("kept"))!.deltas[0]).not.toEqual(stored.deltas[0]);
  });

  it("writes a checkpoint per batch with its events, and folds them into a new base when there are enough", async () => {
    const store = new DyingStore();
    const session = await DurableSession.open({ store, key: "s", dsl: countingLoop(3), compactAfter: 10 });
    expect(session.openedAs).toBe("new");
    const logged: string[] = [];
    const events: CanvasEvent[] = [];
    for await (const { id, event } of session.stream({ query: "go" })) {
      logged.push(id);
      events.push(event);
    }
    expect(messages(events)).toEqual(["n=3 seen=[0,1,2]"]);
    expect(logged).toEqual(events.map((_, i) => `1-${i + 1}`));
    const steps = events.filter((e) => e.event === "node_started").length;
    // One per batch (each step here is a batch of one) and the final one.
    expect(store.appends).toBe(steps + 1);
    const stored = await store.load("s");
    expect(stored?.deltas).toEqual([]);
    expect(stored?.snapshot.canvasflow?.status).toBe("idle");
    expect(stored?.snapshot.globals?.["env.n"]).toBe(3);
    const log = await store.events("s");
    expect(log.map((e) => e.id)).toEqual(logged);
    expect(log.map((e) => e.event)).toEqual(JSON.parse(JSON.stringify(events)));
    await session.close();
  });

  it("continues a run whose process died from its last checkpoint: nothing finished runs again", async () => {
    const dsl = countingLoop(6);
    const clean = await uninterrupted(dsl);
    const store = new DyingStore(9);
    const first = await DurableSession.open({ store, key: "s", dsl });
    const before = await collect(first.run({ query: "go" }));
    // The run stopped at the failed checkpoint, like a process killed there.
    expect(finished(before).error).toMatch(/could not be written \(the process died here\)/);
    await first.close();
    store.revive();

    const second = await DurableSession.open({ store, key: "s", dsl });
    expect(second.openedAs).toBe("crashed");
    const after = await collect(second.run({ query: "ignored" }));
    expect(after[0].event).toBe("workflow_resumed");
    expect(finished(after).error).toBeUndefined();
    expect(messages(after)).toEqual(messages(clean));
    expect(second.canvas.globals["env.n"]).toBe(6);
    expect(second.canvas.globals["env.seen"]).toEqual([0, 1, 2, 3, 4, 5]);
    // The log: every step finished once, plus the resumption.
    const log = (await store.events("s")).map((e) => e.event as unknown as CanvasEvent);
    const finishedSteps = log.filter((e) => e.event === "node_finished").map((e) => e.event === "node_finished" && e.data.component_id);
    const cleanSteps = clean.filter((e) => e.event === "node_finished").map((e) => e.event === "node_finished" && e.data.component_id);
    expect(finishedSteps).toEqual(cleanSteps);
    expect(log.filter((e) => e.event === "workflow_resumed")).toHaveLength(1);
    await second.close();
  });

  it("cancel from outside ends the run with workflow_finished cancelled; the next turn starts from before it", async () => {
    const store = new InProcessSnapshotStore();
    const cancel = new InProcessCancelSignals();
    const dsl = countingLoop(50);
    const session = await DurableSession.open({ store, key: "s", dsl, cancel, canvas: { taskId: "task-1" } });
    expect(session.taskId).toBe("task-1");
    const events: CanvasEvent[] = [];
    for await (const event of session.run({ query: "go" })) {
      events.push(event);
      if (events.filter((e) => e.event === "node_finished").length === 10) await cancelRun("task-1", { signals: cancel });
    }
    expect(finished(events).error).toBe("cancelled");
    await session.close();

    const next = await DurableSession.open({ store, key: "s", dsl, cancel });
    expect(next.openedAs).toBe("rolled-back");
    // The counts of the cancelled turn are gone; the cancel flag does not stop the next turn.
    expect(next.canvas.globals["env.n"]).toBe(0);
    const turn = await collect(next.run({ query: "again" }));
    expect(finished(turn).error).toBeUndefined();
    expect(next.canvas.globals["env.n"]).toBe(50);
    expect(await cancel.isRequested("task-1")).toBe(false);
    await next.close();
  });

  it("fresh: the first run of a new session neither clears nor looks up a cancel, and still hears one; later runs do both", async () => {
    const store = new InProcessSnapshotStore();
    const signals = new InProcessCancelSignals();
    const calls: string[] = [];
    // The real signals, with each call written down.
    const cancel = {
      request: (taskId: string) => signals.request(taskId),
      isRequested: (taskId: string) => signals.isRequested(taskId),
      watch: (taskId: string, onCancel: () => void, options?: { unseen?: boolean }) => {
        calls.push(`watch${options?.unseen ? " unseen" : ""}`);
        return signals.watch(taskId, onCancel, options);
      },
      clear: (taskId: string) => {
        calls.push("clear");
        return signals.clear(taskId);
      },
      close: () => signals.close(),
    };
    const dsl = countingLoop(50);
    const session = await DurableSession.open({ store, key: "s", dsl, cancel, canvas: { taskId: "fresh-task" }, fresh: true });
    const events: CanvasEvent[] = [];
    for await (const event of session.run({ query: "go" })) {
      events.push(event);
      if (events.filter((e) => e.event === "node_finished").length === 10) await cancelRun("fresh-task", { signals: cancel });
    }
    expect(finished(events).error).toBe("cancelled");
    expect(calls).toEqual(["watch unseen"]);
    // The next run: the flag left by that cancel is cleared first, so it does not stop this one.
    expect(finished(await collect(session.run({ query: "again" }))).error).toBeUndefined();
    expect(calls).toEqual(["watch unseen", "clear", "watch"]);
    await session.close();
    // Without fresh, a new session's first run clears and looks up as before.
    const other = await DurableSession.open({ store, key: "s2", dsl, cancel, canvas: { taskId: "used-task" } });
    await collect(other.run({ query: "go" }));
    expect(calls.slice(3)).toEqual(["clear", "watch"]);
    await other.close();
  });

  it("fresh on a key that is taken after all: SnapshotConflictError, the session as it was, its lock free", async () => {
    const store = new InProcessSnapshotStore();
    const dsl = countingLoop(3);
    const first = await DurableSession.open({ store, key: "taken", dsl });
    await collect(first.run({ query: "one" }));
    await first.close();
    const before = await store.load("taken");
    await expect(DurableSession.open({ store, key: "taken", dsl, fresh: true })).rejects.toBeInstanceOf(SnapshotConflictError);
    expect(await store.load("taken")).toEqual(before);
    const again = await DurableSession.open({ store, key: "taken", dsl });
    expect(again.openedAs).toBe("idle");
    await again.close();
  });

  it("a cancelled turn after finished ones goes back to the end of the last finished turn, not to the base", async () => {
    const store = new InProcessSnapshotStore();
    const cancel = new InProcessCancelSignals();
    const dsl = countingLoop(20);
    const session = await DurableSession.open({ store, key: "s", dsl, cancel, canvas: { taskId: "t" } });
    expect(finished(await collect(session.run({ query: "one" }))).error).toBeUndefined();
    const second: CanvasEvent[] = [];
    for await (const event of session.run({ query: "two" })) {
      second.push(event);
      if (second.filter((e) => e.event === "node_finished").length === 8) await cancelRun("t", { signals: cancel });
    }
    expect(finished(second).error).toBe("cancelled");
    await session.close();
    const reopened = await DurableSession.open({ store, key: "s", dsl, cancel });
    expect(reopened.openedAs).toBe("rolled-back");
    expect(reopened.canvas.globals["env.n"]).toBe(20);
    expect(reopened.canvas.history.map(([role]) => role)).toEqual(["user", "assistant"]);
    expect(finished(await collect(reopened.run({ query: "three" }))).error).toBeUndefined();
    expect(reopened.canvas.globals["env.n"]).toBe(40);
    await reopened.close();
  });

  it("the turn after a rolled-back one is a new run in the log: its event ids come after the rolled-back turn's", async () => {
    const store = new InProcessSnapshotStore();
    const cancel = new InProcessCancelSignals();
    const dsl = countingLoop(20);
    const session = await DurableSession.open({ store, key: "s", dsl, cancel, canvas: { taskId: "t" } });
    const cancelled: CanvasEvent[] = [];
    for await (const event of session.run({ query: "one" })) {
      cancelled.push(event);
      if (cancelled.filter((e) => e.event === "node_finished").length === 5) await cancelRun("t", { signals: cancel });
    }
    expect(finished(cancelled).error).toBe("cancelled");
    await session.close();

    const next = await DurableSession.open({ store, key: "s", dsl, cancel });
    expect(next.openedAs).toBe("rolled-back");
    const ids: string[] = [];
    for await (const { id } of next.stream({ query: "two" })) ids.push(id);
    await next.close();
    // Stores that check it (Redis, PostgreSQL) refuse an id that does not grow; every store keeps them in order.
    const logged = (await store.events("s")).map((e) => e.id);
    for (let i = 1; i < logged.length; i++) expect(compareEventIds(logged[i - 1], logged[i]), `${logged[i - 1]} then ${logged[i]}`).toBeLessThan(0);
    expect(logged.slice(-ids.length)).toEqual(ids);
  });

  it("a cancel sent while a session is paused does not cancel its resume; one sent while a crashed run waits does stop it", async () => {
    const store = new InProcessSnapshotStore();
    const cancel = new InProcessCancelSignals();
    const first = await DurableSession.open({ store, key: "p", dsl: "fixtures/user-fill-up.json", cancel, canvas: { taskId: "paused-task" } });
    expect((await collect(first.run({ query: "a badge" }))).at(-1)?.event).toBe("user_inputs");
    await cancelRun("paused-task", { signals: cancel });
    const resumed = await collect(first.run({ inputs: { name: "Ada", colour: "red" } }));
    expect(finished(resumed).error).toBeUndefined();
    await first.close();

    const dying = new DyingStore(5);
    const crashed = await DurableSession.open({ store: dying, key: "c", dsl: countingLoop(20), cancel, canvas: { taskId: "crashed-task" } });
    expect(finished(await collect(crashed.run({ query: "go" }))).error).toMatch(/could not be written/);
    await crashed.close();
    dying.revive();
    await cancelRun("crashed-task", { signals: cancel });
    const continued = await DurableSession.open({ store: dying, key: "c", dsl: countingLoop(20), cancel });
    expect(continued.openedAs).toBe("crashed");
    expect(finished(await collect(continued.run({}))).error).toBe("cancelled");
    await continued.close();
  });

  it("a pause is a stable point: another process resumes it with the inputs", async () => {
    const store = new InProcessSnapshotStore();
    const first = await DurableSession.open({ store, key: "s", dsl: "fixtures/user-fill-up.json" });
    const asked = await collect(first.run({ query: "a badge" }));
    expect(asked.at(-1)?.event).toBe("user_inputs");
    await first.close();
    const stored = await store.load("s");
    expect((stored?.deltas.at(-1) as { status: string }).status).toBe("paused");

    const second = await DurableSession.open({ store, key: "s", dsl: "fixtures/user-fill-up.json" });
    expect(second.openedAs).toBe("paused");
    const done = await collect(second.run({ inputs: { name: "Ada", colour: "red" } }));
    expect(messages(done).at(-1)).toBe("[red] Ada ");
    expect((await store.events("s")).map((e) => e.id.split("-")[0])).toContain("2");
    await second.close();
  });

  it("a stored checkpoint that does not apply is reported with the session and its position, and nothing changes", async () => {
    const store = new InProcessSnapshotStore();
    const first = await DurableSession.open({ store, key: "s", dsl: countingLoop(2) });
    const lock = await (async () => {
      await first.close();
      return store.lock("s");
    })();
    await store.append("s", { seq: 1, delta: JSON.stringify({ ops: [["set", "Ghost:X@out", 1]], status: "running", path: [], steps: 1, epoch: 1 }), events: [] }, { lock });
    await lock.release();
    const error = await DurableSession.open({ store, key: "s", dsl: countingLoop(2) }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ name: "SnapshotCorruptError" });
    expect((error as Error).message).toMatch(/^session "s": checkpoint 1 does not apply: reference \{Ghost:X@out\}: no component "Ghost:X"/);
    // The session is untouched and its lock free.
    expect((await store.load("s"))?.deltas).toHaveLength(1);
    await (await store.lock("s")).release();
  });

  it("holds the session's lock while open: a second process is refused until it closes", async () => {
    const store = new InProcessSnapshotStore();
    const first = await DurableSession.open({ store, key: "s", dsl: countingLoop(1) });
    await expect(DurableSession.open({ store, key: "s", dsl: countingLoop(1) })).rejects.toMatchObject({ name: "SessionLockedError" });
    await first.close();
    const second = await DurableSession.open({ store, key: "s", dsl: countingLoop(1) });
    await second.close();
  });

  describe("durability modes", () => {
    async function appendsDuring(durability: Durability): Promise<{ appendsAtEnd: number; appendsBeforeLastEvent: number; steps: number }> {
      const store = new DyingStore();
      const session = await DurableSession.open({ store, key: "s", dsl: countingLoop(4), durability });
      let appendsBeforeLastEvent = -1;
      let steps = 0;
      for await (const event of session.run({ query: "go" })) {
        if (event.event === "node_started") steps++;
        if (event.event === "workflow_finished") appendsBeforeLastEvent = store.appends;
      }
      await session.close();
      return { appendsAtEnd: store.appends, appendsBeforeLastEvent, steps };
    }

    it("sync and async write every checkpoint before the last event; exit writes once, at the end", async () => {
      for (const durability of ["sync", "async"] as const) {
        const { appendsAtEnd, appendsBeforeLastEvent, steps } = await appendsDuring(durability);
        expect(appendsBeforeLastEvent, durability).toBe(steps + 1);
        expect(appendsAtEnd, durability).toBe(steps + 1);
      }
      const exit = await appendsDuring("exit");
      expect(exit.appendsAtEnd).toBe(1);
    });
  });
});
