/**
 * What the mock LLM answers, decided purely from the request and the script (the HTTP side is
 * mock-server.ts). Deterministic: the same conversation always gets the same answer.
 *
 * Without a matching rule it answers like a model would in the simplest way: when tools are
 * offered and this turn has no tool result yet, it calls the first tool once with arguments made
 * from the tool's JSON schema; otherwise it echoes the last user message, saying it is a mock.
 */
import type { MockLlmRule, MockLlmScript, MockMatchTarget } from "./mock-script.js";

/** A chat message as it arrives on the wire (loosely typed: the mock accepts what clients send). */
interface WireChatMessage {
  role?: string;
  content?: unknown;
  name?: string;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

interface WireTool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
}

export interface MockChatRequest {
  model?: string;
  messages: WireChatMessage[];
  tools?: WireTool[];
  tool_choice?: unknown;
  response_format?: { type?: string; json_schema?: { schema?: unknown } };
}

interface MockToolCallPlan {
  name: string;
  /** JSON text. */
  arguments: string;
}

export type MockPlan =
  | { kind: "error"; status: number; message: string; delayMs: number; why: string }
  | {
      kind: "answer";
      think: string;
      content: string;
      toolCalls: MockToolCallPlan[];
      delayMs: number;
      chunkDelayMs: number;
      sendUsage: boolean;
      /** For the log: "rule 2", "echo", "call to tool search". */
      why: string;
    };

const MOCK_REPLY_PREFIX = "[mock reply]";
const TRUNCATE_AT = 200;

/** Text of a message's content: a string, or the text parts of a parts array. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
    .filter(Boolean)
    .join("\n");
}

/** The mock's token count: whitespace-separated words. */
export function countWords(text: string): number {
  const words = text.trim().split(/\s+/);
  return words[0] === "" ? 0 : words.length;
}

export function promptTokens(messages: readonly WireChatMessage[]): number {
  let n = 0;
  for (const message of messages) {
    n += countWords(contentText(message.content));
    for (const call of message.tool_calls ?? []) n += countWords(`${call.function?.name ?? ""} ${call.function?.arguments ?? ""}`);
  }
  return n;
}

export function completionTokens(plan: { think: string; content: string; toolCalls: readonly MockToolCallPlan[] }): number {
  let n = countWords(plan.think) + countWords(plan.content);
  for (const call of plan.toolCalls) n += countWords(`${call.name} ${call.arguments}`);
  return n;
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > TRUNCATE_AT ? `${flat.slice(0, TRUNCATE_AT)}…` : flat;
}

/** Messages of the current turn: everything after the last user message. */
function turnStart(messages: readonly WireChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === "user") return i;
  return -1;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A plausible value for a JSON schema: strings get `text`, numbers 1, booleans false, arrays [],
 * enums and consts their first value, objects their properties (only the required ones when
 * `requiredOnly`, as for tool arguments).
 */
function sampleFromSchema(schema: unknown, text: string, requiredOnly: boolean): unknown {
  if (!isObject(schema)) return text;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0 && !schema.type) return sampleFromSchema(branches[0], text, requiredOnly);
  }
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  const type = types.find((t) => t !== "null") ?? (types.includes("null") ? "null" : undefined);
  switch (type ?? (isObject(schema.properties) ? "object" : "string")) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return false;
    case "array":
      return [];
    case "null":
      return null;
    case "object":
      return argumentsFromSchema(schema, text, requiredOnly);
    default:
      return text;
  }
}

/** Tool-call arguments from a function's parameters schema (required properties only). */
export function argumentsFromSchema(schema: unknown, text: string, requiredOnly = true): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (!isObject(schema) || !isObject(schema.properties)) return args;
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (requiredOnly && !required.includes(name)) continue;
    args[name] = sampleFromSchema(property, text, requiredOnly);
  }
  return args;
}

/** Decides answers; remembers how often each rule answered (for `times`). */
export class MockResponder {
  private readonly rules: Array<{ rule: MockLlmRule; regex: RegExp; used: number }>;

  constructor(script?: MockLlmScript) {
    this.rules = (script?.rules ?? []).map((rule) => ({ rule, regex: new RegExp(rule.match, rule.flags ?? "i"), used: 0 }));
  }

  plan(request: MockChatRequest): MockPlan {
    const messages = request.messages;
    const start = turnStart(messages);
    const lastUser = start >= 0 ? contentText(messages[start].content) : "";
    const toolResults = messages.slice(start + 1).filter((m) => m.role === "tool");

    for (let i = 0; i < this.rules.length; i++) {
      const entry = this.rules[i];
      const { rule } = entry;
      if (rule.times !== undefined && entry.used >= rule.times) continue;
      const on: MockMatchTarget = rule.on ?? "last_user";
      if (rule.tool_calls && rule.tool_calls.length > 0 && on !== "tool" && toolResults.length > 0) continue;
      const target = matchTarget(on, messages, lastUser, toolResults);
      if (target === undefined || !entry.regex.test(target)) continue;
      entry.used++;
      const why = `rule ${i + 1}`;
      const delayMs = rule.delay_ms ?? 0;
      if (rule.status !== undefined) {
        return { kind: "error", status: rule.status, message: rule.message ?? `mock error ${rule.status} (script ${why})`, delayMs, why };
      }
      return {
        kind: "answer",
        think: rule.think ?? "",
        content: rule.reply ?? "",
        toolCalls: (rule.tool_calls ?? []).map((call) => ({
          name: call.name,
          arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
        })),
        delayMs,
        chunkDelayMs: rule.chunk_delay_ms ?? 0,
        sendUsage: rule.usage !== false,
        why,
      };
    }
    return defaultPlan(request, lastUser, toolResults, messages);
  }
}

function matchTarget(on: MockMatchTarget, messages: readonly WireChatMessage[], lastUser: string, toolResults: readonly WireChatMessage[]): string | undefined {
  switch (on) {
    case "last_user":
      return lastUser;
    case "system":
      return messages.filter((m) => m.role === "system").map((m) => contentText(m.content)).join("\n");
    case "any":
      return messages.map((m) => contentText(m.content)).join("\n");
    case "tool":
      return toolResults.length > 0 ? contentText(toolResults[toolResults.length - 1].content) : undefined;
  }
}

/** The function a request asks for by tool_choice, else the first offered one. */
function chosenTool(request: MockChatRequest): WireTool | undefined {
  const tools = (request.tools ?? []).filter((t) => typeof t?.function?.name === "string" && t.function.name !== "");
  if (tools.length === 0 || request.tool_choice === "none") return undefined;
  const choice = request.tool_choice;
  if (isObject(choice) && isObject(choice.function) && typeof choice.function.name === "string") {
    return tools.find((t) => t.function?.name === (choice.function as { name: string }).name) ?? tools[0];
  }
  return tools[0];
}

function defaultPlan(request: MockChatRequest, lastUser: string, toolResults: readonly WireChatMessage[], messages: readonly WireChatMessage[]): MockPlan {
  const base = { think: "", toolCalls: [] as MockToolCallPlan[], delayMs: 0, chunkDelayMs: 0, sendUsage: true };
  const tool = toolResults.length === 0 ? chosenTool(request) : undefined;
  if (tool) {
    const name = tool.function!.name!;
    const args = argumentsFromSchema(tool.function?.parameters, lastUser);
    return { kind: "answer", ...base, content: "", toolCalls: [{ name, arguments: JSON.stringify(args) }], why: `call to tool ${name}` };
  }
  let echo = lastUser === "" && turnStart(messages) < 0 ? `${MOCK_REPLY_PREFIX} (no user message)` : `${MOCK_REPLY_PREFIX} You said: ${truncate(lastUser)}`;
  for (const result of toolResults) {
    echo += ` | tool ${toolName(messages, result.tool_call_id)} returned: ${truncate(contentText(result.content))}`;
  }
  const format = request.response_format;
  if (format?.type === "json_schema") {
    const value = sampleFromSchema(format.json_schema?.schema ?? { type: "object" }, echo, false);
    return { kind: "answer", ...base, content: JSON.stringify(value), why: "json_schema sample" };
  }
  if (format?.type === "json_object") return { kind: "answer", ...base, content: JSON.stringify({ reply: echo }), why: "json_object echo" };
  return { kind: "answer", ...base, content: echo, why: toolResults.length > 0 ? "echo after tool result" : "echo" };
}

/** The function name of the call a tool message answers. */
function toolName(messages: readonly WireChatMessage[], callId: string | undefined): string {
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) if (call.id === callId && call.function?.name) return call.function.name;
  }
  return callId ?? "?";
}
