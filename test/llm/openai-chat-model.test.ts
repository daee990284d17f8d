/**
 * The ChatModel on the real `openai` client, against the mock server over loopback: text and
 * tool calls, streamed and not, usage, think tags, retries, aborts and timeouts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLlmProvider, LlmRequestError, startMockLlmServer, type ChatDelta, type ChatModel, type ChatRequest, type FunctionTool, type MockLlmScript, type MockLlmServer } from "../../src/llm/index.js";
import { closedPort, sendJson, startLoopbackServer, type LoopbackServer } from "../helpers/http.js";

const who = { id: "Agent:Test", type: "Agent" };

async function mockModel(script?: MockLlmScript, llmId = "gpt-test@OpenAI"): Promise<{ server: MockLlmServer; model: ChatModel }> {
  const server = await startMockLlmServer(script ? { script } : {});
  const provider = createLlmProvider({ providers: { mock: { baseURL: server.url } }, defaultModel: { provider: "mock" } }, {});
  return { server, model: provider.chatModel(llmId, who) };
}

async function collect(stream: AsyncIterable<ChatDelta>): Promise<{ texts: string[]; done: Extract<ChatDelta, { type: "done" }>["result"] }> {
  const texts: string[] = [];
  let done: Extract<ChatDelta, { type: "done" }>["result"] | undefined;
  for await (const delta of stream) {
    if (delta.type === "text") texts.push(delta.text);
    else done = delta.result;
  }
  if (!done) throw new Error("the stream ended without a done delta");
  return { texts, done };
}

async function failure(promise: Promise<unknown>): Promise<LlmRequestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LlmRequestError);
    return error as LlmRequestError;
  }
  throw new Error("expected the request to fail");
}

/** Waits until the mock has received `n` requests (no wall-clock assertion: it polls). */
async function receivedRequests(server: MockLlmServer, n: number): Promise<void> {
  while (server.requests.length < n) await new Promise((r) => setTimeout(r, 5));
}

const user = (content: string): ChatRequest["messages"][number] => ({ role: "user", content });

const searchTool: FunctionTool = {
  type: "function",
  function: {
    name: "web_search",
    description: "Search the web",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string" },
        top_n: { type: "integer" },
        safe: { type: "boolean" },
        sites: { type: "array", items: { type: "string" } },
        engine: { type: "string", enum: ["ddg", "google"] },
        note: { type: "string" },
      },
      required: ["query", "top_n", "safe", "sites", "engine"],
    },
  },
};
const otherTool: FunctionTool = { type: "function", function: { name: "calculator", parameters: { type: "object", properties: { expr: { type: "string" } }, required: ["expr"] } } };

describe("OpenAIChatModel against the mock, without a script", () => {
  let server: MockLlmServer;
  let model: ChatModel;
  beforeAll(async () => ({ server, model } = await mockModel()));
  afterAll(() => server.close());

  it("answers a non-streamed request with a mock echo and word-count usage", async () => {
    const result = await model.complete({ messages: [{ role: "system", content: "Be brief." }, user("What is the capital of France?")] });
    expect(result).toEqual({
      content: "[mock reply] You said: What is the capital of France?",
      toolCalls: [],
      usage: { prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 },
      usageReported: true,
      finishReason: "stop",
    });
    expect(model.model).toBe("gpt-test");
    expect(model.llmId).toBe("gpt-test@OpenAI");
    const body = server.requests.at(-1)!.body as Record<string, unknown>;
    expect(body.model).toBe("gpt-test");
    expect(body.stream).toBe(false);
  });

  it("streams text in several deltas that join to the result, and asks for usage", async () => {
    const { texts, done } = await collect(model.stream({ messages: [user("one two three four")], temperature: 0.2, max_tokens: 50 }));
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.join("")).toBe("[mock reply] You said: one two three four");
    expect(done.content).toBe(texts.join(""));
    expect(done.usage).toEqual({ prompt_tokens: 4, completion_tokens: 8, total_tokens: 12 });
    expect(done.usageReported).toBe(true);
    const body = server.requests.at(-1)!.body as Record<string, unknown>;
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, temperature: 0.2, max_tokens: 50 });
    expect(body).not.toHaveProperty("top_p");
  });

  it("calls the first offered tool with arguments made from its schema, streamed and assembled", async () => {
    const { texts, done } = await collect(model.stream({ messages: [user("weather in Paris")], tools: [searchTool, otherTool] }));
    expect(texts).toEqual([]);
    expect(done.finishReason).toBe("tool_calls");
    expect(done.toolCalls).toHaveLength(1);
    expect(done.toolCalls[0].function.name).toBe("web_search");
    expect(done.toolCalls[0].id).toMatch(/^call_mock_/);
    expect(JSON.parse(done.toolCalls[0].function.arguments)).toEqual({ query: "weather in Paris", top_n: 1, safe: false, sites: [], engine: "ddg" });
  });

  it("answers after the tool result, naming the tool and what it returned", async () => {
    const first = await model.complete({ messages: [user("weather in Paris")], tools: [searchTool] });
    const call = first.toolCalls[0];
    expect(first.content).toBe("");
    const second = await model.complete({
      messages: [user("weather in Paris"), { role: "assistant", content: null, tool_calls: [call] }, { role: "tool", tool_call_id: call.id, content: "sunny, 21 °C" }],
      tools: [searchTool],
    });
    expect(second.toolCalls).toEqual([]);
    expect(second.content).toBe("[mock reply] You said: weather in Paris | tool web_search returned: sunny, 21 °C");
  });

  it("does not call tools when tool_choice would be none or no tools are offered", async () => {
    const result = await model.complete({ messages: [user("hi")], tools: [] });
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toBe("[mock reply] You said: hi");
  });

  it("answers response_format json_schema with an object of the schema", async () => {
    const result = await model.complete({
      messages: [user("rate it")],
      response_format: { type: "json_schema", json_schema: { name: "r", schema: { type: "object", properties: { score: { type: "number" }, label: { type: "string" } }, required: ["score"] } } },
    });
    expect(JSON.parse(result.content)).toEqual({ score: 1, label: "[mock reply] You said: rate it" });
  });

  it("says clearly when a tool message has no tool_call_id", async () => {
    await expect(model.complete({ messages: [user("x"), { role: "tool", content: "r" }] })).rejects.toThrow('chat message 1 has role "tool" but no tool_call_id');
  });
});

describe("OpenAIChatModel against the mock, with a script", () => {
  const script: MockLlmScript = {
    rules: [
      { match: "^think please", think: "Let me consider this.", reply: "The answer is 42." },
      { match: "legal advisor", on: "system", reply: "I am the legal advisor." },
      { match: "flaky", status: 503, message: "overloaded, try later", times: 2 },
      { match: "limited", status: 429, message: "slow down", times: 1 },
      { match: "broken", status: 400, message: "bad request: temperature out of range" },
      { match: "always down", status: 502 },
      { match: "slow", delay_ms: 60_000, reply: "too late" },
      { match: "quiet", reply: "no usage here", usage: false },
      { match: "paris", tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }, { name: "web_search", arguments: '{"query":"Paris"}' }] },
      { match: "^2$", on: "tool", tool_calls: [{ name: "web_search", arguments: { query: "two" } }] },
      { match: "paris", reply: "Paris it is." },
      { match: "once", reply: "first time", times: 1 },
      { match: "once", reply: "every other time" },
    ],
  };
  let server: MockLlmServer;
  let model: ChatModel;
  beforeAll(async () => ({ server, model } = await mockModel(script)));
  afterAll(() => server.close());

  it("streams think text as <think>…</think> before the reply", async () => {
    const { texts, done } = await collect(model.stream({ messages: [user("think please")] }));
    expect(texts[0]).toBe("<think>");
    expect(texts).toContain("</think>");
    expect(texts.join("")).toBe("<think>Let me consider this.</think>The answer is 42.");
    expect(done.content).toBe("<think>Let me consider this.</think>The answer is 42.");
    expect(done.usage.completion_tokens).toBe(8);
    const plain = await model.complete({ messages: [user("think please")] });
    expect(plain.content).toBe("<think>Let me consider this.</think>The answer is 42.");
  });

  it("matches rules on the system prompt", async () => {
    const result = await model.complete({ messages: [{ role: "system", content: "You are a Legal Advisor." }, user("hello")] });
    expect(result.content).toBe("I am the legal advisor.");
  });

  it("makes the scripted tool calls, then the next rule answers once a tool result is in", async () => {
    const { done } = await collect(model.stream({ messages: [user("Paris trip")], tools: [searchTool, otherTool] }));
    expect(done.toolCalls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ["calculator", { expr: "1+1" }],
      ["web_search", { query: "Paris" }],
    ]);
    const [calc, search] = done.toolCalls;
    const afterCalc = await model.complete({
      messages: [user("Paris trip"), { role: "assistant", content: null, tool_calls: [calc] }, { role: "tool", tool_call_id: calc.id, content: "2" }],
      tools: [searchTool],
    });
    // The `on: "tool"` rule sees the result "2" and calls again.
    expect(afterCalc.toolCalls.map((c) => c.function.arguments)).toEqual(['{"query":"two"}']);
    const final = await model.complete({
      messages: [user("Paris trip"), { role: "assistant", content: null, tool_calls: [search] }, { role: "tool", tool_call_id: search.id, content: "Paris, France" }],
      tools: [searchTool],
    });
    expect(final.toolCalls).toEqual([]);
    expect(final.content).toBe("Paris it is.");
  });

  it("passes a rule over after `times` answers", async () => {
    expect((await model.complete({ messages: [user("once")] })).content).toBe("first time");
    expect((await model.complete({ messages: [user("once")] })).content).toBe("every other time");
    expect((await model.complete({ messages: [user("once")] })).content).toBe("every other time");
  });

  it("falls back to the echo when no rule matches", async () => {
    expect((await model.complete({ messages: [user("nothing matches")] })).content).toBe("[mock reply] You said: nothing matches");
  });

  it("retries 503 answers with backoff and then succeeds", async () => {
    const before = server.requests.length;
    const result = await model.complete({ messages: [user("flaky")], retry: { maxRetries: 2, delayMs: 1 } });
    expect(result.content).toBe("[mock reply] You said: flaky");
    expect(server.requests.length - before).toBe(3);
  });

  it("retries a 429 of a streamed request before any text was sent", async () => {
    const before = server.requests.length;
    const { done } = await collect(model.stream({ messages: [user("limited")], retry: { maxRetries: 1, delayMs: 1 } }));
    expect(done.content).toBe("[mock reply] You said: limited");
    expect(server.requests.length - before).toBe(2);
  });

  it("gives up after maxRetries with the model, the status and the server's message", async () => {
    const before = server.requests.length;
    const error = await failure(model.complete({ messages: [user("always down")], retry: { maxRetries: 2, delayMs: 1 } }));
    expect(server.requests.length - before).toBe(3);
    expect(error.kind).toBe("http");
    expect(error.status).toBe(502);
    expect(error.attempts).toBe(3);
    expect(error.message).toBe(`model "gpt-test" (llm_id "gpt-test@OpenAI") at ${server.url} answered HTTP 502: mock error 502 (script rule 6) (after 3 attempts)`);
  });

  it("does not retry a 400", async () => {
    const before = server.requests.length;
    const error = await failure(model.complete({ messages: [user("broken")], retry: { maxRetries: 3, delayMs: 1 } }));
    expect(server.requests.length - before).toBe(1);
    expect(error.status).toBe(400);
    expect(error.serverMessage).toBe("bad request: temperature out of range");
    expect(error.message).toContain('model "gpt-test"');
    expect(error.message).toContain("answered HTTP 400: bad request: temperature out of range");
  });

  it("does not retry without a retry policy", async () => {
    const fresh = await mockModel({ rules: [{ match: "x", status: 500, times: 1 }] });
    try {
      const error = await failure(fresh.model.complete({ messages: [user("x")] }));
      expect(error.status).toBe(500);
      expect(fresh.server.requests).toHaveLength(1);
    } finally {
      await fresh.server.close();
    }
  });

  it("reports zeros and usageReported false when the server sends no usage", async () => {
    const plain = await model.complete({ messages: [user("quiet")] });
    expect(plain.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(plain.usageReported).toBe(false);
    const { done } = await collect(model.stream({ messages: [user("quiet")] }));
    expect(done.content).toBe("no usage here");
    expect(done.usageReported).toBe(false);
    expect(done.usage.total_tokens).toBe(0);
  });

  it("stops at the caller's abort, with kind aborted", async () => {
    const controller = new AbortController();
    const before = server.requests.length;
    const pending = failure(model.complete({ messages: [user("slow")], signal: controller.signal }));
    await receivedRequests(server, before + 1);
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe("aborted");
    expect(error.message).toBe(`the request to model "gpt-test" (llm_id "gpt-test@OpenAI") at ${server.url} was aborted`);
  });

  it("does not send a request when the signal is already aborted", async () => {
    const before = server.requests.length;
    const error = await failure(model.complete({ messages: [user("hi")], signal: AbortSignal.abort() }));
    expect(error.kind).toBe("aborted");
    expect(server.requests.length).toBe(before);
  });

  it("aborts a stream after its first text", async () => {
    const slow = await mockModel({ rules: [{ match: ".", reply: "a b c d e f g h", chunk_delay_ms: 200 }] });
    try {
      const controller = new AbortController();
      const texts: string[] = [];
      const error = await failure(
        (async () => {
          for await (const delta of slow.model.stream({ messages: [user("go")], signal: controller.signal })) {
            if (delta.type === "text" && delta.text) {
              texts.push(delta.text);
              controller.abort();
            }
          }
        })(),
      );
      expect(error.kind).toBe("aborted");
      expect(texts).toEqual(["a "]);
    } finally {
      await slow.server.close();
    }
  });

  it("times out a stream that stalls after it started, instead of returning the partial answer", async () => {
    const slow = await mockModel({ rules: [{ match: ".", reply: "a b c d e f g h", chunk_delay_ms: 10_000 }] });
    try {
      const texts: string[] = [];
      const error = await failure(
        (async () => {
          for await (const delta of slow.model.stream({ messages: [user("go")], timeoutMs: 100, retry: { maxRetries: 2, delayMs: 1 } })) {
            if (delta.type === "text") texts.push(delta.text);
            else throw new Error("a stalled stream must not finish");
          }
        })(),
      );
      expect(error.kind).toBe("timeout");
      expect(error.message).toContain("did not answer within 100 ms");
      expect(slow.server.requests).toHaveLength(1);
    } finally {
      await slow.server.close();
    }
  });

  it("times out a request that takes longer than timeoutMs, streamed or not", async () => {
    const error = await failure(model.complete({ messages: [user("slow")], timeoutMs: 50, retry: { maxRetries: 2, delayMs: 1 } }));
    expect(error.kind).toBe("timeout");
    expect(error.attempts).toBe(1);
    expect(error.message).toBe(`model "gpt-test" (llm_id "gpt-test@OpenAI") at ${server.url} did not answer within 50 ms`);
    const streamed = await failure(collect(model.stream({ messages: [user("slow")], timeoutMs: 50 })));
    expect(streamed.kind).toBe("timeout");
  });
});

describe("OpenAIChatModel against other servers", () => {
  it("names the unreachable server", async () => {
    const port = await closedPort();
    const provider = createLlmProvider({ providers: { gone: { baseURL: `http://127.0.0.1:${port}/v1` } }, defaultModel: { provider: "gone", model: "m" } }, {});
    const error = await failure(provider.chatModel("x", who).complete({ messages: [user("hi")], retry: { maxRetries: 3, delayMs: 1 } }));
    expect(error.kind).toBe("connection");
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(new RegExp(`^model "m" \\(llm_id "x"\\) at http://127\\.0\\.0\\.1:${port}/v1 could not be reached: `));
  });

  describe("a server that sends reasoning apart from the answer", () => {
    let server: LoopbackServer;
    let url: string;
    beforeAll(async () => {
      // DeepSeek/vLLM style `reasoning_content`, Ollama style `reasoning`; no usage, no tool-call index.
      server = await startLoopbackServer((recorded, res) => {
        const request = JSON.parse(recorded.body) as { stream?: boolean };
        const base = { id: "x", object: "chat.completion.chunk", created: 0, model: "r1" };
        if (!request.stream) {
          sendJson(res, 200, { ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "Yes.", reasoning_content: "Hmm." }, finish_reason: "stop" }] });
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        const deltas = [
          { role: "assistant", reasoning_content: "First, " },
          { reasoning: "second." },
          { content: "Done" },
          { content: "." },
          { tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":' } }] },
          { tool_calls: [{ function: { arguments: "1}" } }] },
        ];
        for (const delta of deltas) res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] })}\n\n`);
        res.end("data: [DONE]\n\n");
      });
      url = `${server.base}/v1`;
    });
    afterAll(() => server.close());

    it("turns streamed reasoning into <think>…</think> text and assembles index-less tool calls", async () => {
      const model = createLlmProvider({ providers: { r: { baseURL: url } }, defaultModel: { provider: "r" } }, {}).chatModel("r1@DeepSeek", who);
      const { texts, done } = await collect(model.stream({ messages: [user("?")] }));
      expect(texts.join("")).toBe("<think>First, second.</think>Done.");
      expect(done.content).toBe("<think>First, second.</think>Done.");
      expect(done.toolCalls).toEqual([{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }]);
      expect(done.usageReported).toBe(false);
      expect(done.finishReason).toBe("tool_calls");
    });

    it("puts non-streamed reasoning before the answer", async () => {
      const model = createLlmProvider({ providers: { r: { baseURL: url } }, defaultModel: { provider: "r" } }, {}).chatModel("r1", who);
      const result = await model.complete({ messages: [user("?")] });
      expect(result.content).toBe("<think>Hmm.</think>Yes.");
      expect(result.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    });
  });
});
