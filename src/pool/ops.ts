/**
 * The ops of the pool's write journal (journal.ts): every change to outputs and globals, in order.
 * References are written as their expression (`cpn@var.path`, `env.x`).
 */
export type PoolOp =
  /** setOutput(componentId, key, value) */
  | ["output", string, string, unknown]
  /** replaceOutputs(componentId, record) */
  | ["outputs", string, Record<string, unknown>]
  /** resetOutputs(componentId): a fresh, empty record for a component that starts (one more execution) */
  | ["reset", string]
  /** resetOutputs(componentId, true): the same, for a retry (not a new execution) */
  | ["retry", string]
  /** clearOutputs(componentId): no record */
  | ["clear", string]
  | ["clearAll"]
  /** set(reference, value); value undefined removes a whole global */
  | ["set", string, unknown]
  | ["unset", string]
  /** append(reference, item) */
  | ["append", string, unknown]
  /** An in-place append undone: the last item goes */
  | ["pop", string]
  /** setGlobal(key, value): the engine's own writes (sys.query, sys.date…) */
  | ["global", string, unknown];

/** Receives each op as it happens. */
export type PoolJournal = (op: PoolOp) => void;
