/**
 * The migration runner: applies every step of migrations-dsl/ that recognizes the DSL, in order,
 * on a deep copy (the input is never modified), and reports each change and every part that
 * could not be converted.
 */
import { DSL_MIGRATIONS } from "../../migrations-dsl/index.js";
import { UNSUPPORTED_COMPONENT } from "../components/unsupported.js";
import { isTemplateEnvelope } from "../dsl/source.js";
import { MAX_DSL_DEPTH, shortPointer } from "../dsl/structure.js";
import { pathDeeperThan } from "../util/nesting.js";
import { isPlainObject } from "../util/values.js";
import { componentsOf, normalizeEntry } from "./dsl-access.js";
import { MigrationError, type LooseDsl, type MigrationNote, type MigrationResult, type MigrationStep, type UnsupportedPart } from "./types.js";

/** The components kept as `Unsupported`, with their original type and the reason. */
export function unsupportedParts(dsl: LooseDsl): UnsupportedPart[] {
  const parts: UnsupportedPart[] = [];
  for (const [id, raw] of Object.entries(componentsOf(dsl) ?? {})) {
    const entry = normalizeEntry(raw);
    if (entry.obj.component_name !== UNSUPPORTED_COMPONENT) continue;
    const params = entry.obj.params;
    parts.push({
      component: id,
      componentType: typeof params.component_name === "string" ? params.component_name : "",
      reason: typeof params.reason === "string" ? params.reason : "",
    });
  }
  return parts;
}

/** Run `steps` over a bare DSL (already copied). */
export function applySteps(dsl: LooseDsl, steps: readonly MigrationStep[]): { dsl: LooseDsl; notes: MigrationNote[]; applied: string[] } {
  let current = dsl;
  const notes: MigrationNote[] = [];
  const applied: string[] = [];
  for (const step of steps) {
    let detected: boolean;
    try {
      detected = step.detect(current);
    } catch (error) {
      throw new MigrationError(step.id, `detect failed: ${(error as Error).message}`);
    }
    if (!detected) continue;
    try {
      const result = step.migrate(current);
      current = result.dsl;
      notes.push(...result.notes);
    } catch (error) {
      throw new MigrationError(step.id, `failed: ${(error as Error).message}`);
    }
    applied.push(step.id);
  }
  // Idempotence is a property of the steps: none may recognize what the migration produced.
  for (const step of steps) {
    if (applied.length > 0 && step.detect(current)) throw new MigrationError(step.id, "still recognizes the migrated DSL as old (the migration would not be idempotent)");
  }
  return { dsl: current, notes, applied };
}

/**
 * Bring a DSL to the current format. Accepts a bare DSL or a template envelope `{id, title,
 * dsl, …}` (the envelope is kept around the migrated DSL). The input is not modified.
 */
export function migrateDsl(input: object, steps: readonly MigrationStep[] = DSL_MIGRATIONS): MigrationResult {
  if (!isPlainObject(input)) throw new TypeError("migrateDsl expects a DSL object");
  // structuredClone and the steps recurse: a DSL too deep for them is refused before they start.
  const tooDeep = pathDeeperThan(input, MAX_DSL_DEPTH);
  if (tooDeep) throw new MigrationError("input", `${shortPointer(tooDeep)} is nested deeper than ${MAX_DSL_DEPTH} levels`);
  const copy = structuredClone(input) as Record<string, unknown>;
  const envelope = isTemplateEnvelope(copy);
  const bare = (envelope ? copy.dsl : copy) as LooseDsl;
  const { dsl, notes, applied } = applySteps(bare, steps);
  const result = envelope ? { ...copy, dsl } : dsl;
  return { dsl: result, notes, unsupported: unsupportedParts(dsl), applied };
}

/** Whether any step would change the DSL (bare or envelope). */
export function needsMigration(input: object, steps: readonly MigrationStep[] = DSL_MIGRATIONS): boolean {
  if (!isPlainObject(input)) return false;
  const bare = (isTemplateEnvelope(input) ? input.dsl : input) as LooseDsl;
  return steps.some((step) => step.detect(bare));
}
