/**
 * Names for the kind of a value, for error messages ("must be a list, got text").
 */
import { isTextStream } from "./text-stream.js";

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function valueKind(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (isTextStream(value)) return "streamed text";
  if (typeof value === "string") return "text";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "a boolean";
  if (Array.isArray(value)) return "a list";
  if (isPlainRecord(value)) return "an object";
  return typeof value;
}
