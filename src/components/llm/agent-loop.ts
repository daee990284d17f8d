/**
 * The Agent's function-calling loop (RAGFlow chat_model.async_chat[_streamly]_with_tools). Each
 * round is one model call offered the functions; when the model calls some, they run (one
 * round's calls concurrently) and their results go back as tool messages. The loop ends when the
 * model answers without calling a function, or after `maxRounds` rounds of calls, when it is
 * asked once more, without functions, for its final answer. (RAGFlow allows max_rounds + 1
 * rounds and then adds a user message "Exceed max rounds"; here the notice goes into the system
 * prompt of the final request, so the conversation still ends with the tool results.)
 */
import type { ChatMessage, ChatModel, ChatResult, ChatToolCall, FunctionTool } from "../../llm/types.js";
import { isPlainObject } from "../../util/values.js";
import type { ComponentContext, SpanScope } from "../types.js";
import { appendToSystem } from "./citations.js";
import { completeChat, streamChat, type RequestBase, type UsageSink } from "./model-call.js";

/** A function the model may call. `call` returns what the model reads; it throws on failure. */
export interface AgentFunction {
  readonly name: string;
  readonly schema: FunctionTool;
  call(args: Record<string, unknown>): Promise<string>;
}

export interface ToolLoopRequest {
  model: ChatModel;
  base: RequestBase;
  /** The conversation, system message first; the loop appends its rounds to it. */
  messages: ChatMessage[];
  functions: readonly AgentFunction[];
  maxRounds: number;
  onUsage: UsageSink;
  /** Runs before every model call (e.g. to add citation instructions once references arrived). */
  beforeCall?(messages: ChatMessage[]): void;
  /** Where tool calls' spans go: the calling component's context. */
  tracer?: ToolCallTracer;
}

/** What makes a tool call's span: a component's context (ComponentContext.span). */
export type ToolCallTracer = Pick<ComponentContext, "span">;

/**
 * The tool message for a call: its result, or "Tool X failed: …" (a failing tool never ends the
 * run). With a tracer (the Agent's context) the call is an `execute_tool <name>` span, failed
 * when the tool failed.
 */
export async function runToolCall(functions: readonly AgentFunction[], call: ChatToolCall, tracer?: ToolCallTracer): Promise<string> {
  if (!tracer?.span) return callTool(functions, call, undefined);
  const name = call.function.name;
  const attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": call.id };
  return tracer.span(`execute_tool ${name}`, attributes, (scope) => callTool(functions, call, scope));
}

async function callTool(functions: readonly AgentFunction[], call: ChatToolCall, scope: SpanScope | undefined): Promise<string> {
  const name = call.function.name;
  const failed = (why: string) => {
    scope?.recordError(why);
    return `Tool ${name} failed: ${why}`;
  };
  const fn = functions.find((f) => f.name === name);
  if (!fn) return failed(`there is no such tool (available: ${functions.map((f) => f.name).join(", ") || "none"})`);
  let args: unknown;
  try {
    const text = call.function.arguments;
    args = text === undefined || text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return failed(`its arguments are not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(args)) return failed("its arguments must be a JSON object");
  try {
    return await fn.call(args);
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
}

/** What the final request adds to the system prompt once the tool rounds are used up. */
export function roundsExhaustedNotice(maxRounds: number): string {
  return `You have used all ${maxRounds} rounds of tool calls (max_rounds): answer now from the tool results above, without calling tools.`;
}

/**
 * Run the loop. Streaming, the text of every round is yielded as it arrives (rounds are
 * separated by a blank line); blocking, nothing is yielded. Returns the final answer's text.
 */
export async function* toolLoop(request: ToolLoopRequest, stream: boolean): AsyncGenerator<string, string, undefined> {
  let streamedText = false;

  async function* call(withTools: boolean, notice?: string): AsyncGenerator<string, ChatResult, undefined> {
    request.beforeCall?.(request.messages);
    const messages = [...request.messages];
    if (notice) appendToSystem(messages, notice);
    const chat = {
      ...request.base,
      messages,
      ...(withTools ? { tools: request.functions.map((f) => f.schema) } : {}),
    };
    if (!stream) return await completeChat(request.model, chat, request.onUsage);
    const text = streamChat(request.model, chat, request.onUsage);
    let first = true;
    for (;;) {
      const step = await text.next();
      if (step.done) return step.value;
      if (first && streamedText) yield "\n\n";
      first = false;
      streamedText = true;
      yield step.value;
    }
  }

  const rounds = Math.max(1, Math.floor(request.maxRounds));
  for (let round = 1; round <= rounds; round++) {
    const result = yield* call(true);
    if (result.toolCalls.length === 0) return result.content;
    request.messages.push({ role: "assistant", content: result.content === "" ? null : result.content, tool_calls: result.toolCalls });
    const outputs = await Promise.all(result.toolCalls.map((toolCall) => runToolCall(request.functions, toolCall, request.tracer)));
    result.toolCalls.forEach((toolCall, i) => request.messages.push({ role: "tool", tool_call_id: toolCall.id, content: outputs[i] }));
  }
  const final = yield* call(false, roundsExhaustedNotice(rounds));
  return final.content;
}

/** Run a generator to its end and return its result (the blocking loop yields nothing). */
export async function finish<T>(generator: AsyncGenerator<unknown, T, undefined>): Promise<T> {
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
  }
}
