/**
 * State updates (E1 of canvasflow/graph): the writes a batch's components return in
 * `InvokeControl.update`, applied when the batch ends. Every component of the batch read the
 * state as it was when the batch started; the writes reach each key's reducer in the batch's
 * order (the order the scheduler chose, not the order the components finished in), so three
 * parallel branches that append give the same list on every run. As in LangGraph, two writes
 * to a last-value key in one batch, or two overwrites of a key, fail the run.
 */
import type { CanvasGraph } from "../contracts/graph.js";
import type { StateWrite } from "../contracts/values.js";
import type { VariablePool } from "../pool/pool.js";
import { applyWrites, StateUpdateError } from "../pool/reducers.js";
import { errorMessage, type NodeResult } from "./runner.js";

/** What a batch's state updates did: the keys they changed, or why they could not be applied. */
export type StateUpdateOutcome = { failure: string } | { failure?: undefined };

const NOTHING: StateUpdateOutcome = Object.freeze({});

/**
 * Apply the update of every result that succeeded, in the batch's order. Nothing is written
 * when any key's writes cannot be merged: the batch's state stays as it was. `failed`: results
 * that ran without an error but that settling the batch finished with one (a message sink whose
 * stream broke): they did not succeed either.
 */
export function applyStateUpdates(
  results: readonly NodeResult[],
  graph: CanvasGraph,
  pool: VariablePool,
  failed?: { has(result: NodeResult): boolean },
): StateUpdateOutcome {
  let byKey: Map<string, { values: unknown[]; writers: string[] }> | undefined;
  for (const result of results) {
    const update = result.error === undefined && result.control && !failed?.has(result) ? result.control.update : undefined;
    if (!update || update.length === 0) continue;
    const node = result.node;
    const where = `${node.displayName} (${node.id})`;
    if (!Array.isArray(update)) return { failure: `${where}: its state update must be a list of [key, value] writes` };
    for (const write of update as readonly StateWrite[]) {
      if (!Array.isArray(write) || write.length !== 2 || typeof write[0] !== "string") {
        return { failure: `${where}: a state write must be [key, value], got ${preview(write)}` };
      }
      const key = write[0];
      if (!graph.stateKeys?.has(key)) {
        const declared = graph.stateKeys && graph.stateKeys.size > 0 ? [...graph.stateKeys.keys()].join(", ") : "none";
        return { failure: `${where}: writes the state key "${key}", which the canvas does not declare as a variable (declared: ${declared})` };
      }
      byKey ??= new Map();
      let entry = byKey.get(key);
      if (!entry) byKey.set(key, (entry = { values: [], writers: [] }));
      entry.values.push(write[1]);
      entry.writers.push(where);
    }
  }
  if (!byKey) return NOTHING;
  const next = new Map<string, unknown>();
  for (const [key, { values, writers }] of byKey) {
    const stateKey = graph.stateKeys!.get(key)!;
    try {
      next.set(key, applyWrites(key, stateKey.reducerName, stateKey.reduce, pool.globals[`env.${key}`], values));
    } catch (error) {
      const by = [...new Set(writers)].join(", ");
      if (error instanceof StateUpdateError) return { failure: `${error.message} (written by ${by}) [${error.code}]` };
      return { failure: `the state key "${key}" (reducer ${stateKey.reducerName}) could not take the writes of ${by}: ${errorMessage(error)}` };
    }
  }
  for (const [key, value] of next) pool.setGlobal(`env.${key}`, value);
  return NOTHING;
}

function preview(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
  } catch {
    return String(value);
  }
}
