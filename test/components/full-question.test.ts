import { describe, expect, it } from "vitest";
import { defineTool } from "../../src/tools/define-tool.js";
import { loadCanvas } from "../../src/api.js";
import type { MockLlmScript } from "../../src/llm/index.js";
import type { ChatMessage, ChatModel, ChatRequest, ChatResult } from "../../src/llm/types.js";
import {
  conversationText,
  FULL_QUESTION_CUE,
  fullQuestion,
  fullQuestionPrompt,
  questionDates,
  shouldRefine,
  withRefinedQuestion,
} from "../../src/components/llm/full-question.js";
import { canvasDsl, finished, messageText, node } from "../helpers/dsl.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { registryWith } from "../helpers/registry.js";

const TURNS: ChatMessage[] = [
  { role: "user", content: "Who wrote Dune?" },
  { role: "assistant", content: "Frank Herbert." },
  { role: "user", content: "When was he born?" },
];

/** A chat model that answers every call with `answer` (or fails), recording the requests. */
function scriptedModel(answer: string | Error, requests: ChatRequest[] = []): ChatModel {
  return {
    model: "scripted",
    async complete(request: ChatRequest): Promise<ChatResult> {
      requests.push(request);
      if (answer instanceof Error) throw answer;
      return { content: answer, toolCalls: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, finishReason: "stop" } as ChatResult;
    },
    // eslint-disable-next-line require-yield
    async *stream() {
      throw new Error("not used");
    },
  } as unknown as ChatModel;
}

describe("full_question: the parts", () => {
  it("dates are the local today, yesterday and tomorrow, across month and year ends", () => {
    expect(questionDates(new Date(2026, 11, 31, 23, 30))).toEqual({ today: "2026-12-31", yesterday: "2026-12-30", tomorrow: "2027-01-01" });
    expect(questionDates(new Date(2028, 2, 1, 0, 5))).toEqual({ today: "2028-03-01", yesterday: "2028-02-29", tomorrow: "2028-03-02" });
  });

  it("shows user and assistant turns only, in order, with the text of multi-part messages", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "hidden" },
      ...TURNS.slice(0, 2),
      { role: "tool", tool_call_id: "x", content: "tool output" },
      { role: "user", content: [{ type: "text", text: "And this picture?" }, { type: "image_url", image_url: { url: "data:image/png;base64,AA==" } }] },
    ];
    expect(conversationText(messages)).toBe("USER: Who wrote Dune?\nASSISTANT: Frank Herbert.\nUSER: And this picture?");
  });

  it("the prompt carries the date rules, the language rule and the conversation", () => {
    const dates = { today: "2026-05-10", yesterday: "2026-05-09", tomorrow: "2026-05-11" };
    const prompt = fullQuestionPrompt(TURNS, dates);
    expect(prompt).toContain('Today is 2026-05-10; "yesterday" is 2026-05-09; "tomorrow" is 2026-05-11.');
    expect(prompt).toContain("Question: Is the city museum open on 2026-05-11?");
    expect(prompt).toContain("Write the question in the language of the user's latest question.");
    expect(prompt.endsWith("The conversation:\nUSER: Who wrote Dune?\nASSISTANT: Frank Herbert.\nUSER: When was he born?")).toBe(true);
    expect(fullQuestionPrompt(TURNS, dates, "German")).toContain("Write the question in German.");
  });

  it("refines only conversations of more than 3 messages", () => {
    expect(shouldRefine(TURNS)).toBe(false);
    expect(shouldRefine([...TURNS, { role: "assistant", content: "1920" }])).toBe(true);
  });

  it("replaces the last message's text and keeps its images", () => {
    const image = { type: "image_url" as const, image_url: { url: "data:image/png;base64,AA==" } };
    expect(withRefinedQuestion(TURNS, "When was Frank Herbert born?").at(-1)).toEqual({ role: "user", content: "When was Frank Herbert born?" });
    const multi: ChatMessage[] = [...TURNS.slice(0, 2), { role: "user", content: [{ type: "text", text: "his face?" }, image] }];
    expect(withRefinedQuestion(multi, "Is this Frank Herbert's face?").at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "Is this Frank Herbert's face?" }, image] });
    expect(withRefinedQuestion(multi, "x").slice(0, 2)).toEqual(multi.slice(0, 2));
  });

  it("asks with the prompt as system message and the cue as user message, without sampling options; drops thinking", async () => {
    const requests: ChatRequest[] = [];
    const now = new Date(2026, 4, 10, 12);
    const usage: unknown[] = [];
    const controller = new AbortController();
    const base = { temperature: 0.9, retry: { maxRetries: 2, delayMs: 10 }, signal: controller.signal };
    const answer = await fullQuestion(TURNS, { model: scriptedModel("<think>who is he?</think>\nQuestion: When was Frank Herbert born?", requests), base, onUsage: (u) => usage.push(u), now });
    expect(answer).toBe("When was Frank Herbert born?");
    expect(requests).toHaveLength(1);
    expect(requests[0].messages).toEqual([
      { role: "system", content: fullQuestionPrompt(TURNS, questionDates(now)) },
      { role: "user", content: FULL_QUESTION_CUE },
    ]);
    expect(requests[0].temperature).toBeUndefined();
    expect(requests[0].retry).toEqual({ maxRetries: 2, delayMs: 10 });
    expect(usage).toHaveLength(1);
  });

  it("keeps the original question when the model fails or answers nothing, but a cancelled run still stops", async () => {
    const base = { signal: new AbortController().signal };
    expect(await fullQuestion(TURNS, { model: scriptedModel(new Error("HTTP 500")), base, onUsage: () => {} })).toBe("When was he born?");
    expect(await fullQuestion(TURNS, { model: scriptedModel("  "), base, onUsage: () => {} })).toBe("When was he born?");
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    await expect(fullQuestion(TURNS, { model: scriptedModel(new Error("aborted")), base: { signal: controller.signal }, onUsage: () => {} })).rejects.toThrow("aborted");
  });
});

describe("full_question in a streaming Agent with tools, through the mock LLM", () => {
  const calls: Array<Record<string, unknown>> = [];
  const weather = defineTool({
    name: "Wikipedia",
    functionName: "wikipedia_search",
    description: "Looks things up.",
    meta: { query: { default: "{sys.query}", type: "string", description: "What to look up.", required: true } },
    defaults: {},
    timeoutSeconds: 5,
    run: async (args) => {
      calls.push(args);
      return { formalized_content: `Forecast for ${String(args.query)}: rain.` };
    },
  });
  const dsl = (stream: boolean) =>
    canvasDsl({
      begin: node("Begin", {}, ["Agent:A"]),
      "Agent:A": node(
        "Agent",
        { llm_id: "mock@Mock", sys_prompt: "You forecast.", prompts: [{ role: "user", content: "{sys.query}" }], tools: [{ component_name: "Wikipedia", name: "Wikipedia", params: {} }], max_rounds: 2 },
        stream ? ["Message:M"] : [],
      ),
      ...(stream ? { "Message:M": node("Message", { content: ["{Agent:A@content}"] }) } : {}),
    });
  const script: MockLlmScript = {
    rules: [
      { match: "can be understood without the conversation", on: "system", reply: "What is the weather forecast for Lyon tomorrow?" },
      { match: "forecast for Lyon tomorrow", on: "last_user", tool_calls: [{ name: "wikipedia_search_0", arguments: { query: "Lyon tomorrow" } }] },
      { match: "rain", on: "tool", reply: "Rain in Lyon tomorrow." },
      // Earlier turns answer at once (the mock would otherwise call the tool once per turn).
      { match: ".", on: "last_user", reply: "Noted." },
    ],
  };

  it("turns 1 and 2 (at most 3 messages) are sent as they are; turn 3 is refined first and the tools get the refined question", async () => {
    calls.length = 0;
    const mock = await startMockLlm(script);
    const canvas = await loadCanvas(dsl(true), { services: { llm: mock.provider }, registry: registryWith(weather) });
    await canvas.runToEnd({ query: "What's the weather in Paris?" });
    await canvas.runToEnd({ query: "And in Lyon?" });
    expect(mock.chatRequests()).toHaveLength(2);
    expect(mock.chatRequests()[1].messages.at(-1)).toEqual({ role: "user", content: "And in Lyon?" });

    const events = await canvas.runToEnd({ query: "What about tomorrow?" });
    const requests = mock.chatRequests().slice(2);
    const conversation: ChatMessage[] = [
      { role: "user", content: "What's the weather in Paris?" },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "And in Lyon?" },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "What about tomorrow?" },
    ];
    // The rewrite request: exactly the prompt (dates of today) and the cue, not streamed, no tools.
    expect(requests[0].messages).toEqual([
      { role: "system", content: fullQuestionPrompt(conversation, questionDates(new Date())) },
      { role: "user", content: FULL_QUESTION_CUE },
    ]);
    expect(requests[0].tools).toBeUndefined();
    expect(requests[0].stream).toBe(false);
    // The Agent's conversation ends with the refined question instead of the user's words.
    expect(requests[1].messages).toEqual([{ role: "system", content: "You forecast." }, ...conversation.slice(0, 4), { role: "user", content: "What is the weather forecast for Lyon tomorrow?" }]);
    expect(calls).toEqual([{ query: "Lyon tomorrow" }]);
    expect(messageText(events)).toBe("Rain in Lyon tomorrow.");
    // The rewrite is one more call in the run's usage (rewrite, tool round, answer).
    expect(finished(events).usage.calls).toBe(3);
  });

  it("a blocking Agent (nothing shows its stream) is not refined, as in RAGFlow", async () => {
    const mock = await startMockLlm(script);
    const canvas = await loadCanvas(dsl(false), { services: { llm: mock.provider }, registry: registryWith(weather) });
    for (const query of ["What's the weather in Paris?", "And in Lyon?", "What about tomorrow?"]) await canvas.runToEnd({ query });
    expect(mock.chatRequests()).toHaveLength(3);
    expect(mock.chatRequests()[2].messages.at(-1)).toEqual({ role: "user", content: "What about tomorrow?" });
  });
});
