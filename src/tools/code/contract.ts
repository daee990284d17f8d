/**
 * CodeExec's output contract (RAGFlow agent/tools/code_exec.py, tested by
 * test_code_exec_contract_unit.py): the outputs declare exactly one business output, typed String,
 * Number, Boolean, Object, Null, Any or Array<T> (case-insensitive). The script's result is checked
 * against that type without coercion and rendered once as canonical text (`content`).
 */
import { isPlainObject } from "../../util/values.js";

/** Outputs CodeExec sets itself; none of them can be the business output. */
export const SYSTEM_OUTPUTS: ReadonlySet<string> = new Set([
  "content", "actual_type", "attachments", "_ERROR", "_ARTIFACTS", "_ATTACHMENT_CONTENT", "raw_result", "_created_time", "_elapsed_time",
]);

const SIMPLE_TYPES: Readonly<Record<string, string>> = {
  string: "String",
  number: "Number",
  boolean: "Boolean",
  object: "Object",
  null: "Null",
  any: "Any",
};

/** A result that breaks the contract, or a contract that cannot be met. */
export class ContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContractError";
  }
}

/** A declared type in canonical spelling ("array<number>" → "Array<Number>"); "" for none. Throws on unknown types. */
function normalizeExpectedType(type: string): string {
  const t = type.trim();
  const low = t.toLowerCase();
  if (low === "") return "";
  if (Object.hasOwn(SIMPLE_TYPES, low)) return SIMPLE_TYPES[low];
  if (low.startsWith("array<") && low.endsWith(">")) {
    const inner = t.slice(t.indexOf("<") + 1, -1).trim();
    if (inner !== "") return `Array<${normalizeExpectedType(inner)}>`;
  }
  throw new ContractError(`Unsupported expected type: ${type}`);
}

/** Whether a declared output type is one the result can be checked against. */
export function isContractType(type: string): boolean {
  try {
    normalizeExpectedType(type);
    return true;
  } catch {
    return false;
  }
}

/** The name of the one business output, or the problem that prevents choosing it. */
export function businessOutput(outputs: Record<string, unknown>): { name: string } | { problem: string } {
  const names = Object.keys(outputs);
  const candidates = names.length === 1 ? names : names.filter((name) => !SYSTEM_OUTPUTS.has(name));
  if (candidates.length !== 1) return { problem: `outputs must declare exactly one business output besides ${[...SYSTEM_OUTPUTS].slice(0, 3).join(", ")}…, found ${candidates.length}` };
  const name = candidates[0];
  if (name.trim() === "") return { problem: "the business output name is empty" };
  if (SYSTEM_OUTPUTS.has(name)) return { problem: `"${name}" is reserved and cannot be the business output` };
  if (name.includes(".")) return { problem: `the business output name "${name}" must not contain "."` };
  return { name };
}

/** The type name of a JSON value, as the contract spells types (arrays by their items' common type). */
export function inferActualType(value: unknown): string {
  if (value === null || value === undefined) return "Null";
  if (typeof value === "boolean") return "Boolean";
  if (typeof value === "number") return "Number";
  if (typeof value === "string") return "String";
  if (Array.isArray(value)) {
    const kinds = new Set(value.map(inferActualType));
    return kinds.size === 1 ? `Array<${[...kinds][0]}>` : "Array<Any>";
  }
  if (isPlainObject(value)) return "Object";
  return "Any";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainObject(value)) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key]);
    return sorted;
  }
  return value;
}

/** The canonical text of a result: text as is, nothing as "", objects and lists as sorted-key JSON. */
export function canonicalContent(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value) || isPlainObject(value)) return JSON.stringify(sortKeys(value), null, 2);
  return String(value);
}

function checkType(expected: string, value: unknown, path: string): void {
  if (expected === "" || expected === "Any") return;
  if (expected.startsWith("Array<")) {
    if (!Array.isArray(value)) throw new ContractError(`CodeExec contract mismatch at ${path || "value"}: expected type ${expected}, got ${inferActualType(value)}`);
    const inner = expected.slice(6, -1);
    value.forEach((item, i) => checkType(inner, item, `${path}[${i}]`));
    return;
  }
  const actual = inferActualType(value);
  const ok = expected === "Object" ? isPlainObject(value) : expected === actual;
  if (!ok) throw new ContractError(`CodeExec contract mismatch at ${path || "value"}: expected type ${expected}, got ${actual}`);
}

interface Contract {
  businessOutput: string;
  value: unknown;
  actualType: string;
  content: string;
}

/** Checks a result against the declared outputs. Throws ContractError naming what is wrong. */
export function buildContract(outputs: Record<string, unknown>, value: unknown): Contract {
  const chosen = businessOutput(outputs);
  if ("problem" in chosen) throw new ContractError(`CodeExec ${chosen.problem}`);
  const meta = outputs[chosen.name];
  const declared = isPlainObject(meta) && typeof meta.type === "string" ? meta.type : "";
  checkType(normalizeExpectedType(declared), value, "");
  return { businessOutput: chosen.name, value, actualType: inferActualType(value), content: canonicalContent(value) };
}
