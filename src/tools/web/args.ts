/**
 * Reading a web tool's arguments and params. Arguments come from a model (any JSON) or from a
 * canvas node's references (any value, a streamed text included), so each is read leniently
 * and a value that cannot mean anything sensible is an error naming the argument.
 */
import { isTextStream } from "../../components/text-stream.js";
import { stringifyValue } from "../../refs/template.js";
import { finiteNumber, isNothing, showValue } from "../../util/values.js";

/** Text: strings as they are (trimmed), a streamed text read to its end, other values as a template shows them. */
export async function textArgument(value: unknown): Promise<string> {
  if (isTextStream(value)) return (await value.readAll()).trim();
  return stringifyValue(value).trim();
}

/**
 * A list of strings: a list (blank items dropped), or one string split at commas (RAGFlow's
 * TavilyExtract does the same). Nothing reads as an empty list.
 */
export async function listArgument(value: unknown, name: string): Promise<string[]> {
  if (isNothing(value)) return [];
  if (isTextStream(value)) value = await value.readAll();
  if (typeof value === "string") return value.split(",").map((item) => item.trim()).filter((item) => item !== "");
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      if (isNothing(item)) continue;
      if (typeof item === "object") throw new Error(`${name} must be a list of strings, but one item is ${showValue(item)}`);
      const text = String(item).trim();
      if (text !== "") items.push(text);
    }
    return items;
  }
  throw new Error(`${name} must be a list of strings or a comma-separated string, not ${showValue(value)}`);
}

/** A whole number param (numeric text allowed, as in stored DSLs), or the default when missing or empty. */
export function wholeNumber(value: unknown, name: string, fallback: number, min: number): number {
  if (isNothing(value) || value === "") return fallback;
  const n = finiteNumber(value);
  if (n === undefined || !Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of ${min} or more, not ${showValue(value)}`);
  return n;
}

/** One of a fixed set of words; missing or empty reads as the default. */
export function choice<T extends string>(value: unknown, name: string, allowed: readonly T[], fallback: T): T {
  if (isNothing(value) || value === "") return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value.trim())) return value.trim() as T;
  throw new Error(`${name} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, not ${showValue(value)}`);
}

/** A boolean flag param; RAGFlow's check_boolean also takes the strings "true"/"false". */
export function flag(value: unknown, name: string, fallback: boolean): boolean {
  if (isNothing(value) || value === "") return fallback;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "True") return true;
  if (value === "false" || value === "False") return false;
  throw new Error(`${name} must be true or false, not ${showValue(value)}`);
}

/**
 * A tool call's time limit: its `exec_timeout` param (seconds) when set, else RAGFlow's timeout
 * for the tool. The engine enforces it on canvas nodes too; this bounds the HTTP requests
 * wherever the tool runs.
 */
export function toolTimeoutMs(params: Readonly<Record<string, unknown>>, defaultSeconds: number): number {
  const own = finiteNumber(params.exec_timeout);
  return (own !== undefined && own > 0 ? own : defaultSeconds) * 1000;
}

/** A string field of an API's answer, or "" when it is missing or not a string. */
export function stringField(value: unknown): string {
  return typeof value === "string" ? value : "";
}
