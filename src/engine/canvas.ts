/**
 * The Canvas facade: a loaded DSL plus its session state. `run()` streams events; `toJSON()`
 * returns the whole state as a DSL snapshot that `loadCanvas()` resumes from.
 */
import { nanoid } from "nanoid";
import type { ComponentRegistry } from "../components/registry.js";
import { isTextStream } from "../components/text-stream.js";
import type { InputField, Outputs, RuntimeServices } from "../components/types.js";
import type { CanvasDsl, HistoryEntry } from "../dsl/types.js";
import type { ValidationIssue } from "../dsl/validate.js";
import { VariablePool } from "../pool/pool.js";
import { freshSessionGlobals, normalizeDeclarations } from "../pool/variables.js";
import { isPlainObject } from "../util/values.js";
import type { CanvasEvent } from "./events.js";
import { compileGraph, type CanvasGraph } from "./graph.js";
import { emptyReferences } from "./ledger.js";
import { DEFAULT_MAX_STEPS, executeRun, type CanvasSession, type EngineOptions, type RunRequest } from "./run.js";
import { DEFAULT_COMPONENT_TIMEOUT_MS, DEFAULT_CONCURRENCY } from "./runner.js";
import { RUN_STATE_VERSION, readRunState, type PendingInput, type PersistedRunState, type RunStatus } from "./state.js";

export interface CanvasRuntimeOptions {
  /** Components run at once within a batch (default 5, as RAGFlow's thread pool). */
  concurrency?: number;
  /** Default component timeout in ms (default 600 000); component types may declare their own. */
  timeoutMs?: number;
  /** Timeouts in ms for specific component ids. */
  componentTimeouts?: Record<string, number>;
  /** Component steps allowed per turn (default 10 000). */
  maxSteps?: number;
  /** Services for components (LLM and tool providers, HTTP settings…). */
  services?: RuntimeServices;
  /** Random source for Message's choice among alternative contents (default Math.random). */
  random?: () => number;
  /** `sys.user_id` for a fresh session. */
  userId?: string;
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
    this.engine = {
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      defaultTimeoutMs: options.timeoutMs ?? DEFAULT_COMPONENT_TIMEOUT_MS,
      componentTimeouts: options.componentTimeouts ?? {},
      maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
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
    const graph = compileGraph(dsl, registry);
    const componentExists = (id: string) => graph.nodes.has(id);
    const declarations = normalizeDeclarations(dsl.variables);
    let session: CanvasSession;
    if (dsl.canvasflow !== undefined) {
      const state = readRunState(dsl.canvasflow);
      const pool = new VariablePool(componentExists, { ...(dsl.globals ?? {}) });
      for (const [id, outputs] of Object.entries(state.outputs)) pool.replaceOutputs(id, outputs);
      session = {
        graph,
        pool,
        taskId: typeof dsl.task_id === "string" && dsl.task_id ? dsl.task_id : nanoid(),
        history: Array.isArray(dsl.history) ? [...dsl.history] : [],
        componentState: { ...state.component_state },
        openContainers: { ...state.open_containers },
        frontier: state.status === "paused" ? [...(dsl.path ?? [])].filter((id) => graph.nodes.has(id)) : [],
        status: state.status,
        pending: state.pending,
        reply: state.reply ?? [],
        references: state.references ?? emptyReferences(),
        steps: state.steps,
        error: state.error,
        running: false,
      };
    } else {
      const globals = freshSessionGlobals(dsl.globals, declarations, { userId: options.userId });
      session = {
        graph,
        pool: new VariablePool(componentExists, globals),
        taskId: nanoid(),
        history: [],
        componentState: {},
        openContainers: {},
        frontier: [],
        status: "idle",
        pending: undefined,
        reply: [],
        references: emptyReferences(),
        steps: 0,
        error: undefined,
        running: false,
      };
    }
    return new Canvas(dsl, graph, session, options, warnings);
  }

  /** Start a turn (or resume a paused run with `inputs`) and stream its events. */
  run(request: RunRequest = {}): AsyncIterable<CanvasEvent> {
    return executeRun(this.session, request, this.engine);
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

  get globals(): Readonly<Record<string, unknown>> {
    return this.session.pool.globalsForReading();
  }

  get history(): readonly HistoryEntry[] {
    return this.session.history;
  }

  /** The ids of the canvas's components, in DSL order. */
  get componentIds(): string[] {
    return [...this.graph.nodes.keys()];
  }

  /** A component's current outputs. */
  outputs(componentId: string): Readonly<Outputs> | undefined {
    return this.session.pool.outputsOf(componentId);
  }

  /** Begin's prologue, shown before the first turn of a conversational canvas. */
  get prologue(): string {
    const begin = this.graph.nodes.get(this.graph.entryId);
    const enabled = begin?.params.enablePrologue;
    const prologue = begin?.params.prologue;
    return enabled !== false && typeof prologue === "string" ? prologue : "";
  }

  /** Begin's mode: `conversational`, `task` or `Webhook`. */
  get mode(): string {
    const mode = this.graph.nodes.get(this.graph.entryId)?.params.mode;
    return typeof mode === "string" ? mode : "conversational";
  }

  /** The form fields Begin asks for. */
  get inputForm(): Record<string, InputField> {
    const inputs = this.graph.nodes.get(this.graph.entryId)?.params.inputs;
    return isPlainObject(inputs) ? (inputs as Record<string, InputField>) : {};
  }

  /**
   * The complete state as a DSL snapshot: the DSL with `path` (the pending frontier), `globals`,
   * `history` and `task_id` in RAGFlow's places, and the rest under `canvasflow`.
   */
  toJSON(): CanvasDsl {
    const session = this.session;
    const state: PersistedRunState = {
      version: RUN_STATE_VERSION,
      status: session.status,
      outputs: plainOutputs(session.pool.allOutputs()),
      component_state: structuredClone(session.componentState),
      open_containers: { ...session.openContainers },
      steps: session.steps,
      ...(session.pending ? { pending: structuredClone(session.pending) } : {}),
      ...(session.reply.length > 0 ? { reply: [...session.reply] } : {}),
      ...(session.references.chunks.length > 0 || session.references.doc_aggs.length > 0 ? { references: structuredClone(session.references) } : {}),
      ...(session.error !== undefined ? { error: session.error } : {}),
    };
    return {
      ...this.dsl,
      path: session.status === "paused" ? [...session.frontier] : [],
      history: structuredClone(session.history),
      globals: structuredClone(session.pool.globals),
      retrieval: [],
      task_id: session.taskId,
      canvasflow: state,
    };
  }
}

/** Options are checked when the canvas loads, so a run never starts with unusable settings. */
function checkPositive(name: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new RangeError(`option ${name} must be a positive ${integer ? "integer" : "number"}, got ${String(value)}`);
  }
}

/** Outputs as JSON: a stream still in flight is saved as the text received so far. */
function plainOutputs(outputs: Record<string, Outputs>): Record<string, Outputs> {
  const out: Record<string, Outputs> = {};
  for (const [id, record] of Object.entries(outputs)) {
    const copy: Outputs = {};
    for (const [key, value] of Object.entries(record)) copy[key] = isTextStream(value) ? value.text : structuredClone(value);
    out[id] = copy;
  }
  return out;
}
