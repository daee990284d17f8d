/**
 * Structured output: when `outputs.structured` holds a JSON schema with properties, the model is
 * asked for JSON, the answer is parsed (reasoning and ```json fences stripped) and checked with
 * ajv against the schema. A bad answer is sent back with what is wrong, up to max_retries + 1
 * attempts in all (RAGFlow parses with json_repair and never checks the schema).
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import type { ChatMessage } from "../../llm/types.js";
import { newAjv2020, type Ajv2020 } from "../../util/ajv.js";
import { finiteNumber, isPlainObject } from "../../util/values.js";
import type { JsonSchema, ParamProblem, Params } from "../types.js";
import { withoutThinking } from "./think-tags.js";

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function hasProperties(value: unknown): value is JsonSchema {
  return isPlainObject(value) && isPlainObject(value.properties) && Object.keys(value.properties).length > 0;
}

/**
 * The schema of `outputs.structured`: the value itself when it has properties, or the schema
 * the editor nests under `schema` or `structured` (RAGFlow Agent._get_output_schema).
 */
export function structuredSchema(params: Params): JsonSchema | undefined {
  const outputs = params.outputs;
  if (!isPlainObject(outputs)) return undefined;
  const candidate = outputs.structured;
  if (hasProperties(candidate)) return candidate;
  if (!isPlainObject(candidate)) return undefined;
  for (const key of ["schema", "structured"]) if (hasProperties(candidate[key])) return candidate[key] as JsonSchema;
  return undefined;
}

/** The compiled validator of a schema; `$schema`/`$id` are dropped so any draft's header is accepted. */
export function schemaValidator(schema: JsonSchema): ValidateFunction {
  const { $schema: _schema, $id: _id, ...body } = schema;
  const key = JSON.stringify(body);
  let validate = validators.get(key);
  if (!validate) {
    ajv ??= newAjv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    try {
      validate = ajv.compile(body);
    } catch (error) {
      throw new Error(`outputs.structured is not a valid JSON schema: ${(error as Error).message}`);
    }
    validators.set(key, validate);
  }
  return validate;
}

/** Validation problem of an Agent's or LLM's structured-output schema. */
export function checkStructuredSchema(params: Params): ParamProblem[] {
  const schema = structuredSchema(params);
  if (!schema) return [];
  try {
    schemaValidator(schema);
    return [];
  } catch (error) {
    return [{ pointer: "/outputs/structured", message: (error as Error).message }];
  }
}

/** What the system prompt adds to ask for JSON. */
export function structuredPrompt(schema: JsonSchema): string {
  return [
    "Answer with one JSON value only: no explanation, no Markdown code fence.",
    "The JSON must be valid against this JSON schema:",
    JSON.stringify(schema, null, 2),
  ].join("\n");
}

/** The JSON text inside an answer: reasoning and Markdown fences removed. */
export function jsonText(answer: string): string {
  let text = withoutThinking(answer);
  const fence = text.toLowerCase().lastIndexOf("```json");
  if (fence >= 0) text = text.slice(fence + "```json".length);
  else if (text.trimStart().startsWith("```")) text = text.trimStart().replace(/^```[^\n]*\n?/, "");
  return text.replace(/```\s*$/, "").trim();
}

/** Parse JSON; when the answer wraps it in prose, the outermost object or array is tried. */
function parseJson(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const start = text.search(/[[{]/);
    const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
    if (start >= 0 && end > start) {
      try {
        return { value: JSON.parse(text.slice(start, end + 1)) };
      } catch {
        // fall through to the first error, which describes the whole answer
      }
    }
    return { problem: `the answer is not valid JSON (${(error as Error).message})` };
  }
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath === "" ? "the value" : e.instancePath} ${e.message ?? "is invalid"}`).join("; ");
}

/** The structured value of an answer, or what is wrong with it. */
export function readStructured(answer: string, schema: JsonSchema): { value: unknown } | { problem: string } {
  const parsed = parseJson(jsonText(answer));
  if ("problem" in parsed) return parsed;
  const validate = schemaValidator(schema);
  if (validate(parsed.value)) return parsed;
  return { problem: `the JSON does not match the schema: ${describeErrors(validate.errors)}` };
}

/** Attempts in all: max_retries + 1 (RAGFlow's loop). */
export function structuredAttempts(params: Params): number {
  const retries = finiteNumber(params.max_retries);
  return 1 + (retries !== undefined && retries > 0 ? Math.floor(retries) : 0);
}

export interface StructuredRequest {
  schema: JsonSchema;
  attempts: number;
  /** The conversation so far, the schema prompt included; follow-ups are appended to it. */
  messages: ChatMessage[];
  /** One model call over the conversation, returning the answer text. */
  ask(messages: ChatMessage[]): Promise<string>;
  /** An answer already given (an Agent's final answer after its tools), checked as the first attempt. */
  firstAnswer?: string;
}

/** Ask until the answer is JSON valid against the schema; each bad answer is sent back with its problem. */
export async function structuredAnswer(request: StructuredRequest): Promise<{ value: unknown; text: string }> {
  const messages = [...request.messages];
  let problem = "";
  for (let attempt = 1; attempt <= request.attempts; attempt++) {
    const answer = attempt === 1 && request.firstAnswer !== undefined ? request.firstAnswer : await request.ask(messages);
    const read = readStructured(answer, request.schema);
    if ("value" in read) return { value: read.value, text: jsonText(answer) };
    problem = read.problem;
    messages.push({ role: "assistant", content: answer });
    messages.push({ role: "user", content: `Your answer cannot be used: ${problem}. Answer again with only the JSON value.` });
  }
  throw new Error(`structured output failed after ${request.attempts} attempt${request.attempts === 1 ? "" : "s"}: ${problem}`);
}
