/**
 * The frontier policy (RAGFlow canvases): the run extends a frontier of component ids. After a
 * component finished, the planner (plan.ts) says what joins the frontier: its downstream, a
 * router's choice, a container's start node, an exception's goto targets. Containers loop back
 * to their start node until it reports done.
 *
 * What the user sees follows RAGFlow too: a message sink (Message) streams its `content`, a
 * producer whose stream a message sink reads finishes once the stream was read, and
 * workflow_finished shows the outputs of the last component that finished.
 */
import { isTextStream, THINK_END, THINK_START, type TextStream } from "../components/text-stream.js";
import type { Outputs } from "../components/types.js";
import { stringifyValue } from "../refs/template.js";
import type { VariablePool } from "../pool/pool.js";
import type { CanvasEvent } from "./events.js";
import { eventRecord } from "./event-values.js";
import type { CanvasGraph, ComponentNode } from "./graph.js";
import { emptyReferences } from "./ledger.js";
import { appendUnique, planExtension, selectBatch, withoutDescendants } from "./plan.js";
import type { RunHost, Scheduler, SchedulingPolicy, Task } from "./policy.js";
import { errorMessage, type NodeResult } from "./runner.js";
import type { CanvasSession } from "./session.js";
import { iterateWithin, within } from "./waits.js";

/** What settling a component means for the batch: a failure ends the run, an exit drops a container's body. */
interface Outcome {
  failure?: string;
  exited?: string;
}
const NO_OUTCOME: Outcome = Object.freeze({});

export const FRONTIER_POLICY: SchedulingPolicy = {
  name: "frontier",
  resumesInterrupts: true,
  scheduler: (host) => new FrontierScheduler(host),
  replay() {
    throw new Error("the frontier policy records no ops of its own");
  },
};

class FrontierScheduler implements Scheduler {
  /** Producers whose `node_finished` waits until their streamed output has been consumed. */
  private readonly partials: NodeResult[] = [];
  /** What workflow_finished shows: the outputs of the last component that finished (as its event showed them). */
  private lastOutputs: Outputs = {};
  /** That component (its full `content` is the history entry when no message was shown). */
  private lastId: string | undefined;
  /** Events of the component being settled, yielded right after (reused, so a step allocates no list). */
  private readonly pendingEvents: CanvasEvent[] = [];
  /** What the last select() left in the frontier. */
  private deferred: string[] = [];

  constructor(private readonly host: RunHost) {
    const session = host.session;
    // A run continued after a crash shows the outputs the crashed one showed so far.
    if (session.status === "running" && session.run?.last !== undefined) {
      this.remember(session.run.last, eventRecord(this.pool.recordOf(session.run.last), host.eventValueLimit));
    }
  }

  private get session(): CanvasSession {
    return this.host.session;
  }

  private get pool(): VariablePool {
    return this.host.session.pool;
  }

  private get graph(): CanvasGraph {
    return this.host.graph;
  }

  startTurn(): void {
    this.session.openContainers = {};
    this.session.frontier = [this.graph.entryId];
  }

  hasWork(): boolean {
    return this.session.frontier.length > 0;
  }

  select(): Task[] {
    const { ready, deferred } = selectBatch(this.session.frontier, this.graph, this.session.openContainers);
    this.deferred = deferred;
    return ready.map((id) => ({ node: this.graph.nodes.get(id)! }));
  }

  unread(): string[] {
    return this.partials.map((p) => p.node.id);
  }

  inFlight(): string[] {
    return selectBatch(this.session.frontier, this.graph, this.session.openContainers).ready;
  }

  async *beforeBatch(tasks: readonly Task[]): AsyncGenerator<CanvasEvent, void, undefined> {
    // A producer about to run again first finishes its last run: nobody can read that stream
    // once its outputs are reset, and its node_finished belongs before the new node_started.
    if (this.partials.length > 0) yield* this.drainPartials(tasks.map((t) => t.node.id));
  }

  async *settleBatch(results: readonly NodeResult[]): AsyncGenerator<CanvasEvent, string | undefined, undefined> {
    let frontier = this.deferred.slice();
    const members = new Set(frontier);
    let exited: string[] | undefined;
    let failure: string | undefined;
    const out = this.pendingEvents;
    for (const result of results) {
      let outcome: Outcome;
      if (result.interrupt) {
        // Paused from inside: it stays in the frontier and runs again from its start on resume.
        result.ctx.dispose();
        appendUnique(frontier, members, [result.node.id]);
        continue;
      }
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
    this.session.frontier = frontier;
    return failure;
  }

  beforePause(): AsyncGenerator<CanvasEvent, void, undefined> {
    return this.drainPartials(undefined);
  }

  suspend(): void {
    for (const result of this.partials.splice(0)) {
      result.ctx.abort(new Error("the run was suspended: this step runs again where the run goes on"));
      result.ctx.dispose();
    }
  }

  async *endRun(failed: boolean): AsyncGenerator<CanvasEvent, void, undefined> {
    if (failed) yield* this.stopPartials();
    else yield* this.drainPartials(undefined);
    this.session.frontier = [];
    this.session.openContainers = {};
  }

  outputs(): Outputs {
    return this.lastOutputs;
  }

  assistantText(): string {
    const text = this.session.reply.join("\n\n");
    if (text.length > 0) return text;
    const content = this.lastId === undefined ? undefined : this.pool.recordOf(this.lastId)?.content;
    return content === undefined ? "" : stringifyValue(content);
  }

  finishedFields(): Record<string, unknown> {
    return {};
  }

  /** Remember the outputs a finished component showed: workflow_finished shows the last ones. */
  private remember(id: string, shown: Outputs): void {
    this.lastId = id;
    this.lastOutputs = shown;
    if (this.session.run) this.session.run.last = id;
  }

  private containerFinished(containerId: string): CanvasEvent {
    const node = this.graph.nodes.get(containerId)!;
    const startedAt = this.session.openContainers[containerId] ?? Date.now() / 1000;
    delete this.session.openContainers[containerId];
    if (node.startChildId) delete this.session.componentState[node.startChildId];
    const outputs = eventRecord(this.pool.recordOf(containerId), this.host.eventValueLimit);
    this.remember(containerId, outputs);
    this.host.containerFinished(containerId);
    return this.host.events.make("node_finished", {
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
    const signal = this.host.signal;

    let gotoTargets: string[] | undefined;
    let failure: string | undefined;
    if (error !== undefined) {
      const method = params.exception_method;
      const gotoList = Array.isArray(params.exception_goto) ? (params.exception_goto as unknown[]).filter((x): x is string => typeof x === "string") : [];
      if (signal.aborted) {
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
      const finished = this.host.nodeFinished(result, error);
      this.remember(node.id, finished.data.outputs);
      out.push(finished);
    }
    if (failure !== undefined || signal.aborted) return { failure };

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
        this.host.pushReply(text);
        out.push(this.host.events.make("message", { content: text }));
      }
      out.push(this.host.events.make("message_end", {}));
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

  /** Emit a message sink's `content` as `message` events, then `message_end`. */
  private async *streamMessages(result: NodeResult): AsyncGenerator<CanvasEvent, void, undefined> {
    const node = result.node;
    const events = this.host.events;
    const content = this.pool.output(node.id, "content");
    let text = "";
    if (isTextStream(content)) {
      let thinking = false;
      const chunks = iterateWithin(content as TextStream, this.host.signal, this.host.deadlineOf(result), (timeout) => result.ctx.abort(timeout));
      for await (const chunk of chunks) {
        if (chunk === THINK_START) {
          thinking = true;
          yield events.make("message", { content: "", start_to_think: true });
        } else if (chunk === THINK_END) {
          thinking = false;
          yield events.make("message", { content: "", end_to_think: true });
        } else {
          if (!thinking) text += chunk;
          yield events.make("message", { content: chunk });
        }
      }
      this.pool.setOutput(node.id, "content", content.text);
    } else {
      text = stringifyValue(content);
      if (text.length > 0) yield events.make("message", { content: text });
    }
    this.host.pushReply(text);
    const end: Record<string, unknown> = node.def.messageEnd?.(node.params, this.pool.outputsOf(node.id) ?? {}) ?? {};
    // The references gathered since the last message go with this one (RAGFlow attaches the
    // whole run's bucket to every message).
    const references = this.session.references;
    if (end.reference === undefined && (references.chunks.length > 0 || references.doc_aggs.length > 0)) {
      end.reference = references;
      this.session.references = emptyReferences();
    }
    yield events.make("message_end", end);
  }

  /** node_finished of producers whose stream has been consumed, in the order they finished. */
  private flushPartials(out: CanvasEvent[]): void {
    while (this.partials.length > 0 && !this.holdsStream(this.partials[0].node.id)) {
      const result = this.partials.shift()!;
      result.ctx.dispose();
      out.push(this.host.nodeFinished(result, undefined));
    }
  }

  /** The run failed: streams nobody has read are stopped, not waited for. */
  private *stopPartials(): Generator<CanvasEvent, void, undefined> {
    const reason = "stopped: the run failed before this output was read";
    for (const result of this.partials.splice(0)) {
      result.ctx.abort(new Error(reason));
      this.pool.setOutput(result.node.id, "_ERROR", reason);
      result.ctx.dispose();
      yield this.host.nodeFinished(result, reason);
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
          await within(value.readAll(), this.host.signal, this.host.deadlineOf(result), (timeout) => result.ctx.abort(timeout));
        } catch (streamError) {
          error = errorMessage(streamError);
        }
      }
      if (error !== undefined) this.pool.setOutput(result.node.id, "_ERROR", error);
      result.ctx.dispose();
      yield this.host.nodeFinished(result, error);
    }
  }
}
