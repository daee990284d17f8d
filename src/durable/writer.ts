/**
 * Writes a run's checkpoints to its store in the chosen durability mode, with the events emitted
 * since the previous one. The run's last checkpoint (the one whose status is no longer
 * `running`) also waits for everything queued, flushes, and folds the checkpoints into a new
 * base when the run ended at a stable point and there are enough of them.
 *
 * In `async` mode the checkpoints that queued up while a write was under way go out together,
 * merged into one (applying the merged delta is applying them in order), so a run faster than
 * its store costs one write per round trip, not one per step.
 */
import type { Canvas } from "../engine/canvas.js";
import { mergeDeltaParts, type RunDelta } from "../engine/checkpoint.js";
import type { CanvasEvent } from "../engine/events.js";
import type { CheckpointRecord, CheckpointStore, Durability, LoggedEvent, SessionLock } from "../stores/snapshot-store.js";

export type { Durability };

/** Backoff before each retry of an async write that failed for a reason that may pass (a lost connection). */
const RETRY_DELAYS_MS = [50, 100, 200, 400, 800, 1600];

/** Errors that retrying cannot cure: the stored session is not what this run expects. */
const FINAL_ERRORS = new Set(["SnapshotConflictError", "SessionLockedError", "SessionLockLostError", "SnapshotCorruptError", "SnapshotKeyError"]);

export interface WriterOptions {
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
  /** Called once the run's last checkpoint was handled, with whether it was written. */
  onEnd: (saved: boolean) => void;
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
  seq: number;

  constructor(private readonly options: WriterOptions) {
    this.seq = options.seq;
  }

  /**
   * An event the run emitted: it goes to the log with the next checkpoint. Its JSON is made when
   * a store first asks for it (a store in memory may never need it): events are read-only, and
   * the engine never changes one after emitting it.
   */
  logEvent(id: string, event: CanvasEvent): LazyLoggedEvent {
    const logged = new LazyLoggedEvent(id, event);
    this.events.push(logged);
    return logged;
  }

  /** The engine's checkpoint sink. The delta is serialized now: the run goes on changing the session. */
  checkpoint(delta: RunDelta): void | Promise<void> {
    const final = delta.status !== "running";
    if (final) return this.finish(delta);
    if (this.failure) throw this.failure;
    const { durability } = this.options;
    if (durability === "exit") return;
    if (durability === "async") {
      this.enqueue(delta);
      return;
    }
    const record = this.record(delta);
    const { store, key, lock } = this.options;
    // A store in this process writes at once: the run goes on without waiting for a promise.
    if (store.appendNow) {
      store.appendNow(key, record, { lock });
      return;
    }
    return store.append(key, record, { lock }).then(() => undefined);
  }

  private enqueue(delta: RunDelta): void {
    const { ops, ...rest } = delta;
    this.queue.push({ ops: JSON.stringify(ops), rest, events: this.events });
    this.events = [];
    this.draining ??= this.drain();
  }

  private record(delta: RunDelta): CheckpointRecord {
    const record: CheckpointRecord = { seq: ++this.seq, delta: JSON.stringify(delta), events: this.events };
    this.events = [];
    return record;
  }

  /** The run's last checkpoint: everything queued first, then this one, then perhaps a new base. */
  private async finish(delta: RunDelta): Promise<void> {
    const { store, key, lock, durability, canvas } = this.options;
    let saved = false;
    try {
      if (this.failure) throw this.failure;
      if (durability === "exit") {
        await this.writeEnd(delta);
        saved = true;
        return;
      }
      if (durability === "async") {
        this.enqueue(delta);
        await this.draining;
        if (this.failure) throw this.failure;
        await store.flush?.(key);
      } else {
        await store.append(key, this.record(delta), { lock });
      }
      if ((canvas.status === "idle" || canvas.status === "paused") && this.seq >= this.options.compactAfter) {
        await store.save(key, canvas.toJSON(), { lock });
        this.seq = 0;
      }
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
    const delta: RunDelta = { ops: [], status: final.status, path: final.path, steps: final.steps, epoch: final.epoch };
    if (canvas.status === "idle" || canvas.status === "paused") {
      await store.save(key, canvas.toJSON(), { lock });
      this.seq = 0;
    }
    await store.append(key, this.record(delta), { lock });
    await store.flush?.(key);
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        await this.appendWithRetries(this.merged(batch));
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

  private async appendWithRetries(record: CheckpointRecord): Promise<void> {
    const { store, key, lock } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        await store.append(key, record, { lock });
        return;
      } catch (error) {
        if (attempt >= RETRY_DELAYS_MS.length || FINAL_ERRORS.has((error as Error).name)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }
}

/** A logged event (its id and the event), whose JSON text is made on first use, once. */
export class LazyLoggedEvent implements LoggedEvent {
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
