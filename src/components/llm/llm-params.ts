/**
 * What LLM, Agent, Categorize and Browser share: RAGFlow's LLMParam defaults, its checks, and the
 * references a prompt reads (research/ragflow.md §4.1 "LLM").
 */
import { findReferences, parseSelector, type Reference } from "../../refs/grammar.js";
import { jsonPointer } from "../../util/values.js";
import { nonNegativeInteger, unitInterval } from "../param-checks.js";
import type { ParamProblem, Params } from "../types.js";

/** LLMParam defaults (message_history_window_size is ComponentParamBase's). */
export const LLM_DEFAULTS: Readonly<Params> = {
  llm_id: "",
  sys_prompt: "",
  prompts: [{ role: "user", content: "{sys.query}" }],
  max_tokens: 0,
  temperature: 0,
  top_p: 0,
  presence_penalty: 0,
  frequency_penalty: 0,
  output_structure: null,
  cite: true,
  visual_files_var: null,
  message_history_window_size: 13,
};

/** node_started thoughts of LLM and Agent. RAGFlow appends the resolved prompt, which needs the run's values. */
export const LLM_THOUGHTS = "⌛Give me a moment—I’ll figure out our best next move.";

/** Sampling params and the editor flag that says whether gen_conf sends them to the model. */
const SAMPLING: ReadonlyArray<[key: string, flag: string]> = [
  ["temperature", "temperatureEnabled"],
  ["top_p", "topPEnabled"],
  ["presence_penalty", "presencePenaltyEnabled"],
  ["frequency_penalty", "frequencyPenaltyEnabled"],
];

/** `llm_id` names the chat model. Templates ship it empty for the user to choose, so empty is a warning. */
export function checkLlmId(params: Params): ParamProblem[] {
  const id = params.llm_id;
  if (typeof id !== "string") return [{ pointer: "/llm_id", message: `llm_id must be a string naming a chat model, not ${JSON.stringify(id)}` }];
  return id.trim() === "" ? [{ pointer: "/llm_id", severity: "warning", message: "llm_id is empty: no chat model is chosen" }] : [];
}

/**
 * The sampling params (numbers or numeric strings in [0, 1]) and max_tokens (>= 0), as
 * LLMParam.check. A value out of range whose editor flag is off is never sent, so it only warns.
 */
export function checkSampling(params: Params): ParamProblem[] {
  const problems: ParamProblem[] = [];
  for (const [key, flag] of SAMPLING) problems.push(...unitInterval(params, key, params[flag] === false ? "warning" : "error"));
  problems.push(...nonNegativeInteger(params, "max_tokens"));
  return problems;
}

/** `prompts`: a non-empty list of {role, content}, or one string (RAGFlow coerces it to a user prompt). */
export function checkPrompts(params: Params, key = "prompts"): ParamProblem[] {
  const prompts = params[key];
  if (typeof prompts === "string") {
    return prompts.trim() === "" ? [{ pointer: jsonPointer(key), message: `${key} is empty: the model needs a prompt` }] : [];
  }
  if (!Array.isArray(prompts) || prompts.length === 0) return [{ pointer: jsonPointer(key), message: `${key} is empty: the model needs at least one prompt` }];
  const problems: ParamProblem[] = [];
  prompts.forEach((prompt, i) => {
    const content = prompt && typeof prompt === "object" ? (prompt as Record<string, unknown>).content : undefined;
    if (typeof content !== "string") problems.push({ pointer: jsonPointer(key, i, "content"), message: `${key}[${i}] needs a text content` });
  });
  return problems;
}

/** `visual_files_var` is read with get_variable_value, so a non-empty one must be a reference. */
function checkVisualFiles(params: Params): ParamProblem[] {
  const files = params.visual_files_var;
  if (files === undefined || files === null || files === "") return [];
  return typeof files === "string" && parseSelector(files) !== null
    ? []
    : [{ pointer: "/visual_files_var", message: `visual_files_var must be a reference such as "sys.files", not ${JSON.stringify(files)}` }];
}

/** Every check of LLMParam: model, sampling, prompts and the image variable. */
export function checkLlmParams(params: Params): ParamProblem[] {
  return [...checkLlmId(params), ...checkSampling(params), ...checkPrompts(params), ...checkVisualFiles(params)];
}

/** The prompt texts a model component renders: system prompt, prompts and (Agent) user_prompt. */
function promptTexts(params: Params): string[] {
  const texts: string[] = [];
  if (typeof params.sys_prompt === "string") texts.push(params.sys_prompt);
  const prompts = params.prompts;
  if (typeof prompts === "string") texts.push(prompts);
  else if (Array.isArray(prompts)) {
    for (const prompt of prompts) {
      const content = prompt && typeof prompt === "object" ? (prompt as Record<string, unknown>).content : undefined;
      if (typeof content === "string") texts.push(content);
    }
  }
  if (typeof params.user_prompt === "string") texts.push(params.user_prompt);
  return texts;
}

/** The references a model component reads: template refs in its prompts and the `visual_files_var` selector. */
export function promptReferences(params: Params): Reference[] {
  const refs = promptTexts(params).flatMap((text) => findReferences(text));
  const files = params.visual_files_var;
  if (typeof files === "string" && files.trim() !== "") {
    const ref = parseSelector(files);
    if (ref) refs.push(ref);
  }
  return refs;
}
