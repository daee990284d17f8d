/**
 * Small checks shared by components' `check()`: the ranges and required values that RAGFlow's
 * `ComponentParamBase.check_*` helpers enforce, permissive where stored DSLs are (a number may
 * be written as a numeric string, e.g. Categorize `temperature: "0.1"`). The JSON schemas carry
 * types and value sets; these carry what a schema cannot say clearly.
 */
import { finiteNumber, isBlank, isNothing, jsonPointer } from "../util/values.js";
import type { ParamProblem, Params } from "./types.js";

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/**
 * A number, or text holding one, read with finiteNumber as at run time (RAGFlow applies
 * float()/int()). Missing and null values fall back to the default at run time, so range checks
 * skip them.
 */
function numberProblem(params: Params, key: string, expected: string, ok: (n: number) => boolean, severity: "error" | "warning" = "error"): ParamProblem[] {
  const value = params[key];
  if (isNothing(value)) return [];
  const n = finiteNumber(value);
  if (n === undefined) return [{ pointer: jsonPointer(key), message: `${key} must be ${expected}, not ${show(value)}` }];
  return ok(n) ? [] : [{ pointer: jsonPointer(key), message: `${key} must be ${expected}, not ${show(value)}`, severity }];
}

/** A number in [0, 1] (check_decimal_float). Out of range is `severity`; not a number is always an error. */
export function unitInterval(params: Params, key: string, severity: "error" | "warning" = "error"): ParamProblem[] {
  return numberProblem(params, key, "a number between 0 and 1", (n) => n >= 0 && n <= 1, severity);
}

/** An integer > 0 (check_positive_integer). */
export function positiveInteger(params: Params, key: string): ParamProblem[] {
  return numberProblem(params, key, "a whole number greater than 0", (n) => Number.isInteger(n) && n > 0);
}

/** An integer >= 0. */
export function nonNegativeInteger(params: Params, key: string): ParamProblem[] {
  return numberProblem(params, key, "a whole number of 0 or more", (n) => Number.isInteger(n) && n >= 0);
}

/** A number > 0 (check_positive_number). */
export function positiveNumber(params: Params, key: string): ParamProblem[] {
  return numberProblem(params, key, "a number greater than 0", (n) => n > 0);
}

/** One of a long list of codes (kept out of the schema so errors stay short). */
export function oneOfCodes(params: Params, key: string, allowed: readonly string[], what: string): ParamProblem[] {
  const value = params[key];
  if (isNothing(value) || (typeof value === "string" && allowed.includes(value))) return [];
  const examples = allowed.slice(0, 4).map(show).join(", ");
  return [{ pointer: jsonPointer(key), message: `${key} ${show(value)} is not a ${what} (e.g. ${examples})` }];
}

/**
 * A credential or connection setting stored in the DSL. RAGFlow refuses to load a tool whose
 * setting is empty; templates ship with empty ones for the user to fill in, so an empty one is
 * a warning here (the tool provider may supply it) rather than an error.
 */
export function credential(params: Params, key: string, what: string): ParamProblem[] {
  const value = params[key];
  if (!isBlank(value)) return [];
  return [{ pointer: jsonPointer(key), severity: "warning", message: `${key} is empty: ${what} must be set before this component can run` }];
}

/** Problems found in a nested params object, re-pointed below `prefix` and prefixed with `label`. */
export function nestedProblems(problems: readonly ParamProblem[], prefix: string, label: string): ParamProblem[] {
  return problems.map((p) => ({ ...p, pointer: `${prefix}${p.pointer}`, message: `${label}: ${p.message}` }));
}
