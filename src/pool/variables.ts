import type { VariableDeclaration } from "../contracts/dsl.js";
import { defineOwn } from "./path.js";

export type { VariableDeclaration };

/**
 * Conversation variables (`env.*`) and system globals (`sys.*`): declarations, defaults and the
 * reset rules of RAGFlow's Canvas.reset() (research/ragflow.md §1.7, §2.2).
 */

/** The system globals every canvas has. */
export const SYSTEM_GLOBALS = [
  "sys.query",
  "sys.user_id",
  "sys.conversation_turns",
  "sys.files",
  "sys.history",
  "sys.date",
] as const;

type SystemGlobal = (typeof SYSTEM_GLOBALS)[number];

/** When the runtime itself writes each system global (engine/run.ts startTurn and history). */
export const SYSTEM_GLOBAL_WRITES: Readonly<Record<SystemGlobal, string>> = {
  "sys.query": "it sets it to the user's message at the start of every turn",
  "sys.user_id": "it sets it at the start of a turn whose request names a user",
  "sys.conversation_turns": "it adds 1 at the start of every turn",
  "sys.files": "it sets it at the start of a turn whose request carries files",
  "sys.history": "it appends every user and assistant message",
  "sys.date": "it sets it to the current time at the start of every turn and resume",
};

export function isSystemGlobal(key: string): key is SystemGlobal {
  return Object.hasOwn(SYSTEM_GLOBAL_WRITES, key);
}

/**
 * Globals are flat keys ("env.a.b" may itself be a key). When a key is absent, this is the
 * longest global that is a prefix of it at a ".", so `{env.obj.field}` reads into the object
 * variable `env.obj`; undefined when there is none. The scope ("sys"/"env") alone is never a variable.
 */
export function globalPrefix(globals: Readonly<Record<string, unknown>>, key: string): string | undefined {
  for (let end = key.lastIndexOf("."); end > 4; end = key.lastIndexOf(".", end - 1)) {
    const candidate = key.slice(0, end);
    if (Object.hasOwn(globals, candidate)) return candidate;
  }
  return undefined;
}

/** The zero value of a declared variable type (`number`, `boolean`, `object`, `array<…>`, `any`: null, else string). */
export function zeroForDeclaredType(type: string | undefined): unknown {
  const t = (type ?? "string").trim().toLowerCase();
  // canvasflow/graph's untyped state keys (state.value<T>() without a default): unset is null, as LangGraph's undefined.
  if (t === "any") return null;
  if (t === "number" || t === "integer") return 0;
  if (t === "boolean") return false;
  if (t === "object") return {};
  if (t.startsWith("array")) return [];
  return "";
}

/** The zero value of a runtime value's type, used when `sys.*` globals are reset. */
export function zeroOfValue(value: unknown): unknown {
  if (typeof value === "string") return "";
  if (typeof value === "number") return 0;
  if (typeof value === "boolean") return false;
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === "object") return {};
  return null;
}

/** The initial value of a declared variable: its `value` unless null/undefined, else the type's zero. */
export function declaredDefault(declaration: VariableDeclaration): unknown {
  if (declaration.value !== null && declaration.value !== undefined) return structuredClone(declaration.value);
  return zeroForDeclaredType(declaration.type);
}

/** RAGFlow writes `variables: []` for "none"; normalise to a name-keyed record. */
export function normalizeDeclarations(variables: unknown): Record<string, VariableDeclaration> {
  const out: Record<string, VariableDeclaration> = {};
  if (Array.isArray(variables)) {
    for (const v of variables) {
      if (v && typeof v === "object" && typeof (v as VariableDeclaration).name === "string") {
        defineOwn(out, (v as VariableDeclaration).name, v);
      }
    }
    return out;
  }
  if (variables && typeof variables === "object") {
    for (const [key, v] of Object.entries(variables as Record<string, unknown>)) {
      if (v && typeof v === "object") defineOwn(out, key, { name: key, ...(v as object) });
    }
  }
  return out;
}

/** `sys.date` in RAGFlow's "%Y-%m-%d %H:%M:%S" local-time format. */
export function formatSystemDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/**
 * Globals for a fresh session: stored `sys.*` keys reset to their type's zero (then the system
 * defaults), every declared `env.*` variable reset to its default, other stored keys kept.
 */
export function freshSessionGlobals(
  stored: Record<string, unknown> | undefined,
  declarations: Record<string, VariableDeclaration>,
  options: { userId?: string; now?: Date } = {},
): Record<string, unknown> {
  const globals: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored ?? {})) {
    if (key.startsWith("sys.")) globals[key] = zeroOfValue(value);
    else if (key.startsWith("env.")) {
      const name = key.slice(4);
      globals[key] = Object.hasOwn(declarations, name) ? declaredDefault(declarations[name]) : value;
    } else defineOwn(globals, key, value);
  }
  for (const [name, declaration] of Object.entries(declarations)) {
    globals[`env.${name}`] = declaredDefault(declaration);
  }
  globals["sys.query"] = "";
  globals["sys.user_id"] = options.userId ?? "";
  globals["sys.conversation_turns"] = 0;
  globals["sys.files"] = [];
  globals["sys.history"] = [];
  globals["sys.date"] = formatSystemDate(options.now ?? new Date());
  return globals;
}
