/** A variable pool over a canvas with the given component ids, and parsed references, for pool tests. */
import { VariablePool } from "../../src/pool/pool.js";
import { parseSelector, type Reference } from "../../src/refs/grammar.js";

export function poolOf(ids: string[], globals: Record<string, unknown> = {}): VariablePool {
  const known = new Set(ids);
  return new VariablePool((id) => known.has(id), globals);
}

export function ref(selector: string): Reference {
  const parsed = parseSelector(selector);
  if (!parsed) throw new Error(`test setup: ${selector} is not a selector`);
  return parsed;
}
