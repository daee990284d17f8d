/**
 * One run of a canvas: a new conversation turn, the resumption of a paused one, or the
 * continuation of a run whose process died (from its last checkpoint).
 *
 * The loop is the same for every graph: ask the graph's scheduler (its scheduling policy, see
 * policy.ts) for a batch, let the runner execute it, then hand the results back to the
 * scheduler, which handles errors, messages, node_finished and what runs next. Every outcome,
 * including bugs, ends as an event: nothing is thrown out of the iterator.
 */
import { setMaxListeners } from "node:events";
import { nanoid } from "nanoid";
import { isTextStream } from "../components/text-stream.js";
import type { CanvasAccess, InputField, InputRequest, Outputs, RuntimeServices } from "../components/types.js";
import type { HistoryEntry } from "../dsl/types.js";
import type { Reference } from "../refs/grammar.js";
import { formatSystemDate } from "../pool/variables.js";
import type { VariablePool } from "../pool/pool.js";
import { InvocationContext, makeCanvasAccess, type RunScope } from "./context.js";
import { EventFactory, emptyUsage, type CanvasEvent, type CanvasEventOf, type NodeFinishedData, type TokenUsage } from "./events.js";
import { eventRecord, eventValue } from "./event-values.js";
import type { CanvasGraph, ComponentNode } from "./graph.js";
import { addReferences, addUsage, emptyReferences } from "./ledger.js";
import type { Frame, RunHost, Scheduler, Task } from "./policy.js";
import { BatchRunner, errorMessage, timeoutFor, type NodeResult, type RunnerHooks, type RunnerOptions } from "./runner.js";
import { deadlineAfter, type Deadline } from "./waits.js";
import type { PendingInput } from "./state.js";
import { RunRecorder, type CheckpointSink } from "./checkpoint.js";
import { countExecution, uncountExecution, type CanvasSession } from "./session.js";
import { applyStateUpdates } from "./state-updates.js";
import { placeResumeValues, resumeSlot, type InterruptInfo } from "./interrupt.js";
import type { RunSpans, SpanOutcome, TraceParent } from "../tracing/run-spans.js";
import { tracingRegistered } from "../tracing/registered.js";

export type { CanvasSession } from "./session.js";

export interface EngineOptions extends RunnerOptions {
  /** Component executions allowed in one turn before the run is stopped as runaway. */
  maxSteps: number;
  /** Wall-clock limit of one run in ms (none when undefined). */
  runTimeoutMs?: number;
  /** Bytes of JSON one input or output value may take in an event before it is truncated. */
  eventValueLimit: number;
  services: RuntimeServices;
  random: () => number;
}

export interface RunRequest {
  /** The user's message for this turn (`sys.query`). */
  query?: string;
  /** Form values for Begin (new turn) or for the components a paused run waits on. */
  inputs?: Record<string, unknown>;
  /** Files for `sys.files`. */
  files?: unknown[];
  userId?: string;
  signal?: AbortSignal;
  /**
   * Receives a checkpoint after every batch and one when the run ends (before its last event
   * goes out); a returned promise is awaited before the run goes on. Turns on the recording of
   * changes. A checkpoint that fails stops the run with an error; when the last one fails, the
   * last event says so.
   */
  checkpoint?: CheckpointSink;
  /** Sees every event as it is made, in the order they go out (e.g. to number and log them). */
  onEvent?: (event: CanvasEvent) => void;
  /**
   * Also checkpoint when the run has started, before its first event is made (with `checkpoint`).
   * A run whose events are logged as they happen needs it: then every logged event belongs to a
   * run the checkpoints know as started, so a process that dies at any moment leaves a run that
   * the next one continues (with workflow_resumed), never one it would start over unannounced.
   */
  checkpointAtStart?: boolean;
  /**
   * The message id the run's events carry (default: a new random one). A run continued after a
   * crash keeps the id it started with. A queued run uses its job's id, so that its events can be
   * told from other runs' in the session's log.
   */
  messageId?: string;
  /**
   * Stops the run between two steps without ending it (a worker shutting down): the run stays
   * `running` as its last checkpoint recorded it, for another process to continue (with
   * workflow_resumed; nothing was in flight). The events stop without a last event; producers
   * whose stream nobody had read yet run again there. Meant with `checkpoint`.
   */
  suspend?: AbortSignal;
  /**
   * The W3C trace context the run's span is a child of (a server request's or a queued job's
   * `traceparent`). Without it, the OpenTelemetry context active when `canvas.run()` was called.
   */
  traceContext?: { traceparent: string; tracestate?: string };
}

export const DEFAULT_MAX_STEPS = 10_000;

const SYS_HISTORY: Reference = { kind: "global", scope: "sys", key: "sys.history", expr: "sys.history" };

const NOTHING_TO_ASK: { pending: undefined } = Object.freeze({ pending: undefined });

export async function* executeRun(
  session: CanvasSession,
  request: RunRequest,
  options: EngineOptions,
  /** The OpenTelemetry context active when the run was asked for (its span's parent). */
  traceParent?: TraceParent,
): AsyncGenerator<CanvasEvent, void, undefined> {
  // A run continued after a crash keeps its message id and start.
  const continued = session.status === "running" ? session.run : undefined;
  const events = new EventFactory(continued?.message_id ?? request.messageId ?? nanoid(), session.taskId, continued?.created_at ?? Math.floor(Date.now() / 1000), request.onEvent);
  if (session.running) {
    yield events.make("workflow_finished", {
      inputs: request.inputs ?? {},
      outputs: {},
      elapsed_time: 0,
      created_at: events.createdAt,
      usage: emptyUsage(),
      error: "a run is already in progress on this canvas",
    });
    return;
  }
  session.running = true;
  const started = performance.now();
  let run: Run | undefined;
  let ended = false;
  try {
    let last: CanvasEvent | undefined;
    try {
      run = new Run(session, request, options, events, traceParent);
      last = yield* run.execute();
      if (last === undefined) {
        // Suspended: its last checkpoint is where another process goes on; nothing more to say.
        ended = true;
        run.endTrace("interrupted");
        return;
      }
    } catch (bug) {
      // A defect in the engine itself (or an unusable request): still end the stream the documented way.
      session.status = "failed";
      session.error = `internal error: ${errorMessage(bug)}`;
      session.run = undefined;
      last = finishedEvent(events, eventRecord(request.inputs, options.eventValueLimit), started, emptyUsage(), session.error, {});
    }
    ended = true;
    // The last event goes out once the run's last checkpoint is written; if it could not be, it says so.
    const problem = run ? await run.finalCheckpoint() : undefined;
    const ending = problem === undefined ? last : unsavedEnding(last, problem);
    run?.endTrace(...outcomeOf(ending, session));
    yield ending;
  } finally {
    if (!ended) {
      // The reader stopped early: the run is over, and its last checkpoint still says so.
      session.status = "cancelled";
      session.error = "the event stream was closed before the run finished";
      session.frontier = [];
      session.schedule = undefined;
      session.pending = undefined;
      session.run = undefined;
      await run?.finalCheckpoint();
      run?.endTrace("cancelled", session.error);
    }
    run?.dispose();
    session.running = false;
  }
}

/** The run's last event when its last checkpoint could not be written: the run is not over for its store. */
function unsavedEnding(event: CanvasEvent, problem: string): CanvasEvent {
  if (event.event === "workflow_finished") return { ...event, data: { ...event.data, error: event.data.error ?? problem } };
  return {
    event: "workflow_finished",
    message_id: event.message_id,
    created_at: event.created_at,
    task_id: event.task_id,
    data: { inputs: {}, outputs: {}, elapsed_time: 0, created_at: event.created_at, usage: emptyUsage(), error: `the run paused, but ${problem}` },
  };
}

/** How a run's span ends, from its last event. */
function outcomeOf(event: CanvasEvent, session: CanvasSession): [SpanOutcome, string?] {
  if (event.event !== "workflow_finished") return ["paused"];
  const error = event.data.error;
  if (error === undefined) return ["ok"];
  return session.status === "cancelled" ? ["cancelled", error] : ["error", error];
}

function finishedEvent(
  events: EventFactory,
  inputs: Record<string, unknown>,
  startedMs: number,
  usage: TokenUsage,
  error: string | undefined,
  outputs: Outputs,
): CanvasEvent {
  return events.make("workflow_finished", {
    inputs,
    outputs,
    elapsed_time: (performance.now() - startedMs) / 1000,
    created_at: events.createdAt,
    usage: { ...usage },
    ...(error !== undefined ? { error } : {}),
  });
}

class Run implements RunHost {
  private readonly controller = new AbortController();
  private readonly runner: BatchRunner;
  private readonly scope: RunScope;
  private readonly started = performance.now();
  private readonly inputs: Record<string, unknown>;
  /** Records what changes, for checkpoints (only when the request asks for them). */
  private readonly recorder: RunRecorder | undefined;
  /** A checkpoint of this run was handed to the sink: a suspended run goes on from there. */
  private checkpointed = false;
  /** Components that receive `inputs` when they run (the entry at a turn's start, or the paused ones). */
  private readonly inputReceivers = new Set<string>();
  /**
   * Results the scheduler finished with an error while settling their batch (a message sink
   * whose stream broke, handled by its exception_method): their state updates are not applied.
   */
  private readonly failedResults = new Set<NodeResult>();
  /** The run's inputs as events show them. */
  private readonly shownInputs: Record<string, unknown>;
  private readonly unlinkSignal: (() => void) | undefined;
  private readonly access: CanvasAccess;
  private readonly hooks: RunnerHooks;
  /** What the graph's policy decides for this run. */
  private readonly scheduler: Scheduler;
  /** The run's own time limit, when the graph or the options set one. */
  private timeLimit: NodeJS.Timeout | undefined;
  /** node_progress events made while a batch runs, sent before anything else. */
  private readonly progressEvents: CanvasEvent[] = [];
  /** Wakes the run waiting on a batch when a progress event is made. */
  private progressArrived: (() => void) | undefined;
  private timedOut: string | undefined;
  /**
   * Resume values may sit in the component state (this run resumed interrupts, or goes on from
   * one that may have): only then does a finished step look for its slot to drop.
   */
  private mayHoldResumes = false;
  /** The run's spans, when an OpenTelemetry SDK records them (decided once, when the run starts). */
  private trace: RunSpans | undefined;

  constructor(
    readonly session: CanvasSession,
    private readonly request: RunRequest,
    private readonly options: EngineOptions,
    readonly events: EventFactory,
    private readonly traceParent: TraceParent | undefined,
  ) {
    // Every component in flight listens to the run's signal (and stops listening when it
    // settles), and so does each producer whose stream is still unread, at most one per
    // component: a wide batch legitimately has more than Node's default of ten listeners.
    setMaxListeners(options.concurrency * 2 + session.graph.nodes.size + 10, this.controller.signal);
    this.runner = new BatchRunner(options);
    // A run continued after a crash goes on with the inputs it was given.
    const continued = session.status === "running" ? session.run : undefined;
    this.inputs = continued?.inputs ?? request.inputs ?? {};
    this.shownInputs = eventRecord(this.inputs, options.eventValueLimit);
    if (request.checkpoint) this.recorder = new RunRecorder(session);
    this.scope = {
      graph: session.graph,
      pool: session.pool,
      componentState: session.componentState,
      history: session.history,
      services: options.services,
      random: options.random,
      taskId: session.taskId,
      executions: (id) => session.executions.get(id) ?? 0,
      idempotencyKey: (id) => `${session.taskId}:${String(session.pool.globals["sys.conversation_turns"] ?? 0)}:${id}:${session.executions.get(id) ?? 0}`,
      progress: (node, frame, progress, message) => {
        this.progressEvents.push(
          this.events.make("node_progress", { component_id: node.id, component_name: node.displayName, component_type: node.componentName, progress, message, created_at: Date.now() / 1000, ...frameFields(frame) }),
        );
        this.progressArrived?.();
      },
      ...(session.graph.policy.resumesInterrupts ? { resumesInterrupts: true } : {}),
      ledger: {
        addUsage: (usage) => addUsage(this.session.usage, usage),
        addReferences: (chunks, documents) => addReferences(this.session.references, chunks, documents),
        references: () => this.session.references,
      },
    };
    this.access = makeCanvasAccess(this.scope);
    this.hooks = {
      // A component that reads a streamed output (other than a message sink, which streams it on)
      // gets the finished text: the stream is drained before it runs.
      beforeInvoke: (node) => this.drainDependencies(node),
      beforeRetry: (_node, ctx) => this.pool.resetOutputs(ctx.outputKey, true),
    };
    const external = request.signal;
    if (external) {
      if (external.aborted) this.controller.abort(external.reason);
      else {
        const onAbort = () => this.controller.abort(external.reason);
        external.addEventListener("abort", onAbort, { once: true });
        this.unlinkSignal = () => external.removeEventListener("abort", onAbort);
      }
    }
    this.scheduler = session.graph.policy.scheduler(this);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get eventValueLimit(): number {
    return this.options.eventValueLimit;
  }

  dispose(): void {
    this.unlinkSignal?.();
    this.recorder?.detach();
    clearTimeout(this.timeLimit);
  }

  /** Hand the changes since the last checkpoint to the request's sink (awaited when it returns a promise). */
  private checkpoint(): void | Promise<void> {
    if (!this.recorder) return;
    this.checkpointed = true;
    this.session.unread = this.scheduler.unread();
    return this.request.checkpoint!(this.recorder.take());
  }

  /** A checkpoint that cannot be written stops the run: it goes no further than what is durable. */
  private checkpointAfterBatch(): string | undefined | Promise<string | undefined> {
    const failed = (error: unknown) =>
      `the checkpoint after this step could not be written (${errorMessage(error)}); the run stopped after its last durable checkpoint`;
    try {
      // A sink that wrote at once returns nothing: the run goes on without a promise.
      const pending = this.checkpoint();
      return pending ? pending.then(() => undefined, failed) : undefined;
    } catch (error) {
      return failed(error);
    }
  }

  /** The checkpoint before the run's first event; what went wrong when it could not be written. */
  private async checkpointAtStart(): Promise<string | undefined> {
    try {
      await this.checkpoint();
      return undefined;
    } catch (error) {
      return `the checkpoint at the run's start could not be written (${errorMessage(error)}); nothing of this run was done`;
    }
  }

  /**
   * The checkpoint that says how the run ended, before its last event goes out. Resolves to what
   * went wrong if it could not be written (it never throws: the run is over either way).
   */
  async finalCheckpoint(): Promise<string | undefined> {
    if (!this.recorder) return undefined;
    this.session.unread = [];
    try {
      const pending = this.checkpoint();
      if (pending) await pending;
      return undefined;
    } catch (error) {
      return `its state could not be saved (${errorMessage(error)}); the session continues from its last durable checkpoint`;
    } finally {
      this.recorder.detach();
    }
  }

  private get pool(): VariablePool {
    return this.session.pool;
  }

  get graph(): CanvasGraph {
    return this.session.graph;
  }

  /** Stop the run once its own time limit has passed (a failure, not a cancellation). */
  private startTimeLimit(): void {
    const limit = this.options.runTimeoutMs;
    if (limit === undefined || !(limit > 0)) return;
    this.timeLimit = setTimeout(() => {
      this.timedOut = `the run exceeded its time limit of ${Number((limit / 1000).toFixed(3))} s`;
      this.controller.abort(new Error(this.timedOut));
    }, limit);
    this.timeLimit.unref?.();
  }

  /**
   * Streams the run's events and returns its last one (workflow_finished or user_inputs), which
   * the caller sends once the run's last checkpoint is written; undefined when it was suspended.
   */
  async *execute(): AsyncGenerator<CanvasEvent, CanvasEvent | undefined, undefined> {
    const session = this.session;
    const scheduler = this.scheduler;
    session.epoch += 1;
    let inFlight: string[] | undefined;
    let startsTurn = false;
    if (session.status === "running" && session.run) {
      // Its process died: go on from the last checkpoint; what was in flight runs again.
      for (const id of session.run.receivers) this.inputReceivers.add(id);
      inFlight = scheduler.inFlight();
      // The run that died may have been given resume values.
      this.mayHoldResumes = true;
    } else {
      session.usage = emptyUsage();
      if (session.status === "paused" && session.pending !== undefined) {
        for (const id of session.pending.components) this.inputReceivers.add(id);
        const interrupts = session.pending.interrupts;
        // In the run state before anything runs (and so in its first checkpoint): a run continued
        // after its process died still has them.
        if (interrupts && interrupts.length > 0 && Object.hasOwn(this.inputs, "resume")) {
          placeResumeValues(session.componentState, interrupts, unwrapFormValue(this.inputs.resume));
          this.mayHoldResumes = true;
        }
        this.pool.setGlobal("sys.date", formatSystemDate(new Date()));
      } else {
        this.startTurn();
        startsTurn = true;
      }
      session.status = "running";
      session.run = { message_id: this.events.messageId, created_at: this.events.createdAt, inputs: this.inputs, receivers: [...this.inputReceivers] };
    }
    session.pending = undefined;
    session.error = undefined;
    if (tracingRegistered()) await this.startTrace(!startsTurn);
    else if (session.traceparent !== undefined) session.traceparent = undefined;
    // The run is known as started before its first event is made (see RunRequest.checkpointAtStart).
    let failure = this.request.checkpointAtStart && this.recorder ? await this.checkpointAtStart() : undefined;
    const traceId = this.trace ? { trace_id: this.trace.traceId } : undefined;
    if (inFlight) yield this.events.make("workflow_resumed", { inputs: this.shownInputs, in_flight: inFlight, ...traceId });
    else if (startsTurn) yield this.events.make("workflow_started", { inputs: this.shownInputs, ...traceId });
    this.startTimeLimit();

    const signal = this.controller.signal;
    while (failure === undefined && scheduler.hasWork()) {
      if (signal.aborted) break;
      if (this.request.suspend?.aborted && this.checkpointed) return this.suspend();

      const ready = scheduler.select();
      // Only a pauser that could run now may pause the run: one still waiting for a reference
      // would show tips built from values that are not there yet.
      const asked = this.inputRequest(ready);
      if ("failure" in asked) {
        failure = asked.failure;
        break;
      }
      const pause = asked.pending;
      if (pause) return yield* this.pause(pause);
      if (ready.length === 0) continue;

      if (session.steps + ready.length > this.options.maxSteps) {
        failure =
          `the run exceeded ${this.options.maxSteps} component steps (next: ${ready.map((t) => t.node.id).join(", ")}); ` +
          "it is probably looping without end — raise maxSteps (--max-steps) if the canvas really needs more [GRAPH_RECURSION_LIMIT]";
        break;
      }
      session.steps += ready.length;

      yield* scheduler.beforeBatch(ready);
      // Each start is journaled as a "reset" op (below): replaying it counts the execution again.
      const nodes: ComponentNode[] = [];
      const contexts: InvocationContext[] = [];
      for (const task of ready) {
        countExecution(session.executions, task.node.id);
        nodes.push(task.node);
        contexts.push(this.contextFor(task));
      }
      const trace = this.trace;
      if (trace) for (let i = 0; i < ready.length; i++) contexts[i].trace = trace.component(contexts[i].outputKey, ready[i].node, this.spanFrame(ready[i]));
      for (let i = 0; i < ready.length; i++) {
        this.pool.resetOutputs(contexts[i].outputKey);
        yield this.nodeStarted(ready[i]);
      }
      const batch = this.runner.runBatch(contexts, nodes, this.hooks, signal);
      const results = batch instanceof Promise ? (nodes.some((node) => node.def.capabilities?.reportsProgress) ? yield* this.whileRunning(batch) : await batch) : batch;
      yield* this.progressSoFar();
      if (this.inputReceivers.size > 0) this.inputsDelivered(nodes);
      let interrupts: InterruptInfo[] | undefined;
      for (const result of results) {
        if (result.interrupt) {
          (interrupts ??= []).push(result.interrupt);
          // An interrupted start is not an execution: the run on resume is the same one (its
          // idempotency key stays; a join does not count it as arrived).
          uncountExecution(session.executions, result.node.id);
          this.recorder?.op(["executionUndone", result.node.id]);
        } else if (this.mayHoldResumes) {
          // Resume values belong to one execution: the next one asks afresh.
          const slot = resumeSlot(result.ctx.outputKey);
          if (Object.hasOwn(session.componentState, slot)) delete session.componentState[slot];
        }
      }

      failure = yield* scheduler.settleBatch(results);
      if (failure !== undefined) break;
      failure = applyStateUpdates(results, this.graph, this.pool, this.failedResults).failure;
      this.failedResults.clear();
      if (failure !== undefined) break;
      if (interrupts) return yield* this.pauseFor(interrupts);
      if (this.recorder) {
        const saved = this.checkpointAfterBatch();
        failure = saved instanceof Promise ? await saved : saved;
        if (failure !== undefined) break;
      }
    }

    if (failure === undefined && this.timedOut !== undefined) failure = this.timedOut;
    yield* scheduler.endRun(failure !== undefined);
    clearTimeout(this.timeLimit);
    if (failure === undefined && this.timedOut !== undefined) failure = this.timedOut;
    session.frontier = [];
    session.schedule = undefined;
    session.run = undefined;
    if (signal.aborted && failure === undefined) {
      session.status = "cancelled";
      session.error = "cancelled";
      return this.finishedEvent("cancelled");
    }
    if (failure !== undefined) {
      session.status = "failed";
      session.error = failure;
      return this.finishedEvent(failure);
    }
    session.status = "idle";
    this.recordAssistantTurn();
    return this.finishedEvent(undefined);
  }

  /**
   * The run's span, a child of the request's trace context or of the context active when the run
   * was asked for; a run that goes on from an earlier one (`continues`) links to its span. The
   * session keeps this span's traceparent for the run that goes on from this one.
   */
  private async startTrace(continues: boolean): Promise<void> {
    const session = this.session;
    // Loaded only when an SDK is registered: the API it imports is not the core's to pay for.
    const { startRunSpan } = await import("../tracing/run-spans.js");
    this.trace = startRunSpan({
      taskId: session.taskId,
      messageId: this.events.messageId,
      parent: this.traceParent,
      traceContext: this.request.traceContext,
      continues: continues ? session.traceparent : undefined,
    });
    const traceparent = this.trace?.traceparent;
    if (session.traceparent !== traceparent) session.traceparent = traceparent;
  }

  /**
   * Where a component ran, for its span: its frame (edge-scheduled containers), else the
   * container it sits in and the round its start node counted (RAGFlow's Iteration and Loop keep
   * `{index}`, the rounds started, in the start node's state).
   */
  private spanFrame(task: Task): { containerId: string; round: number } | undefined {
    if (task.frame) return { containerId: task.frame.containerId, round: task.frame.round };
    const parentId = task.node.parentId;
    const start = parentId === undefined ? undefined : this.graph.nodes.get(parentId)?.startChildId;
    if (parentId === undefined || start === undefined) return undefined;
    const counted = (this.session.componentState[start] as { index?: unknown } | undefined)?.index;
    const index = typeof counted === "number" ? counted : 0;
    return { containerId: parentId, round: task.node.id === start ? index : Math.max(0, index - 1) };
  }

  /** The run's span ends (with whatever component spans are still open). */
  endTrace(outcome: SpanOutcome, error?: string): void {
    this.trace?.end(outcome, error);
    this.trace = undefined;
  }

  /** A container's node_finished goes out: its span ends. */
  containerFinished(containerId: string): void {
    this.trace?.containerFinished(containerId);
  }

  /** Pause the run for input; returns its last event (user_inputs). */
  private async *pause(pause: PendingInput): AsyncGenerator<CanvasEvent, CanvasEvent, undefined> {
    const session = this.session;
    session.status = "paused";
    session.pending = pause;
    session.run = undefined;
    yield* this.scheduler.beforePause();
    // The question is shown like any reply, so a chat client that renders only message
    // events still shows it; user_inputs then carries the form (and the same tips).
    if (pause.tips) {
      this.pushReply(pause.tips);
      yield this.events.make("message", { content: pause.tips });
      yield this.events.make("message_end", {});
    }
    clearTimeout(this.timeLimit);
    const limit = this.options.eventValueLimit;
    const interrupts = pause.interrupts ? { interrupts: pause.interrupts.map((i) => ({ ...i, value: eventValue(i.value, limit) })) } : {};
    return this.events.make("user_inputs", { inputs: pause.inputs, tips: pause.tips, ...interrupts });
  }

  /** Components paused from inside (ctx.interrupt): the run waits for `inputs.resume`. */
  private pauseFor(interrupts: InterruptInfo[]): AsyncGenerator<CanvasEvent, CanvasEvent, undefined> {
    const components = [...new Set(interrupts.map((i) => i.component_id))];
    return this.pause({
      components,
      inputs: { resume: { name: "resume", type: "object", optional: false, value: null } as InputField },
      tips: "",
      interrupts: interrupts.map((i) => ({ id: i.id, component_id: i.component_id, value: i.value })),
    });
  }

  /** Stop after the last checkpoint, leaving the run under way (see RunRequest.suspend). */
  private suspend(): undefined {
    this.scheduler.suspend();
    clearTimeout(this.timeLimit);
    this.recorder!.detach();
    return undefined;
  }

  finishedEvent(error: string | undefined): CanvasEvent {
    const event = finishedEvent(this.events, this.shownInputs, this.started, this.session.usage, error, this.scheduler.outputs());
    const extra = this.scheduler.finishedFields(error);
    for (const key in extra) (event.data as unknown as Record<string, unknown>)[key] = extra[key];
    return event;
  }

  /** Components that were given the run's inputs do not get them again. */
  private inputsDelivered(nodes: readonly ComponentNode[]): void {
    for (const node of nodes) this.inputReceivers.delete(node.id);
    const run = this.session.run;
    if (run && run.receivers.some((id) => !this.inputReceivers.has(id))) {
      this.session.run = { ...run, receivers: run.receivers.filter((id) => this.inputReceivers.has(id)) };
    }
  }

  // ---- what a turn shows and keeps (recorded for checkpoints) ----

  pushReply(text: string): void {
    this.session.reply.push(text);
    this.recorder?.op(["reply", text]);
  }

  record(op: unknown): void {
    this.recorder?.op(["schedule", op]);
  }

  get recording(): boolean {
    return this.recorder !== undefined;
  }

  private resetReply(): void {
    this.session.reply = [];
    this.recorder?.op(["replyReset"]);
  }

  private pushHistory(entry: HistoryEntry): void {
    this.session.history.push(entry);
    this.recorder?.op(["history", entry]);
  }

  // ---- turn bookkeeping ----

  private startTurn(): void {
    const session = this.session;
    const pool = this.pool;
    const query = typeof this.request.query === "string" ? this.request.query : "";
    pool.clearAllOutputs();
    for (const key of Object.keys(session.componentState)) delete session.componentState[key];
    session.steps = 0;
    session.executions = new Map();
    this.recorder?.op(["executionsReset"]);
    this.resetReply();
    session.references = emptyReferences();
    pool.setGlobal("sys.query", query);
    pool.setGlobal("sys.date", formatSystemDate(new Date()));
    if (this.request.userId !== undefined) pool.setGlobal("sys.user_id", this.request.userId);
    if (this.request.files !== undefined) pool.setGlobal("sys.files", this.request.files);
    const turns = Number(pool.globals["sys.conversation_turns"]);
    const turn = (Number.isFinite(turns) ? turns : 0) + 1;
    pool.setGlobal("sys.conversation_turns", turn);
    // Globals the graph's front end defines for every turn (e.g. Dify's sys.dialogue_count).
    const extra = this.graph.turnGlobals?.({ turn, taskId: session.taskId, runId: this.events.messageId, startedAt: this.events.createdAt });
    if (extra) for (const [key, value] of Object.entries(extra)) pool.setGlobal(key, value);
    if (query.length > 0) {
      this.pushHistory(["user", query]);
      this.appendSystemHistory(`user: ${query}`);
    }
    this.scheduler.startTurn();
    this.inputReceivers.add(this.graph.entryId);
  }

  private recordAssistantTurn(): void {
    const text = this.scheduler.assistantText();
    this.resetReply();
    this.pushHistory(["assistant", text]);
    this.appendSystemHistory(`assistant: ${text}`);
  }

  private appendSystemHistory(line: string): void {
    // A snapshot written elsewhere may hold something else there: the history starts over.
    if (!Array.isArray(this.pool.globals["sys.history"])) this.pool.setGlobal("sys.history", []);
    this.pool.append(SYS_HISTORY, line);
  }

  // ---- pausing ----

  /** Ask every pauser in the frontier what it still needs; a non-empty answer pauses the run. */
  private inputRequest(ready: readonly Task[]): { pending: PendingInput | undefined } | { failure: string } {
    let fields: Record<string, InputField> | undefined;
    let tips = "";
    const components: string[] = [];
    for (const task of ready) {
      const node = task.node;
      if (!node.def.capabilities?.asksForInput || !node.def.requestInput) continue;
      const ctx = this.contextFor(task);
      let request: InputRequest;
      try {
        request = node.def.requestInput(ctx);
      } catch (error) {
        return { failure: `${node.displayName} (${node.id}): ${errorMessage(error)}` };
      } finally {
        ctx.dispose();
      }
      if (Object.keys(request.fields).length === 0) continue;
      components.push(node.id);
      fields = { ...(fields ?? {}), ...request.fields };
      if (request.tips) tips = request.tips;
    }
    return fields ? { pending: { components, inputs: fields, tips } } : NOTHING_TO_ASK;
  }

  // ---- running ----

  contextFor(task: Task): InvocationContext {
    const node = task.node;
    const inputs = this.inputReceivers.has(node.id) ? this.inputs : undefined;
    return new InvocationContext(this.scope, node, this.access, this.controller.signal, inputs, task.frame);
  }

  private drainDependencies(node: ComponentNode): Promise<void> | undefined {
    if (node.def.capabilities?.emitsMessages) return undefined;
    let waits: Promise<string>[] | undefined;
    for (const dependency of node.dependencies) {
      const outputs = this.pool.recordOf(dependency);
      if (!outputs) continue;
      for (const value of Object.values(outputs)) {
        if (isTextStream(value) && !value.done) (waits ??= []).push(value.readAll());
      }
    }
    return waits ? Promise.all(waits).then(() => undefined) : undefined;
  }

  /** Awaits a batch, sending the progress its components report as it comes. */
  private async *whileRunning<T>(batch: Promise<T>): AsyncGenerator<CanvasEvent, T, undefined> {
    let settled = false;
    const done = batch.then(
      () => void (settled = true),
      () => void (settled = true),
    );
    for (;;) {
      yield* this.progressSoFar();
      if (settled) return batch;
      await Promise.race([done, new Promise<void>((resolve) => (this.progressArrived = resolve))]);
      this.progressArrived = undefined;
    }
  }

  private *progressSoFar(): Generator<CanvasEvent, void, undefined> {
    while (this.progressEvents.length > 0) yield this.progressEvents.shift()!;
  }

  private nodeStarted(task: Task): CanvasEvent {
    const node = task.node;
    return this.events.make("node_started", {
      inputs: null,
      created_at: Date.now() / 1000,
      component_id: node.id,
      component_name: node.displayName,
      component_type: node.componentName,
      thoughts: node.thoughts,
      ...frameFields(task.frame),
    });
  }

  nodeFinished(result: NodeResult, error: string | undefined, extra?: Readonly<Record<string, unknown>>): CanvasEventOf<"node_finished"> {
    const node = result.node;
    const frame = result.ctx.frame;
    if (error !== undefined) this.failedResults.add(result);
    const data: NodeFinishedData = {
      inputs: eventRecord(result.ctx.recordedInputs, this.options.eventValueLimit),
      outputs: eventRecord(this.pool.recordOf(result.ctx.outputKey), this.options.eventValueLimit),
      component_id: node.id,
      component_name: node.displayName,
      component_type: node.componentName,
      error: error ?? null,
      elapsed_time: result.elapsed,
      created_at: result.createdAt,
    };
    if (frame) {
      data.container_id = frame.containerId;
      data.round = frame.round;
    }
    if (result.ctx.usage) data.usage = { ...result.ctx.usage };
    if (result.ctx.failedAttempts) data.retries = result.ctx.failedAttempts;
    result.ctx.trace?.finish(error, result.ctx.usage, { cancelled: error !== undefined && result.errorType === "CancelledError", retries: result.ctx.failedAttempts?.length });
    if (extra) for (const key in extra) (data as unknown as Record<string, unknown>)[key] = extra[key];
    return this.events.make("node_finished", data);
  }

  /** When a component's time is up; reading its streams counts against its timeout. */
  deadlineOf(result: NodeResult): Deadline {
    return deadlineAfter(result.startedMs, timeoutFor(result.node, this.options));
  }
}

/**
 * A value as a RAGFlow client submits a form field, `{ value, type }`, is the value inside (the
 * pause advertises `resume` as a field); any other value is itself.
 */
function unwrapFormValue(submitted: unknown): unknown {
  if (submitted === null || typeof submitted !== "object" || Array.isArray(submitted)) return submitted;
  const keys = Object.keys(submitted);
  const wrapped = keys.includes("value") && keys.includes("type") && keys.every((key) => FIELD_KEYS.has(key));
  return wrapped ? (submitted as { value: unknown }).value : submitted;
}

const FIELD_KEYS: ReadonlySet<string> = new Set(["value", "type", "name", "optional", "options"]);

/** Where a component ran, on its node events: the container and round of its frame. */
function frameFields(frame: Frame | undefined): { container_id?: string; round?: number } {
  return frame ? { container_id: frame.containerId, round: frame.round } : {};
}
