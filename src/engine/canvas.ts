/**
 * The Canvas facade: a loaded DSL plus its session state. `run()` streams events; `toJSON()`
 * returns the whole state as a DSL snapshot that `loadCanvas()` resumes from.
 */
import type { ComponentRegistry } from "../components/registry.js";
import { createRunScope, endingScope, RUN_SCOPE_SERVICE } from "../components/run-scope.js";
import type { InputField, Outputs, RuntimeServices } from "../components/types.js";
import type { CanvasDsl, HistoryEntry } from "../dsl/types.js";
import type { ValidationIssue } from "../dsl/validate.js";
import { isPlainObject } from "../util/values.js";
import type { CanvasEvent } from "./events.js";
import { FRONTIER_POLICY } from "./frontier.js";
import { compileGraph, type CanvasGraph } from "./graph.js";
import { DEFAULT_MAX_STEPS, executeRun, type EngineOptions, type RunRequest } from "./run.js";
import { DEFAULT_COMPONENT_TIMEOUT_MS, DEFAULT_CONCURRENCY } from "./runner.js";
import { DEFAULT_EVENT_VALUE_LIMIT } from "./event-values.js";
import { applyDelta, type RunDelta } from "./checkpoint.js";
import { abandonRun, type AbandonRequest } from "./abandon.js";
import { freshSession, sessionFromSnapshot, snapshotOf, type CanvasSession } from "./session.js";
import { activeTraceContext } from "../tracing/registered.js";
import type { TraceParent } from "../tracing/run-spans.js";
import type { PendingInput, RunStatus } from "./state.js";

export interface CanvasRuntimeOptions {
  /** Components run at once within a batch (default 5, as RAGFlow's thread pool). */
  concurrency?: number;
  /** Default component timeout in ms (default 600 000); component types may declare their own. */
  timeoutMs?: number;
  /** Timeouts in ms for specific component ids. */
  componentTimeouts?: Record<string, number>;
  /** Component steps allowed per turn (default 10 000; 500 for Dify graphs, as in Dify). */
  maxSteps?: number;
  /** Wall-clock limit of one run in ms (default none; 1 200 000 for Dify graphs, as in Dify). */
  runTimeoutMs?: number;
  /** Services for components (LLM and tool providers, HTTP settings…). */
  services?: RuntimeServices;
  /**
   * Bytes of JSON one input or output value may take in an event (default 8 KiB); a larger value
   * is shown as `{"$truncated": {...}, "preview": ...}`. Full values stay in the state.
   */
  eventValueLimit?: number;
  /** Random source for Message's choice among alternative contents (default Math.random). */
  random?: () => number;
  /** `sys.user_id` for a fresh session. */
  userId?: string;
  /**
   * The task id of a fresh session (default: a new random id). A server can make it the session
   * id, as RAGFlow does, so that a cancel by task id reaches the session's runs.
   */
  taskId?: string;
}

export class Canvas {
  private readonly session: CanvasSession;
  private readonly engine: EngineOptions;

  private constructor(
    private readonly dsl: CanvasDsl,
    private readonly graph: CanvasGraph,
    session: CanvasSession,
    options: CanvasRuntimeOptions,
    /** Validation warnings (the DSL runs, but something deserves a look). */
    readonly warnings: readonly ValidationIssue[],
  ) {
    this.session = session;
    checkPositive("concurrency", options.concurrency, true);
    checkPositive("maxSteps", options.maxSteps, true);
    checkPositive("timeoutMs", options.timeoutMs, false);
    checkPositive("runTimeoutMs", options.runTimeoutMs, false);
    checkPositive("eventValueLimit", options.eventValueLimit, false);
    this.engine = {
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      defaultTimeoutMs: options.timeoutMs ?? DEFAULT_COMPONENT_TIMEOUT_MS,
      componentTimeouts: options.componentTimeouts ?? {},
      maxSteps: options.maxSteps ?? graph.limits?.maxSteps ?? DEFAULT_MAX_STEPS,
      runTimeoutMs: options.runTimeoutMs ?? graph.limits?.runTimeoutMs,
      eventValueLimit: options.eventValueLimit ?? DEFAULT_EVENT_VALUE_LIMIT,
      services: options.services ?? {},
      random: options.random ?? Math.random,
    };
  }

  /**
   * Build a canvas from a DSL that has already been validated. A DSL that carries canvasflow
   * run state (a snapshot) continues that session; any other DSL starts a fresh one, as RAGFlow
   * does when it resets a stored canvas for a new conversation.
   */
  static fromValidatedDsl(
    dsl: CanvasDsl,
    registry: ComponentRegistry,
    options: CanvasRuntimeOptions = {},
    warnings: readonly ValidationIssue[] = [],
  ): Canvas {
    const graph = compileCanvasGraph(dsl, registry);
    const session = dsl.canvasflow !== undefined ? sessionFromSnapshot(dsl, graph) : freshSession(dsl, graph, { userId: options.userId, taskId: options.taskId });
    return new Canvas(dsl, graph, session, options, warnings);
  }

  /**
   * A canvas from a DSL compiled once (`compileCanvas`): many sessions of one agent share its
   * validation and graph (the graph is read-only; each canvas has its own session state).
   */
  static fromCompiled(compiled: CompiledCanvas, options: CanvasRuntimeOptions = {}): Canvas {
    const { dsl, graph } = compiled;
    const session = dsl.canvasflow !== undefined ? sessionFromSnapshot(dsl, graph) : freshSession(dsl, graph, { userId: options.userId, taskId: options.taskId });
    return new Canvas(dsl, graph, session, options, compiled.warnings);
  }

  /**
   * Build a canvas from a base snapshot and the checkpoints written since (in order): the
   * session is exactly the one the run had at its last checkpoint. A `running` session continues
   * from there on its next `run()`.
   */
  static fromCheckpoints(
    base: CanvasDsl,
    deltas: readonly RunDelta[],
    registry: ComponentRegistry,
    options: CanvasRuntimeOptions = {},
    warnings: readonly ValidationIssue[] = [],
  ): Canvas {
    const canvas = Canvas.fromValidatedDsl(base, registry, options, warnings);
    deltas.forEach((delta, i) => {
      try {
        applyDelta(canvas.session, delta);
      } catch (error) {
        throw new CheckpointReplayError(i + 1, (error as Error).message);
      }
    });
    return canvas;
  }

  /**
   * Start a turn (or resume a paused run with `inputs`) and stream its events. What components
   * open for the run (MCP sessions) is closed when the stream ends.
   */
  run(request: RunRequest = {}): AsyncIterable<CanvasEvent> {
    const perRun = this.graph.filesPerRun;
    if (perRun !== undefined && request.files !== undefined && request.files.length > perRun) {
      // A checkpointed run is one run from start to end (its writer, cancel and time limit): the caller splits the files.
      if (request.checkpoint) return refusedRun(`this canvas runs ${perRun} file${perRun === 1 ? "" : "s"} a run, and a durable run was given ${request.files.length}: give each its own run`);
      return this.runEachFile(request, perRun);
    }
    const { scope, end } = createRunScope();
    const engine = { ...this.engine, services: { ...this.engine.services, [RUN_SCOPE_SERVICE]: scope } };
    // The run's span is a child of what is active now (the caller's own span, if their SDK made one).
    return endingScope(executeRun(this.session, request, engine, activeTraceContext() as TraceParent | undefined), end);
  }

  /**
   * A turn given more files than one run of this graph takes: a run for each group of files, in
   * order, one after the other. A run that fails does not stop the next; a cancelled one does.
   */
  private async *runEachFile(request: RunRequest, perRun: number): AsyncGenerator<CanvasEvent> {
    const files = request.files ?? [];
    for (let at = 0; at < files.length; at += perRun) {
      if (request.signal?.aborted) return;
      yield* this.run({ ...request, files: files.slice(at, at + perRun) });
      if (this.status === "cancelled") return;
    }
  }

  /**
   * End a run without running anything (a queued turn cancelled before it started, a run given
   * up after it kept killing its processes): see `abandonRun`. Resolves to its workflow_finished.
   */
  abandon(request: AbandonRequest): Promise<CanvasEvent> {
    return abandonRun(this.session, request, this.engine.eventValueLimit);
  }

  /** Run to the end and collect the events (convenience for tests and scripts). */
  async runToEnd(request: RunRequest = {}): Promise<CanvasEvent[]> {
    const events: CanvasEvent[] = [];
    for await (const event of this.run(request)) events.push(event);
    return events;
  }

  get status(): RunStatus {
    return this.session.status;
  }

  /** What a paused run waits for. */
  get pending(): PendingInput | undefined {
    return this.session.pending;
  }

  get taskId(): string {
    return this.session.taskId;
  }

  /**
   * The message id of the run under way (status `running`: its process died, and the next run
   * continues it under this id); undefined otherwise.
   */
  get runMessageId(): string | undefined {
    return this.session.status === "running" ? this.session.run?.message_id : undefined;
  }

  /**
   * The reply text the run under way has produced so far, as its checkpoints hold it (status
   * `running`: its process died); "" otherwise.
   */
  get replySoFar(): string {
    return this.session.status === "running" ? this.session.reply.join("") : "";
  }

  /** Runs started on this session so far (the first part of the ids of their events). */
  get epoch(): number {
    return this.session.epoch;
  }

  get globals(): Readonly<Record<string, unknown>> {
    return this.session.pool.globalsView();
  }

  get history(): readonly HistoryEntry[] {
    return this.session.history;
  }

  /** What messages call the entry ("Begin", Dify's "Start"). */
  get entryLabel(): string {
    return this.graph.entry?.label ?? "Begin";
  }

  /**
   * The form fields a new turn cannot start without, missing from `inputs` (a Dify Start refuses
   * the run; a Begin asks for them instead, by pausing: none here).
   */
  missingInputs(inputs: Readonly<Record<string, unknown>> | undefined): string[] {
    const required = this.graph.entry?.required ?? [];
    return required.filter((name) => {
      const value = inputs?.[name];
      return value === undefined || value === null;
    });
  }

  /** The ids of the canvas's components, in DSL order. */
  /** The compiled graph (read-only): what diagrams and traces are drawn from. */
  get compiledGraph(): CanvasGraph {
    return this.graph;
  }

  get componentIds(): string[] {
    return [...this.graph.nodes.keys()];
  }

  /** A component's current outputs. */
  outputs(componentId: string): Readonly<Outputs> | undefined {
    return this.session.pool.outputsOf(componentId);
  }

  /** Begin's prologue, shown before the first turn of a conversational canvas. */
  get prologue(): string {
    if (this.graph.entry) return this.graph.entry.prologue;
    const begin = this.graph.nodes.get(this.graph.entryId);
    const enabled = begin?.params.enablePrologue;
    const prologue = begin?.params.prologue;
    return enabled !== false && typeof prologue === "string" ? prologue : "";
  }

  /** Begin's mode: `conversational`, `task` or `Webhook`. */
  get mode(): string {
    if (this.graph.entry) return this.graph.entry.mode;
    const mode = this.graph.nodes.get(this.graph.entryId)?.params.mode;
    return typeof mode === "string" ? mode : "conversational";
  }

  /** The form fields Begin asks for. */
  get inputForm(): Record<string, InputField> {
    if (this.graph.entry) return { ...this.graph.entry.form };
    const inputs = this.graph.nodes.get(this.graph.entryId)?.params.inputs;
    return isPlainObject(inputs) ? (inputs as Record<string, InputField>) : {};
  }

  /**
   * The complete state as a DSL snapshot: the DSL with `path` (the pending frontier), `globals`,
   * `history` and `task_id` in RAGFlow's places, and the rest under `canvasflow`.
   */
  toJSON(): CanvasDsl {
    return snapshotOf(this.dsl, this.session);
  }
}

/**
 * A validated DSL with its compiled graph: what every canvas of that DSL shares. Made by
 * `compileCanvas` (api.ts); a server keeps one per agent version instead of validating and
 * compiling the agent's DSL on every new session.
 */
export interface CompiledCanvas {
  readonly dsl: CanvasDsl;
  readonly graph: CanvasGraph;
  readonly warnings: readonly ValidationIssue[];
}

/** The graph of a validated DSL; another format (Dify YAML) compiles in its own front end. */
export function compileCanvasGraph(dsl: CanvasDsl, registry: ComponentRegistry): CanvasGraph {
  const frontEnd = registry.frontEndFor(dsl);
  return frontEnd ? frontEnd.compile(dsl, registry) : compileGraph(dsl, registry, FRONTIER_POLICY);
}

/** A checkpoint that does not apply to the session built so far (stored data that is not what a run wrote). */
export class CheckpointReplayError extends Error {
  constructor(
    readonly seq: number,
    reason: string,
  ) {
    super(`checkpoint ${seq} does not apply: ${reason}`);
    this.name = "CheckpointReplayError";
  }
}

/** Options are checked when the canvas loads, so a run never starts with unusable settings. */
function checkPositive(name: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new RangeError(`option ${name} must be a positive ${integer ? "integer" : "number"}, got ${String(value)}`);
  }
}

/** A run refused before it starts: its iteration throws the reason. */
function refusedRun(reason: string): AsyncIterable<CanvasEvent> {
  return {
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error(reason)) }),
  };
}
