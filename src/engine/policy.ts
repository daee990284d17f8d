/**
 * Scheduling policies: how a graph decides what runs next, chosen per graph when it is compiled.
 *
 * The run loop (run.ts) is the same for every graph: it asks the graph's scheduler for a batch,
 * runs it with the runner, and hands the results back. What the scheduler does with them (which
 * components come next, which containers open or close, what the user is shown and what the
 * run's outputs are) is the policy's. Each policy keeps its decisions in a pure planner
 * (plan.ts for the frontier, plan-edges.ts for edge states) and its effects in its scheduler.
 *
 * - `frontier` (RAGFlow canvases): a component runs after any component that lists it
 *   downstream finished, once what it references is no longer pending (research/ragflow.md §2.5).
 * - `edges` (Dify graphs): every edge is unknown, taken or skipped; a component runs once, when
 *   none of its incoming edges is unknown and at least one was taken (research/dify-import.md §1.1).
 */
import type { Outputs } from "../contracts/values.js";
import type { SchedulingPolicy } from "../contracts/graph.js";
import type { InvocationContext } from "./context.js";
import type { CanvasEvent, CanvasEventOf, EventFactory } from "./events.js";
import type { CanvasGraph, ComponentNode } from "./graph.js";
import type { NodeResult } from "./runner.js";
import type { CanvasSession } from "./session.js";
import type { Deadline } from "./waits.js";
import type { Frame } from "./frame.js";

export type { Frame };

/** One component to run now, in a frame or (no frame) at the top of the graph. */
export interface Task {
  readonly node: ComponentNode;
  readonly frame?: Frame;
}

/** What a scheduler may use of the run it schedules. */
export interface RunHost {
  readonly session: CanvasSession;
  readonly graph: CanvasGraph;
  readonly events: EventFactory;
  /** The run's signal (cancellation, the run's time limit). */
  readonly signal: AbortSignal;
  readonly eventValueLimit: number;
  /** A context for a component (a container's hooks run through one too). */
  contextFor(task: Task): InvocationContext;
  /** A container's own node_finished is made now, once its last round ended (its span ends). */
  containerFinished(containerId: string): void;
  /** The node_finished event of a result, as the pool shows its outputs now. */
  nodeFinished(result: NodeResult, error: string | undefined, extra?: Record<string, unknown>): CanvasEventOf<"node_finished">;
  /** Add text to what the user was shown in this turn (kept across a pause, recorded for checkpoints). */
  pushReply(text: string): void;
  /** Record an op of the scheduler's own state, so checkpoints carry it (see SchedulingPolicy.replay). */
  record(op: unknown): void;
  /** Whether ops are recorded (a run with checkpoints): without, a scheduler need not make them. */
  readonly recording: boolean;
  /** When a result's time is up (reading its streams counts against it). */
  deadlineOf(result: NodeResult): Deadline;
}

/** The run-time side of a policy, for one run. */
export interface Scheduler {
  /** A new turn: only the entry component is ready. */
  startTurn(): void;
  /** Something is ready or under way. */
  hasWork(): boolean;
  /** The tasks that run now. */
  select(): Task[];
  /** The ids a continued run runs again (workflow_resumed.in_flight). */
  inFlight(): string[];
  /** Producers whose streamed output nobody has read yet (they run again after a crash). */
  unread(): string[];
  /** Before a batch starts (e.g. a producer about to run again first finishes its last stream). */
  beforeBatch(tasks: readonly Task[]): AsyncGenerator<CanvasEvent, void, undefined>;
  /**
   * After a batch ran: error handling, messages, node_finished and what runs next, in the
   * batch's order. Returns the failure that ends the run, if any.
   */
  settleBatch(results: readonly NodeResult[]): AsyncGenerator<CanvasEvent, string | undefined, undefined>;
  /** Before the run pauses for input: what must be finished first. */
  beforePause(): AsyncGenerator<CanvasEvent, void, undefined>;
  /**
   * The run is suspended after its last checkpoint (RunRequest.suspend): producers whose stream
   * nobody read yet are stopped; they run again where another process goes on.
   */
  suspend(): void;
  /** The run is over (failed: it ends with an error). */
  endRun(failed: boolean): AsyncGenerator<CanvasEvent, void, undefined>;
  /** workflow_finished's outputs. */
  outputs(): Outputs;
  /** What becomes the assistant's history entry when the turn ends ("" when nothing was said). */
  assistantText(): string;
  /** Fields the policy adds to workflow_finished (e.g. a run status). */
  finishedFields(error: string | undefined): Record<string, unknown>;
}

export type { SchedulingPolicy };

// The policy a graph holds (contracts/graph.ts names it) gets its engine side here: the contract
// module stays a leaf, and every graph's policy is typed with the scheduler it makes.
declare module "../contracts/graph.js" {
  interface SchedulingPolicy {
    scheduler(host: RunHost): Scheduler;
    /**
     * Apply an op the scheduler recorded (host.record) to a session rebuilt from its base, when a
     * checkpoint is replayed.
     */
    replay(session: CanvasSession, op: unknown): void;
  }
}
