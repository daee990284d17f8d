/**
 * Names for the kind of a value in components' error messages ("must be a list, got text"):
 * util's valueKind, plus the one kind only components have, a streamed text.
 */
import { valueKind as plainValueKind } from "../util/values.js";
import { isTextStream } from "./text-stream.js";

export function valueKind(value: unknown): string {
  return isTextStream(value) ? "streamed text" : plainValueKind(value);
}
