/**
 * The run state: plain, versioned JSON that any process can resume a run from (read and checked
 * by engine/state.ts).
 *
 * It lives under the snapshot's `canvasflow` key. The RAGFlow-compatible parts of the state
 * (`path`, `globals`, `history`, `retrieval`, `memory`, `task_id`) stay at the DSL's top level.
 */
import type { InputField, Outputs, ReferenceChunk, ReferenceDocument } from "./values.js";

/**
 * Three kinds of resumption, each an explicit state (never guessed from ids):
 * - `idle`: no turn has run yet, or the last one finished; the next run starts a new turn.
 * - `paused`: waiting for input; the next run resumes with `inputs`.
 * - `running`: a run was under way when this state was saved (a checkpoint); if its process is
 *   gone, the next run continues it from here and runs again what was in flight.
 * - `failed` / `cancelled`: the last turn ended early; the next run starts a new turn.
 */
export type RunStatus = "idle" | "paused" | "running" | "failed" | "cancelled";

/** What a run under way needs to be continued by another process. */
export interface RunInProgress {
  /** The run's message id and start (epoch seconds), kept by its continuation. */
  message_id: string;
  created_at: number;
  /** The run's inputs, and the components still to receive them (Begin, the paused ones). */
  inputs: Record<string, unknown>;
  receivers: string[];
  /** The component whose outputs workflow_finished shows so far. */
  last?: string;
}

/** The explicit pending-input marker of a paused run. */
export interface PendingInput {
  /** The components waiting for input, in path order. */
  components: string[];
  /** The fields asked for, as sent in `user_inputs`. */
  inputs: Record<string, InputField>;
  tips: string;
  /**
   * The interrupts a paused run waits on (components that called `ctx.interrupt(value)`): the
   * run resumes with `inputs.resume`, one value, or an object of values by interrupt id.
   */
  interrupts?: Array<{ id: string; component_id: string; value: unknown }>;
}

export interface PersistedRunState {
  /** RUN_STATE_VERSION (engine/state.ts). */
  version: 1;
  status: RunStatus;
  /** Component outputs of the current turn. */
  outputs: Record<string, Outputs>;
  /** Per-component counters (IterationItem, LoopItem…), plain JSON. */
  component_state: Record<string, unknown>;
  /** Containers that started and have not finished, with their start time (epoch seconds). */
  open_containers: Record<string, number>;
  /** Component executions in the current turn (for the max-steps guard). */
  steps: number;
  pending?: PendingInput;
  /** Message text already shown in a paused turn (becomes the assistant's history entry at its end). */
  reply?: string[];
  /** References gathered in a paused turn that no message has carried yet. */
  references?: { chunks: ReferenceChunk[]; doc_aggs: ReferenceDocument[] };
  /** The error that ended the last turn, if any. */
  error?: string;
  /** Runs started on this session so far (event ids begin with it). */
  epoch?: number;
  /** How often each component ran in the current turn. */
  executions?: Record<string, number>;
  /** Tokens counted in the current turn. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; calls: number };
  /** Present while status is `running`. */
  run?: RunInProgress;
  /**
   * The scheduling policy's own state while a run is paused or under way (edge-scheduled graphs:
   * the edge and node states of every open frame). Plain JSON; its policy reads it.
   */
  schedule?: unknown;
  /**
   * The W3C traceparent of the last run's span, when a tracing SDK recorded it: a run that resumes
   * this one (after a pause, or after its process died) links to it.
   */
  traceparent?: string;
}
