/**
 * RAGFlow's `ComponentParamBase.check_*` helpers as the chunkers' params use them, with their
 * messages word for word (`"Chunk token size. 0 not supported, should be positive integer"`), the
 * value written as Python's `str()` writes it. The error also names the param, so a DSL check can
 * point at it.
 */
import { pythonStr } from "../../components/python-text.js";

/** A chunker param RAGFlow would reject (or that cannot be run). `param` is its name, or a path such as `levels/0/1`. */
export class ChunkerParamError extends Error {
  constructor(
    readonly component: string,
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = "ChunkerParamError";
  }
}

/** JSON's view of Python's `int` type: a whole number that is not a boolean. (`512.0` reads as `512` here; Python would see a float.) */
function isPythonInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

/** `check_positive_integer`. */
export function checkPositiveInteger(component: string, param: string, value: unknown, description: string): number {
  if (!isPythonInt(value) || value <= 0) throw new ChunkerParamError(component, param, `${description} ${pythonStr(value)} not supported, should be positive integer`);
  return value;
}

/** `check_decimal_float`: a number in [0, 1]. */
export function checkDecimalFloat(component: string, param: string, value: unknown, description: string): number {
  if (typeof value !== "number" || value < 0 || value > 1) throw new ChunkerParamError(component, param, `${description} ${pythonStr(value)} not supported, should be a float number in range [0, 1]`);
  return value;
}

/** `check_nonnegative_number`. */
export function checkNonnegativeNumber(component: string, param: string, value: unknown, description: string): number {
  if (typeof value !== "number" || value < 0) throw new ChunkerParamError(component, param, `${description} ${pythonStr(value)} not supported, should be non-negative numeric`);
  return value;
}

/** `check_valid_value`. */
export function checkValidValue<T extends string>(component: string, param: string, value: unknown, description: string, valid: readonly T[]): T {
  if (!valid.includes(value as T)) {
    throw new ChunkerParamError(component, param, `${description} ${pythonStr(value)} is not supported, it should be in ${pythonStr([...valid])}`);
  }
  return value as T;
}

/** `check_empty`: Python-falsy values are rejected. */
export function checkNotEmpty(component: string, param: string, empty: boolean, description: string): void {
  if (empty) throw new ChunkerParamError(component, param, `${description} does not support empty value.`);
}

/** The params object of a component: RAGFlow sets every key it is given and keeps its defaults for the rest. */
export function paramsObject(component: string, raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw new ChunkerParamError(component, "", `${component} params must be an object, not ${pythonStr(raw)}`);
  return raw as Record<string, unknown>;
}
