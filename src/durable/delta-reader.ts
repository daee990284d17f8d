/**
 * A stored checkpoint read back: checked for the shape a run writes before anything applies it,
 * so garbage in a store is reported with its position, never half-applied.
 */
import type { RunDelta } from "../engine/checkpoint.js";
import { SnapshotCorruptError } from "../backends/errors.js";
import { isPlainObject } from "../util/values.js";

const STATUSES = new Set(["idle", "paused", "running", "failed", "cancelled"]);

export function readRunDelta(value: unknown, key: string, seq: number): RunDelta {
  const bad = (what: string) => new SnapshotCorruptError(`session "${key}": checkpoint ${seq} is not a run's checkpoint: ${what}; nothing was changed`, key);
  if (!isPlainObject(value)) throw bad("expected an object");
  if (!Array.isArray(value.ops) || !value.ops.every((op) => Array.isArray(op) && typeof op[0] === "string")) throw bad("ops must be a list of [name, …] entries");
  if (typeof value.status !== "string" || !STATUSES.has(value.status)) throw bad(`unknown status ${JSON.stringify(value.status)}`);
  if (!Array.isArray(value.path) || !value.path.every((id) => typeof id === "string")) throw bad("path must be a list of component ids");
  for (const field of ["steps", "epoch"] as const) {
    if (!Number.isInteger(value[field]) || (value[field] as number) < 0) throw bad(`${field} must be a whole number`);
  }
  for (const field of ["component_state", "open_containers", "references", "usage"] as const) {
    if (value[field] !== undefined && !isPlainObject(value[field])) throw bad(`${field} must be an object`);
  }
  return value as unknown as RunDelta;
}
