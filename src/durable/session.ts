/**
 * A durable session: a canvas bound to a key in a CheckpointStore. Opening it takes the session's
 * lock (a lease), so one process at a time runs it; each run writes a checkpoint after every
 * batch (what changed, with the events emitted meanwhile), and a base snapshot whenever it pauses
 * or finishes. A process that opens a session whose last run never finished continues that run
 * from its last checkpoint.
 *
 * The rules, in one place:
 * - A stable point is where a run paused or finished (and where the session was created). The
 *   checkpoints are folded into a new base at a stable point once there are `compactAfter` of
 *   them, so loading never replays more than that.
 * - A run that fails or is cancelled leaves its checkpoints and events in the store, but the next
 *   open goes on from the last stable point before it: a half-done turn never becomes the next
 *   turn's starting point.
 * - A run whose process died (checkpoints ending in status `running`) is continued.
 * - Durability: `sync` waits for each checkpoint before the next batch; `async` writes them
 *   behind, in order, and waits for all of them before the run's last event is delivered; `exit`
 *   writes only at the end.
 * - The last event of a run (workflow_finished or user_inputs) is delivered once the run's last
 *   checkpoint is durable; if that write fails, workflow_finished carries the error instead.
 */
import { canvasFromSource, CanvasValidationError, defaultRegistry, readSource } from "../api.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { CanvasDsl } from "../dsl/types.js";
import { unwrapDsl } from "../dsl/source.js";
import { validateSource } from "../dsl/validate.js";
import { Canvas, type CanvasRuntimeOptions } from "../engine/canvas.js";
import type { RunDelta } from "../engine/checkpoint.js";
import type { CanvasEvent } from "../engine/events.js";
import type { RunRequest } from "../engine/run.js";
import { readRunDelta } from "./delta-reader.js";
import { CheckpointWriter, type Durability } from "./writer.js";
import type { CancelSignals } from "../stores/cancel-signals.js";
import type { CheckpointStore, SessionLock } from "../stores/snapshot-store.js";

export type { Durability } from "./writer.js";

export interface DurableSessionOptions {
  store: CheckpointStore;
  key: string;
  /** The canvas to start a new session with: a path, JSON text or a DSL object. */
  dsl: string | object;
  registry?: ComponentRegistry;
  /** Engine options (timeouts, services…); `taskId` names a new session's task. */
  canvas?: CanvasRuntimeOptions;
  /** When checkpoints are written (default: the store's `defaultDurability`). */
  durability?: Durability;
  /** Where cancel requests for the session's task are heard. */
  cancel?: CancelSignals;
  /** Checkpoints after which a run that ends at a stable point writes a new base (default 10 000). */
  compactAfter?: number;
}

export const DEFAULT_COMPACT_AFTER = 10_000;

/** An event and its id in the session's log (`<run>-<n>`), for SSE `id:` lines. */
export interface LoggedRunEvent {
  id: string;
  event: CanvasEvent;
}

/** Why a session was opened the way it was. */
export type OpenedAs = "new" | "idle" | "paused" | "crashed" | "rolled-back";

export class DurableSession {
  private closed = false;
  private saved = true;

  private constructor(
    private readonly options: DurableSessionOptions,
    private readonly lock: SessionLock,
    private current: Canvas,
    /** Checkpoints written after the base so far. */
    private seq: number,
    /** How the session was found. */
    readonly openedAs: OpenedAs,
  ) {}

  /**
   * Take the session's lock and load it (or create it from `dsl`). Fails with SessionLockedError
   * while another live process holds it.
   */
  static async open(options: DurableSessionOptions): Promise<DurableSession> {
    const { store, key } = options;
    const registry = options.registry ?? defaultRegistry;
    const lock = await store.lock(key);
    try {
      const stored = await store.load(key);
      if (!stored) {
        const canvas = canvasFromSource(await readSource(options.dsl), registry, options.canvas);
        await store.save(key, canvas.toJSON(), { lock, expectedVersion: null });
        return new DurableSession(options, lock, canvas, 0, "new");
      }
      const source = unwrapDsl(stored.snapshot, `session "${key}"`);
      const report = validateSource(source, { registry });
      if (!report.valid) throw new CanvasValidationError(report);
      const base = source.dsl as CanvasDsl;
      const deltas: RunDelta[] = stored.deltas.map((delta, i) => readRunDelta(delta, key, i + 1));
      const last = deltas.at(-1);
      if (last && (last.status === "failed" || last.status === "cancelled")) {
        // The turn did not finish: the session goes on from the last stable point before it, which
        // becomes the new base (the unfinished turn's events stay logged).
        let stable = deltas.length - 1;
        while (stable >= 0 && deltas[stable].status !== "idle" && deltas[stable].status !== "paused") stable--;
        const stableState = Canvas.fromCheckpoints(base, deltas.slice(0, stable + 1), registry, options.canvas).toJSON();
        // The runs go on being numbered after the unfinished turn: the next run's event ids must
        // come after the ones that turn logged.
        stableState.canvasflow = { ...stableState.canvasflow!, epoch: Math.max(stableState.canvasflow?.epoch ?? 0, last.epoch) };
        await store.save(key, stableState, { lock });
        const canvas = Canvas.fromValidatedDsl(stableState, registry, options.canvas);
        return new DurableSession(options, lock, canvas, 0, "rolled-back");
      }
      const canvas = Canvas.fromCheckpoints(base, deltas, registry, options.canvas);
      const openedAs: OpenedAs = canvas.status === "running" ? "crashed" : canvas.status === "paused" ? "paused" : "idle";
      return new DurableSession(options, lock, canvas, deltas.length, openedAs);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  get canvas(): Canvas {
    return this.current;
  }

  get key(): string {
    return this.options.key;
  }

  get taskId(): string {
    return this.current.taskId;
  }

  /**
   * Whether the last run's end is durable (its last checkpoint, or base, was written). When it
   * is not, its last event says why, and the session goes on from its last durable checkpoint.
   */
  get lastRunSaved(): boolean {
    return this.saved;
  }

  /** Run a turn (or resume a paused or crashed run) and stream its events. */
  run(request: RunRequest = {}): AsyncGenerator<CanvasEvent, void, undefined> {
    return this.drive(request, (logged) => logged.event);
  }

  /** Like `run`, with each event's id in the session's log. */
  stream(request: RunRequest = {}): AsyncGenerator<LoggedRunEvent, void, undefined> {
    return this.drive(request, (logged) => logged);
  }

  private async *drive<T>(request: RunRequest, shape: (logged: LoggedRunEvent) => T): AsyncGenerator<T, void, undefined> {
    if (this.closed) throw new Error(`durable session "${this.key}" is closed`);
    const { store, key, cancel } = this.options;
    const canvas = this.current;
    const durability = this.options.durability ?? store.defaultDurability;
    const startsTurn = canvas.status !== "paused" && canvas.status !== "running";
    // A new turn clears a cancel left from an earlier one (RAGFlow never clears it).
    if (cancel && startsTurn) await cancel.clear(canvas.taskId);
    const controller = new AbortController();
    const unlinkSignal = linkSignal(request.signal, controller);
    const stopWatching = cancel ? await cancel.watch(canvas.taskId, () => controller.abort(new Error("cancelled"))) : undefined;
    this.saved = false;
    const writer = new CheckpointWriter(store, key, this.lock, durability, this.seq, this.options.compactAfter ?? DEFAULT_COMPACT_AFTER);
    let n = 0;
    let epoch = 0;
    try {
      const events = canvas.run({
        ...request,
        signal: controller.signal,
        ...(durability === "exit" ? {} : { checkpoint: (delta: RunDelta) => writer.checkpoint(delta) }),
      })[Symbol.asyncIterator]();
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        const event = next.value;
        if (n === 0) epoch = canvas.epoch;
        const logged = { id: `${epoch}-${++n}`, event };
        writer.logEvent(logged.id, event);
        if (event.event !== "workflow_finished" && event.event !== "user_inputs") {
          yield shape(logged);
          continue;
        }
        // The last event waits for the run's last checkpoint (written when the run returns).
        const rest = await events.next();
        if (!rest.done) throw new Error("internal error: the run went on after its last event");
        const failure = await writer.finish(canvas);
        this.seq = writer.seq;
        this.saved = failure === undefined;
        yield shape(failure === undefined ? logged : { ...logged, event: unsavedEnding(event, failure) });
        return;
      }
    } finally {
      unlinkSignal();
      await stopWatching?.();
    }
  }

  /** Release the session's lock. The session cannot run afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.lock.release();
  }
}

/** The run's last event when its state could not be saved: the run is not over for the store. */
function unsavedEnding(event: CanvasEvent, failure: string): CanvasEvent {
  if (event.event === "workflow_finished") return { ...event, data: { ...event.data, error: event.data.error ?? failure } };
  return {
    event: "workflow_finished",
    message_id: event.message_id,
    created_at: event.created_at,
    task_id: event.task_id,
    data: { inputs: {}, outputs: {}, elapsed_time: 0, created_at: event.created_at, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 }, error: `the run paused, but ${failure}` },
  };
}

function linkSignal(external: AbortSignal | undefined, controller: AbortController): () => void {
  if (!external) return () => undefined;
  if (external.aborted) {
    controller.abort(external.reason);
    return () => undefined;
  }
  const onAbort = () => controller.abort(external.reason);
  external.addEventListener("abort", onAbort, { once: true });
  return () => external.removeEventListener("abort", onAbort);
}
