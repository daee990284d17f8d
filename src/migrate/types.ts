/**
 * The migration contract: an ordered list of steps (migrations-dsl/NNN-name.ts), each of which
 * recognizes an old DSL shape and rewrites it, reporting every change it made.
 */

import type { MigrationNote } from "../contracts/dsl.js";

export type { MigrationNote };

/** A DSL as migrations see it: a bare object, possibly far from the current format. */
export type LooseDsl = Record<string, unknown>;

/** What a step returns: the new DSL and one note per change. */
export interface StepResult {
  dsl: LooseDsl;
  notes: MigrationNote[];
}

/**
 * One migration step. `detect` must be false on the step's own output (that is what makes the
 * whole migration idempotent); `migrate` may mutate its argument, which the runner has copied.
 */
export interface MigrationStep {
  /** The file name without extension, e.g. "001-chunker-renames". */
  id: string;
  description: string;
  detect(dsl: LooseDsl): boolean;
  migrate(dsl: LooseDsl): StepResult;
}

/** A part of the canvas that could not be converted and was kept as an `Unsupported` component. */
export interface UnsupportedPart {
  /** The component id. */
  component: string;
  /** The original component_name. */
  componentType: string;
  reason: string;
}

export interface MigrationResult<T = LooseDsl> {
  /** The migrated DSL (a template envelope stays an envelope around the migrated DSL). */
  dsl: T;
  notes: MigrationNote[];
  /** Components kept as `Unsupported`: the canvas cannot run until they are replaced. */
  unsupported: UnsupportedPart[];
  /** The ids of the steps that applied, in order (empty: the DSL was already current). */
  applied: string[];
}

/** A step failed, or left a DSL that it (or another step) still recognizes as old. */
export class MigrationError extends Error {
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(`migration step ${step}: ${message}`);
    this.name = "MigrationError";
  }
}
