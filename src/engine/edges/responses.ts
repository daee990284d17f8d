/**
 * Ordered streaming of response nodes (Dify's Answer and End; graphon's ResponseStreamFilter,
 * research/dify-import.md §1.2):
 * - a response node's session begins once every blocking edge on one of its paths was taken
 *   (at once if a path has none), in id order when several begin together;
 * - one session streams at a time, the others wait in order;
 * - the session walks its template: text goes out at once; a reference to a node that is
 *   streaming now is read chunk by chunk; a reference to a finished node goes out whole; a
 *   reference to a skipped node is dropped; anything else waits;
 * - the session walks on whenever a node completes (the scheduler calls `flush` before it sends
 *   that node's node_finished), an edge on its paths is taken, or a node is skipped;
 * - chunks that no template shows are not sent.
 *
 * Where this differs from graphon: a value that is there goes out even when it is empty (graphon
 * waits for a truthy one, and can wait for ever), and at the end of a run the sessions of
 * response nodes that ran are finished, so that everything they show is streamed.
 */
import { isTextStream } from "../../components/text-stream.js";
import type { Reference } from "../../refs/grammar.js";
import type { CanvasEvent } from "../events.js";
import type { CanvasGraph } from "../graph.js";
import { NODE_DONE, NODE_SKIPPED, NODE_FAILED, NODE_RUNNING } from "./plan.js";
import type { EdgeScheduleState, FrameState, SessionState, SessionsState } from "./state.js";
import { levelOf, type EdgeTopology } from "./topology.js";

/** What the coordinator needs from its scheduler. */
interface ResponseHost {
  readonly graph: CanvasGraph;
  readonly topology: EdgeTopology;
  state(): EdgeScheduleState;
  /** Replace the sessions (recorded as an op). */
  setSessions(sessions: SessionsState): void;
  markActivated(frame: string, node: string): void;
  /** The frame chain of a frame key, innermost first (without the top). */
  chainOf(frame: string): readonly string[];
  /** Read a reference as a component of `frame` would. */
  read(ref: Reference, frame: string): unknown;
  /** Send text to the user. */
  emit(text: string, out: CanvasEvent[]): void;
}

/** Where a template reference stands. */
type SegmentState = { kind: "text"; value: unknown } | { kind: "skip" } | { kind: "stream"; key: string } | { kind: "wait" };

export class ResponseCoordinator {
  constructor(private readonly host: ResponseHost) {}

  private get sessions(): SessionsState {
    return this.host.state().sessions;
  }

  /** Activate the response nodes of a frame that stream from its start (no blocking edge on some path). */
  activateInitial(frame: string, out: CanvasEvent[]): void {
    const level = this.levelOfFrame(frame);
    for (const id of this.host.topology.responsesAt.get(level) ?? []) {
      const plan = this.host.topology.responses.get(id)!;
      if (plan.paths.some((p) => p.length === 0)) this.activate(frame, id);
    }
    this.flush(out);
  }

  /** Edges of `frame` were taken: activate the response nodes whose blocking edges are now all taken. */
  edgesTaken(frame: string, edges: readonly number[], out: CanvasEvent[]): void {
    const state = this.host.state().frames[frame];
    if (!state) return;
    let activated = false;
    for (const edge of edges) {
      for (const id of this.host.topology.responsesByEdge.get(edge) ?? []) {
        if (state.activated[id]) continue;
        const plan = this.host.topology.responses.get(id)!;
        if (plan.paths.some((path) => path.every((e) => state.edges[e] === 1))) {
          this.activate(frame, id);
          activated = true;
        }
      }
    }
    if (activated) this.flush(out);
  }

  /** A response node finished: its session begins now if it had not (then it streams in turn). */
  responseFinished(frame: string, node: string, out: CanvasEvent[]): void {
    const state = this.host.state().frames[frame];
    if (state && !state.activated[node]) this.activate(frame, node);
    this.flush(out);
  }

  private activate(frame: string, node: string): void {
    this.host.markActivated(frame, node);
    const sessions = this.sessions;
    const session: SessionState = { frame, node, index: 0 };
    this.host.setSessions(sessions.active ? { active: sessions.active, waiting: [...sessions.waiting, session] } : { active: session, waiting: sessions.waiting });
  }

  /** The active session's reference that waits on a stream of this batch, if it does. */
  streamWanted(streaming: ReadonlySet<string>): { key: string } | undefined {
    const session = this.sessions.active;
    if (!session) return undefined;
    const part = this.host.topology.responses.get(session.node)?.template.parts[session.index];
    if (part === undefined || typeof part === "string") return undefined;
    const state = this.segmentState(session, part, false);
    return state.kind === "stream" && streaming.has(state.key) ? { key: state.key } : undefined;
  }

  /** The active session's current reference was streamed out in full: go on after it. */
  streamed(out: CanvasEvent[]): void {
    const session = this.sessions.active;
    if (!session) return;
    this.host.setSessions({ active: { ...session, index: session.index + 1 }, waiting: this.sessions.waiting });
    this.flush(out);
  }

  /**
   * Advance the active session (and those after it) as far as the values allow. With `final` (at
   * the end of the run), what a session still waits for goes out as it is now.
   */
  flush(out: CanvasEvent[], final = false): void {
    let sessions = this.sessions;
    let session = sessions.active;
    let changed = false;
    while (session) {
      const plan = this.host.topology.responses.get(session.node);
      const parts = plan?.template.parts ?? [];
      let index = session.index;
      while (index < parts.length) {
        const part = parts[index];
        if (typeof part === "string") {
          if (part.length > 0) this.host.emit(part, out);
          index++;
          continue;
        }
        const state = this.segmentState(session, part, final);
        if (state.kind === "skip") {
          index++;
          continue;
        }
        if (state.kind !== "text") break;
        const text = plan!.template.render(state.value);
        if (text.length > 0) this.host.emit(text, out);
        index++;
      }
      if (index !== session.index) changed = true;
      if (index < parts.length) {
        session = { ...session, index };
        break;
      }
      // This session is complete: the next one streams.
      changed = true;
      const [next, ...rest] = sessions.waiting;
      sessions = { active: null, waiting: rest };
      session = next;
      if (session) sessions = { active: session, waiting: rest };
    }
    if (changed) this.host.setSessions(session ? { active: session, waiting: sessions.waiting } : { active: null, waiting: sessions.waiting });
  }

  /** At the end of a run: finish the sessions of response nodes that ran; drop the others. */
  finishAll(out: CanvasEvent[]): void {
    for (let guard = 0; guard < 10_000 && this.sessions.active; guard++) {
      const session = this.sessions.active;
      if (this.nodeMark(session.frame, session.node) !== NODE_DONE) {
        this.host.setSessions({ active: this.sessions.waiting[0] ?? null, waiting: this.sessions.waiting.slice(1) });
        continue;
      }
      this.flush(out, true);
      if (this.sessions.active === session) break;
    }
  }

  /** A frame closes: its sessions go with it. */
  dropFrame(frame: string, out: CanvasEvent[]): void {
    const sessions = this.sessions;
    const waiting = sessions.waiting.filter((s) => s.frame !== frame);
    if (sessions.active?.frame === frame) {
      this.host.setSessions({ active: waiting[0] ?? null, waiting: waiting.slice(1) });
      this.flush(out);
    } else if (waiting.length !== sessions.waiting.length) {
      this.host.setSessions({ active: sessions.active, waiting });
    }
  }

  private levelOfFrame(frame: string): string {
    return this.host.state().frames[frame]?.container ?? "";
  }

  private nodeMark(frame: string, node: string): number | undefined {
    return this.host.state().frames[frame]?.nodes[node];
  }

  /** The frame (of the session's chain) where a node of the graph runs, or undefined when it is outside the chain. */
  private frameFor(session: SessionState, nodeId: string): { key: string; frame: FrameState } | undefined {
    const node = this.host.graph.nodes.get(nodeId);
    if (!node) return undefined;
    const level = levelOf(node);
    const frames = this.host.state().frames;
    for (const key of [...this.host.chainOf(session.frame), ""]) {
      const frame = frames[key];
      if (frame && (frame.container ?? "") === level) return { key, frame };
    }
    return undefined;
  }

  private segmentState(session: SessionState, ref: Reference, final: boolean): SegmentState {
    if (ref.kind !== "component") return { kind: "text", value: this.read(ref, session.frame) };
    // A container around the session (an iteration's item): its value is there.
    for (const key of this.host.chainOf(session.frame)) {
      if (this.host.state().frames[key]?.container === ref.componentId) return { kind: "text", value: this.read(ref, session.frame) };
    }
    const where = this.frameFor(session, ref.componentId);
    if (!where) return { kind: "skip" };
    const mark = where.frame.nodes[ref.componentId];
    if (mark === NODE_SKIPPED || mark === NODE_FAILED) return { kind: "skip" };
    if (mark === NODE_DONE || final) return { kind: "text", value: this.read(ref, session.frame) };
    if (mark === NODE_RUNNING) {
      const key = where.key === "" ? ref.componentId : `${ref.componentId}#${where.key}`;
      const value = this.read(ref, session.frame);
      if (isTextStream(value) && !value.done) return { kind: "stream", key: `${key}\u0000${ref.variable}` };
    }
    return { kind: "wait" };
  }

  private read(ref: Reference, frame: string): unknown {
    try {
      return this.host.read(ref, frame);
    } catch {
      return undefined;
    }
  }
}
