/** The memory store: the conformance suite, plus expiry on an injected clock. */
import { describe, expect, it } from "vitest";
import { InProcessSnapshotStore } from "../../src/backends/process/session-store.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { describeSnapshotStore } from "./conformance.js";

const clock = new ManualClock();
describeSnapshotStore("InProcessSnapshotStore", { open: () => new InProcessSnapshotStore({ now: clock.now }), shared: false, expires: true, checkpoints: true, clock });

describe("InProcessSnapshotStore", () => {
  it("expires on its clock, exactly at ttlSeconds", async () => {
    let now = 1_000;
    const store = new InProcessSnapshotStore({ now: () => now });
    const snapshot = { components: {} } as CanvasDsl;
    await store.save("k", snapshot, { ttlSeconds: 2 });
    now = 2_999;
    expect(await store.load("k")).toBeDefined();
    now = 3_000;
    expect(await store.load("k")).toBeUndefined();
    expect(await store.delete("k")).toBe(false);
  });

  it("never repeats a version, even for a deleted and re-created session", async () => {
    const store = new InProcessSnapshotStore();
    const snapshot = { components: {} } as CanvasDsl;
    const v1 = await store.save("k", snapshot);
    await store.delete("k");
    const v2 = await store.save("k", snapshot, { expectedVersion: null });
    expect(v2).not.toBe(v1);
    await expect(store.save("k", snapshot, { expectedVersion: v1 })).rejects.toThrow(`expected version ${v1}, found version ${v2}`);
  });

  it("keeps an event handed over as an object and reads it back as its JSON would give, a fresh copy each time", async () => {
    const store = new InProcessSnapshotStore({ maxEvents: 3 });
    const lock = await store.lock("k");
    await store.save("k", { components: {} } as CanvasDsl, { lock });
    const made = { event: "node_finished", data: { outputs: { n: 1 }, gone: undefined, when: new Date(0) } };
    // One handed over as the object (its text made only if read), one as text only.
    const asObject = { id: "1-1", event: made, get json() { return JSON.stringify(made); } };
    await store.append("k", { seq: 1, delta: "{}", events: [asObject, { id: "1-2", json: '{"event":"message"}' }] }, { lock });
    const read = await store.events("k");
    expect(read).toEqual([
      { id: "1-1", event: { event: "node_finished", data: { outputs: { n: 1 }, when: "1970-01-01T00:00:00.000Z" } } },
      { id: "1-2", event: { event: "message" } },
    ]);
    (read[0].event.data as { outputs: { n: number } }).outputs.n = 2;
    expect((await store.events("k", { after: "1-0" }))[0].event).toMatchObject({ data: { outputs: { n: 1 } } });
    expect(await store.events("k", { after: "1-1" })).toEqual([{ id: "1-2", event: { event: "message" } }]);
    // Past the cap: the most recent events, ids and events still side by side.
    await store.logEvents("k", [2, 3, 4, 5].map((n) => ({ id: `1-${n + 1}`, json: `{"n":${n}}` })), { lock });
    expect(await store.events("k")).toEqual([4, 5, 6].map((id) => ({ id: `1-${id}`, event: { n: id - 1 } })));
    expect(await store.lastEventId("k")).toBe("1-6");
  });

  it("refuses a delta given as a value that is not an object, naming the checkpoint", async () => {
    const store = new InProcessSnapshotStore();
    const lock = await store.lock("k");
    await store.save("k", { components: {} } as CanvasDsl, { lock });
    const record = { seq: 1, value: ["ops", 1], get delta() { return "[]"; }, events: [] };
    await expect(store.append("k", record, { lock })).rejects.toThrow('session "k": checkpoint 1: a delta given as a value must be an object, got an array');
    expect((await store.load("k"))!.deltas).toEqual([]);
  });
});

