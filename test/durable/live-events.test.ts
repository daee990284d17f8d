/**
 * Live event logs (`liveEvents`): each event reaches the session's durable log while its step is
 * still running, with ids that agree with the checkpoints: no event logged twice, ids only grow,
 * and a run that dies at any moment is continued with workflow_resumed. Over the memory store,
 * a real Redis, a real PostgreSQL and files.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareEventIds } from "../../src/backends/shared/sessions.js";
import type { CheckpointStore, StoredEvent } from "../../src/backends/contracts.js";
import { DurableSession } from "../../src/durable/session.js";
import { FileSnapshotStore } from "../../src/backends/files/session-store.js";
import { followEvents } from "../../src/durable/follow.js";
import { InProcessSnapshotStore } from "../../src/backends/process/session-store.js";
import { PostgresSnapshotStore } from "../../src/backends/postgres/session-store.js";
import { RedisSnapshotStore } from "../../src/backends/redis/session-store.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, finished, messages, node } from "../helpers/dsl.js";
import { connectTestPostgres, dropSchema, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { registryWith } from "../helpers/registry.js";
import { scratchDir } from "../helpers/scratch.js";

const redisPrefix = uniqueTestPrefix();
const pgSchema = uniqueTestSchema();
const files = scratchDir("canvasflow-live-events-");

interface Backend {
  name: string;
  /** A store on the backend's data; two calls give two stores on the same data (two processes). */
  open(): CheckpointStore;
}

const memory = new InProcessSnapshotStore();
const opened: CheckpointStore[] = [];
const track = <T extends CheckpointStore>(store: T): T => {
  opened.push(store);
  return store;
};
const BACKENDS: Backend[] = [
  // One memory store stands for the shared data: a "second process" gets the same object.
  { name: "memory", open: () => memory },
  { name: "redis", open: () => track(new RedisSnapshotStore({ url: TEST_REDIS_URL, keyPrefix: redisPrefix })) },
  { name: "postgres", open: () => track(new PostgresSnapshotStore({ url: TEST_POSTGRES_URL, schema: pgSchema })) },
  { name: "file", open: () => track(new FileSnapshotStore({ directory: join(files.dir, "sessions") })) },
];

afterAll(async () => {
  for (const store of opened) await store.close();
  const redis = await connectTestRedis();
  await deleteKeys(redis, redisPrefix);
  await deleteKeys(redis, `${redisPrefix.slice(0, -1)}-`);
  redis.disconnect();
  const pg = await connectTestPostgres();
  await dropSchema(pg, pgSchema);
  await pg.end();
});

let keys = 0;
const freshKey = () => `live-${process.pid}-${++keys}`;

/** While it runs, a Probe reads the session's log: what was logged about it by then. */
function probeRegistry(seen: (componentId: string) => Promise<void>) {
  const Probe: ComponentDefinition = {
    name: "Probe",
    async invoke(ctx) {
      await seen(ctx.id);
      ctx.setOutput("content", `probed ${ctx.id}`);
    },
  };
  return registryWith(Probe);
}

/** begin → P:0 → … → P:n-1 → Message (quoting the last probe). */
function probeChain(n: number): CanvasDsl {
  const components: Record<string, ReturnType<typeof node>> = { begin: node("Begin", {}, ["P:0"]) };
  for (let i = 0; i < n; i++) components[`P:${i}`] = node("Probe", {}, [i + 1 < n ? `P:${i + 1}` : "Message:End"]);
  components["Message:End"] = node("Message", { content: [`done: {P:${n - 1}@content}`] });
  return canvasDsl(components);
}

/** A store whose writes (checkpoints and live events) fail from the `failAfter`-th on: the process died there. */
function dying(store: CheckpointStore, failAfter: number): CheckpointStore & { writes: number } {
  let writes = 0;
  const die = () => {
    if (++writes > failAfter) throw new Error("the process died here");
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "writes") return writes;
      if (property === "appendNow") return undefined;
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      if (property === "append" || property === "logEvents") {
        return async (...args: unknown[]) => {
          die();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  }) as CheckpointStore & { writes: number };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const asEvents = (logged: StoredEvent[]) => logged.map((e) => e.event as unknown as CanvasEvent);
const ids = (logged: StoredEvent[]) => logged.map((e) => e.id);

function expectGrowing(list: string[]): void {
  for (let i = 1; i < list.length; i++) expect(compareEventIds(list[i - 1], list[i]), `${list[i - 1]} then ${list[i]}`).toBeLessThan(0);
}

describe.each(BACKENDS)("live event log over $name", (backend) => {
  it("logs each event while its step is still running; without liveEvents it waits for the step's checkpoint", async () => {
    for (const [live, durability] of [[true, "sync"], [true, "async"], [false, "sync"]] as const) {
      const store = backend.open();
      const reader = backend.open();
      const key = freshKey();
      const loggedWhileRunning: Record<string, boolean> = {};
      // Live events are written as soon as the write before them is done, not before the step
      // starts: the probe looks for a while (a live log shows it within a round trip or two), or,
      // without liveEvents, once after a moment (its checkpoint cannot come while the step runs).
      const registry = probeRegistry(async (id) => {
        for (let look = 0; look < (live ? 500 : 1); look++) {
          await new Promise((r) => setTimeout(r, live ? 5 : 50));
          const logged = asEvents(await reader.events(key));
          loggedWhileRunning[id] = logged.some((e) => e.event === "node_started" && e.data.component_id === id);
          if (loggedWhileRunning[id]) break;
        }
      });
      const session = await DurableSession.open({ store, key, dsl: probeChain(3), registry, durability, liveEvents: live });
      const streamed = await collect(session.stream({ query: "go" }));
      await session.close();
      // The probe's own node_started is made before it runs: a live log already holds it.
      expect(loggedWhileRunning, `liveEvents: ${live}, ${durability}`).toEqual({ "P:0": live, "P:1": live, "P:2": live });
      // Either way the log ends up holding exactly what was streamed, under the same ids.
      const log = await reader.events(key);
      expect(ids(log)).toEqual(streamed.map((e) => e.id));
      expect(log.map((e) => e.event)).toEqual(JSON.parse(JSON.stringify(streamed.map((e) => e.event))));
      expect(messages(streamed.map((e) => e.event))).toEqual(["done: probed P:2"]);
    }
  });

  it("a follower in another process sees a live run's events before the run ends, and stops at its last event", async () => {
    const key = freshKey();
    let followed: Promise<StoredEvent[]> | undefined;
    let seenBeforeEnd = false;
    const registry = probeRegistry(async (id) => {
      if (id === "P:0") followed = collect(followEvents(backend.open(), key, { pollMs: 5 }));
      if (id !== "P:3") return;
      // While P:3 runs, another store on the same data already shows P:2 finished.
      const reader = backend.open();
      for (let i = 0; i < 400 && !seenBeforeEnd; i++) {
        seenBeforeEnd = asEvents(await reader.events(key)).some((e) => e.event === "node_finished" && e.data.component_id === "P:2");
        if (!seenBeforeEnd) await new Promise((r) => setTimeout(r, 5));
      }
    });
    const session = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(5), registry, liveEvents: true });
    const streamed = await collect(session.stream({ query: "go" }));
    await session.close();
    expect(seenBeforeEnd).toBe(true);
    const got = await followed!;
    expect(ids(got)).toEqual(streamed.map((e) => e.id));
    expect(asEvents(got).at(-1)?.event).toBe("workflow_finished");
  });

  it("a run that dies before its first step's checkpoint is continued with workflow_resumed, not started over", async () => {
    const key = freshKey();
    const registry = probeRegistry(async () => undefined);
    // Writes: the start checkpoint, then the first live events (workflow_started, node_started begin…); then it dies.
    const store = dying(backend.open(), 2);
    // sync: one write per checkpoint and per burst of events, so the death comes at a known place.
    const first = await DurableSession.open({ store, key, dsl: probeChain(3), registry, liveEvents: true, durability: "sync" });
    const before = await collect(first.run({ query: "go" }));
    expect(finished(before).error).toMatch(/the process died here/);
    await first.close();

    const reader = backend.open();
    const loggedBefore = await reader.events(key);
    expect(asEvents(loggedBefore)[0].event).toBe("workflow_started");
    const second = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(3), registry, liveEvents: true });
    expect(second.openedAs).toBe("crashed");
    const after = await collect(second.stream({}));
    await second.close();
    expect(after[0].event.event).toBe("workflow_resumed");
    expect(finished(after.map((e) => e.event)).error).toBeUndefined();
    expect(messages(after.map((e) => e.event))).toEqual(["done: probed P:2"]);
    const log = await reader.events(key);
    expectGrowing(ids(log));
    // The continued run's events follow the dead run's, under the next run number.
    expect(ids(log).slice(loggedBefore.length)).toEqual(after.map((e) => e.id));
    expect(after[0].id.split("-")[0]).toBe(String(Number(loggedBefore[0].id.split("-")[0]) + 1));
  });

  it("a run that dies mid-way: every step is logged once, except those in flight, which workflow_resumed names", async () => {
    const key = freshKey();
    const registry = probeRegistry(async () => undefined);
    const clean = new InProcessSnapshotStore();
    const reference = await DurableSession.open({ store: clean, key: "clean", dsl: probeChain(6), registry });
    const uninterrupted = await collect(reference.run({ query: "go" }));
    await reference.close();

    // The start checkpoint, then one write per step (a step that waits on no I/O logs its events
    // with its checkpoint): the 6th write comes mid-chain.
    const store = dying(backend.open(), 5);
    const first = await DurableSession.open({ store, key, dsl: probeChain(6), registry, liveEvents: true, durability: "sync" });
    const before = await collect(first.stream({ query: "go" }));
    await first.close();
    expect(finished(before.map((e) => e.event)).error).toMatch(/could not be written \(the process died here\)/);

    const second = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(6), registry, liveEvents: true });
    const after = await collect(second.run({}));
    await second.close();
    expect(messages(after)).toEqual(messages(uninterrupted));

    const log = asEvents(await backend.open().events(key));
    expectGrowing(ids(await backend.open().events(key)));
    const resumed = log.filter((e) => e.event === "workflow_resumed");
    expect(resumed).toHaveLength(1);
    const inFlight = resumed[0].event === "workflow_resumed" ? resumed[0].data.in_flight : [];
    const finishedSteps = log.filter((e) => e.event === "node_finished").map((e) => (e.event === "node_finished" ? e.data.component_id : ""));
    const cleanSteps = uninterrupted.filter((e) => e.event === "node_finished").map((e) => (e.event === "node_finished" ? e.data.component_id : ""));
    // Each step once, plus at most one more time for each step that was in flight.
    for (const id of new Set(cleanSteps)) {
      const times = finishedSteps.filter((s) => s === id).length;
      expect(times, id).toBeGreaterThanOrEqual(1);
      expect(times, id).toBeLessThanOrEqual(inFlight.includes(id) ? 2 : 1);
    }
    expect(log.filter((e) => e.event === "workflow_finished")).toHaveLength(1);
  });

  it("abandon ends a crashed run as failed with its reason in the log; a paused session stays paused", async () => {
    const key = freshKey();
    const registry = probeRegistry(async () => undefined);
    const first = await DurableSession.open({ store: dying(backend.open(), 4), key, dsl: probeChain(4), registry, liveEvents: true, durability: "sync", canvas: { taskId: "t-abandon" } });
    await collect(first.run({ query: "go", messageId: "job-1" }));
    await first.close();

    const reader = backend.open();
    // A queued turn behind the dead run, given up: only its end is logged; the dead run stays under way.
    const queued = await DurableSession.open({ store: backend.open(), key, liveEvents: true, registry });
    const queuedEnd = await queued.abandon("cancelled", { as: "cancelled", messageId: "job-queued" });
    await queued.close();
    expect(queuedEnd.event).toMatchObject({ event: "workflow_finished", message_id: "job-queued", data: { error: "cancelled" } });
    const second = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(4), registry, liveEvents: true });
    expect(second.openedAs).toBe("crashed");
    expect(second.canvas.runMessageId).toBe("job-1");
    const ended = await second.abandon("the run crashed its worker 3 times; it was given up", { messageId: "job-1" });
    await second.close();
    expect(ended.event).toMatchObject({ event: "workflow_finished", message_id: "job-1", task_id: "t-abandon", data: { error: "the run crashed its worker 3 times; it was given up" } });
    const log = await reader.events(key);
    expect(log.at(-1)).toEqual({ id: ended.id, event: JSON.parse(JSON.stringify(ended.event)) });
    expectGrowing(ids(log));
    const third = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(4), registry, liveEvents: true });
    expect(third.openedAs).toBe("rolled-back");
    await third.close();

    // A paused session abandoned (a queued resume cancelled) waits for its inputs as before.
    const pausedKey = freshKey();
    const paused = await DurableSession.open({ store: backend.open(), key: pausedKey, dsl: "fixtures/user-fill-up.json", liveEvents: true });
    expect((await collect(paused.run({ query: "a badge" }))).at(-1)?.event).toBe("user_inputs");
    const cancelled = await paused.abandon("cancelled", { as: "cancelled", messageId: "job-2" });
    expect(cancelled.event).toMatchObject({ event: "workflow_finished", message_id: "job-2", data: { error: "cancelled" } });
    await paused.close();
    const again = await DurableSession.open({ store: backend.open(), key: pausedKey, dsl: "fixtures/user-fill-up.json", liveEvents: true });
    expect(again.openedAs).toBe("paused");
    const done = await collect(again.run({ inputs: { name: "Ada", colour: "red" } }));
    expect(messages(done).at(-1)).toBe("[red] Ada ");
    await again.close();
    expectGrowing(ids(await reader.events(pausedKey)));
  });

  it("a suspended run stops between two steps with nothing to redo: another process continues it, no step runs twice", async () => {
    const key = freshKey();
    const suspend = new AbortController();
    const runs: string[] = [];
    const registry = probeRegistry(async (id) => {
      runs.push(id);
      if (id === "P:1") suspend.abort();
    });
    const first = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(4), registry, liveEvents: true });
    const before = await collect(first.stream({ query: "go", suspend: suspend.signal }));
    // No last event: the run is not over.
    expect(before.map((e) => e.event.event)).not.toContain("workflow_finished");
    expect(first.lastRunSaved).toBe(true);
    await first.close();

    const second = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(4), registry, liveEvents: true });
    expect(second.openedAs).toBe("crashed");
    const after = await collect(second.stream({}));
    await second.close();
    expect(after[0].event).toMatchObject({ event: "workflow_resumed", data: { in_flight: ["P:2"] } });
    expect(messages(after.map((e) => e.event))).toEqual(["done: probed P:3"]);
    expect(runs).toEqual(["P:0", "P:1", "P:2", "P:3"]);
    const log = await backend.open().events(key);
    expect(ids(log)).toEqual([...before, ...after].map((e) => e.id));
  });

  it("followEvents with a message id skips the other runs in between and stops at that run's last event", async () => {
    const key = freshKey();
    const registry = probeRegistry(async () => undefined);
    const session = await DurableSession.open({ store: backend.open(), key, dsl: probeChain(1), registry, liveEvents: true });
    const after = await backend.open().lastEventId(key);
    await collect(session.run({ query: "one", messageId: "m-one" }));
    const two = await collect(session.stream({ query: "two", messageId: "m-two" }));
    await collect(session.run({ query: "three", messageId: "m-three" }));
    await session.close();
    const followed = await collect(followEvents(backend.open(), key, { ...(after === undefined ? {} : { after }), messageId: "m-two" }));
    expect(ids(followed)).toEqual(two.map((e) => e.id));
    expect(asEvents(followed).every((e) => e.message_id === "m-two")).toBe(true);
  });
});

describe("live event log: options", () => {
  it("opens only an existing session when no DSL is given", async () => {
    await expect(DurableSession.open({ store: new InProcessSnapshotStore(), key: "nobody" })).rejects.toThrow(
      'session "nobody" does not exist (it was never created, was deleted, or expired)',
    );
  });

  it("refuses liveEvents with durability exit, which writes nothing until the run ends", async () => {
    await expect(DurableSession.open({ store: new InProcessSnapshotStore(), key: "k", dsl: probeChain(1), liveEvents: true, durability: "exit" })).rejects.toThrow(
      "liveEvents needs checkpoints during a run: choose durability sync or async, not exit",
    );
  });
});
