/**
 * The contract every SnapshotStore keeps, run against each implementation by its own test file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { SessionLockedError, SessionLockLostError, SnapshotConflictError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError } from "../../src/backends/errors.js";
import type { CheckpointStore, SnapshotStore } from "../../src/backends/contracts.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import { lastEvent, messageText } from "../helpers/dsl.js";
import type { ManualClock } from "../helpers/manual-clock.js";

export interface StoreHarness {
  /** A new store (closed by the suite). */
  open(): SnapshotStore | Promise<SnapshotStore>;
  /** Whether two stores from `open()` see the same sessions (as two processes would). */
  shared: boolean;
  /** Whether `ttlSeconds` is supported; if not, it must be rejected clearly. */
  expires: boolean;
  /** Write something under `key` that is not a snapshot: invalid JSON, then a JSON array. */
  corrupt?: (key: string, kind: "invalid-json" | "not-an-object") => Promise<void>;
  /** Keys this store rejects beyond the common ones. */
  badKeys?: string[];
  /** The store is a CheckpointStore (every backend will be). */
  checkpoints?: boolean;
  /**
   * The clock the stores from `open()` expire sessions by, when they take one: the suite moves
   * it instead of waiting. Without it (Redis, PostgreSQL: the server keeps time) it waits.
   */
  clock?: ManualClock;
}

const COMMON_BAD_KEYS: unknown[] = ["", "a\u0000b", "line\nbreak", "tab\there", 42, null, "x".repeat(1025)];

/** A real session: user-fill-up.json run to its pause. */
export async function pausedSnapshot(): Promise<CanvasDsl> {
  const canvas = await loadCanvas("fixtures/user-fill-up.json");
  const events = await canvas.runToEnd({ query: "a badge please" });
  expect(lastEvent(events).event).toBe("user_inputs");
  expect(canvas.status).toBe("paused");
  return canvas.toJSON();
}

/** A stand-in snapshot: no components, only a note to tell it apart. */
export function tinySnapshot(note: string): CanvasDsl {
  return { components: {}, note } as CanvasDsl;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeSnapshotStore(name: string, harness: StoreHarness): void {
  describe(`${name}: SnapshotStore conformance`, () => {
    const opened: SnapshotStore[] = [];
    let counter = 0;
    const freshKey = () => `session-${Date.now().toString(36)}-${++counter}`;
    async function open(): Promise<SnapshotStore> {
      const store = await harness.open();
      opened.push(store);
      return store;
    }
    /** A second writer on the same sessions: another store when the backend is shared. */
    async function second(store: SnapshotStore): Promise<SnapshotStore> {
      return harness.shared ? open() : store;
    }
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it("loads undefined for a key that was never saved", async () => {
      const store = await open();
      expect(await store.load(freshKey())).toBeUndefined();
    });

    it("round-trips a paused session that then resumes to the end", async () => {
      const store = await open();
      const key = freshKey();
      const snapshot = await pausedSnapshot();
      const version = await store.save(key, snapshot, { expectedVersion: null });
      expect(typeof version).toBe("string");

      // Another process: a new store on the same data.
      const other = await second(store);
      const loaded = await other.load(key);
      expect(loaded).toEqual({ snapshot, version, deltas: [] });

      const resumed = await loadCanvas(loaded!.snapshot);
      expect(resumed.status).toBe("paused");
      const events = await resumed.runToEnd({ inputs: { name: "Ada", colour: "blue", note: "VIP" } });
      expect(messageText(events)).toBe("[blue] Ada VIP");
      expect(lastEvent(events)).toMatchObject({ event: "workflow_finished" });
      expect((lastEvent(events).data as { error?: string }).error).toBeUndefined();

      const finished = await other.save(key, resumed.toJSON(), { expectedVersion: loaded!.version });
      expect(finished).not.toBe(version);
      const after = await store.load(key);
      expect(after?.version).toBe(finished);
      expect(after?.snapshot.canvasflow?.status).toBe("idle");
      expect(after?.snapshot.history).toEqual(resumed.toJSON().history);
    });

    it("hands out copies: changing a loaded or saved object does not change the store", async () => {
      const store = await open();
      const key = freshKey();
      const original = tinySnapshot("original");
      await store.save(key, original);
      original.note = "changed after save";
      const first = await store.load(key);
      first!.snapshot.note = "changed after load";
      expect((await store.load(key))?.snapshot).toEqual(tinySnapshot("original"));
    });

    it("refuses a save over a version other than the one loaded (SnapshotConflictError)", async () => {
      const store = await open();
      const key = freshKey();
      const v1 = await store.save(key, tinySnapshot("one"), { expectedVersion: null });
      const workerA = (await store.load(key))!;
      const workerB = (await store.load(key))!;
      expect(workerA.version).toBe(v1);

      const v2 = await store.save(key, tinySnapshot("B"), { expectedVersion: workerB.version });
      expect(v2).not.toBe(v1);
      const conflict = await store.save(key, tinySnapshot("A"), { expectedVersion: workerA.version }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(conflict).toBeInstanceOf(SnapshotConflictError);
      expect(conflict).toMatchObject({ key, expectedVersion: v1, actualVersion: v2 });
      expect((conflict as Error).message).toBe(`session "${key}" was changed by another writer: expected version ${v1}, found version ${v2}`);
      expect(await store.load(key)).toEqual({ snapshot: tinySnapshot("B"), version: v2, deltas: [] });
    });

    it("expectedVersion null creates only; a version for a missing session conflicts; no expectedVersion overwrites", async () => {
      const store = await open();
      const key = freshKey();
      const v1 = await store.save(key, tinySnapshot("first"), { expectedVersion: null });
      await expect(store.save(key, tinySnapshot("again"), { expectedVersion: null })).rejects.toThrow(
        new SnapshotConflictError(key, null, v1).message,
      );
      await expect(store.save(freshKey(), tinySnapshot("x"), { expectedVersion: v1 })).rejects.toMatchObject({
        name: "SnapshotConflictError",
        actualVersion: undefined,
        message: expect.stringContaining("no longer exists; it was expected at version"),
      });
      const v2 = await store.save(key, tinySnapshot("overwrite"));
      expect(v2).not.toBe(v1);
      expect((await store.load(key))?.snapshot).toEqual(tinySnapshot("overwrite"));
    });

    it("lets exactly one of two concurrent saves from the same version win", async () => {
      const store = await open();
      const other = await second(store);
      const key = freshKey();
      const v1 = await store.save(key, tinySnapshot("start"));
      const results = await Promise.allSettled([
        store.save(key, tinySnapshot("A"), { expectedVersion: v1 }),
        other.save(key, tinySnapshot("B"), { expectedVersion: v1 }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0].reason).toBeInstanceOf(SnapshotConflictError);
      const winner = results[0].status === "fulfilled" ? "A" : "B";
      expect((await store.load(key))?.snapshot).toEqual(tinySnapshot(winner));
    });

    it("deletes: true when the session existed, false otherwise; it can be created again", async () => {
      const store = await open();
      const key = freshKey();
      expect(await store.delete(key)).toBe(false);
      await store.save(key, tinySnapshot("doomed"));
      expect(await store.delete(key)).toBe(true);
      expect(await store.load(key)).toBeUndefined();
      expect(await store.delete(key)).toBe(false);
      await store.save(key, tinySnapshot("reborn"), { expectedVersion: null });
      expect((await store.load(key))?.snapshot).toEqual(tinySnapshot("reborn"));
    });

    it("locks a session: while held, another lock fails at once naming the session and the lock; released, it can be taken again", async () => {
      const store = await open();
      const other = await second(store);
      const key = freshKey();
      const lock = await store.lock(key); // no session yet: a new one can be locked too
      expect(lock.key).toBe(key);
      const refused = await other.lock(key).then(() => undefined, (error: unknown) => error);
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect(refused).toMatchObject({ key, lockLocation: expect.any(String) });
      expect((refused as Error).message).toContain(key);
      expect((refused as Error).message).toContain((refused as SessionLockedError).lockLocation);
      expect(lock.location).toContain((refused as SessionLockedError).lockLocation);
      await lock.release();
      await lock.release(); // twice is harmless
      const again = await other.lock(key);
      await again.release();
    });

    it("saves and deletes under the lock, expectedVersion still checked; without it, while another holds the lock, both are refused", async () => {
      const store = await open();
      const other = await second(store);
      const key = freshKey();
      const v1 = await store.save(key, tinySnapshot("before"), { expectedVersion: null });
      const lock = await store.lock(key);
      await expect(other.save(key, tinySnapshot("intruder"))).rejects.toBeInstanceOf(SessionLockedError);
      await expect(other.save(key, tinySnapshot("intruder"), { expectedVersion: v1 })).rejects.toBeInstanceOf(SessionLockedError);
      await expect(other.delete(key)).rejects.toBeInstanceOf(SessionLockedError);
      expect(await other.load(key)).toEqual({ snapshot: tinySnapshot("before"), version: v1, deltas: [] }); // reading needs no lock

      const stale = await store.save(key, tinySnapshot("stale"), { lock, expectedVersion: null }).then(() => undefined, (error: unknown) => error);
      expect(stale).toBeInstanceOf(SnapshotConflictError);
      const v2 = await store.save(key, tinySnapshot("under the lock"), { lock, expectedVersion: v1 });
      expect(await other.load(key)).toEqual({ snapshot: tinySnapshot("under the lock"), version: v2, deltas: [] });
      expect(await store.delete(key, { lock })).toBe(true);
      await lock.release();
      await other.save(key, tinySnapshot("after"), { expectedVersion: null });
      expect((await store.load(key))?.snapshot).toEqual(tinySnapshot("after"));
    });

    it("refuses a save under a released lock or another session's lock (SessionLockLostError), writing nothing", async () => {
      const store = await open();
      const key = freshKey();
      const released = await store.lock(key);
      await released.release();
      await expect(store.save(key, tinySnapshot("x"), { lock: released })).rejects.toBeInstanceOf(SessionLockLostError);
      const otherKey = freshKey();
      const otherLock = await store.lock(otherKey);
      await expect(store.save(key, tinySnapshot("x"), { lock: otherLock })).rejects.toThrow(`the lock passed is the lock of session "${otherKey}"`);
      await expect(store.delete(key, { lock: otherLock })).rejects.toBeInstanceOf(SessionLockLostError);
      await otherLock.release();
      expect(await store.load(key)).toBeUndefined();
    });

    if (harness.shared) {
      it("releases its locks when closed", async () => {
        const store = await harness.open();
        const key = freshKey();
        await store.lock(key);
        await store.close();
        const other = await open();
        const lock = await other.lock(key);
        await lock.release();
      });
    }

    if (harness.expires) {
      it("expires a session ttlSeconds after its last save; a save without a TTL keeps it", async () => {
        const store = await open();
        const key = freshKey();
        const wait = async (ms: number) => (harness.clock ? harness.clock.advance(ms) : await sleep(ms));
        await store.save(key, tinySnapshot("short-lived"), { ttlSeconds: 0.3 });
        expect((await store.load(key))?.snapshot).toEqual(tinySnapshot("short-lived"));
        await wait(500);
        expect(await store.load(key)).toBeUndefined();
        // Expired means gone: a create-only save succeeds.
        await store.save(key, tinySnapshot("again"), { expectedVersion: null, ttlSeconds: 0.3 });
        await store.save(key, tinySnapshot("kept"));
        await wait(500);
        expect((await store.load(key))?.snapshot).toEqual(tinySnapshot("kept"));
      });
    } else {
      it("rejects ttlSeconds, since it cannot expire sessions", async () => {
        const store = await open();
        const key = freshKey();
        await expect(store.save(key, tinySnapshot("x"), { ttlSeconds: 60 })).rejects.toThrow(/ttlSeconds is not supported/);
        expect(await store.load(key)).toBeUndefined();
      });
    }

    it("rejects bad keys with SnapshotKeyError in load, save and delete", async () => {
      const store = await open();
      for (const key of [...COMMON_BAD_KEYS, ...(harness.badKeys ?? [])]) {
        await expect(store.load(key as string), `load ${JSON.stringify(key)}`).rejects.toBeInstanceOf(SnapshotKeyError);
        await expect(store.save(key as string, tinySnapshot("x")), `save ${JSON.stringify(key)}`).rejects.toBeInstanceOf(SnapshotKeyError);
        await expect(store.delete(key as string), `delete ${JSON.stringify(key)}`).rejects.toBeInstanceOf(SnapshotKeyError);
        await expect(store.lock(key as string), `lock ${JSON.stringify(key)}`).rejects.toBeInstanceOf(SnapshotKeyError);
      }
      await expect(store.load("")).rejects.toThrow("session key must not be empty");
      await expect(store.load("a\nb")).rejects.toThrow('session key "a\\nb" contains a control character');
    });

    it("rejects bad options and snapshots that are not JSON objects, and stores nothing", async () => {
      const store = await open();
      const key = freshKey();
      await expect(store.save(key, tinySnapshot("x"), { ttlSeconds: -1 })).rejects.toThrow("ttlSeconds must be a positive number of seconds, got -1");
      await expect(store.save(key, tinySnapshot("x"), { ttlSeconds: Number.NaN })).rejects.toThrow("ttlSeconds must be a positive number of seconds, got NaN");
      await expect(store.save(key, tinySnapshot("x"), { ttlSeconds: "60" as unknown as number })).rejects.toThrow('ttlSeconds must be a positive number of seconds, got "60"');
      await expect(store.save(key, tinySnapshot("x"), { expectedVersion: 3 as unknown as string })).rejects.toThrow("expectedVersion must be a version string");
      await expect(store.save(key, [] as unknown as CanvasDsl)).rejects.toThrow(`session "${key}": a snapshot must be a canvas DSL object (canvas.toJSON()), got an array`);
      await expect(store.save(key, "text" as unknown as CanvasDsl)).rejects.toThrow(`session "${key}": a snapshot must be a canvas DSL object (canvas.toJSON()), got a string`);
      // A class instance is no snapshot, even when JSON.stringify could write it ("{}" for a Map).
      await expect(store.save(key, new Map() as unknown as CanvasDsl)).rejects.toThrow(`session "${key}": a snapshot must be a canvas DSL object (canvas.toJSON()), got an instance of Map`);
      const cyclic = tinySnapshot("cyclic") as CanvasDsl & { self?: unknown };
      cyclic.self = cyclic;
      await expect(store.save(key, cyclic)).rejects.toThrow(`session "${key}": the snapshot is not JSON-serializable`);
      expect(await store.load(key)).toBeUndefined();
    });

    if (harness.corrupt) {
      const corrupt = harness.corrupt;
      it("reports corrupt stored data with SnapshotCorruptError naming the key", async () => {
        const store = await open();
        const key = freshKey();
        await corrupt(key, "invalid-json");
        const error = await store.load(key).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(SnapshotCorruptError);
        expect((error as Error).message).toContain(key);
        expect((error as Error).message).toMatch(/is corrupt: not valid JSON/);

        const key2 = freshKey();
        await corrupt(key2, "not-an-object");
        await expect(store.load(key2)).rejects.toThrow(/is corrupt: expected a canvas snapshot object, found an array/);
        // Deleting is the way out.
        expect(await store.delete(key2)).toBe(true);
        expect(await store.load(key2)).toBeUndefined();
      });
    }

    it("refuses to work once closed", async () => {
      const store = await harness.open();
      await store.close();
      await expect(store.load(freshKey())).rejects.toThrow(SnapshotStoreError);
      await expect(store.load(freshKey())).rejects.toThrow(/snapshot store is closed/);
      await expect(store.save(freshKey(), tinySnapshot("x"))).rejects.toThrow(/snapshot store is closed/);
      await expect(store.lock(freshKey())).rejects.toThrow(/snapshot store is closed/);
      await store.close(); // closing twice is harmless
    });

    describe.runIf(harness.checkpoints)("checkpoints and the event log", () => {
      const openStore = async () => (await open()) as CheckpointStore;
      const secondStore = async (store: CheckpointStore) => (await second(store)) as CheckpointStore;
      const record = (seq: number, events: Array<[string, string]> = []) => ({
        seq,
        delta: JSON.stringify({ step: seq, ops: [["set", "env.x", seq]] }),
        events: events.map(([id, event]) => ({ id, json: JSON.stringify({ event, n: id }) })),
      });

      it("appends checkpoints after the base under the lock; load returns them in order; a new base drops them", async () => {
        const store = await openStore();
        const key = freshKey();
        const lock = await store.lock(key);
        const v0 = await store.save(key, tinySnapshot("base"), { lock });
        const v1 = await store.append(key, record(1), { lock });
        const v2 = await store.append(key, record(2), { lock });
        expect(new Set([v0, v1, v2]).size).toBe(3);
        const other = await secondStore(store);
        const loaded = await other.load(key);
        expect(loaded).toEqual({ snapshot: tinySnapshot("base"), version: v2, deltas: [JSON.parse(record(1).delta), JSON.parse(record(2).delta)] });
        const v3 = await store.save(key, tinySnapshot("compacted"), { lock, expectedVersion: v2 });
        expect(await other.load(key)).toEqual({ snapshot: tinySnapshot("compacted"), version: v3, deltas: [] });
        // Numbering starts over after a new base.
        await store.append(key, record(1), { lock });
        expect((await store.load(key))?.deltas).toHaveLength(1);
        await lock.release();
      });

      it("refuses a checkpoint out of order, one with no base, and one without the lock, writing nothing", async () => {
        const store = await openStore();
        const key = freshKey();
        const lock = await store.lock(key);
        await expect(store.append(key, record(1), { lock })).rejects.toBeInstanceOf(SnapshotConflictError);
        await store.save(key, tinySnapshot("base"), { lock });
        await store.append(key, record(1), { lock });
        const skipped = await store.append(key, record(3), { lock }).then(() => undefined, (e: unknown) => e);
        expect(skipped).toBeInstanceOf(SnapshotConflictError);
        expect((skipped as Error).message).toBe(`session "${key}": checkpoint 3 does not follow the last one (the next is 2); another run wrote this session, or a checkpoint was lost`);
        await expect(store.append(key, record(1), { lock })).rejects.toBeInstanceOf(SnapshotConflictError);
        await lock.release();
        await expect(store.append(key, record(2), { lock })).rejects.toBeInstanceOf(SessionLockLostError);
        const other = await secondStore(store);
        const otherLock = await other.lock(key);
        await expect(store.append(key, record(2), { lock })).rejects.toBeInstanceOf(SnapshotStoreError);
        expect((await other.load(key))?.deltas).toHaveLength(1);
        await otherLock.release();
      });

      it("refuses malformed checkpoints with a clear error: seq, delta text, event ids", async () => {
        const store = await openStore();
        const key = freshKey();
        const lock = await store.lock(key);
        await store.save(key, tinySnapshot("base"), { lock });
        await expect(store.append(key, { ...record(1), seq: 0 }, { lock })).rejects.toThrow(/seq must be a whole number from 1, got 0/);
        await expect(store.append(key, { seq: 1, delta: {} as unknown as string, events: [] }, { lock })).rejects.toThrow(/the delta must be JSON text/);
        await expect(store.append(key, record(1, [["seven", "x"]]), { lock })).rejects.toThrow(/event id "seven" is not <run>-<n>/);
        await expect(store.append(key, record(1, [["1-2", "a"], ["1-1", "b"]]), { lock })).rejects.toThrow(/event ids must grow \(1-2 then 1-1\)/);
        expect((await store.load(key))?.deltas).toEqual([]);
        await lock.release();
      });

      it("logs the events of each checkpoint: read from the start, after an id, a page at a time; a new base keeps them", async () => {
        const store = await openStore();
        const key = freshKey();
        const lock = await store.lock(key);
        await store.save(key, tinySnapshot("base"), { lock });
        await store.append(key, record(1, [["1-1", "workflow_started"], ["1-2", "node_started"]]), { lock });
        await store.append(key, record(2), { lock });
        await store.append(key, record(3, [["1-3", "node_finished"], ["1-10", "message"]]), { lock });
        await store.save(key, tinySnapshot("next turn"), { lock });
        await store.append(key, record(1, [["2-1", "workflow_started"]]), { lock });
        const other = await secondStore(store);
        const all = await other.events(key);
        expect(all.map((e) => e.id)).toEqual(["1-1", "1-2", "1-3", "1-10", "2-1"]);
        expect(all[0]).toEqual({ id: "1-1", event: { event: "workflow_started", n: "1-1" } });
        expect((await other.events(key, { after: "1-3" })).map((e) => e.id)).toEqual(["1-10", "2-1"]);
        expect((await other.events(key, { after: "1-2", limit: 2 })).map((e) => e.id)).toEqual(["1-3", "1-10"]);
        expect(await other.events(key, { after: "2-1" })).toEqual([]);
        expect(await other.events(freshKey())).toEqual([]);
        await expect(other.events(key, { after: "yesterday" })).rejects.toThrow(/event id "yesterday" is not an event id/);
        await lock.release();
        expect(await store.delete(key)).toBe(true);
        expect(await other.events(key)).toEqual([]);
      });

      it("refuses events that do not come after the last one logged, across checkpoints and bases", async () => {
        const store = await openStore();
        const key = freshKey();
        const lock = await store.lock(key);
        await store.save(key, tinySnapshot("base"), { lock });
        await store.append(key, record(1, [["2-5", "node_started"]]), { lock });
        const repeated = await store.append(key, record(2, [["2-5", "again"]]), { lock }).then(() => undefined, (e: unknown) => e);
        expect(repeated).toBeInstanceOf(SnapshotConflictError);
        await expect(store.append(key, record(2, [["1-9", "older run"]]), { lock })).rejects.toBeInstanceOf(SnapshotConflictError);
        await store.save(key, tinySnapshot("next base"), { lock });
        await expect(store.append(key, record(1, [["2-4", "before the base"]]), { lock })).rejects.toBeInstanceOf(SnapshotConflictError);
        await store.append(key, record(1, [["3-1", "next run"]]), { lock });
        expect((await store.events(key)).map((e) => e.id)).toEqual(["2-5", "3-1"]);
        await lock.release();
      });

      it("logs events ahead of their checkpoint under the lock, in one order with the checkpoints' events; lastEventId names the last", async () => {
        const store = await openStore();
        const key = freshKey();
        const events = (...ids: string[]) => ids.map((id) => ({ id, json: JSON.stringify({ event: "live", n: id }) }));
        const lock = await store.lock(key);
        const noSession = await store.logEvents(key, events("1-1"), { lock }).then(() => undefined, (e: unknown) => e);
        expect(noSession).toBeInstanceOf(SnapshotConflictError);
        expect((noSession as Error).message).toMatch(/does not exist: .*nothing was written$/);
        await store.save(key, tinySnapshot("base"), { lock });
        expect(await store.lastEventId(key)).toBeUndefined();
        await store.logEvents(key, events("1-1", "1-2"), { lock });
        const other = await secondStore(store);
        expect(await other.lastEventId(key)).toBe("1-2");
        const version = (await other.load(key))!.version;
        // The state did not change: no checkpoint, the same version.
        expect(await other.load(key)).toEqual({ snapshot: tinySnapshot("base"), version, deltas: [] });
        await store.append(key, record(1, [["1-3", "node_finished"]]), { lock });
        const repeated = await store.logEvents(key, events("1-3"), { lock }).then(() => undefined, (e: unknown) => e);
        expect(repeated).toBeInstanceOf(SnapshotConflictError);
        expect((repeated as Error).message).toContain(`session "${key}": logEvents's first event 1-3 does not come after the last one logged (1-3`);
        await store.logEvents(key, events("1-4", "1-5"), { lock });
        await expect(store.append(key, record(2, [["1-5", "again"]]), { lock })).rejects.toBeInstanceOf(SnapshotConflictError);
        await store.append(key, record(2), { lock });
        await store.save(key, tinySnapshot("next base"), { lock });
        await expect(store.logEvents(key, events("1-5"), { lock })).rejects.toBeInstanceOf(SnapshotConflictError);
        await store.logEvents(key, events("2-1"), { lock });
        expect((await other.events(key)).map((e) => e.id)).toEqual(["1-1", "1-2", "1-3", "1-4", "1-5", "2-1"]);
        expect((await other.events(key, { after: "1-3" }))[0]).toEqual({ id: "1-4", event: { event: "live", n: "1-4" } });
        expect((await other.load(key))?.deltas).toEqual([]);
        expect(await other.lastEventId(key)).toBe("2-1");
        await lock.release();
        await expect(store.logEvents(key, events("2-2"), { lock })).rejects.toBeInstanceOf(SessionLockLostError);
        const otherLock = await other.lock(key);
        await expect(store.logEvents(key, events("2-2"), { lock })).rejects.toBeInstanceOf(SnapshotStoreError);
        await expect(store.logEvents(key, events("2-2"), undefined as unknown as { lock: typeof lock })).rejects.toBeInstanceOf(SessionLockLostError);
        await otherLock.release();
        expect(await store.lastEventId(key)).toBe("2-1");
        expect(await store.delete(key)).toBe(true);
        expect(await other.lastEventId(key)).toBeUndefined();
      });

      it("refuses malformed live events with a clear error, writing nothing", async () => {
        const store = await openStore();
        const key = freshKey();
        const lock = await store.lock(key);
        await store.save(key, tinySnapshot("base"), { lock });
        await expect(store.logEvents(key, [], { lock })).rejects.toThrow(/logEvents needs at least one event/);
        await expect(store.logEvents(key, [{ id: "seven", json: "{}" }], { lock })).rejects.toThrow(/logEvents: event id "seven" is not <run>-<n>/);
        await expect(store.logEvents(key, [{ id: "1-2", json: "{}" }, { id: "1-1", json: "{}" }], { lock })).rejects.toThrow(/event ids must grow \(1-2 then 1-1\)/);
        expect(await store.events(key)).toEqual([]);
        await lock.release();
      });

      it("keeps a thousand checkpoints and their order", async () => {
        const store = await openStore();
        const key = freshKey();
        const lock = await store.lock(key);
        await store.save(key, tinySnapshot("base"), { lock });
        for (let seq = 1; seq <= 1000; seq++) await store.append(key, record(seq, [[`1-${seq}`, "node_finished"]]), { lock });
        const loaded = await (await secondStore(store)).load(key);
        expect(loaded?.deltas.map((d) => (d as { step: number }).step)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
        expect((await store.events(key, { after: "1-998" })).map((e) => e.id)).toEqual(["1-999", "1-1000"]);
        await lock.release();
      });
    });
  });
}
