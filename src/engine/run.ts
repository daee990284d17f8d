/**
 * One run of a canvas: a new conversation turn, the resumption of a paused one, or the
 * continuation of a run whose process died (from its last checkpoint).
 *
 * The loop is: ask the planner for a batch, let the runner execute it, then post-process each
 * finished component in path order (messages, errors, node_finished, path extension). Every
 * outcome, including bugs, ends as an event: nothing is thrown out of the iterator.
 */
import { setMaxListeners } from "node:events";
import { nanoid } from "nanoid";
import { isTextStream, THINK_END, THINK_START, type TextStream } from "../components/text-stream.js";
import type { CanvasAccess, InputField, InputRequest, Outputs, RuntimeServices } from "../components/types.js";
import type { HistoryEntry } from "../dsl/types.js";
import type { Reference } from "../refs/grammar.js";
import { stringifyValue } from "../refs/template.js";
import { formatSystemDate } from "../pool/variables.js";
import type { VariablePool } from "../pool/pool.js";
import { InvocationContext, makeCanvasAccess, type RunScope } from "./context.js";
import { EventFactory, emptyUsage, type CanvasEvent, type CanvasEventOf, type TokenUsage } from "./events.js";
import { eventRecord } from "./event-values.js";
import type { CanvasGraph, ComponentNode } from "./graph.js";
import { appendUnique, planExtension, selectBatch, withoutDescendants } from "./plan.js";
import { addReferences, addUsage, emptyReferences, type ReferenceBucket } from "./ledger.js";
import { BatchRunner, errorMessage, timeoutFor, type NodeResult, type RunnerHooks, type RunnerOptions } from "./runner.js";
import { deadlineAfter, iterateWithin, within, type Deadline } from "./waits.js";
import type { PendingInput } from "./state.js";
import { RunRecorder, type CheckpointSink } from "./checkpoint.js";
import type { CanvasSession } from "./session.js";

export type { CanvasSession } from "./session.js";

export interface EngineOptions extends RunnerOptions {
  /** Component executions allowed in one turn before the run is stopped as runaway. */
  maxSteps: number;
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
}

export const DEFAULT_MAX_STEPS = 10_000;

const SYS_HISTORY: Reference = { kind: "global", scope: "sys", key: "sys.history", expr: "sys.history" };

/** What settling a component means for the batch: a failure ends the run, an exit drops a container's body. */
interface Outcome {
  failure?: string;
  exited?: string;
}
const NO_OUTCOME: Outcome = Object.freeze({});
const NOTHING_TO_ASK: { pending: undefined } = Object.freeze({ pending: undefined });

export async function* executeRun(
  session: CanvasSession,
  request: RunRequest,
  options: EngineOptions,
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
      run = new Run(session, request, options, events);
      last = yield* run.execute();
      if (last === undefined) {
        // Suspended: its last checkpoint is where another process goes on; nothing more to say.
        ended = true;
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
    yield problem === undefined ? last : unsavedEnding(last, problem);
  } finally {
    if (!ended) {
      // The reader stopped early: the run is over, and its last checkpoint still says so.
      session.status = "cancelled";
      session.error = "the event stream was closed before the run finished";
      session.frontier = [];
      session.pending = undefined;
      session.run = undefined;
      await run?.finalCheckpoint();
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

class Run {
  private readonly controller = new AbortController();
  private readonly runner: BatchRunner;
  private readonly scope: RunScope;
  private readonly started = performance.now();
  private readonly inputs: Record<string, unknown>;
  /** Records what changes, for checkpoints (only when the request asks for them). */
  private readonly recorder: RunRecorder | undefined;
  /** A checkpoint of this run was handed to the sink: a suspended run goes on from there. */
  private checkpointed = false;
  /** Components that receive `inputs` when they run (Begin at a turn's start, or the paused ones). */
  private readonly inputReceivers = new Set<string>();
  /** Producers whose `node_finished` waits until their streamed output has been consumed. */
  private readonly partials: NodeResult[] = [];
  /** What workflow_finished shows: the outputs of the last component that finished (as its event showed them). */
  private lastOutputs: Outputs = {};
  /** That component (its full `content` is the history entry when no message was shown). */
  private lastId: string | undefined;
  /** The run's inputs as events show them. */
  private readonly shownInputs: Record<string, unknown>;
  /** Events of the component being settled, yielded right after (reused, so a step allocates no list). */
  private readonly pendingEvents: CanvasEvent[] = [];
  private readonly unlinkSignal: (() => void) | undefined;
  private readonly access: CanvasAccess;
  private readonly hooks: RunnerHooks;

  constructor(
    private readonly session: CanvasSession,
    private readonly request: RunRequest,
    private readonly options: EngineOptions,
    private readonly events: EventFactory,
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
      idempotencyKey: (id) => `${session.taskId}:${String(session.pool.globals["sys.conversation_turns"] ?? 0)}:${id}:${session.executions[id] ?? 0}`,
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
      beforeRetry: (node) => this.pool.resetOutputs(node.id, true),
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
  }

  dispose(): void {
    this.unlinkSignal?.();
    this.recorder?.detach();
  }

  /** Hand the changes since the last checkpoint to the request's sink (awaited when it returns a promise). */
  private checkpoint(): void | Promise<void> {
    if (!this.recorder) return;
    this.checkpointed = true;
    this.session.unread = this.partials.map((p) => p.node.id);
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

  private get graph(): CanvasGraph {
    return this.session.graph;
  }

  /**
   * Streams the run's events and returns its last one (workflow_finished or user_inputs), which
   * the caller sends once the run's last checkpoint is written; undefined when it was suspended.
   */
  async *execute(): AsyncGenerator<CanvasEvent, CanvasEvent | undefined, undefined> {
    const session = this.session;
    session.epoch += 1;
    let inFlight: string[] | undefined;
    let startsTurn = false;
    if (session.status === "running" && session.run) {
      // Its process died: go on from the last checkpoint; what was in flight runs again.
      for (const id of session.run.receivers) this.inputReceivers.add(id);
      if (session.run.last !== undefined) this.remember(session.run.last, eventRecord(this.pool.recordOf(session.run.last), this.options.eventValueLimit));
      inFlight = selectBatch(session.frontier, this.graph, session.openContainers).ready;
    } else {
      session.usage = emptyUsage();
      if (session.status === "paused" && session.pending !== undefined) {
        for (const id of session.pending.components) this.inputReceivers.add(id);
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
    // The run is known as started before its first event is made (see RunRequest.checkpointAtStart).
    let failure = this.request.checkpointAtStart && this.recorder ? await this.checkpointAtStart() : undefined;
    if (inFlight) yield this.events.make("workflow_resumed", { inputs: this.shownInputs, in_flight: inFlight });
    else if (startsTurn) yield this.events.make("workflow_started", { inputs: this.shownInputs });

    const signal = this.controller.signal;
    while (failure === undefined && session.frontier.length > 0) {
      if (signal.aborted) break;
      if (this.request.suspend?.aborted && this.checkpointed) return this.suspend();

      const { ready, deferred } = selectBatch(session.frontier, this.graph, session.openContainers);
      // Only a pauser that could run now may pause the run: one still waiting for a reference
      // would show tips built from values that are not there yet.
      const asked = this.inputRequest(ready);
      if ("failure" in asked) {
        failure = asked.failure;
        break;
      }
      const pause = asked.pending;
      if (pause) {
        session.status = "paused";
        session.pending = pause;
        session.run = undefined;
        yield* this.drainPartials(undefined);
        // The question is shown like any reply, so a chat client that renders only message
        // events still shows it; user_inputs then carries the form (and the same tips).
        if (pause.tips) {
          this.pushReply(pause.tips);
          yield this.events.make("message", { content: pause.tips });
          yield this.events.make("message_end", {});
        }
        return this.events.make("user_inputs", { inputs: pause.inputs, tips: pause.tips });
      }

      if (session.steps + ready.length > this.options.maxSteps) {
        failure =
          `the run exceeded ${this.options.maxSteps} component steps (next: ${ready.join(", ")}); ` +
          "it is probably looping without end — raise maxSteps (--max-steps) if the canvas really needs more";
        break;
      }
      session.steps += ready.length;

      const nodes = ready.map((id) => this.graph.nodes.get(id)!);
      // A producer about to run again first finishes its last run: nobody can read that stream
      // once its outputs are reset, and its node_finished belongs before the new node_started.
      if (this.partials.length > 0) yield* this.drainPartials(ready);
      // Each start is journaled as a "reset" op (below): replaying it counts the execution again.
      for (const node of nodes) session.executions[node.id] = (session.executions[node.id] ?? 0) + 1;
      const contexts = nodes.map((node) => this.contextFor(node));
      for (const node of nodes) {
        this.pool.resetOutputs(node.id);
        yield this.nodeStarted(node);
      }
      const batch = this.runner.runBatch(contexts, nodes, this.hooks, signal);
      const results = batch instanceof Promise ? await batch : batch;
      if (this.inputReceivers.size > 0) this.inputsDelivered(nodes);

      let frontier = deferred.slice();
      const members = new Set(frontier);
      let exited: string[] | undefined;
      const out = this.pendingEvents;
      for (const result of results) {
        let outcome: Outcome;
        if (result.error === undefined && result.node.def.capabilities?.emitsMessages) {
          outcome = yield* this.postProcessMessage(result, frontier, members);
        } else {
          outcome = this.settle(result, result.error, frontier, members, out);
          for (const event of out) yield event;
          out.length = 0;
        }
        if (outcome.failure !== undefined && failure === undefined) failure = outcome.failure;
        if (outcome.exited) (exited ??= []).push(outcome.exited);
      }
      // A container left through an exit node takes its pending body with it, including what
      // siblings of the exit node appended in the same batch.
      for (const containerId of exited ?? []) frontier = withoutDescendants(frontier, containerId, this.graph);
      session.frontier = frontier;
      if (failure !== undefined) break;
      if (this.recorder) {
        const saved = this.checkpointAfterBatch();
        failure = saved instanceof Promise ? await saved : saved;
        if (failure !== undefined) break;
      }
    }

    if (failure === undefined) yield* this.drainPartials(undefined);
    else yield* this.stopPartials();
    session.frontier = [];
    session.openContainers = {};
    session.run = undefined;
    if (signal.aborted) {
      session.status = "cancelled";
      session.error = "cancelled";
      return this.finishedEvent("cancelled", this.lastOutputs);
    }
    if (failure !== undefined) {
      session.status = "failed";
      session.error = failure;
      return this.finishedEvent(failure, this.lastOutputs);
    }
    session.status = "idle";
    this.recordAssistantTurn();
    return this.finishedEvent(undefined, this.lastOutputs);
  }

  /** Stop after the last checkpoint, leaving the run under way (see RunRequest.suspend). */
  private suspend(): undefined {
    for (const result of this.partials.splice(0)) {
      result.ctx.abort(new Error("the run was suspended: this step runs again where the run goes on"));
      result.ctx.dispose();
    }
    this.recorder!.detach();
    return undefined;
  }

  finishedEvent(error: string | undefined, outputs: Outputs): CanvasEvent {
    return finishedEvent(this.events, this.shownInputs, this.started, this.session.usage, error, outputs);
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

  private pushReply(text: string): void {
    this.session.reply.push(text);
    this.recorder?.op(["reply", text]);
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
    session.openContainers = {};
    session.steps = 0;
    session.executions = {};
    this.recorder?.op(["executionsReset"]);
    this.resetReply();
    session.references = emptyReferences();
    pool.setGlobal("sys.query", query);
    pool.setGlobal("sys.date", formatSystemDate(new Date()));
    if (this.request.userId !== undefined) pool.setGlobal("sys.user_id", this.request.userId);
    if (this.request.files !== undefined) pool.setGlobal("sys.files", this.request.files);
    const turns = Number(pool.globals["sys.conversation_turns"]);
    pool.setGlobal("sys.conversation_turns", (Number.isFinite(turns) ? turns : 0) + 1);
    if (query.length > 0) {
      this.pushHistory(["user", query]);
      this.appendSystemHistory(`user: ${query}`);
    }
    session.frontier = [this.graph.entryId];
    this.inputReceivers.add(this.graph.entryId);
  }

  private recordAssistantTurn(): void {
    let text = this.session.reply.join("\n\n");
    this.resetReply();
    if (text.length === 0) {
      const content = this.lastContent();
      text = content === undefined ? "" : stringifyValue(content);
    }
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
  private inputRequest(ready: readonly string[]): { pending: PendingInput | undefined } | { failure: string } {
    let fields: Record<string, InputField> | undefined;
    let tips = "";
    const components: string[] = [];
    for (const id of ready) {
      const node = this.graph.nodes.get(id)!;
      if (!node.def.capabilities?.asksForInput || !node.def.requestInput) continue;
      const ctx = this.contextFor(node);
      let request: InputRequest;
      try {
        request = node.def.requestInput(ctx);
      } catch (error) {
        return { failure: `${node.displayName} (${node.id}): ${errorMessage(error)}` };
      } finally {
        ctx.dispose();
      }
      if (Object.keys(request.fields).length === 0) continue;
      components.push(id);
      fields = { ...(fields ?? {}), ...request.fields };
      if (request.tips) tips = request.tips;
    }
    return fields ? { pending: { components, inputs: fields, tips } } : NOTHING_TO_ASK;
  }

  // ---- running ----

  private contextFor(node: ComponentNode): InvocationContext {
    const inputs = this.inputReceivers.has(node.id) ? this.inputs : undefined;
    return new InvocationContext(this.scope, node, this.access, this.controller.signal, inputs);
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

  private nodeStarted(node: ComponentNode): CanvasEvent {
    return this.events.make("node_started", {
      inputs: null,
      created_at: Date.now() / 1000,
      component_id: node.id,
      component_name: node.displayName,
      component_type: node.componentName,
      thoughts: node.thoughts,
    });
  }

  /** Remember the outputs a finished component showed: workflow_finished shows the last ones. */
  private remember(id: string, shown: Outputs): void {
    this.lastId = id;
    this.lastOutputs = shown;
    if (this.session.run) this.session.run.last = id;
  }

  private lastContent(): unknown {
    return this.lastId === undefined ? undefined : this.pool.recordOf(this.lastId)?.content;
  }

  private nodeFinished(result: NodeResult, error: string | undefined): CanvasEventOf<"node_finished"> {
    const node = result.node;
    return this.events.make("node_finished", {
      inputs: eventRecord(result.ctx.recordedInputs, this.options.eventValueLimit),
      outputs: eventRecord(this.pool.recordOf(node.id), this.options.eventValueLimit),
      component_id: node.id,
      component_name: node.displayName,
      component_type: node.componentName,
      error: error ?? null,
      elapsed_time: result.elapsed,
      created_at: result.createdAt,
    });
  }

  private containerFinished(containerId: string): CanvasEvent {
    const node = this.graph.nodes.get(containerId)!;
    const startedAt = this.session.openContainers[containerId] ?? Date.now() / 1000;
    delete this.session.openContainers[containerId];
    if (node.startChildId) delete this.session.componentState[node.startChildId];
    const outputs = eventRecord(this.pool.recordOf(containerId), this.options.eventValueLimit);
    this.remember(containerId, outputs);
    return this.events.make("node_finished", {
      inputs: {},
      outputs,
      component_id: node.id,
      component_name: node.displayName,
      component_type: node.componentName,
      error: null,
      elapsed_time: Math.max(0, Date.now() / 1000 - startedAt),
      created_at: startedAt,
    });
  }

  // ---- post-processing ----

  /** A message sink streams its content first (asynchronously); then it settles like any component. */
  private async *postProcessMessage(result: NodeResult, frontier: string[], members: Set<string>): AsyncGenerator<CanvasEvent, Outcome, undefined> {
    let error: string | undefined;
    try {
      yield* this.streamMessages(result);
    } catch (streamError) {
      error = errorMessage(streamError);
    }
    const out: CanvasEvent[] = [];
    this.flushPartials(out);
    const outcome = this.settle(result, error, frontier, members, out);
    yield* out;
    return outcome;
  }

  /**
   * What happens after a component ran, without waiting: error handling, node_finished and the
   * path extension. Events go to `out` (the caller yields them), so the common step needs no
   * extra async generator hop.
   */
  private settle(result: NodeResult, error: string | undefined, frontier: string[], members: Set<string>, out: CanvasEvent[]): Outcome {
    const node = result.node;
    const caps = node.def.capabilities ?? {};
    const params = node.params;

    let gotoTargets: string[] | undefined;
    let failure: string | undefined;
    if (error !== undefined) {
      const method = params.exception_method;
      const gotoList = Array.isArray(params.exception_goto) ? (params.exception_goto as unknown[]).filter((x): x is string => typeof x === "string") : [];
      if (this.controller.signal.aborted) {
        this.pool.setOutput(node.id, "_ERROR", error);
      } else if (method === "goto" && gotoList.length > 0) {
        this.pool.setOutput(node.id, "_ERROR", error);
        gotoTargets = gotoList;
      } else if (method === "comment") {
        this.applyDefaultValue(node, out);
      } else if (result.unavailable) {
        // Not the canvas's fault (no key, no network, nothing configured): record it and go on.
        this.pool.setOutput(node.id, "_ERROR", error);
        const primary = node.def.primaryOutput ?? "result";
        if (this.pool.output(node.id, primary) === undefined) this.pool.setOutput(node.id, primary, error);
      } else {
        this.pool.setOutput(node.id, "_ERROR", error);
        failure = `${node.displayName} (${node.id}): ${error}`;
      }
    }

    // node_finished: containers report when their last round ends; stream producers once consumed.
    if (caps.container && error === undefined) {
      result.ctx.dispose();
      this.session.openContainers[node.id] = result.createdAt;
    } else if (error === undefined && this.holdsStream(node.id)) {
      // Its context (and so its abort signal) stays open until the stream has been read.
      this.wireStreams(node.id);
      this.partials.push(result);
    } else {
      result.ctx.dispose();
      const finished = this.nodeFinished(result, error);
      this.remember(node.id, finished.data.outputs);
      out.push(finished);
    }
    if (failure !== undefined || this.controller.signal.aborted) return { failure };

    const extension = planExtension(node, { control: result.control, goto: gotoTargets }, this.graph);
    if (extension.started) {
      const start = this.graph.nodes.get(extension.started)?.startChildId;
      if (start) delete this.session.componentState[start];
    }
    if (extension.round) this.beginRound(extension.round, node.id);
    for (const containerId of extension.finished) out.push(this.containerFinished(containerId));
    appendUnique(frontier, members, extension.append);
    return extension.exited ? { exited: extension.exited } : NO_OUTCOME;
  }

  /** A new round of a fresh-rounds container: the body's outputs from the last round are gone. */
  private beginRound(containerId: string, startId: string): void {
    const container = this.graph.nodes.get(containerId);
    if (!container?.def.capabilities?.container?.freshRounds) return;
    for (const id of container.descendants) if (id !== startId) this.pool.clearOutputs(id);
  }

  /** `exception_method: comment`: the default value replaces the output and the run goes on. */
  private applyDefaultValue(node: ComponentNode, out: CanvasEvent[]): void {
    const value = node.params.exception_default_value ?? "";
    const primary = node.def.primaryOutput ?? "result";
    this.pool.setOutput(node.id, primary, value);
    if (primary !== "result") this.pool.setOutput(node.id, "result", value);
    if (node.downstream.length === 0) {
      const text = stringifyValue(value);
      if (text.length > 0) {
        this.pushReply(text);
        out.push(this.events.make("message", { content: text }));
      }
      out.push(this.events.make("message_end", {}));
    }
  }

  private holdsStream(id: string): boolean {
    const outputs = this.pool.recordOf(id);
    if (!outputs) return false;
    for (const key in outputs) {
      const value = outputs[key];
      if (isTextStream(value) && !value.done) return true;
    }
    return false;
  }

  /** Once a producer's stream ends, its output becomes the plain text. */
  private wireStreams(id: string): void {
    const outputs = this.pool.recordOf(id);
    if (!outputs) return;
    for (const [key, value] of Object.entries(outputs)) {
      if (isTextStream(value)) value.onDone((text) => this.pool.setOutput(id, key, text));
    }
  }

  /** When a component's time is up; reading its streams counts against its timeout. */
  private deadlineOf(result: NodeResult): Deadline {
    return deadlineAfter(result.startedMs, timeoutFor(result.node, this.options));
  }

  /** Emit a message sink's `content` as `message` events, then `message_end`. */
  private async *streamMessages(result: NodeResult): AsyncGenerator<CanvasEvent, void, undefined> {
    const node = result.node;
    const content = this.pool.output(node.id, "content");
    let text = "";
    if (isTextStream(content)) {
      let thinking = false;
      const chunks = iterateWithin(content as TextStream, this.controller.signal, this.deadlineOf(result), (timeout) => result.ctx.abort(timeout));
      for await (const chunk of chunks) {
        if (chunk === THINK_START) {
          thinking = true;
          yield this.events.make("message", { content: "", start_to_think: true });
        } else if (chunk === THINK_END) {
          thinking = false;
          yield this.events.make("message", { content: "", end_to_think: true });
        } else {
          if (!thinking) text += chunk;
          yield this.events.make("message", { content: chunk });
        }
      }
      this.pool.setOutput(node.id, "content", content.text);
    } else {
      text = stringifyValue(content);
      if (text.length > 0) yield this.events.make("message", { content: text });
    }
    this.pushReply(text);
    const end: Record<string, unknown> = node.def.messageEnd?.(node.params, this.pool.outputsOf(node.id) ?? {}) ?? {};
    // The references gathered since the last message go with this one (RAGFlow attaches the
    // whole run's bucket to every message).
    const references = this.session.references;
    if (end.reference === undefined && (references.chunks.length > 0 || references.doc_aggs.length > 0)) {
      end.reference = references;
      this.session.references = emptyReferences();
    }
    yield this.events.make("message_end", end);
  }

  /** node_finished of producers whose stream has been consumed, in the order they finished. */
  private flushPartials(out: CanvasEvent[]): void {
    while (this.partials.length > 0 && !this.holdsStream(this.partials[0].node.id)) {
      const result = this.partials.shift()!;
      result.ctx.dispose();
      out.push(this.nodeFinished(result, undefined));
    }
  }

  /** The run failed: streams nobody has read are stopped, not waited for. */
  private *stopPartials(): Generator<CanvasEvent, void, undefined> {
    const reason = "stopped: the run failed before this output was read";
    for (const result of this.partials.splice(0)) {
      result.ctx.abort(new Error(reason));
      this.pool.setOutput(result.node.id, "_ERROR", reason);
      result.ctx.dispose();
      yield this.nodeFinished(result, reason);
    }
  }

  /**
   * Finish producers whose stream nobody else will read: all of them at the end of a run (or a
   * pause), or those of `only` before they run again. Each read is bounded by the producer's
   * own timeout and the run's signal.
   */
  private async *drainPartials(only: readonly string[] | undefined): AsyncGenerator<CanvasEvent, void, undefined> {
    for (let i = 0; i < this.partials.length; ) {
      const result = this.partials[i];
      if (only && !only.includes(result.node.id)) {
        i++;
        continue;
      }
      this.partials.splice(i, 1);
      let error: string | undefined;
      const outputs = this.pool.recordOf(result.node.id) ?? {};
      for (const value of Object.values(outputs)) {
        if (!isTextStream(value)) continue;
        try {
          await within(value.readAll(), this.controller.signal, this.deadlineOf(result), (timeout) => result.ctx.abort(timeout));
        } catch (streamError) {
          error = errorMessage(streamError);
        }
      }
      if (error !== undefined) this.pool.setOutput(result.node.id, "_ERROR", error);
      result.ctx.dispose();
      yield this.nodeFinished(result, error);
    }
  }
}
