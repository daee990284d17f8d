/**
 * v0.19 flow components → current ones: Begin's form, Message, Switch, Template, Iteration.
 */
import { isPlainObject } from "../../util/values.js";
import type { Converted } from "./convert-llm.js";
import { targetList, type LegacyModel } from "./model.js";

/** Begin: the form was a list `query: [{key, name, type, optional, value?}]`, now `inputs: {key: field}`. */
export function convertBegin(model: LegacyModel, id: string): Converted & { madeOptional: string[] } {
  const legacy = model.params(id);
  const inputs: Record<string, unknown> = {};
  const madeOptional: string[] = [];
  // v0.19: a list of fields with their key; a Begin already in the current shape: fields by key.
  const form = Array.isArray(legacy.query)
    ? legacy.query
    : isPlainObject(legacy.inputs)
      ? Object.entries(legacy.inputs).map(([key, field]) => (isPlainObject(field) ? { ...field, key } : field))
      : [];
  for (const field of form) {
    if (!isPlainObject(field) || typeof field.key !== "string" || field.key === "") continue;
    const { key, optional, ...rest } = field;
    // v0.19 read a field without a value as empty text and ran anyway; an optional field keeps that.
    if (optional !== true) madeOptional.push(key);
    inputs[key] = { ...rest, name: typeof field.name === "string" ? field.name : key, type: typeof field.type === "string" ? field.type : "line", optional: true };
  }
  const prologue = typeof legacy.prologue === "string" ? legacy.prologue : "";
  const fields = Object.keys(inputs);
  return {
    name: "Begin",
    params: { mode: "conversational", prologue, enablePrologue: prologue !== "", inputs, outputs: {} },
    change:
      `prologue kept${fields.length > 0 ? `; the form (${fields.join(", ")}) moved from query to inputs` : ""}` +
      (madeOptional.length > 0 ? `; ${madeOptional.join(", ")} made optional` : ""),
    reason:
      "the conversation still opens with the prologue; the current Begin keeps its form in inputs" +
      (madeOptional.length > 0 ? "; v0.19 never stopped a run for a missing form value (it read it as empty text), an optional field behaves the same — set optional to false to have it asked for" : ""),
    madeOptional,
  };
}

/** Message: `messages` (one picked at random) → `content`, same random choice. */
export function convertMessage(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const source = Array.isArray(legacy.messages) ? legacy.messages : Array.isArray(legacy.content) ? legacy.content : [];
  const content = source.filter((m): m is string => typeof m === "string");
  return {
    name: "Message",
    params: { content },
    change: "messages → content (one alternative is still picked at random); the message is shown when it runs",
    reason: "v0.19 showed a Message's text through the next Answer; the current Message shows it itself",
  };
}

/** v0.19 bookkeeping (its DataFrame output, input lists) and the single else target. */
const SWITCH_LEGACY_KEYS = new Set(["end_cpn_id", "output", "output_var_name", "infor_var_name", "query", "inputs", "debug_inputs"]);

/** Switch: `to` was one id, `end_cpn_id` one id; items compared a component's whole output. */
export function convertSwitch(model: LegacyModel, id: string): Converted {
  const legacy = model.params(id);
  const conditions = (Array.isArray(legacy.conditions) ? legacy.conditions : []).filter(isPlainObject).map((condition) => {
    const items = (Array.isArray(condition.items) ? condition.items : []).filter(isPlainObject).map((item) => {
      const cpn = typeof item.cpn_id === "string" ? item.cpn_id : "";
      const ref = cpn === "" ? "" : model.referenceTo(cpn) ?? cpn;
      return { ...item, cpn_id: ref };
    });
    // v0.19 treated any logical_operator other than "and" as "or".
    const logical = condition.logical_operator === "and" ? "and" : "or";
    return { ...condition, logical_operator: logical, items, to: targetList(condition.to) };
  });
  const otherwise = [...targetList(legacy.end_cpn_id), ...targetList(legacy.end_cpn_ids)];
  const rest = Object.fromEntries(Object.entries(legacy).filter(([key]) => !SWITCH_LEGACY_KEYS.has(key)));
  return {
    name: "Switch",
    params: { ...rest, conditions, end_cpn_ids: otherwise },
    change: "each case's to and end_cpn_id became lists (end_cpn_ids); items compare the component's output reference",
    reason: "the current Switch routes through lists of ids and reads references, not whole outputs",
  };
}

/** Template → StringTransform (merge): the same text assembly, with explicit references. */
export function convertTemplate(model: LegacyModel, id: string): Converted & { dangling: string[]; placeholders: string[] } {
  const legacy = model.params(id);
  const rewritten = model.rewriteText(typeof legacy.content === "string" ? legacy.content : "", id);
  return {
    name: "StringTransform",
    params: { method: "merge", script: rewritten.text, delimiters: ["\n"], outputs: { result: { type: "string", value: "" } } },
    change: `Template → StringTransform (merge) with explicit references; lists are joined by new lines; its output is {${id}@result}`,
    reason: "Template no longer exists; StringTransform's merge assembles text from references the same way",
    dangling: rewritten.dangling,
    placeholders: rewritten.placeholders,
  };
}

/** Named delimiters of v0.19's Iteration form. */
const DELIMITERS: Readonly<Record<string, string>> = { comma: ",", semicolon: ";", period: ".", lineBreak: "\n", tab: "\t", space: " " };

export function iterationDelimiter(legacy: Record<string, unknown>): string {
  const raw = typeof legacy.delimiter === "string" && legacy.delimiter !== "" ? legacy.delimiter : ",";
  return DELIMITERS[raw] ?? raw;
}
