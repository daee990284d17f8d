/**
 * How Dify shows a value in text (graphon's segments): `.text` in prompts, HTTP requests and
 * conditions, `.markdown` in answers. These are Python's renderings, kept for parity:
 * - `.text`: strings as they are, None as "", booleans `True`/`False`, objects as
 *   `json.dumps(ensure_ascii=False)` (`{"a": 1}`), lists of strings as JSON, other lists as
 *   Python's repr (`[{'a': 1}]`), an empty list as "";
 * - `.markdown`: objects as indented JSON, lists as `- item` lines.
 *
 * JSON keeps no int/float distinction: a whole number shows as an int (`2`, where Python would
 * show a float that came from Dify as `2.0`).
 */
import { pythonNumber, pythonStr } from "../components/python-text.js";
import { isTextStream } from "../components/text-stream.js";
import { isPlainObject } from "../util/values.js";

export function textOf(value: unknown): string {
  if (isTextStream(value)) return value.text;
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pythonNumber(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "";
    if (value.every((item) => typeof item === "string")) return pythonJson(value);
    return pythonStr(value);
  }
  if (isPlainObject(value)) return pythonJson(value);
  return String(value);
}

export function markdownOf(value: unknown): string {
  if (isTextStream(value)) return value.text;
  if (Array.isArray(value)) return value.map((item) => `- ${pythonStr(item)}`).join("\n");
  if (isPlainObject(value)) return pythonJson(value, 2);
  return textOf(value);
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)` (separators `, ` and `: `), or with `indent`
 * (separators `,` and `: `, one item a line).
 */
export function pythonJson(value: unknown, indent?: number, depth = 0): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return Number.isFinite(value) ? pythonNumber(value) : value > 0 ? "Infinity" : Number.isNaN(value) ? "NaN" : "-Infinity";
  if (typeof value === "string") return JSON.stringify(value);
  const pad = indent === undefined ? "" : `\n${" ".repeat(indent * (depth + 1))}`;
  const close = indent === undefined ? "" : `\n${" ".repeat(indent * depth)}`;
  const comma = indent === undefined ? ", " : ",";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${value.map((item) => `${pad}${pythonJson(item, indent, depth + 1)}`).join(comma)}${close}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${pythonJson(v, indent, depth + 1)}`).join(comma)}${close}}`;
  }
  return JSON.stringify(String(value));
}
