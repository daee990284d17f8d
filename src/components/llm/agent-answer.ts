/**
 * One Agent turn (RAGFlow agent_with_tools.py): without functions it is an LLM turn; with them
 * the function-calling loop runs, streamed into a downstream Message or blocking, and a
 * structured-output schema is applied to the final answer. Sub-agents run through the same code
 * on their own params, never streamed and never citing (RAGFlow cites in the top-level Agent only).
 */
import { finiteNumber } from "../../util/values.js";
import type { ComponentContext, Params, UsageReport } from "../types.js";
import { agentFunctions } from "./agent-tools.js";
import { finish, toolLoop, type ToolLoopRequest } from "./agent-loop.js";
import { appendToSystem, citationPrompt } from "./citations.js";
import { llmAnswer, joinPrompts, type Answer } from "./llm-answer.js";
import { fullQuestion, shouldRefine, withRefinedQuestion } from "./full-question.js";
import { chatModelFor, completeChat, requestBase } from "./model-call.js";
import { preparePrompt, withSystem, type PromptMessage } from "./prompt.js";
import { answerStream, shouldStream } from "./streaming.js";
import { structuredAnswer, structuredAttempts, structuredPrompt, structuredSchema } from "./structured.js";

interface AgentTurn {
  /** The top-level Agent (may stream and cite), or a sub-agent called as a tool. */
  topLevel: boolean;
  /** Who runs: the Agent's id, or "<agent> → <sub-agent>". */
  label: string;
  signal: AbortSignal;
  /** A sub-agent's task, replacing its prompts. */
  task?: PromptMessage[];
  /** The Agent type's defaults, applied under each sub-agent's params. */
  agentDefaults: Params;
}

/** Rounds of tool calls; below 1 (or unreadable) counts as 1, so the tools can be used at all. */
function maxRounds(params: Params): number {
  const n = finiteNumber(params.max_rounds);
  return n !== undefined && n >= 1 ? Math.floor(n) : 1;
}

/**
 * The streamed tool loop, the latest question first refined when the conversation is long enough
 * (RAGFlow's stream_output_with_tools: `full_question` when it holds more than 3 messages).
 */
async function* refinedToolLoop(request: ToolLoopRequest, conversationLength: number): AsyncGenerator<string, string, undefined> {
  const system = request.messages.length > conversationLength ? request.messages.slice(0, 1) : [];
  const conversation = request.messages.slice(system.length);
  if (shouldRefine(conversation)) {
    const question = await fullQuestion(conversation, { model: request.model, base: request.base, onUsage: request.onUsage });
    request.messages = [...system, ...withRefinedQuestion(conversation, question)];
  }
  return yield* toolLoop(request, true);
}

export async function agentAnswer(ctx: ComponentContext, params: Params, turn: AgentTurn): Promise<Answer> {
  const onUsage = (usage: UsageReport) => ctx.addUsage(usage);
  const schema = structuredSchema(params);
  const stream = turn.topLevel && schema === undefined && shouldStream(ctx);
  const cite = turn.topLevel && params.cite !== false;
  let referencesArrived = false;
  const functions = await agentFunctions(
    {
      ctx,
      signal: turn.signal,
      label: turn.label,
      onReferences: (chunks) => {
        if (chunks.length > 0) referencesArrived = true;
      },
      runSubAgent: async (subParams, task, label) => {
        const answer = await agentAnswer(ctx, subParams, { topLevel: false, label, signal: turn.signal, task, agentDefaults: turn.agentDefaults });
        if (answer.structured !== undefined) return JSON.stringify(answer.structured);
        return typeof answer.content === "string" ? answer.content : answer.content.readAll();
      },
    },
    params,
    turn.agentDefaults,
  );
  if (functions.length === 0) return llmAnswer(ctx, params, { stream, signal: turn.signal, onUsage, literalPrompts: turn.task });

  const model = chatModelFor(ctx, params);
  const prompt = preparePrompt(ctx, params, { literalPrompts: turn.task });
  const system = schema ? joinPrompts(prompt.system, structuredPrompt(schema)) : prompt.system;
  let cited = false;
  const request: ToolLoopRequest = {
    model,
    base: requestBase(params, turn.signal),
    messages: withSystem(system, prompt.messages),
    functions,
    maxRounds: maxRounds(params),
    onUsage,
    tracer: ctx,
    beforeCall: (messages) => {
      if (!cite || cited || !referencesArrived) return;
      appendToSystem(messages, citationPrompt(prompt.overrides));
      cited = true;
    },
  };

  if (stream) return { content: answerStream(params, refinedToolLoop(request, prompt.messages.length)) };
  const answer = await finish(toolLoop(request, false));
  if (!schema) return { content: answer };
  const base = requestBase(params, turn.signal);
  const { value, text } = await structuredAnswer({
    schema,
    attempts: structuredAttempts(params),
    messages: request.messages,
    firstAnswer: answer,
    ask: async (messages) => (await completeChat(model, { ...base, messages }, onUsage)).content,
  });
  return { content: text, structured: value };
}
