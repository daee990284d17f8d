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

/**
 * Read a persisted run state. Every field the engine relies on is checked: a missing counter or
 * map reads as empty, a field of the wrong type is a RunStateError naming it, so nothing of the
 * wrong type reaches a run. (loadCanvas checks the same with run-state.schema.json first; this
 * keeps the reader safe on its own.)
 */
export function readRunState(value: unknown): PersistedRunState {
  if (!isPlainObject(value)) throw new RunStateError("canvasflow run state must be an object");
  const raw = value as Record<string, unknown>;
  if (raw.version !== RUN_STATE_VERSION) {
    throw new RunStateError(`canvasflow run state version ${JSON.stringify(raw.version)} is not supported (expected ${RUN_STATE_VERSION})`);
  }
  if (typeof raw.status !== "string" || !STATUSES.has(raw.status)) {
    throw new RunStateError(`canvasflow run state has an unknown status ${JSON.stringify(raw.status)}`);
  }
  const status = raw.status as RunStatus;
  const pending = raw.pending === undefined ? undefined : readPending(raw.pending);
  if (status === "paused" && !pending) throw new RunStateError("a paused canvasflow run state must carry `pending.components`");
  const steps = raw.steps ?? 0;
  if (typeof steps !== "number" || !Number.isInteger(steps) || steps < 0) throw wrongType("steps", "a whole number of at least 0");
  return {
    version: RUN_STATE_VERSION,
    status,
    outputs: objectOf(raw.outputs, "outputs", isPlainObject, "objects") as Record<string, Outputs>,
    component_state: objectOf(raw.component_state, "component_state", () => true, "values"),
    open_containers: objectOf(raw.open_containers, "open_containers", (v) => typeof v === "number", "numbers") as Record<string, number>,
    steps,
    ...(pending ? { pending } : {}),
    ...(raw.reply !== undefined ? { reply: listOf(raw.reply, "reply", (v): v is string => typeof v === "string", "strings") } : {}),
    ...(raw.references !== undefined ? { references: readReferences(raw.references) } : {}),
    ...(raw.error !== undefined ? { error: stringField(raw.error, "error") } : {}),
  };
}

function wrongType(field: string, expected: string): RunStateError {
  return new RunStateError(`canvasflow run state: ${field} must be ${expected}`);
}

/** An object whose values pass `ok` (missing: empty). */
function objectOf(value: unknown, field: string, ok: (item: unknown) => boolean, items: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isPlainObject(value) || !Object.values(value).every(ok)) throw wrongType(field, `an object of ${items}`);
  return value;
}

function listOf<T>(value: unknown, field: string, ok: (item: unknown) => item is T, items: string): T[] {
  if (!Array.isArray(value) || !value.every(ok)) throw wrongType(field, `a list of ${items}`);
  return value;
}

function stringField(value: unknown, field: string): string {
  if (typeof value !== "string") throw wrongType(field, "a string");
  return value;
}

function readPending(value: unknown): PendingInput {
  if (!isPlainObject(value)) throw wrongType("pending", "an object {components, inputs, tips}");
  const components = listOf(value.components, "pending.components", (v): v is string => typeof v === "string", "component ids");
  if (components.length === 0) throw wrongType("pending.components", "a list of at least one component id");
  return {
    components,
    inputs: objectOf(value.inputs ?? {}, "pending.inputs", isPlainObject, "input fields") as Record<string, InputField>,
    tips: value.tips === undefined ? "" : stringField(value.tips, "pending.tips"),
  };
}

function readReferences(value: unknown): { chunks: ReferenceChunk[]; doc_aggs: ReferenceDocument[] } {
  if (!isPlainObject(value)) throw wrongType("references", "an object {chunks, doc_aggs}");
  return {
    chunks: listOf(value.chunks, "references.chunks", isPlainObject, "objects") as unknown as ReferenceChunk[],
    doc_aggs: listOf(value.doc_aggs, "references.doc_aggs", isPlainObject, "objects") as unknown as ReferenceDocument[],
  };
}
