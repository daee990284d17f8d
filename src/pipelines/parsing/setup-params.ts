/**
 * Reading the values of a file type's setup (a Parser's `setups[type]`) that the text parsers
 * use, each checked, so a wrong value fails the document with the name of the param at fault
 * instead of turning into NaN or a silently ignored option.
 */
import { DocumentParseError } from "../payload.js";
import type { ParserSetup } from "./contract.js";

/** The setup's `output_format`, which must be one of `allowed` (the first is the default). */
export function outputFormatOf<F extends string>(document: string, type: string, setup: ParserSetup, allowed: readonly F[]): F {
  const value = setup.output_format ?? allowed[0];
  if ((allowed as readonly string[]).includes(value)) return value as F;
  throw new DocumentParseError(document, `the ${type} setup's output_format is ${JSON.stringify(value)}; it must be one of ${allowed.map((f) => `"${f}"`).join(", ")}`);
}

/** A positive whole number (a numeric string is accepted, as RAGFlow's int() would). */
export function positiveIntegerParam(document: string, type: string, setup: ParserSetup, key: string, fallback: number): number {
  const raw = setup[key];
  if (raw === undefined || raw === null || raw === "") return fallback;
  const value = typeof raw === "string" && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw new DocumentParseError(document, `the ${type} setup's ${key} is ${JSON.stringify(raw)}; it must be a whole number above 0`);
}

/** A string param, or `fallback` when absent or null. */
export function stringParam(document: string, type: string, setup: ParserSetup, key: string, fallback: string): string;
export function stringParam(document: string, type: string, setup: ParserSetup, key: string, fallback?: string): string | undefined;
export function stringParam(document: string, type: string, setup: ParserSetup, key: string, fallback?: string): string | undefined {
  const raw = setup[key];
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw === "string") return raw;
  throw new DocumentParseError(document, `the ${type} setup's ${key} is ${JSON.stringify(raw)}; it must be a string`);
}

/** A boolean switch such as remove_toc; absent is false. */
export function flagParam(document: string, type: string, setup: ParserSetup, key: string): boolean {
  const raw = setup[key];
  if (raw === undefined || raw === null) return false;
  if (typeof raw === "boolean") return raw;
  throw new DocumentParseError(document, `the ${type} setup's ${key} is ${JSON.stringify(raw)}; it must be true or false`);
}
