/**
 * The run state: plain, versioned JSON that any process can resume a run from.
 *
 * It lives under the snapshot's `canvasflow` key. The RAGFlow-compatible parts of the state
 * (`path`, `globals`, `history`, `retrieval`, `memory`, `task_id`) stay at the DSL's top level.
 */
import type { InputField, Outputs, ReferenceChunk, ReferenceDocument } from "../components/types.js";
import { isPlainObject } from "../util/values.js";

export const RUN_STATE_VERSION = 1;

/**
 * - `idle`: no turn has run yet, or the last one finished; the next run starts a new turn.
 * - `paused`: waiting for input; the next run resumes with `inputs`.
 * - `failed` / `cancelled`: the last turn ended early; the next run starts a new turn.
 */
export type RunStatus = "idle" | "paused" | "failed" | "cancelled";

/** The explicit pending-input marker of a paused run. */
export interface PendingInput {
  /** The components waiting for input, in path order. */
  components: string[];
  /** The fields asked for, as sent in `user_inputs`. */
  inputs: Record<string, InputField>;
  tips: string;
}

export interface PersistedRunState {
  version: typeof RUN_STATE_VERSION;
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
}

/** Raised when a snapshot's run state cannot be read. */
export class RunStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunStateError";
  }
}

const STATUSES: ReadonlySet<string> = new Set(["idle", "paused", "failed", "cancelled"]);

/** Read a persisted run state, checking the parts the engine relies on. */
export function readRunState(value: unknown): PersistedRunState {
  if (!isPlainObject(value)) throw new RunStateError("canvasflow run state must be an object");
  const raw = value as Partial<PersistedRunState> & { version?: unknown };
  if (raw.version !== RUN_STATE_VERSION) {
    throw new RunStateError(`canvasflow run state version ${JSON.stringify(raw.version)} is not supported (expected ${RUN_STATE_VERSION})`);
  }
  if (typeof raw.status !== "string" || !STATUSES.has(raw.status)) {
    throw new RunStateError(`canvasflow run state has an unknown status ${JSON.stringify(raw.status)}`);
  }
  if (raw.status === "paused" && (!raw.pending || !Array.isArray(raw.pending.components))) {
    throw new RunStateError("a paused canvasflow run state must carry `pending.components`");
  }
  return {
    version: RUN_STATE_VERSION,
    status: raw.status,
    outputs: isPlainObject(raw.outputs) ? (raw.outputs as Record<string, Outputs>) : {},
    component_state: isPlainObject(raw.component_state) ? raw.component_state : {},
    open_containers: isPlainObject(raw.open_containers) ? (raw.open_containers as Record<string, number>) : {},
    steps: typeof raw.steps === "number" ? raw.steps : 0,
    ...(raw.pending ? { pending: raw.pending } : {}),
    ...(Array.isArray(raw.reply) ? { reply: raw.reply.map(String) } : {}),
    ...(isPlainObject(raw.references) && Array.isArray(raw.references.chunks) && Array.isArray(raw.references.doc_aggs)
      ? { references: raw.references }
      : {}),
    ...(typeof raw.error === "string" ? { error: raw.error } : {}),
  };
}
