/**
 * Input forms, shared by Begin and UserFillUp: which fields a form has, how a submitted value is
 * read, and which fields are still missing.
 */
import { finiteNumber, isPlainObject } from "../util/values.js";
import type { InputField, Params } from "./types.js";

/** The form of a Begin/UserFillUp: `params.inputs` as `{key: field}` (RAGFlow stores `[]` for none). */
export function formFields(params: Params): Record<string, InputField> {
  const inputs = params.inputs;
  if (!isPlainObject(inputs)) return {};
  const out: Record<string, InputField> = {};
  for (const [key, field] of Object.entries(inputs)) {
    out[key] = field && typeof field === "object" ? (field as InputField) : { value: field };
  }
  return out;
}

function isFileType(type: unknown): boolean {
  return typeof type === "string" && type.toLowerCase().includes("file");
}

/**
 * Read a submitted value: `{value, type?}` (RAGFlow's API format) or a bare value. Object
 * fields accept JSON text; integer, number and boolean fields accept their text spelling, since
 * CLI and form submissions arrive as strings.
 */
export function resolveInputValue(submitted: unknown, field: InputField | undefined): unknown {
  let value = submitted;
  let type = field?.type;
  if (isPlainObject(value) && "value" in value) {
    const wrapped = value as { value: unknown; type?: unknown };
    value = wrapped.value;
    if (typeof wrapped.type === "string") type = wrapped.type;
  }
  if (typeof value !== "string") return value;
  const t = typeof type === "string" ? type.toLowerCase() : "";
  if (t === "object") {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (t === "integer" || t === "number" || t === "float") {
    const n = finiteNumber(value);
    if (n !== undefined) return n;
  }
  if (t === "boolean") {
    const lower = value.trim().toLowerCase();
    if (lower === "true" || lower === "1" || lower === "yes") return true;
    if (lower === "false" || lower === "0" || lower === "no") return false;
  }
  return value;
}

/** Whether a value fills a field (RAGFlow's _is_input_field_satisfied, for a value actually given). */
function fills(value: unknown, field: InputField | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (isFileType(field?.type)) return !(value === "" || (Array.isArray(value) && value.length === 0));
  return true;
}

/** A field as sent in `user_inputs`: the stored spec with its value cleared. */
function askedField(field: InputField): InputField {
  return { ...field, value: null };
}

/**
 * The fields still needed given what was submitted. Optional fields are asked for only when
 * nothing at all was submitted (RAGFlow asks for the whole form then), except optional files.
 */
export function missingFields(
  form: Record<string, InputField>,
  submitted: Record<string, unknown> | undefined,
): Record<string, InputField> {
  const missing: Record<string, InputField> = {};
  for (const [key, field] of Object.entries(form)) {
    if (submitted === undefined) {
      if (field.optional && isFileType(field.type)) continue;
      missing[key] = askedField(field);
      continue;
    }
    if (field.optional) continue;
    const given = Object.hasOwn(submitted, key) ? resolveInputValue(submitted[key], field) : undefined;
    if (!fills(given, field)) missing[key] = askedField(field);
  }
  return missing;
}

/** Store the submitted values as outputs (and node inputs), one per field key. */
export function applySubmittedValues(
  form: Record<string, InputField>,
  submitted: Record<string, unknown>,
  write: (key: string, value: unknown) => void,
): void {
  for (const [key, raw] of Object.entries(submitted)) write(key, resolveInputValue(raw, form[key]));
}
