/**
 * Re-attaching to a run through its durable event log: what was logged after an id, then what
 * the run goes on logging, up to its last event; from another "process" (another store object on
 * shared data would do the same) as from this one.
 */
import { describe, expect, it } from "vitest";
import { DurableSession } from "../../src/durable/session.js";
import { followEvents } from "../../src/durable/follow.js";
import { InProcessSnapshotStore } from "../../src/backends/process/session-store.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import type { StoredEvent } from "../../src/backends/contracts.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";

/** A step that takes a little while, so a reader can attach mid-run. */
const Slow: ComponentDefinition = {
  name: "Slow",
  async invoke(ctx) {
    await new Promise((resolve) => setTimeout(resolve, 15));
    ctx.setOutput("n", 1);
  },
};

const chain = (n: number) => {
  const components: Record<string, ReturnType<typeof node>> = { begin: node("Begin", {}, ["S:0"]) };
  for (let i = 0; i < n; i++) components[`S:${i}`] = node("Slow", {}, i + 1 < n ? [`S:${i + 1}`] : []);
  return canvasDsl(components);
};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("followEvents", () => {
  it("replays what was logged after an id, then follows the live run to its last event", async () => {
    const store = new InProcessSnapshotStore();
    const session = await DurableSession.open({ store, key: "s", dsl: chain(12), registry: registryWith(Slow) });
    const live: string[] = [];
    let attachedAfter: string | undefined;
    let followed: Promise<StoredEvent[]> | undefined;
    for await (const { id } of session.stream({ query: "go" })) {
      live.push(id);
      if (live.length === 8) {
        attachedAfter = live[2];
        followed = collect(followEvents(store, "s", { after: attachedAfter, pollMs: 5 }));
      }
    }
    const got = await followed!;
    expect(got.map((e) => e.id)).toEqual(live.slice(3));
    expect((got.at(-1)!.event as unknown as CanvasEvent).event).toBe("workflow_finished");
    await session.close();
  });

  it("on a finished run, replays and stops; with latestRun, starts at the latest run", async () => {
    const store = new InProcessSnapshotStore();
    const session = await DurableSession.open({ store, key: "s", dsl: chain(2), registry: registryWith(Slow) });
    await collect(session.run({ query: "one" }));
    await collect(session.run({ query: "two" }));
    await session.close();
    const fromStart = await collect(followEvents(store, "s"));
    expect(fromStart[0].id).toBe("1-1");
    expect((fromStart.at(-1)!.event as { event: string }).event).toBe("workflow_finished");
    expect(fromStart.every((e) => e.id.startsWith("1-"))).toBe(true);
    const latest = await collect(followEvents(store, "s", { latestRun: true }));
    expect(latest[0].id).toBe("2-1");
    expect(latest.every((e) => e.id.startsWith("2-"))).toBe(true);
  });

  it("with `running`, a reader of a session where nothing runs gets what was logged and stops, told the log's last event", async () => {
    const store = new InProcessSnapshotStore();
    const session = await DurableSession.open({ store, key: "s", dsl: chain(2), registry: registryWith(Slow) });
    const ids = (await collect(session.stream({ query: "one" }))).map((e) => e.id);
    await session.close();
    const asked: Array<string | undefined> = [];
    const running = (last: StoredEvent | undefined) => {
      asked.push(last?.id);
      return false;
    };
    // Nothing after the run's last event: nothing, at once (without `running` it would wait).
    expect(await collect(followEvents(store, "s", { after: ids.at(-1), running, pollMs: 5 }))).toEqual([]);
    expect(asked).toEqual([ids.at(-1)]);
    // The rest of the run, up to its last event, without asking.
    asked.length = 0;
    expect((await collect(followEvents(store, "s", { after: ids[1], running, pollMs: 5 }))).map((e) => e.id)).toEqual(ids.slice(2));
    expect(asked).toEqual([]);
    // A run that never logged its last event (its process died): what there is, then the end.
    const cut = new InProcessSnapshotStore();
    const crashed = await DurableSession.open({ store: cut, key: "c", dsl: chain(3), registry: registryWith(Slow) });
    const seen: string[] = [];
    for await (const { id } of crashed.stream({ query: "go" })) {
      seen.push(id);
      if (seen.length === 6) break;
    }
    await crashed.close();
    const logged = (await cut.events("c")).map((e) => e.id);
    const stillRunning: boolean[] = [true, true, false];
    const got = await collect(followEvents(cut, "c", { running: () => stillRunning.shift() ?? false, pollMs: 5 }));
    expect(got.map((e) => e.id)).toEqual(logged);
    expect(stillRunning).toEqual([]);
    // An empty log: asked with no event, and done.
    asked.length = 0;
    expect(await collect(followEvents(store, "never-ran", { running, pollMs: 5 }))).toEqual([]);
    expect(asked).toEqual([undefined]);
  });

  it("stops when its signal aborts, even while nothing new is logged", async () => {
    const store = new InProcessSnapshotStore();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const got = await collect(followEvents(store, "never-ran", { signal: controller.signal, pollMs: 5 }));
    expect(got).toEqual([]);
  });
});
