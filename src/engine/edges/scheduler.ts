/**
 * The edge policy's scheduler: runs what the edge planner (plan.ts) makes ready, frame by frame,
 * and does what the planner does not: error routes, containers' rounds, response streaming and
 * the run's outputs. Its state lives in `session.schedule` (state.ts) and changes only through
 * ops, which checkpoints carry.
 */
import { isTextStream, type TextStream } from "../../components/text-stream.js";
import type { Outputs, RoundOutcome } from "../../components/types.js";
import type { Reference } from "../../refs/grammar.js";
import { scopedKey, type VariablePool } from "../../pool/pool.js";
import type { InvocationContext } from "../context.js";
import type { CanvasEvent } from "../events.js";
import type { CanvasGraph, ComponentNode } from "../graph.js";
import type { Frame, RunHost, Scheduler, Task } from "../policy.js";
import { errorMessage, type NodeResult } from "../runner.js";
import type { CanvasSession } from "../session.js";
import { iterateWithin, within } from "../waits.js";
import {
  EDGE_TAKEN,
  NODE_DONE,
  NODE_FAILED,
  NODE_READY,
  NODE_RUNNING,
  NODE_SKIPPED,
  planCompletion,
  type FrameMarks,
  type NodeMark,
  type Transition,
} from "./plan.js";
import { ResponseCoordinator } from "./responses.js";
import {
  applyEdgeOp,
  clearReady,
  initialState,
  isEdgeScheduleState,
  newFrame,
  pushReady,
  setActive,
  setCounts,
  setEdge,
  setNode,
  type ContainerRun,
  type EdgeOp,
  type EdgeScheduleState,
} from "./state.js";
import type { EdgeTopology } from "./topology.js";

/** How a node ended, on its node_finished (Dify's node execution status). */
type NodeStatus = "succeeded" | "failed" | "exception";
const SUCCEEDED = Object.freeze({ status: "succeeded" });
const FAILED = Object.freeze({ status: "failed" });
const EXCEPTION = Object.freeze({ status: "exception" });

export class EdgeScheduler implements Scheduler {
  private state: EdgeScheduleState;
  private readonly frameObjects = new Map<string, Frame>();
  private readonly responses: ResponseCoordinator;
  /** Events made while settling, yielded right after (reused). */
  private readonly out: CanvasEvent[] = [];
  /** Text sent to the user in this run. */
  private readonly spoken: string[] = [];
  /** The stream of each output being read in the batch under way, by `<output key>\0<output>`. */
  private streaming = new Map<string, TextStream>();

  constructor(
    private readonly host: RunHost,
    private readonly topology: EdgeTopology,
  ) {
    this.recording = host.recording;
    const saved = host.session.schedule;
    this.state = isEdgeScheduleState(saved) ? saved : initialState(host.graph.entryId);
    this.responses = new ResponseCoordinator({
      graph: host.graph,
      topology,
      state: () => this.state,
      setSessions: (sessions) => this.op(["s", sessions]),
      markActivated: (frame, node) => this.op(["a", frame, node]),
      chainOf: (frame) => this.frameOf(frame)?.chain ?? [],
      read: (ref, frame) => this.pool.resolve(ref, { frames: this.frameOf(frame)?.chain ?? [] }),
      emit: (text, out) => this.emit(text, out),
    });
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

  /** Change the state, and record the change for checkpoints. */
  private op(op: EdgeOp): void {
    this.state = applyEdgeOp(this.state, op);
    this.session.schedule = this.state;
    this.host.record(op);
    if (op[0] === "f" || op[0] === "init") this.frameKeys = undefined;
  }

  /** Whether the run records ops (it does or does not for its whole length). */
  private readonly recording: boolean;

  /** The open frames' keys, in order (the top first); recomputed when a frame opens or closes. */
  private frameKeys: string[] | undefined;

  private keys(): string[] {
    return (this.frameKeys ??= Object.keys(this.state.frames));
  }

  // The changes of every step: made directly, and made into ops only when a checkpoint records them.

  private mark(frame: string, id: string, mark: NodeMark | 0): void {
    setNode(this.state, frame, id, mark);
    if (this.recording) this.host.record(["n", frame, id, mark]);
  }

  private setActive(frame: string, active: number): void {
    setActive(this.state, frame, active);
    if (this.recording) this.host.record(["F", frame, "active", active]);
  }

  private clearReady(frame: string): void {
    clearReady(this.state, frame);
    if (this.recording) this.host.record(["R", frame]);
  }

  // ---- the Scheduler interface ----

  startTurn(): void {
    this.op(["init", initialState(this.graph.entryId)]);
    this.session.frontier = [this.graph.entryId];
  }

  hasWork(): boolean {
    const frames = this.state.frames;
    for (const key of this.keys()) if (frames[key].ready.length > 0) return true;
    return false;
  }

  select(): Task[] {
    const tasks: Task[] = [];
    const frames = this.state.frames;
    const nodes = this.graph.nodes;
    for (const key of this.keys()) {
      const ready = frames[key].ready;
      if (ready.length === 0) continue;
      const frame = key === "" ? undefined : this.frameOf(key);
      for (const id of ready) tasks.push(frame ? { node: nodes.get(id)!, frame } : { node: nodes.get(id)! });
    }
    return tasks;
  }

  inFlight(): string[] {
    return this.readyIds();
  }

  /** The ids ready in every frame, in frame order. */
  private readyIds(): string[] {
    const ids: string[] = [];
    const frames = this.state.frames;
    for (const key of this.keys()) for (const id of frames[key].ready) ids.push(id);
    return ids;
  }

  unread(): string[] {
    return [];
  }

  async *beforeBatch(tasks: readonly Task[]): AsyncGenerator<CanvasEvent, void, undefined> {
    const out = this.out;
    if (!this.state.started) {
      this.op(["S"]);
      this.responses.activateInitial("", out);
    }
    let last: string | undefined;
    for (const task of tasks) {
      const key = task.frame?.key ?? "";
      this.mark(key, task.node.id, NODE_RUNNING);
      // select() takes every ready node of a frame, in frame order: its ready list is now running.
      if (key !== last) {
        const frame = this.state.frames[key];
        this.setActive(key, frame.active + frame.ready.length);
        this.clearReady(key);
        last = key;
      }
    }
    if (out.length > 0) yield* this.drain(out);
  }

  async *settleBatch(results: readonly NodeResult[]): AsyncGenerator<CanvasEvent, string | undefined, undefined> {
    const failedStreams = this.holdsStreams(results) ? yield* this.pump(results) : undefined;
    let failure: string | undefined;
    for (const result of results) {
      const streamError = failedStreams?.get(result);
      const problem = this.settle(result, streamError ?? result.error, streamError !== undefined ? "Error" : result.errorType) ?? this.takeFailure();
      if (problem !== undefined && failure === undefined) failure = problem;
      const out = this.out;
      for (const event of out) yield event;
      out.length = 0;
    }
    this.session.frontier = this.readyIds();
    return failure;
  }

  async *beforePause(): AsyncGenerator<CanvasEvent, void, undefined> {
    // Streams are read within their batch: nothing is left to finish.
  }

  suspend(): void {
    // Every stream is read before its batch settles (see pump): nothing is left unread.
  }

  async *endRun(failed: boolean): AsyncGenerator<CanvasEvent, void, undefined> {
    const out = this.out;
    if (!failed && !this.host.signal.aborted) this.responses.finishAll(out);
    yield* this.drain(out);
    if (this.spoken.length > 0) yield this.host.events.make("message_end", {});
  }

  outputs(): Outputs {
    return this.state.outputs;
  }

  assistantText(): string {
    const answer = this.state.outputs.answer;
    return typeof answer === "string" ? answer : this.spoken.join("");
  }

  finishedFields(error: string | undefined): Record<string, unknown> {
    const status =
      error === undefined ? (this.state.exceptions > 0 ? "partial-succeeded" : "succeeded") : error === "cancelled" ? "stopped" : "failed";
    return { status, exceptions_count: this.state.exceptions };
  }

  // ---- frames ----

  /** The Frame of a key ("" is the top: no frame). */
  private frameOf(key: string): Frame | undefined {
    if (key === "") return undefined;
    let frame = this.frameObjects.get(key);
    if (frame) return frame;
    const state = this.state.frames[key];
    if (!state || state.container === undefined) return undefined;
    const chain = [key, ...(this.frameOf(state.parent ?? "")?.chain ?? [])];
    frame = { key, chain, containerId: state.container, round: state.round ?? 0 };
    this.frameObjects.set(key, frame);
    return frame;
  }

  /** What the planner reads of a frame (made once per frame: it reads the live state). */
  private marksOf(key: string): FrameMarks {
    let marks = this.marks.get(key);
    if (!marks) {
      // Read through this.state: a new turn's "init" replaces the state object.
      marks = { edge: (i) => this.state.frames[key].edges[i], node: (id) => this.state.frames[key].nodes[id], counts: (id) => this.state.frames[key].counts[id] };
      this.marks.set(key, marks);
    }
    return marks;
  }

  private readonly marks = new Map<string, FrameMarks>();

  // ---- streams ----

  /** Whether a result of the batch holds a stream still being produced. */
  private holdsStreams(results: readonly NodeResult[]): boolean {
    for (const result of results) {
      if (result.error !== undefined) continue;
      const record = this.pool.recordOf(result.ctx.outputKey);
      for (const name in record) if (isTextStream(record[name]) && !record[name].done) return true;
    }
    return false;
  }

  /**
   * Read the streams the batch's components produced, before any of them completes: the active
   * response session reads the ones it shows, chunk by chunk, in its order; the others are read
   * whole. Returns the results whose stream failed.
   */
  private async *pump(results: readonly NodeResult[]): AsyncGenerator<CanvasEvent, Map<NodeResult, string> | undefined, undefined> {
    const owners = new Map<string, NodeResult>();
    this.streaming = new Map();
    for (const result of results) {
      if (result.error !== undefined) continue;
      const record = this.pool.recordOf(result.ctx.outputKey);
      if (!record) continue;
      for (const name in record) {
        const value = record[name];
        if (isTextStream(value) && !value.done) {
          const key = `${result.ctx.outputKey}\u0000${name}`;
          this.streaming.set(key, value);
          owners.set(key, result);
        }
      }
    }
    if (this.streaming.size === 0) return undefined;
    let failed: Map<NodeResult, string> | undefined;
    const out = this.out;
    const keys = new Set(this.streaming.keys());
    for (let wanted = this.responses.streamWanted(keys); wanted; wanted = this.responses.streamWanted(keys)) {
      const stream = this.streaming.get(wanted.key)!;
      const owner = owners.get(wanted.key)!;
      try {
        const chunks = iterateWithin(stream, this.host.signal, this.host.deadlineOf(owner), (timeout) => owner.ctx.abort(timeout));
        for await (const chunk of chunks) {
          this.emit(chunk, out);
          yield* this.drain(out);
        }
      } catch (error) {
        (failed ??= new Map()).set(owner, errorMessage(error));
      }
      keys.delete(wanted.key);
      if (failed?.has(owner)) break;
      this.responses.streamed(out);
      yield* this.drain(out);
    }
    // The streams nobody shows now are read whole (their chunks stay buffered in the stream).
    for (const [key, stream] of this.streaming) {
      const owner = owners.get(key)!;
      if (failed?.has(owner)) continue;
      try {
        await within(stream.readAll(), this.host.signal, this.host.deadlineOf(owner), (timeout) => owner.ctx.abort(timeout));
      } catch (error) {
        (failed ??= new Map()).set(owner, errorMessage(error));
      }
    }
    // A finished stream becomes its text: node_finished and everyone after read plain strings.
    for (const [key, stream] of this.streaming) {
      const owner = owners.get(key)!;
      if (!failed?.has(owner)) this.pool.setOutput(owner.ctx.outputKey, key.slice(key.indexOf("\u0000") + 1), stream.text);
    }
    this.streaming = new Map();
    return failed;
  }

  private emit(text: string, out: CanvasEvent[]): void {
    this.spoken.push(text);
    out.push(this.host.events.make("message", { content: text }));
  }

  private *drain(out: CanvasEvent[]): Generator<CanvasEvent, void, undefined> {
    if (out.length === 0) return;
    for (const event of out) yield event;
    out.length = 0;
  }

  // ---- settling ----

  /** A result of the batch. Returns the failure that ends the run, if any. */
  private settle(result: NodeResult, error: string | undefined, errorType: string | undefined): string | undefined {
    const node = result.node;
    const frame = result.ctx.frame?.key ?? "";
    if (error === undefined && result.control?.rounds && node.def.rounds) {
      result.ctx.dispose();
      this.startContainer(node, frame, result.control.rounds, result.createdAt, result.startedMs);
      return undefined;
    }
    return this.finishNode(node, frame, result, error, errorType, result.control?.handle);
  }

  /**
   * A node ended (a component, or a container after its last round): its error route, its
   * node_finished, and what follows in its frame.
   */
  private finishNode(
    node: ComponentNode,
    frame: string,
    result: NodeResult,
    error: string | undefined,
    errorType: string | undefined,
    handle: string | undefined,
  ): string | undefined {
    const out = this.out;
    const key = result.ctx.outputKey;
    let status: NodeStatus = "succeeded";
    if (error !== undefined) {
      const route = this.host.signal.aborted ? undefined : node.onError;
      if (!route) {
        result.ctx.dispose();
        out.push(this.host.nodeFinished(result, error, FAILED));
        return this.fail(node, frame, error);
      }
      status = "exception";
      this.op(["x", this.state.exceptions + 1]);
      const failureOutputs: Outputs = route.errorKeys ? { [route.errorKeys.message]: error, [route.errorKeys.type]: errorType ?? "Error" } : {};
      this.pool.replaceOutputs(key, route.kind === "default" ? { ...structuredClone(route.outputs), ...failureOutputs } : failureOutputs);
      handle = route.kind === "branch" ? route.handle : undefined;
    }
    result.ctx.dispose();
    this.complete(node, frame, handle ?? "source", this.host.nodeFinished(result, error, status === "succeeded" ? SUCCEEDED : EXCEPTION));
    return undefined;
  }

  /** A failure nothing handles: the run fails, or (inside a round) the round stops. */
  private fail(node: ComponentNode, frame: string, error: string): string | undefined {
    const message = `${node.displayName} (${node.id}): ${error}`;
    const state = this.state.frames[frame];
    this.mark(frame, node.id, NODE_FAILED);
    this.setActive(frame, state.active - 1);
    // A step that failed because the run was stopped does not fail the run: it ends as stopped.
    if (frame === "") return this.host.signal.aborted ? undefined : message;
    if (state.failed === undefined) this.op(["F", frame, "failed", message]);
    if (state.ready.length > 0) this.clearReady(frame);
    this.checkFrame(frame);
    return undefined;
  }

  /**
   * A node completed in a frame: its outputs reach the run and the response being streamed, its
   * edges are resolved, then its node_finished goes out. As in graphon (ResponseStreamFilter
   * flushes before it passes a node's success on), the text its value or its taken edges release
   * comes before that node_finished.
   */
  private complete(node: ComponentNode, frame: string, handle: string, finished: CanvasEvent): void {
    const out = this.out;
    const state = this.state.frames[frame];
    this.mark(frame, node.id, NODE_DONE);
    this.setActive(frame, state.active - 1);
    const caps = node.def.capabilities;
    if (caps?.response) {
      this.collectResponse(node, frame, caps.response);
      this.responses.responseFinished(frame, node.id, out);
    } else {
      // Its value exists now: the session that waits on it streams it, and goes on.
      this.responses.flush(out);
    }
    if (caps?.exitsContainer) this.exitContainer(frame);
    const transition = planCompletion(this.topology, this.marksOf(frame), node.id, handle);
    this.apply(frame, transition);
    out.push(finished);
    this.checkFrame(frame);
  }

  /** Apply a planner transition; ready nodes queue (unless the frame stopped), response sessions may begin. */
  private apply(frame: string, transition: Transition): void {
    const recording = this.recording;
    let taken: number[] | undefined;
    for (const [edge, mark] of transition.edges) {
      setEdge(this.state, frame, edge, mark);
      if (recording) this.host.record(["e", frame, edge, mark]);
      if (mark === EDGE_TAKEN && this.topology.responsesByEdge.has(edge)) (taken ??= []).push(edge);
    }
    if (transition.counts) for (const [id, counts] of transition.counts) {
      setCounts(this.state, frame, id, counts);
      if (recording) this.host.record(["k", frame, id, counts]);
    }
    for (const id of transition.skipped) this.mark(frame, id, NODE_SKIPPED);
    const stopped = this.state.frames[frame].failed !== undefined;
    for (const id of transition.ready) {
      this.mark(frame, id, stopped ? NODE_SKIPPED : NODE_READY);
      if (stopped) continue;
      pushReady(this.state, frame, id);
      if (recording) this.host.record(["r", frame, id]);
    }
    if (taken) this.responses.edgesTaken(frame, taken, this.out);
    // A response node skipped: a session that waits on it moves on.
    if (transition.skipped.length > 0) this.responses.flush(this.out);
  }

  /** A response node's outputs reach the run's: merged (End) or appended to (Answer). */
  private collectResponse(node: ComponentNode, frame: string, mode: "merge" | "concatenate"): void {
    const record = this.pool.recordOf(scopedKey(node.id, frame)) ?? {};
    for (const [name, value] of Object.entries(record)) {
      if (mode === "merge") this.op(["o", name, value]);
      else if (typeof value === "string") {
        const before = this.state.outputs[name];
        this.op(["o", name, (typeof before === "string" ? before : "") + value]);
      }
    }
  }

  /** An exit node ran: the nearest container around it that can be left ends after this round. */
  private exitContainer(frame: string): void {
    for (let key: string | undefined = frame; key !== undefined && key !== ""; key = this.state.frames[key]?.parent) {
      const container = this.state.frames[key]?.container;
      if (container !== undefined && this.graph.nodes.get(container)?.def.capabilities?.container?.exitable) {
        this.op(["F", key, "exited", true]);
        return;
      }
    }
  }

  /** A round whose body has nothing ready and nothing running is over. */
  private checkFrame(frame: string): void {
    if (frame === "") return;
    const state = this.state.frames[frame];
    if (state && state.ready.length === 0 && state.active === 0) this.closeRound(frame);
  }

  // ---- containers ----

  private startContainer(node: ComponentNode, frame: string, rounds: { count: number; parallel?: number }, createdAt: number, startedMs: number): void {
    const count = Number.isFinite(rounds.count) && rounds.count > 0 ? Math.floor(rounds.count) : 0;
    const parallel = Number.isFinite(rounds.parallel) && (rounds.parallel ?? 0) > 1 ? Math.floor(rounds.parallel!) : 1;
    const key = scopedKey(node.id, frame);
    const run: ContainerRun = { frame, node: node.id, count, parallel, next: 0, open: [], startedAt: createdAt };
    this.op(["c", key, run]);
    this.startedMs.set(key, startedMs);
    this.openRounds(key);
  }

  /** When each running container started, by `performance.now()` (for its elapsed time). */
  private readonly startedMs = new Map<string, number>();

  /** Open rounds while the container allows; finish it when none is left. */
  private openRounds(key: string): void {
    const run = this.state.containers[key];
    while (!run.stop && run.error === undefined && run.next < run.count && run.open.length < run.parallel) this.openRound(key);
    if (this.state.containers[key] && this.state.containers[key].open.length === 0) this.finishContainer(key);
  }

  private openRound(key: string): void {
    const run = this.state.containers[key];
    const container = this.graph.nodes.get(run.node)!;
    const index = run.next;
    const childKey = `${run.frame === "" ? "" : `${run.frame}/`}${run.node}.${index}`;
    const start = container.startChildId!;
    this.op(["f", childKey, newFrame(run.frame, run.node, index, start)]);
    this.op(["C", key, "next", index + 1]);
    this.op(["C", key, "open", [...run.open, childKey]]);
    const hooks = container.def.rounds!;
    if (hooks.roundInputs) {
      const ctx = this.host.contextFor({ node: container, frame: this.frameOf(childKey) });
      try {
        this.pool.replaceOutputs(ctx.outputKey, hooks.roundInputs(ctx, index));
      } catch (error) {
        // The round cannot start: it ends at once with that failure.
        this.op(["F", childKey, "failed", `${container.displayName} (${container.id}): ${errorMessage(error)}`]);
        this.op(["n", childKey, start, 0]);
        this.op(["R", childKey]);
      } finally {
        ctx.dispose();
      }
    }
    this.responses.activateInitial(childKey, this.out);
    this.checkFrame(childKey);
  }

  /** A round ended: the container hears how, the round's outputs go, and the next rounds open. */
  private closeRound(childKey: string): void {
    const state = this.state.frames[childKey];
    const parent = state.parent ?? "";
    const containerId = state.container!;
    const key = scopedKey(containerId, parent);
    const container = this.graph.nodes.get(containerId)!;
    const parentCtx = this.containerContext(container, parent);
    const childCtx = this.host.contextFor({ node: container, frame: this.frameOf(childKey) });
    const outcome: RoundOutcome = {
      index: state.round ?? 0,
      ...(state.failed !== undefined ? { error: state.failed } : {}),
      exited: state.exited === true,
      read: (ref: Reference) => childCtx.peek(ref),
    };
    let stop = false;
    let error: string | undefined;
    try {
      stop = container.def.rounds!.roundEnded(parentCtx, outcome)?.stop === true;
    } catch (caught) {
      error = errorMessage(caught);
    } finally {
      parentCtx.dispose();
      childCtx.dispose();
    }
    // The round's outputs are gone with it (a loop's next round starts afresh; an iteration has collected what it needs).
    for (const id in state.nodes) {
      const scoped = scopedKey(id, childKey);
      if (this.pool.recordOf(scoped)) this.pool.clearOutputs(scoped);
      if (Object.hasOwn(this.session.componentState, scoped)) delete this.session.componentState[scoped];
    }
    this.pool.clearOutputs(scopedKey(containerId, childKey));
    this.frameObjects.delete(childKey);
    this.marks.delete(childKey);
    this.responses.dropFrame(childKey, this.out);
    this.op(["f", childKey, null]);
    const run = this.state.containers[key];
    this.op(["C", key, "open", run.open.filter((k) => k !== childKey)]);
    if (error !== undefined) this.op(["C", key, "error", error]);
    else if (stop) this.op(["C", key, "stop", true]);
    this.openRounds(key);
  }

  /** The context a container's hooks run in: the container, in the frame it runs in. */
  private containerContext(container: ComponentNode, frame: string): InvocationContext {
    return this.host.contextFor({ node: container, frame: this.frameOf(frame) });
  }

  /** The last round ended: the container sets its outputs and completes (or fails). */
  private finishContainer(key: string): void {
    const run = this.state.containers[key];
    const container = this.graph.nodes.get(run.node)!;
    const ctx = this.containerContext(container, run.frame);
    let error = run.error;
    if (error === undefined) {
      try {
        container.def.rounds!.finish(ctx);
      } catch (caught) {
        error = errorMessage(caught);
      }
    }
    this.op(["c", key, null]);
    const startedMs = this.startedMs.get(key) ?? performance.now();
    this.startedMs.delete(key);
    const result: NodeResult = {
      node: container,
      ctx,
      control: undefined,
      error,
      createdAt: run.startedAt,
      elapsed: Math.max(0, Date.now() / 1000 - run.startedAt),
      startedMs,
    };
    const failure = this.finishNode(container, run.frame, result, error, error === undefined ? undefined : "Error", undefined);
    // A container that failed at the top ends the run: the failure is kept for the batch to report.
    if (failure !== undefined) this.pendingFailure ??= failure;
  }

  /** A failure that arose outside a batch result (a container at the top whose rounds failed). */
  private pendingFailure: string | undefined;

  /** The failure to report for the batch (see finishContainer). */
  private takeFailure(): string | undefined {
    const failure = this.pendingFailure;
    this.pendingFailure = undefined;
    return failure;
  }
}
