/**
 * Writes a run's checkpoints to its store in the chosen durability mode, with the events emitted
 * since the previous one, and the base snapshot when the run ends at a stable point.
 */
import type { Canvas } from "../engine/canvas.js";
import type { RunDelta } from "../engine/checkpoint.js";
import type { CanvasEvent } from "../engine/events.js";
import { errorMessage } from "../engine/runner.js";
import type { CheckpointRecord, CheckpointStore, Durability, LoggedEvent, SessionLock } from "../stores/snapshot-store.js";

export type { Durability };

/** A logged event whose JSON text is made on first use, once. */
class LazyLoggedEvent implements LoggedEvent {
  private text: string | undefined;
  constructor(
    readonly id: string,
    private readonly event: CanvasEvent,
  ) {}
  get json(): string {
    return (this.text ??= JSON.stringify(this.event));
  }
}

export const DURABILITIES: readonly Durability[] = ["sync", "async", "exit"];

/** Backoff before each retry of an async write that failed for a reason that may pass (a lost connection). */
const RETRY_DELAYS_MS = [50, 100, 200, 400, 800, 1600];

/** Errors that retrying cannot cure: the stored session is not what this run expects. */
const FINAL_ERRORS = new Set(["SnapshotConflictError", "SessionLockedError", "SessionLockLostError", "SnapshotCorruptError", "SnapshotKeyError"]);

export class CheckpointWriter {
  private events: LoggedEvent[] = [];
  private readonly queue: CheckpointRecord[] = [];
  private draining: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly store: CheckpointStore,
    private readonly key: string,
    private readonly lock: SessionLock,
    private readonly durability: Durability,
    /** Checkpoints after the base so far. */
    public seq: number,
    /** Checkpoints after which a run ending at a stable point writes a new base. */
    private readonly compactAfter: number,
  ) {}

  /**
   * An event the run emitted: it goes to the log with the next checkpoint. Its JSON is made when
   * a store first asks for it (a store in memory may never need it): events are read-only, and
   * the engine never changes one after emitting it.
   */
  logEvent(id: string, event: CanvasEvent): void {
    this.events.push(new LazyLoggedEvent(id, event));
  }

  /** The engine's checkpoint sink. The delta is serialized now: the run goes on changing the session. */
  checkpoint(delta: RunDelta): void | Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const record: CheckpointRecord = { seq: ++this.seq, delta: JSON.stringify(delta), events: this.events };
    this.events = [];
    if (this.durability === "sync") {
      // A store in this process writes at once: the run goes on without waiting for a promise.
      if (this.store.appendNow) {
        try {
          this.store.appendNow(this.key, record, { lock: this.lock });
          return;
        } catch (error) {
          this.failure = error instanceof Error ? error : new Error(String(error));
          throw error;
        }
      }
      return this.store.append(this.key, record, { lock: this.lock }).then(
        () => undefined,
        (error: unknown) => {
          this.failure = error instanceof Error ? error : new Error(String(error));
          throw error;
        },
      );
    }
    this.queue.push(record);
    this.draining ??= this.drain();
  }

  /**
   * After the run's last event: wait for every checkpoint, then fold them into a new base if the
   * run ended at a stable point (finished or paused) and there are enough of them. Resolves to
   * what went wrong, if anything.
   */
  async finish(canvas: Canvas): Promise<string | undefined> {
    try {
      if (this.durability === "exit") await this.writeEnd(canvas);
      else await this.draining;
      if (this.failure) throw this.failure;
      if (this.durability !== "sync") await this.store.flush?.(this.key);
      if ((canvas.status === "idle" || canvas.status === "paused") && this.seq >= this.compactAfter) {
        await this.store.save(this.key, canvas.toJSON(), { lock: this.lock });
        this.seq = 0;
      }
      return undefined;
    } catch (error) {
      return `its state could not be saved (${errorMessage(error)}); the session continues from its last durable checkpoint`;
    }
  }

  /**
   * `exit`: nothing was recorded during the run, so a stable end state is written whole (a new
   * base); then one checkpoint that changes nothing but the status carries the run's events.
   */
  private async writeEnd(canvas: Canvas): Promise<void> {
    const state = canvas.toJSON();
    const delta: RunDelta = {
      ops: [],
      status: canvas.status,
      path: state.path ?? [],
      steps: state.canvasflow?.steps ?? 0,
      epoch: canvas.epoch,
    };
    if (canvas.status === "idle" || canvas.status === "paused") {
      // The end state is the new base; the checkpoint only carries the events to the log.
      await this.store.save(this.key, state, { lock: this.lock });
      this.seq = 0;
    }
    await this.store.append(this.key, { seq: ++this.seq, delta: JSON.stringify(delta), events: this.events }, { lock: this.lock });
    this.events = [];
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.appendWithRetries(this.queue[0]);
        this.queue.shift();
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.queue.length = 0;
    } finally {
      this.draining = undefined;
    }
  }

  private async appendWithRetries(record: CheckpointRecord): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.store.append(this.key, record, { lock: this.lock });
        return;
      } catch (error) {
        if (attempt >= RETRY_DELAYS_MS.length || FINAL_ERRORS.has((error as Error).name)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }
}
