/**
 * Trimming conversations to the context window (RAGFlow message_fit_in): unit cases, properties
 * over random conversations, and a 200-turn conversation through an LLM node and an Agent under
 * the mock server, whose requests are counted with the same tokenizer.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { contextWindow, DEFAULT_CONTEXT_TOKENS, knownContextWindow } from "../../src/llm/context-window.js";
import { fitMessages } from "../../src/llm/fit-messages.js";
import { createLlmProvider, startMockLlmServer } from "../../src/llm/index.js";
import { countChatTokens, encodingFor, loadTokenizer, mayExceed, type Tokenizer } from "../../src/llm/tokens.js";
import type { ChatMessage, FunctionTool } from "../../src/llm/types.js";
import { canvasDsl, finished, messages as messageTexts, node } from "../helpers/dsl.js";

let cl100k: Tokenizer;
let o200k: Tokenizer;

beforeAll(async () => {
  cl100k = await loadTokenizer("cl100k_base");
  o200k = await loadTokenizer("o200k_base");
}, 60_000);

const words = (n: number, seed = "word") => Array.from({ length: n }, (_, i) => `${seed}${i % 97}`).join(" ");

function conversation(turns: number, wordsPerMessage: number): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: "You are a careful assistant." }];
  for (let i = 0; i < turns; i++) {
    out.push({ role: "user", content: `question ${i}: ${words(wordsPerMessage, "q")}` });
    out.push({ role: "assistant", content: `answer ${i}: ${words(wordsPerMessage, "a")}` });
  }
  out.push({ role: "user", content: "What was my first question?" });
  return out;
}

describe("tokenizers and windows", () => {
  it("picks o200k for the GPT-4o, GPT-4.1, GPT-5 and o families, cl100k for the rest", () => {
    expect(["gpt-4o-mini", "openai/gpt-4.1", "gpt-5", "o3-mini", "o1"].map(encodingFor)).toEqual(Array(5).fill("o200k_base"));
    expect(["gpt-4", "gpt-3.5-turbo", "deepseek-chat", "qwen2.5:7b", "mock"].map(encodingFor)).toEqual(Array(5).fill("cl100k_base"));
    expect(cl100k.encode("hello world")).toEqual([15339, 1917]);
    expect(o200k.encode("hello world")).toEqual([24912, 2375]);
  });

  it("takes the window from the config, else the table (longest prefix), else 8192", () => {
    expect(contextWindow({ model: "gpt-4o-mini", maxContextTokens: 4000 })).toBe(4000);
    expect(contextWindow({ model: "gpt-4o-mini" })).toBe(128_000);
    expect(knownContextWindow("gpt-4-32k-0613")).toBe(32_768);
    expect(knownContextWindow("gpt-4-0613")).toBe(8_192);
    expect(knownContextWindow("Qwen/qwen2.5-7b-instruct")).toBe(32_768);
    expect(contextWindow({ model: "my-local-model" })).toBe(DEFAULT_CONTEXT_TOKENS);
  });

  it("the byte bound never says 'fits' for a request over its budget", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 200 }), { maxLength: 12 }), fc.integer({ min: 1, max: 600 }), (texts, budget) => {
        const messages: ChatMessage[] = texts.map((content, i) => ({ role: i % 2 ? "assistant" : "user", content }));
        if (countChatTokens(messages, undefined, cl100k) > budget) expect(mayExceed(messages, undefined, budget)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("fitMessages", () => {
  it("leaves a conversation that fits as it is", () => {
    const messages = conversation(3, 5);
    const fit = fitMessages(messages, undefined, 8000, cl100k);
    expect(fit).toMatchObject({ dropped: 0, shortened: 0, fits: true });
    expect(fit.messages).toEqual(messages);
    expect(fit.tokens).toBe(countChatTokens(messages, undefined, cl100k));
  });

  it("drops the oldest history first and keeps the system prompt, the newest history and the question", () => {
    const messages = conversation(50, 40);
    const budget = 1000;
    const fit = fitMessages(messages, undefined, budget, cl100k);
    expect(fit.fits).toBe(true);
    expect(fit.shortened).toBe(0);
    expect(fit.tokens).toBeLessThanOrEqual(budget);
    expect(fit.messages[0]).toEqual(messages[0]);
    expect(fit.messages.at(-1)).toEqual(messages.at(-1));
    // What is kept is the newest history, contiguous, up to the question.
    const kept = fit.messages.slice(1);
    expect(kept).toEqual(messages.slice(messages.length - kept.length));
    // And nothing more would have fitted.
    const oneMore = [messages[0], messages[messages.length - kept.length - 1], ...kept];
    expect(countChatTokens(oneMore, undefined, cl100k)).toBeGreaterThan(budget);
  });

  it("drops a tool call together with its results", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "sys" },
      { role: "user", content: `old ${words(300)}` },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }] },
      { role: "tool", tool_call_id: "c1", content: words(300, "r") },
      { role: "assistant", content: "old answer" },
      { role: "user", content: "new question" },
    ];
    const fit = fitMessages(messages, undefined, 400, cl100k);
    expect(fit.messages.map((m) => m.role)).toEqual(["system", "assistant", "user"]);
    expect(fit.messages.some((m) => m.role === "tool")).toBe(false);
  });

  it("shortens the longest text when the system prompt and the latest turn alone are too long", () => {
    const system = `Rules: ${words(3000, "rule")}`;
    const messages: ChatMessage[] = [
      { role: "system", content: system },
      { role: "user", content: "history" },
      { role: "assistant", content: "history answer" },
      { role: "user", content: "The question?" },
    ];
    const fit = fitMessages(messages, undefined, 1000, cl100k);
    expect(fit).toMatchObject({ fits: true, dropped: 2, shortened: 1 });
    expect(fit.tokens).toBeLessThanOrEqual(1000);
    expect(String(fit.messages[0].content).startsWith("Rules: rule0 rule1")).toBe(true);
    expect(system.startsWith(String(fit.messages[0].content))).toBe(true);
    expect(fit.messages[1]).toEqual({ role: "user", content: "The question?" });
  });

  it("cuts a long tool result of the current turn before the question", () => {
    const tools: FunctionTool[] = [{ type: "function", function: { name: "search", parameters: { type: "object", properties: { q: { type: "string" } } } } }];
    const messages: ChatMessage[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "find it" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: words(5000, "page") },
    ];
    const fit = fitMessages(messages, tools, 2000, o200k);
    expect(fit.fits).toBe(true);
    expect(countChatTokens(fit.messages, tools, o200k)).toBeLessThanOrEqual(2000);
    expect(fit.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(String(fit.messages[3].content).length).toBeLessThan(String(messages[3].content).length);
  });

  it("says when nothing can make it fit (the tools alone are bigger than the budget)", () => {
    const tools: FunctionTool[] = [{ type: "function", function: { name: "t", description: words(500), parameters: { type: "object" } } }];
    const fit = fitMessages([{ role: "user", content: "hi" }], tools, 100, cl100k);
    expect(fit.fits).toBe(false);
  });

  it("property: the result fits whenever the kept skeleton can, keeps the system prompt's start and the last message's role, and never reorders", () => {
    const message = fc.record({
      role: fc.constantFrom<"user" | "assistant">("user", "assistant"),
      content: fc.string({ unit: "grapheme", maxLength: 400 }),
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.array(message, { minLength: 1, maxLength: 40 }), fc.integer({ min: 40, max: 3000 }), (system, rest, budget) => {
        const input: ChatMessage[] = [{ role: "system", content: system }, ...rest];
        const fit = fitMessages(input, undefined, budget, cl100k);
        expect(fit.tokens).toBe(countChatTokens(fit.messages, undefined, cl100k));
        // Each message costs a few tokens of framing even when empty; beyond that, it fits.
        const skeleton = countChatTokens([{ role: "system", content: "" }, { role: input.at(-1)!.role, content: "" }], undefined, cl100k);
        if (budget >= skeleton) {
          expect(fit.fits).toBe(true);
          expect(fit.tokens).toBeLessThanOrEqual(budget);
        }
        expect(fit.messages[0].role).toBe("system");
        expect(system.startsWith(String(fit.messages[0].content).replace(/\uFFFD+$/, ""))).toBe(true);
        expect(fit.messages.at(-1)!.role).toBe(input.at(-1)!.role);
        // Kept messages appear in their original order (each one matched to a later original).
        let cursor = 0;
        for (const kept of fit.messages) {
          while (cursor < input.length && input[cursor].role !== kept.role) cursor++;
          expect(cursor).toBeLessThan(input.length);
          cursor++;
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("a 200-turn conversation with an 8k-token model", () => {
  const WINDOW = 8192;
  const history = Array.from({ length: 200 }, (_, i) => [
    ["user", `Turn ${i}: ${words(30, "ask")}`],
    ["assistant", `Reply ${i}: ${words(30, "say")}`],
  ]).flat();
  const SYSTEM = "You are the archivist. Never forget this sentence.";
  const QUESTION = "What did we agree on in the very last turn?";

  async function runWith(componentName: "LLM" | "Agent", extra: Record<string, unknown> = {}) {
    const mock = await startMockLlmServer({
      script: {
        rules: [
          // A streaming Agent with tools first has the question refined (full_question): it is complete as it is.
          { match: "understood without the conversation", on: "system", reply: QUESTION },
          { match: "very last turn", reply: "the last one" },
        ],
      },
    });
    try {
      const llm = createLlmProvider({ providers: { mock: { baseURL: mock.url } }, defaultModel: { provider: "mock", model: "archivist-8k", maxContextTokens: WINDOW } }, {});
      const dsl = canvasDsl({
        begin: node("Begin", {}, ["Bot:A"]),
        "Bot:A": node(componentName, { llm_id: "archivist@Mock", sys_prompt: SYSTEM, prompts: [{ role: "user", content: "{sys.query}" }], message_history_window_size: 400, ...extra }, ["Message:M"]),
        "Message:M": node("Message", { content: ["{Bot:A@content}"] }),
      });
      // A session 200 turns long: a first turn's snapshot, its history replaced by the 200 turns.
      const first = await loadCanvas(dsl, { services: { llm } });
      await first.runToEnd({ query: "hello" });
      const snapshot = { ...first.toJSON(), history };
      const canvas = await loadCanvas(snapshot, { services: { llm } });
      const before = mock.requests.length;
      const events = await canvas.runToEnd({ query: QUESTION });
      const requests = mock.requests
        .slice(before)
        .filter((r) => r.path === "/v1/chat/completions")
        .map((r) => r.body as { messages: ChatMessage[]; tools?: FunctionTool[] });
      return { events, requests };
    } finally {
      await mock.close();
    }
  }

  function expectFitted(request: { messages: ChatMessage[]; tools?: FunctionTool[] }) {
    const sent = countChatTokens(request.messages, request.tools, cl100k);
    expect(sent).toBeLessThanOrEqual(WINDOW);
    expect(request.messages[0]).toEqual({ role: "system", content: SYSTEM });
    expect(request.messages.at(-1)).toEqual({ role: "user", content: QUESTION });
    // Whole history would be far bigger, and the newest history is what is kept.
    expect(request.messages.length).toBeLessThan(402);
    expect(request.messages.at(-2)).toEqual({ role: "assistant", content: history.at(-1)![1] });
    return sent;
  }

  it(
    "an LLM node sends at most 8k tokens with the system prompt and the last question",
    async () => {
      const { events, requests } = await runWith("LLM");
      expect(finished(events).error).toBeUndefined();
      expect(messageTexts(events)).toEqual(["the last one"]);
      expect(requests).toHaveLength(1);
      const sent = expectFitted(requests[0]);
      expect(sent).toBeGreaterThan(WINDOW * 0.8);
    },
    60_000,
  );

  it(
    "an Agent with tools does too, the tools' schemas counted",
    async () => {
      const { events, requests } = await runWith("Agent", { tools: [{ component_name: "Wikipedia", name: "Wikipedia", params: {} }] });
      expect(finished(events).error).toBeUndefined();
      // The question refinement shows the conversation as the window allows, ending with the question.
      const refine = requests[0];
      expect(countChatTokens(refine.messages, undefined, cl100k)).toBeLessThanOrEqual(WINDOW);
      expect(refine.messages[0].content).toMatch(/understood without the conversation/);
      expect((refine.messages[0].content as string).endsWith(`USER: ${QUESTION}`)).toBe(true);
      expect(refine.messages[0].content).toContain(`ASSISTANT: ${history.at(-1)![1]}`);
      expect(requests[1].tools?.map((t) => t.function.name)).toEqual(["wikipedia_search_0"]);
      expectFitted(requests[1]);
    },
    60_000,
  );
});
