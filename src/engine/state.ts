/**
 * The run state: plain, versioned JSON that any process can resume a run from.
 *
 * It lives under the snapshot's `canvasflow` key. The RAGFlow-compatible parts of the state
 * (`path`, `globals`, `history`, `retrieval`, `memory`, `task_id`) stay at the DSL's top level.
 */
import type { PendingInput, PersistedRunState, RunInProgress, RunStatus } from "../contracts/run-state.js";
import type { InputField, Outputs, ReferenceChunk, ReferenceDocument } from "../contracts/values.js";
import { isPlainObject } from "../util/values.js";

export const RUN_STATE_VERSION: PersistedRunState["version"] = 1;

export type { PendingInput, PersistedRunState, RunInProgress, RunStatus };

/** Raised when a snapshot's run state cannot be read. */
export class RunStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunStateError";
  }
}

const STATUSES: ReadonlySet<string> = new Set(["idle", "paused", "running", "failed", "cancelled"]);

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
  const run = raw.run === undefined ? undefined : readRunInProgress(raw.run);
  if (status === "running" && !run) throw new RunStateError("a running canvasflow run state must carry `run` (its message id, start and inputs)");
  const epoch = raw.epoch ?? 0;
  if (typeof epoch !== "number" || !Number.isInteger(epoch) || epoch < 0) throw wrongType("epoch", "a whole number of at least 0");
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
    ...(epoch > 0 ? { epoch } : {}),
    ...(raw.executions !== undefined
      ? { executions: objectOf(raw.executions, "executions", (v) => typeof v === "number" && Number.isInteger(v) && v >= 0, "whole numbers") as Record<string, number> }
      : {}),
    ...(raw.usage !== undefined ? { usage: readUsage(raw.usage) } : {}),
    ...(run ? { run } : {}),
    ...(raw.schedule !== undefined ? { schedule: raw.schedule } : {}),
    ...(raw.traceparent !== undefined ? { traceparent: stringField(raw.traceparent, "traceparent") } : {}),
  };
}

function readUsage(value: unknown): NonNullable<PersistedRunState["usage"]> {
  const fields = ["prompt_tokens", "completion_tokens", "total_tokens", "calls"] as const;
  if (!isPlainObject(value) || !fields.every((f) => typeof value[f] === "number" && Number.isFinite(value[f]) && (value[f] as number) >= 0)) {
    throw wrongType("usage", "an object {prompt_tokens, completion_tokens, total_tokens, calls} of numbers");
  }
  return { prompt_tokens: value.prompt_tokens as number, completion_tokens: value.completion_tokens as number, total_tokens: value.total_tokens as number, calls: value.calls as number };
}

function readRunInProgress(value: unknown): RunInProgress {
  if (!isPlainObject(value)) throw wrongType("run", "an object {message_id, created_at, inputs, receivers}");
  const createdAt = value.created_at;
  if (typeof createdAt !== "number" || !Number.isFinite(createdAt)) throw wrongType("run.created_at", "a number of epoch seconds");
  return {
    message_id: stringField(value.message_id, "run.message_id"),
    created_at: createdAt,
    inputs: objectOf(value.inputs ?? {}, "run.inputs", () => true, "values"),
    receivers: listOf(value.receivers ?? [], "run.receivers", (v): v is string => typeof v === "string", "component ids"),
    ...(value.last !== undefined ? { last: stringField(value.last, "run.last") } : {}),
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
    ...(value.interrupts !== undefined ? { interrupts: readInterrupts(value.interrupts) } : {}),
  };
}

/** The interrupts a paused run waits on (ctx.interrupt): without them, a resume value reaches nobody. */
function readInterrupts(value: unknown): NonNullable<PendingInput["interrupts"]> {
  const isInterrupt = (v: unknown): v is { id: string; component_id: string; value?: unknown } =>
    isPlainObject(v) && typeof v.id === "string" && typeof v.component_id === "string";
  return listOf(value, "pending.interrupts", isInterrupt, "interrupts {id, component_id, value}").map((i) => ({ id: i.id, component_id: i.component_id, value: i.value }));
}

function readReferences(value: unknown): { chunks: ReferenceChunk[]; doc_aggs: ReferenceDocument[] } {
  if (!isPlainObject(value)) throw wrongType("references", "an object {chunks, doc_aggs}");
  return {
    chunks: listOf(value.chunks, "references.chunks", isPlainObject, "objects") as unknown as ReferenceChunk[],
    doc_aggs: listOf(value.doc_aggs, "references.doc_aggs", isPlainObject, "objects") as unknown as ReferenceDocument[],
  };
}
