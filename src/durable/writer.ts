/**
 * Writes a run's checkpoints to its store in the chosen durability mode, with the events emitted
 * since the previous one. The run's last checkpoint (the one whose status is no longer
 * `running`) also waits for everything queued, flushes, and folds the checkpoints into a new
 * base when the run ended at a stable point and there are enough of them.
 *
 * In `async` mode the checkpoints that queued up while a write was under way go out together,
 * merged into one (applying the merged delta is applying them in order), so a run faster than
 * its store costs one write per round trip, not one per step.
 *
 * **Live events.** With `live`, events do not wait for their checkpoint: each goes to the log as
 * soon as the write before it is done (the ones made meanwhile together, `logEvents`). Checkpoints
 * and event writes go out one at a time, in the order they were made, so a checkpoint is never
 * stored before an event made ahead of it: a process that dies leaves a log that holds every
 * event of the steps its checkpoints hold (and perhaps some of the steps in flight, which the
 * next process runs again, announced by workflow_resumed). Events not yet written when a
 * checkpoint is taken go with it, in one write. The run's last event (workflow_finished or
 * user_inputs) always goes with the last checkpoint: a reader that sees it knows the session's
 * end state is stored.
 */
import type { Canvas } from "../engine/canvas.js";
import { isSelfContained, mergeDeltaParts, type RunDelta } from "../engine/checkpoint.js";
import type { CanvasEvent } from "../engine/events.js";
import { endsRun } from "./follow.js";
import type { CheckpointRecord, CheckpointStore, Durability, LoggedEvent, SessionLock } from "../backends/contracts.js";

export type { Durability };

/** Events written as soon as they are made, not with the rest of their step (see drainSoon). */
const STARTS_RUN = new Set<string>(["workflow_started", "workflow_resumed"]);

/** Backoff before each retry of an async write that failed for a reason that may pass (a lost connection). */
const RETRY_DELAYS_MS = [50, 100, 200, 400, 800, 1600];

/** Errors that retrying cannot cure: the stored session is not what this run expects. */
const FINAL_ERRORS = new Set(["SnapshotConflictError", "SessionLockedError", "SessionLockLostError", "SnapshotCorruptError", "SnapshotKeyError"]);

interface WriterOptions {
  store: CheckpointStore;
  key: string;
  lock: SessionLock;
  durability: Durability;
  /** The canvas whose run is written (its snapshot becomes the new base). */
  canvas: Canvas;
  /** Checkpoints after the base so far. */
  seq: number;
  /** Checkpoints after which a run ending at a stable point writes a new base. */
  compactAfter: number;
  /** Ops in the checkpoints after the base so far. */
  ops: number;
  /**
   * Ops after which a run ending at a stable point writes a new base, however few checkpoints
   * carry them: a Loop of thousands of rounds is one step, one checkpoint of tens of thousands
   * of ops, and without a new base every turn's would stay in the store.
   */
  compactAfterOps: number;
  /** Called once the run's last checkpoint was handled, with whether it was written. */
  onEnd: (saved: boolean) => void;
  /** Log each event as it happens, not only with its checkpoint (not with durability `exit`). */
  live?: boolean;
  /** What the caller keeps with the run's last checkpoint, and does once it is durable. */
  end?: RunEndRecord;
}

/**
 * What a caller keeps of a run with the run's last checkpoint, when the run ends at a stable point
 * (finished or paused): a server's turn messages. `note()` goes into that checkpoint (one write
 * with the run's end, on every store); `kept()` is called once it is durable, before the run's
 * last event is delivered and before the checkpoints are folded into a new base.
 */
export interface RunEndRecord {
  /** JSON kept in the run's last checkpoint as its `note`. */
  note(): unknown;
  /**
   * The checkpoint holding the note is durable: record it where it belongs. Resolves to false when
   * that failed: the checkpoints are then not folded into a new base, so the note stays for the
   * next open (`DurableSession.endNote`).
   */
  kept(): Promise<boolean>;
}

/** A checkpoint waiting in `async` mode: its ops as JSON (made at once: values may change later), the rest as given. */
interface Queued {
  ops: string;
  rest: Omit<RunDelta, "ops">;
  events: LoggedEvent[];
}

export class CheckpointWriter {
  private events: LoggedEvent[] = [];
  private readonly queue: Queued[] = [];
  private draining: Promise<void> | undefined;
  private failure: Error | undefined;
  /** Live: the run's last event, kept for its last checkpoint. */
  private lastEvent: LoggedEvent | undefined;
  private readonly live: boolean;
  /** Writes that failed for a reason that may pass are retried (async mode: nobody waits for them). */
  private readonly retries: boolean;
  seq: number;
  ops: number;

  constructor(private readonly options: WriterOptions) {
    this.seq = options.seq;
    this.ops = options.ops;
    this.live = options.live === true;
    if (this.live && options.durability === "exit") throw new Error("live events need checkpoints during the run: use durability sync or async, not exit");
    this.retries = options.durability === "async";
  }

  /**
   * An event the run emitted: it goes to the log with the next checkpoint. Its JSON is made when
   * a store first asks for it (a store in memory may never need it): events are read-only, and
   * the engine never changes one after emitting it.
   */
  logEvent(id: string, event: CanvasEvent): LazyLoggedEvent {
    const logged = new LazyLoggedEvent(id, event);
    if (!this.live) {
      this.events.push(logged);
    } else if (endsRun(event as unknown as Record<string, unknown>)) {
      this.lastEvent = logged;
    } else {
      this.events.push(logged);
      // The run's start or resumption is written at once; a step's events may wait for the rest
      // of the step (see drainSoon).
      this.draining ??= STARTS_RUN.has(event.event) ? this.drain() : this.drainSoon();
    }
    return logged;
  }

  /** The engine's checkpoint sink. The delta is serialized now: the run goes on changing the session. */
  checkpoint(delta: RunDelta): void | Promise<void> {
    this.ops += delta.ops.length;
    const final = delta.status !== "running";
    if (final) return this.finish(delta);
    if (this.failure) throw this.failure;
    const { durability } = this.options;
    if (durability === "exit") return;
    if (durability === "async") {
      this.enqueue(delta);
      return;
    }
    if (this.live) {
      // In line behind the event writes made before it, and waited for.
      this.enqueue(delta);
      return this.settled();
    }
    const { store, key, lock } = this.options;
    // A store in this process writes at once: the run goes on without waiting for a promise. It
    // may keep a delta that nothing else changes as it is (serializing it was a third of what a
    // checkpoint in memory cost).
    if (store.appendNow) {
      store.appendNow(key, isSelfContained(delta) ? this.keptRecord(delta) : this.record(delta), { lock });
      return;
    }
    return store.append(key, this.record(delta), { lock }).then(() => undefined);
  }

  private enqueue(delta: RunDelta): void {
    const { ops, ...rest } = delta;
    this.queue.push({ ops: JSON.stringify(ops), rest, events: this.events });
    this.events = [];
    this.draining ??= this.drain();
  }

  /** Everything queued is written (or the first failure, thrown). */
  private async settled(): Promise<void> {
    await this.draining;
    if (this.failure) throw this.failure;
  }

  private record(delta: RunDelta): CheckpointRecord {
    const record: CheckpointRecord = { seq: ++this.seq, delta: JSON.stringify(delta), events: this.events };
    this.events = [];
    return record;
  }

  /** A record carrying the delta itself (`isSelfContained`), its text made only if a store reads it. */
  private keptRecord(delta: RunDelta): CheckpointRecord {
    const record = new KeptCheckpointRecord(++this.seq, delta, this.events);
    this.events = [];
    return record;
  }

  /** The run's last checkpoint: everything queued first, then this one, then perhaps a new base. */
  private async finish(final: RunDelta): Promise<void> {
    const { store, key, lock, durability, canvas, end } = this.options;
    const stable = canvas.status === "idle" || canvas.status === "paused";
    const delta = end && stable ? { ...final, note: end.note() } : final;
    let saved = false;
    try {
      if (this.failure) throw this.failure;
      if (durability === "exit") {
        await this.writeEnd(delta);
        if (end && stable) await end.kept();
        saved = true;
        return;
      }
      if (this.live && this.lastEvent) this.events.push(this.lastEvent);
      if (durability === "async" || this.live) {
        this.enqueue(delta);
        await this.settled();
        await store.flush?.(key);
      } else {
        await store.append(key, this.record(delta), { lock });
      }
      // Recorded elsewhere before the run's last event goes out; the note stays until it is.
      const kept = end && stable ? await end.kept() : true;
      if (stable && kept && (this.seq >= this.options.compactAfter || this.ops >= this.options.compactAfterOps)) {
        await store.save(key, canvas.toJSON(), { lock });
        this.seq = 0;
        this.ops = 0;
      }
      saved = true;
    } finally {
      this.options.onEnd(saved);
    }
  }

  /**
   * The run was suspended (it stays under way, see RunRequest.suspend): everything it queued is
   * written, and the run counts as ended for its session.
   */
  async suspended(): Promise<void> {
    let saved = false;
    try {
      await this.settled();
      await this.options.store.flush?.(this.options.key);
      saved = true;
    } finally {
      this.options.onEnd(saved);
    }
  }

  /**
   * `exit`: nothing was recorded during the run, so a stable end state is written whole (a new
   * base); then one checkpoint that changes nothing but the status carries the run's events.
   */
  private async writeEnd(final: RunDelta): Promise<void> {
    const { store, key, lock, canvas } = this.options;
    const delta: RunDelta = { ops: [], status: final.status, path: final.path, steps: final.steps, epoch: final.epoch, ...(final.note !== undefined ? { note: final.note } : {}) };
    // The run's ops were never written: only the checkpoint below is.
    this.ops = this.options.ops;
    if (canvas.status === "idle" || canvas.status === "paused") {
      await store.save(key, canvas.toJSON(), { lock });
      this.seq = 0;
      this.ops = 0;
    }
    await store.append(key, this.record(delta), { lock });
    await store.flush?.(key);
  }

  /**
   * A step's events start a write once the work under way has had its turn (setImmediate): a step
   * that does not wait on I/O emits its node_started, its node_finished and its checkpoint in one
   * go, and they then go out in one write instead of two; so do a waiting step's node_finished and
   * checkpoint. A step that waits (an HTTP call, an LLM) has its node_started written as it starts
   * waiting, so a follower sees it as before. What this gives up: a process that dies inside a
   * step that never waits (a crash, not a kill at a random moment) has not logged that step's
   * node_started; the step was in flight, so the next process runs it again and names it in
   * workflow_resumed, which, like workflow_started, goes out at once.
   */
  private async drainSoon(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.drain();
  }

  /**
   * Write what is queued, one write at a time, in order: the checkpoints waiting (merged), then
   * (live) the events made since the last of them.
   */
  private async drain(): Promise<void> {
    try {
      for (;;) {
        if (this.queue.length > 0) {
          const batch = this.queue.splice(0);
          await this.withRetries((store, key, lock) => store.append(key, this.merged(batch), { lock }));
        } else if (this.live && this.events.length > 0 && !this.failure) {
          const events = this.events;
          this.events = [];
          await this.withRetries((store, key, lock) => store.logEvents(key, events, { lock }));
        } else {
          break;
        }
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.queue.length = 0;
    } finally {
      this.draining = undefined;
    }
  }

  /** One record for checkpoints that queued up together (their ops in order, the rest as of the last). */
  private merged(batch: Queued[]): CheckpointRecord {
    const ops = batch.map((q) => q.ops.slice(1, -1)).filter((text) => text.length > 0);
    const rest = batch.map((q) => q.rest).reduce((merged, next) => mergeDeltaParts(merged, next));
    const restJson = JSON.stringify(rest);
    const delta = `{"ops":[${ops.join(",")}]${restJson.length > 2 ? `,${restJson.slice(1)}` : "}"}`;
    return { seq: ++this.seq, delta, events: batch.length === 1 ? batch[0].events : batch.flatMap((q) => q.events) };
  }

  private async withRetries(write: (store: CheckpointStore, key: string, lock: SessionLock) => Promise<unknown>): Promise<void> {
    const { store, key, lock } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        await write(store, key, lock);
        return;
      } catch (error) {
        if (!this.retries || attempt >= RETRY_DELAYS_MS.length || FINAL_ERRORS.has((error as Error).name)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }
}

/** A checkpoint whose delta is kept as a value; its JSON text is made on first use, once. */
class KeptCheckpointRecord implements CheckpointRecord {
  private text: string | undefined;
  constructor(
    readonly seq: number,
    readonly value: RunDelta,
    readonly events: LoggedEvent[],
  ) {}
  get delta(): string {
    return (this.text ??= JSON.stringify(this.value));
  }
}

/** A logged event (its id and the event), whose JSON text is made on first use, once. */
class LazyLoggedEvent implements LoggedEvent {
  private text: string | undefined;
  constructor(
    readonly id: string,
    readonly event: CanvasEvent,
  ) {}
  get json(): string {
    return (this.text ??= JSON.stringify(this.event));
  }
}

export const DURABILITIES: readonly Durability[] = ["sync", "async", "exit"];
