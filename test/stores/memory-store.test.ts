/** The memory store: the conformance suite, plus expiry on an injected clock. */
import { describe, expect, it } from "vitest";
import { MemorySnapshotStore, type CanvasDsl } from "../../src/index.js";
import { describeSnapshotStore } from "./conformance.js";

describeSnapshotStore("MemorySnapshotStore", { open: () => new MemorySnapshotStore(), shared: false, expires: true, checkpoints: true });

describe("MemorySnapshotStore", () => {
  it("expires on its clock, exactly at ttlSeconds", async () => {
    let now = 1_000;
    const store = new MemorySnapshotStore({ now: () => now });
    const snapshot = { components: {} } as CanvasDsl;
    await store.save("k", snapshot, { ttlSeconds: 2 });
    now = 2_999;
    expect(await store.load("k")).toBeDefined();
    now = 3_000;
    expect(await store.load("k")).toBeUndefined();
    expect(await store.delete("k")).toBe(false);
  });

  it("never repeats a version, even for a deleted and re-created session", async () => {
    const store = new MemorySnapshotStore();
    const snapshot = { components: {} } as CanvasDsl;
    const v1 = await store.save("k", snapshot);
    await store.delete("k");
    const v2 = await store.save("k", snapshot, { expectedVersion: null });
    expect(v2).not.toBe(v1);
    await expect(store.save("k", snapshot, { expectedVersion: v1 })).rejects.toThrow(`expected version ${v1}, found version ${v2}`);
  });
});
