/**
 * The pool's write journal: every change to outputs and globals as a small op, in order, so a
 * durable run can checkpoint what changed since the last checkpoint instead of the whole state,
 * and a restarted process can replay the ops onto the last base (see engine/checkpoint.ts).
 *
 * References are written as their expression (`cpn@var.path`, `env.x`): parsing it again on
 * replay gives the same reference.
 */
import { parseStoredReference, type Reference } from "../refs/grammar.js";
import type { PoolOp } from "./ops.js";
import type { VariablePool } from "./pool.js";

export type { PoolJournal, PoolOp } from "./ops.js";

/** Replay one op onto a pool (whose journal is off), as the write it records did. */
export function applyPoolOp(pool: VariablePool, op: PoolOp): void {
  switch (op[0]) {
    case "output":
      pool.setOutput(op[1], op[2], op[3]);
      return;
    case "outputs":
      pool.replaceOutputs(op[1], op[2]);
      return;
    case "reset":
    case "retry":
      pool.resetOutputs(op[1]);
      return;
    case "clear":
      pool.clearOutputs(op[1]);
      return;
    case "clearAll":
      pool.clearAllOutputs();
      return;
    case "set":
      pool.set(referenceOf(op[1]), op[2]);
      return;
    case "unset":
      pool.set(referenceOf(op[1]), undefined);
      return;
    case "append":
      pool.append(referenceOf(op[1]), op[2]);
      return;
    case "pop": {
      const ref = referenceOf(op[1]);
      const list = pool.resolve(ref);
      if (Array.isArray(list)) pool.set(ref, list.slice(0, -1));
      return;
    }
    case "global":
      pool.setGlobal(op[1], op[2]);
      return;
    default:
      throw new Error(`unknown checkpoint op ${JSON.stringify((op as unknown[])[0])}`);
  }
}

function referenceOf(expr: string): Reference {
  const ref = parseStoredReference(expr);
  if (!ref) throw new Error(`checkpoint op names "${expr}", which is not a reference`);
  return ref;
}
