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
 * - With `liveEvents`, each event goes to the log as it happens (see writer.ts), and each run is
 *   checkpointed as started before its first event, so a run that logged anything is a run the
 *   next process continues with workflow_resumed, never one it starts over unannounced.
 */
import { canvasFromSource, CanvasValidationError, defaultRegistry, readSource } from "../api.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { CanvasDsl } from "../dsl/types.js";
import { unwrapDsl } from "../dsl/source.js";
import { validateSource } from "../dsl/validate.js";
import { Canvas, CheckpointReplayError, type CanvasRuntimeOptions, type CompiledCanvas } from "../engine/canvas.js";
import type { RunDelta } from "../engine/checkpoint.js";
import type { CanvasEvent } from "../engine/events.js";
import type { RunRequest } from "../engine/run.js";
import { readRunDelta } from "./delta-reader.js";
import { CheckpointWriter, type Durability, type RunEndRecord } from "./writer.js";
import type { CancelSignals, CheckpointStore, SessionLock } from "../backends/contracts.js";
import { SnapshotCorruptError, SnapshotStoreError } from "../backends/errors.js";

export type { Durability, RunEndRecord } from "./writer.js";

/** A run of a durable session: the engine's request, and what to keep with the run's end. */
export interface DurableRunRequest extends RunRequest {
  /**
   * Kept with the run's last checkpoint when it ends at a stable point, in the same write (see
   * RunEndRecord); the next open finds it as `endNote`.
   */
  end?: RunEndRecord;
}

export interface DurableSessionOptions {
  store: CheckpointStore;
  key: string;
  /**
   * The canvas to start a new session with: a path, JSON text or a DSL object. Left out, the
   * session must exist (`SessionNotFoundError` otherwise).
   */
  dsl?: string | object;
  /**
   * The same, validated and compiled already (`compileCanvas`): a server opening many sessions of
   * one agent compiles it once. Takes the place of `dsl`.
   */
  compiled?: CompiledCanvas;
  registry?: ComponentRegistry;
  /** Engine options (timeouts, services…); `taskId` names a new session's task. */
  canvas?: CanvasRuntimeOptions;
  /** When checkpoints are written (default: the store's `defaultDurability`). */
  durability?: Durability;
  /** Where cancel requests for the session's task are heard. */
  cancel?: CancelSignals;
  /**
   * The key and the task id (`canvas.taskId`) were made just now for a new session, and nobody
   * has seen them (a server's random session id): nothing can be stored or waiting under them. So
   * `open` creates the session without loading it first (one found there anyway is a
   * SnapshotConflictError, nothing written), and its first run neither clears nor looks up a
   * cancel flag: three store round trips less. Needs `dsl` or `compiled`. Leave it out for a key
   * or task id that may have been used before.
   */
  fresh?: boolean;
  /** Checkpoints after which a run that ends at a stable point writes a new base (default 10 000). */
  compactAfter?: number;
  /**
   * Ops (pool writes, history entries) in those checkpoints after which a run that ends at a
   * stable point writes a new base, however few checkpoints carry them (default 10 000): a Loop
   * of thousands of rounds is one step, one checkpoint with every round's writes.
   */
  compactAfterOps?: number;
  /**
   * Log each event as it happens, not only with its step's checkpoint, so that a reader of the
   * log (`followEvents`, another process) sees it at once. Costs one write per burst of events and
   * one checkpoint at each run's start. Not with durability `exit`.
   */
  liveEvents?: boolean;
}

export const DEFAULT_COMPACT_AFTER = 10_000;
const DEFAULT_COMPACT_AFTER_OPS = 10_000;

/** A session opened without a DSL to create it from does not exist (or expired). */
export class SessionNotFoundError extends SnapshotStoreError {
  constructor(key: string) {
    super(`session "${key}" does not exist (it was never created, was deleted, or expired)`, key, "session_not_found");
    this.name = "SessionNotFoundError";
  }
}

/** An event and its id in the session's log (`<run>-<n>`), for SSE `id:` lines. */
export interface LoggedRunEvent {
  id: string;
  event: CanvasEvent;
}

/** Why a session was opened the way it was. */
export type OpenedAs = "new" | "idle" | "paused" | "crashed" | "rolled-back";

export class DurableSession {
  private closed = false;
  private running = false;
  private saved = true;
  /** No cancel can be waiting for the task yet (see `fresh`): until the first run starts. */
  private unseenTask: boolean;

  private constructor(
    private readonly options: DurableSessionOptions,
    private readonly lock: SessionLock,
    private current: Canvas,
    /** Checkpoints written after the base so far. */
    private seq: number,
    /** The ops in those checkpoints. */
    private ops: number,
    /** How the session was found. */
    readonly openedAs: OpenedAs,
    /**
     * The `note` the session's last run kept with its last checkpoint (DurableRunRequest.end),
     * while that checkpoint is not yet folded into a new base; undefined otherwise.
     */
    readonly endNote: unknown = undefined,
  ) {
    this.unseenTask = openedAs === "new" && options.fresh === true;
  }

  /**
   * Take the session's lock and load it (or create it from `dsl`). Fails with SessionLockedError
   * while another live process holds it.
   */
  static async open(options: DurableSessionOptions): Promise<DurableSession> {
    const { store, key } = options;
    if (options.liveEvents && (options.durability ?? store.defaultDurability) === "exit") {
      throw new Error("liveEvents needs checkpoints during a run: choose durability sync or async, not exit");
    }
    const registry = options.registry ?? defaultRegistry;
    const lock = await store.lock(key);
    try {
      const stored = options.fresh ? undefined : await store.load(key);
      if (!stored) {
        const canvas = await newCanvas(options, registry);
        await store.save(key, canvas.toJSON(), { lock, expectedVersion: null });
        return new DurableSession(options, lock, canvas, 0, 0, "new");
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
        return new DurableSession(options, lock, canvas, 0, 0, "rolled-back");
      }
      const canvas = Canvas.fromCheckpoints(base, deltas, registry, options.canvas);
      const openedAs: OpenedAs = canvas.status === "running" ? "crashed" : canvas.status === "paused" ? "paused" : "idle";
      const ops = deltas.reduce((sum, delta) => sum + delta.ops.length, 0);
      return new DurableSession(options, lock, canvas, deltas.length, ops, openedAs, lastEndNote(deltas));
    } catch (error) {
      await lock.release();
      if (error instanceof CheckpointReplayError) {
        throw new SnapshotCorruptError(`session "${key}": ${error.message}; nothing was changed (delete the session to start it over)`, key);
      }
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
  run(request: DurableRunRequest = {}): AsyncIterable<CanvasEvent> {
    return { [Symbol.asyncIterator]: () => this.events(request) };
  }

  /** Like `run`, with each event's id in the session's log (for SSE `id:` lines). */
  async *stream(request: DurableRunRequest = {}): AsyncGenerator<LoggedRunEvent, void, undefined> {
    // Events are numbered as they are made and go out in that order.
    const made: LoggedRunEvent[] = [];
    const events = this.events(request, (logged) => made.push(logged));
    for (;;) {
      const step = await events.next();
      if (step.done) return;
      const logged = made.shift();
      // The last event may have been rewritten (its state could not be saved): it keeps its id.
      yield logged && logged.event === step.value ? logged : { id: logged?.id ?? "", event: step.value };
    }
  }

  /**
   * The run's events straight from the engine (no extra generator in between: a durable run should
   * cost little more than a plain one). Setting up (cancel watch) happens on the first `next`;
   * tearing down when the run's last checkpoint was handled, which the engine does even when
   * the reader stops early.
   */
  private events({ end: endRecord, ...request }: DurableRunRequest, onLogged?: (logged: LoggedRunEvent) => void): AsyncIterator<CanvasEvent> {
    if (this.closed) throw new Error(`durable session "${this.key}" is closed`);
    if (this.running) throw new Error(`durable session "${this.key}" is already running a turn`);
    this.running = true;
    this.saved = false;
    const { store, key, cancel } = this.options;
    const canvas = this.current;
    const durability = this.options.durability ?? store.defaultDurability;
    const controller = new AbortController();
    const unlinkSignal = linkSignal(request.signal, controller);
    let stopWatching: (() => Promise<void>) | undefined;
    const end = () => {
      unlinkSignal();
      void stopWatching?.().catch(() => undefined);
      this.running = false;
    };
    /** The writer has handled the run's end (its last checkpoint, or its suspension). */
    let ended = false;
    const writer = new CheckpointWriter({
      store,
      key,
      lock: this.lock,
      durability,
      canvas,
      seq: this.seq,
      compactAfter: this.options.compactAfter ?? DEFAULT_COMPACT_AFTER,
      ops: this.ops,
      compactAfterOps: this.options.compactAfterOps ?? DEFAULT_COMPACT_AFTER_OPS,
      live: this.options.liveEvents === true,
      ...(endRecord ? { end: endRecord } : {}),
      onEnd: (saved) => {
        ended = true;
        this.seq = writer.seq;
        this.ops = writer.ops;
        this.saved = saved;
        end();
      },
    });
    let n = 0;
    let epoch = 0;
    let inner: AsyncIterator<CanvasEvent> | undefined;
    const start = async (): Promise<AsyncIterator<CanvasEvent>> => {
      try {
        if (cancel) {
          // A new turn, or a resumed pause, clears a cancel left from before (RAGFlow never clears
          // it): nothing was running to hear it. A run continued after a crash keeps it: that run
          // was under way, and the cancel was meant for it.
          const unseen = this.unseenTask;
          this.unseenTask = false;
          if (canvas.status !== "running" && !unseen) await cancel.clear(canvas.taskId);
          stopWatching = await cancel.watch(canvas.taskId, () => controller.abort(new Error("cancelled")), { unseen });
        }
      } catch (error) {
        end();
        throw error;
      }
      inner = canvas
        .run({
          ...request,
          signal: controller.signal,
          checkpointAtStart: this.options.liveEvents === true,
          checkpoint: (delta) => writer.checkpoint(delta),
          onEvent: (event) => {
            if (n === 0) epoch = canvas.epoch;
            const logged = writer.logEvent(`${epoch}-${++n}`, event);
            onLogged?.(logged);
          },
        })[Symbol.asyncIterator]();
      return inner;
    };
    const next = (): Promise<IteratorResult<CanvasEvent>> => (inner ? inner.next() : start().then((it) => it.next()));
    // A suspended run ends without its last checkpoint: what it queued is written before it counts as ended.
    const settle = async (step: IteratorResult<CanvasEvent>): Promise<IteratorResult<CanvasEvent>> => {
      if (step.done && !ended) await writer.suspended();
      return step;
    };
    return {
      next: request.suspend ? () => next().then(settle) : next,
      return: async () => {
        if (inner?.return) await inner.return(undefined);
        else if (!inner) end();
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * End a run without running anything, and log its workflow_finished with `reason` (see
   * `Canvas.abandon`): the run under way (its process died) ends as failed or cancelled, so the
   * next turn starts before it, unless `messageId` names another run (a queued turn that never
   * started: only its end is logged); an idle or paused session stays as it is. For a queued turn
   * that was cancelled or given up, so that readers of the log see it end. If its checkpoint
   * cannot be written this rejects, and the session should be closed.
   */
  async abandon(reason: string, options: { as?: "failed" | "cancelled"; messageId?: string } = {}): Promise<LoggedRunEvent> {
    if (this.closed) throw new Error(`durable session "${this.key}" is closed`);
    if (this.running) throw new Error(`durable session "${this.key}" is already running a turn`);
    const canvas = this.current;
    const writer = new CheckpointWriter({
      store: this.options.store,
      key: this.key,
      lock: this.lock,
      durability: "sync",
      canvas,
      seq: this.seq,
      compactAfter: this.options.compactAfter ?? DEFAULT_COMPACT_AFTER,
      ops: this.ops,
      compactAfterOps: this.options.compactAfterOps ?? DEFAULT_COMPACT_AFTER_OPS,
      onEnd: (saved) => {
        this.seq = writer.seq;
        this.ops = writer.ops;
        this.saved = saved;
      },
    });
    let logged: LoggedRunEvent | undefined;
    const event = await canvas.abandon({
      reason,
      ...options,
      checkpoint: (delta) => writer.checkpoint(delta),
      onEvent: (made) => (logged = writer.logEvent(`${canvas.epoch}-1`, made)),
    });
    return logged ?? { id: "", event };
  }

  /** Release the session's lock. The session cannot run afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.lock.release();
  }
}

/** The note of the last run that ended at a stable point, if its last checkpoint holds one. */
function lastEndNote(deltas: readonly RunDelta[]): unknown {
  for (let i = deltas.length - 1; i >= 0; i--) {
    const { status, note } = deltas[i];
    if (status === "idle" || status === "paused") return note;
  }
  return undefined;
}

/** A new session's canvas: from `compiled`, else from `dsl`; neither: the session does not exist. */
async function newCanvas(options: DurableSessionOptions, registry: ComponentRegistry): Promise<Canvas> {
  if (options.compiled) return Canvas.fromCompiled(options.compiled, options.canvas);
  if (options.dsl === undefined) throw new SessionNotFoundError(options.key);
  return canvasFromSource(await readSource(options.dsl), registry, options.canvas);
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
