import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { THINK_END, THINK_START } from "../../src/components/text-stream.js";
import type { RunRequest } from "../../src/engine/run.js";
import type { MockLlmScript } from "../../src/llm/index.js";
import { canvasDsl, finished, messageText, node, trace } from "../helpers/dsl.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import { splitThinkTags, withoutThinking } from "../../src/components/llm/think-tags.js";
import { jsonText, readStructured, structuredAnswer, structuredSchema, checkStructuredSchema } from "../../src/components/llm/structured.js";
import { extractOverrides, fileContents, promptList, withFiles, withPrompts } from "../../src/components/llm/prompt.js";
import { retryOptions, samplingOptions } from "../../src/components/llm/model-call.js";
import type { ChatMessage } from "../../src/llm/types.js";

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of source) out.push(chunk);
  return out;
}

async function* chunks(parts: readonly string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

/** Adjacent text chunks merged: two cuttings of the same text compare equal. */
function normalize(parts: readonly string[]): string[] {
  const out: string[] = [];
  for (const part of parts) {
    const last = out.length - 1;
    if (part !== THINK_START && part !== THINK_END && last >= 0 && out[last] !== THINK_START && out[last] !== THINK_END) out[last] += part;
    else out.push(part);
  }
  return out;
}

describe("think tags in streamed text", () => {
  it("cuts markers out as chunks of their own, also when split across deltas", async () => {
    expect(await collect(splitThinkTags(chunks(["<thi", "nk>I should gre", "et.</th", "ink>Hello", " there"])))).toEqual([
      THINK_START,
      "I should gre",
      "et.",
      THINK_END,
      "Hello",
      " there",
    ]);
    expect(await collect(splitThinkTags(chunks(["a<think>b</think>c"])))).toEqual(["a", THINK_START, "b", THINK_END, "c"]);
  });

  it("holds back only what could still become a marker, and flushes it at the end", async () => {
    expect(await collect(splitThinkTags(chunks(["1 < 2 <", "/b> and <"])))).toEqual(["1 < 2 ", "</b> and ", "<"]);
  });

  it("for every cutting of a text, yields the text unchanged with the same markers (property)", async () => {
    const piece = fc.oneof(fc.constantFrom(THINK_START, THINK_END, "<", "</", "<th", "think>", ">"), fc.string({ maxLength: 6 }));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(40), { maxLength: 8 }), async (pieces, cuts) => {
        const text = pieces.join("");
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const parts: string[] = [];
        let at = 0;
        for (const p of points) {
          parts.push(text.slice(at, p));
          at = p;
        }
        parts.push(text.slice(at));
        const whole = await collect(splitThinkTags(chunks([text])));
        const cut = await collect(splitThinkTags(chunks(parts)));
        expect(cut.join("")).toBe(text);
        expect(normalize(cut)).toEqual(normalize(whole));
        expect(cut.filter((c) => c === THINK_START).length).toBe(text.split(THINK_START).length - 1);
        expect(cut.every((c) => c.length > 0)).toBe(true);
      }),
    );
  });

  it("withoutThinking drops everything up to the last </think>", () => {
    expect(withoutThinking("<think>a</think>b<think>c</think>answer")).toBe("answer");
    expect(withoutThinking("plain")).toBe("plain");
  });
});

describe("structured output helpers", () => {
  const schema = { type: "object", properties: { name: { type: "string" }, age: { type: "number" } }, required: ["name", "age"] };

  it("finds the schema in outputs.structured, or nested under schema/structured; {} asks for nothing", () => {
    expect(structuredSchema({ outputs: { structured: schema } })).toBe(schema);
    expect(structuredSchema({ outputs: { structured: { type: "object", schema } } })).toBe(schema);
    expect(structuredSchema({ outputs: { structured: {} } })).toBeUndefined();
    expect(structuredSchema({ outputs: { content: { type: "string" } } })).toBeUndefined();
  });

  it("strips reasoning and ```json fences before parsing", () => {
    expect(jsonText('<think>hmm</think>Sure:\n```json\n{"a": 1}\n```\n')).toBe('{"a": 1}');
    expect(jsonText('```\n[1]\n```')).toBe("[1]");
    expect(readStructured('Here you go: {"name": "Ann", "age": 3} hope it helps', schema)).toEqual({ value: { name: "Ann", age: 3 } });
  });

  it("reports invalid JSON and schema violations in words the model can act on", () => {
    expect(readStructured("not json", schema)).toEqual({ problem: expect.stringContaining("the answer is not valid JSON") });
    expect(readStructured('{"name": "Ann", "age": "three"}', schema)).toEqual({ problem: "the JSON does not match the schema: /age must be number" });
    expect(readStructured('{"name": "Ann"}', schema)).toEqual({ problem: "the JSON does not match the schema: the value must have required property 'age'" });
  });

  it("sends a bad answer back with its problem and gives up after the allowed attempts", async () => {
    const seen: ChatMessage[][] = [];
    const answers = ["nope", '{"name": "Ann", "age": 3}'];
    const ok = await structuredAnswer({ schema, attempts: 2, messages: [{ role: "user", content: "q" }], ask: async (m) => (seen.push(m), answers.shift()!) });
    expect(ok).toEqual({ value: { name: "Ann", age: 3 }, text: '{"name": "Ann", "age": 3}' });
    expect(seen[1].slice(1)).toEqual([
      { role: "assistant", content: "nope" },
      { role: "user", content: expect.stringMatching(/^Your answer cannot be used: the answer is not valid JSON .*Answer again with only the JSON value\.$/) },
    ]);
    await expect(structuredAnswer({ schema, attempts: 1, messages: [], ask: async () => "[]" })).rejects.toThrow(
      "structured output failed after 1 attempt: the JSON does not match the schema: the value must be object",
    );
  });

  it("a schema ajv cannot compile is a validation problem at /outputs/structured", () => {
    expect(checkStructuredSchema({ outputs: { structured: { type: "object", properties: { a: { type: "strin" } } } } })).toEqual([
      { pointer: "/outputs/structured", message: expect.stringContaining("outputs.structured is not a valid JSON schema") },
    ]);
    expect(checkStructuredSchema({ outputs: { structured: { $schema: "http://json-schema.org/draft-07/schema#", ...schema } } })).toEqual([]);
  });
});

describe("prompt assembly", () => {
  it("cuts RAGFlow's prompt-override blocks out of the system prompt", () => {
    expect(extractOverrides("Be kind.<CITATION_GUIDELINES>Cite as [n].</CITATION_GUIDELINES> <task_analysis>x</task_analysis>Bye")).toEqual({
      system: "Be kind. Bye",
      overrides: { task_analysis: "x", citation_guidelines: "Cite as [n]." },
    });
  });

  it("reads prompts as a list of {role, content} or one string", () => {
    expect(promptList("{sys.query}")).toEqual([{ role: "user", content: "{sys.query}" }]);
    expect(promptList([{ role: "assistant", content: "a" }, { content: "b" }, { role: "user" }, "x"])).toEqual([
      { role: "assistant", content: "a" },
      { role: "user", content: "b" },
    ]);
  });

  it("the first prompt replaces a trailing history message of the same role; later prompts are appended", () => {
    const history: ChatMessage[] = [
      { role: "user", content: "earlier question" },
      { role: "assistant", content: "earlier answer" },
    ];
    expect(withPrompts(history, [{ role: "user", content: "now" }])).toEqual([...history, { role: "user", content: "now" }]);
    expect(withPrompts(history, [{ role: "assistant", content: "primed" }, { role: "user", content: "now" }])).toEqual([
      history[0],
      { role: "assistant", content: "primed" },
      { role: "user", content: "now" },
    ]);
  });

  it("takes data-URI strings as images and other strings as text; images become parts of the last user message", () => {
    const files = fileContents(["notes: ok", "data:image/png;base64,AAA", { url: "data:image/jpeg;base64,BBB" }, { content: "second file" }, 7]);
    expect(files).toEqual({ texts: ["notes: ok", "second file"], images: ["data:image/png;base64,AAA", "data:image/jpeg;base64,BBB"] });
    expect(fileContents(["text", "data:image/png;base64,AAA"], true)).toEqual({ texts: [], images: ["data:image/png;base64,AAA"] });
    const messages = withFiles([{ role: "system", content: "s" }, { role: "user", content: "describe" }], files);
    expect(messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "describe\n\nnotes: ok\n\nsecond file" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
        { type: "image_url", image_url: { url: "data:image/jpeg;base64,BBB" } },
      ],
    });
  });
});

describe("gen_conf and retries", () => {
  it("sends a sampling value only when its editor flag is on (numeric strings accepted)", () => {
    expect(samplingOptions({ temperature: 0.2, top_p: 0.75, max_tokens: 4096, presence_penalty: 0.5, frequency_penalty: 0.5 })).toEqual({});
    expect(
      samplingOptions({
        temperature: "0.1",
        temperatureEnabled: true,
        top_p: 0,
        topPEnabled: true,
        max_tokens: 512,
        maxTokensEnabled: true,
        presence_penalty: 0.4,
        presencePenaltyEnabled: true,
        frequency_penalty: "x",
        frequencyPenaltyEnabled: true,
      }),
    ).toEqual({ temperature: 0.1, max_tokens: 512, presence_penalty: 0.4 });
    expect(samplingOptions({ temperature: 0, temperatureEnabled: true })).toEqual({ temperature: 0 });
  });

  it("retries max_retries times, delay_after_error seconds apart (2 s by default)", () => {
    expect(retryOptions({ max_retries: 3, delay_after_error: 1 })).toEqual({ maxRetries: 3, delayMs: 1000 });
    expect(retryOptions({ max_retries: "2", delay_after_error: 0.5 })).toEqual({ maxRetries: 2, delayMs: 500 });
    expect(retryOptions({})).toEqual({ maxRetries: 0, delayMs: 2000 });
  });
});

// ---- end to end through the mock OpenAI-compatible server ----

describe("LLM end to end", () => {
  let mock: MockLlm | undefined;

  async function runLlm(script: MockLlmScript | undefined, dsl: object, request: RunRequest) {
    mock = await startMockLlm(script);
    const canvas = await loadCanvas(dsl, { services: { llm: mock.provider } });
    return canvas.runToEnd(request);
  }

  const llm = (params: Record<string, unknown>, downstream: string[]) =>
    node("LLM", { llm_id: "deepseek-chat@DeepSeek", sys_prompt: "Be brief.", prompts: [{ role: "user", content: "{sys.query}" }], ...params }, downstream);

  it("streams into a downstream Message; the LLM's node_finished follows message_end (RAGFlow's order)", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A"]),
      "LLM:A": llm({}, ["Message:M"]),
      "Message:M": node("Message", { content: ["Answer: {LLM:A@content}"] }),
    });
    const events = await runLlm({ rules: [{ match: "^hello$", reply: "Hi there friend" }] }, dsl, { query: "hello" });
    expect(trace(events)).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:LLM:A",
      "node_started:Message:M",
      "message:Answer: ",
      "message:Hi ",
      "message:there ",
      "message:friend",
      "message_end",
      "node_finished:LLM:A",
      "node_finished:Message:M",
      "workflow_finished",
    ]);
    const [request] = mock!.chatRequests();
    expect(request).toMatchObject({ model: "mock", stream: true, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "hello" }] });
    expect(request.temperature).toBeUndefined();
    const llmDone = events.find((e) => e.event === "node_finished" && e.data.component_id === "LLM:A");
    expect(llmDone?.event === "node_finished" && llmDone.data.outputs).toEqual({ content: "Hi there friend" });
    // Mock tokens are words: 3 read ("Be brief." "hello"), 3 written.
    expect(finished(events).usage).toEqual({ prompt_tokens: 3, completion_tokens: 3, total_tokens: 6, calls: 1 });
  });

  it("turns <think>…</think> into start_to_think / end_to_think message events", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A"]),
      "LLM:A": llm({}, ["Message:M"]),
      "Message:M": node("Message", { content: ["{LLM:A@content}"] }),
    });
    const events = await runLlm({ rules: [{ match: "why", think: "Let me think.", reply: "Because." }] }, dsl, { query: "why?" });
    expect(events.filter((e) => e.event === "message").map((e) => e.data)).toEqual([
      { content: "", start_to_think: true },
      { content: "Let " },
      { content: "me " },
      { content: "think." },
      { content: "", end_to_think: true },
      { content: "Because." },
    ]);
    // Outputs keep the markers, as RAGFlow's do.
    expect(finished(events).outputs).toMatchObject({ content: "<think>Let me think.</think>Because." });
  });

  it("answers blocking when no message sink is downstream; sends sampling params whose flags are on", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A"]),
      "LLM:A": llm({ temperature: "0.3", temperatureEnabled: true, top_p: 0.9, topPEnabled: false, max_tokens: 256, maxTokensEnabled: true }, ["StringTransform:S"]),
      "StringTransform:S": node("StringTransform", { method: "merge", script: "<<{LLM:A@content}>>" }, ["Message:M"]),
      "Message:M": node("Message", { content: ["{StringTransform:S@result}"] }),
    });
    const events = await runLlm({ rules: [{ match: ".", reply: "plain answer" }] }, dsl, { query: "q" });
    expect(trace(events).slice(3, 6)).toEqual(["node_started:LLM:A", "node_finished:LLM:A", "node_started:StringTransform:S"]);
    expect(messageText(events)).toBe("<<plain answer>>");
    expect(mock!.chatRequests()[0]).toMatchObject({ stream: false, temperature: 0.3, max_tokens: 256 });
    expect(mock!.chatRequests()[0].top_p).toBeUndefined();
  });

  it("keeps the history window: past turns come before the prompt, this turn's query is not repeated", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A"]),
      "LLM:A": llm({ message_history_window_size: 2 }, ["Message:M"]),
      "Message:M": node("Message", { content: ["{LLM:A@content}"] }),
    });
    mock = await startMockLlm();
    const canvas = await loadCanvas(dsl, { services: { llm: mock.provider } });
    await canvas.runToEnd({ query: "first question" });
    await canvas.runToEnd({ query: "second question" });
    expect(mock.chatRequests()[1].messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "first question" },
      { role: "assistant", content: "[mock reply] You said: first question" },
      { role: "user", content: "second question" },
    ]);
  });

  it("adds sys.files: text to the last user message, data-URI images as image parts", async () => {
    const dsl = canvasDsl({ begin: node("Begin", {}, ["LLM:A"]), "LLM:A": llm({}, []) });
    await runLlm(undefined, dsl, { query: "describe", files: ["notes.txt says hi", "data:image/png;base64,iVBORw0KGgo="] });
    expect(mock!.chatRequests()[0].messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "describe\n\nnotes.txt says hi" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    });
  });

  describe("structured output", () => {
    const schema = { type: "object", properties: { city: { type: "string" }, population: { type: "number" } }, required: ["city", "population"] };
    const structuredCanvas = (params: Record<string, unknown>) =>
      canvasDsl({
        begin: node("Begin", {}, ["LLM:A"]),
        "LLM:A": llm({ outputs: { content: { type: "string" }, structured: schema }, ...params }, ["Message:M"]),
        "Message:M": node("Message", { content: ["{LLM:A@structured.city}: {LLM:A@structured.population}"] }),
      });

    it("asks for JSON, validates it against the schema and retries with what was wrong", async () => {
      const script: MockLlmScript = {
        rules: [
          { match: "not valid JSON", think: "Oops.", reply: 'Here:\n```json\n{"city": "Paris", "population": 2100000}\n```' },
          { match: "largest", reply: "Paris, about two million" },
        ],
      };
      const events = await runLlm(script, structuredCanvas({ max_retries: 2 }), { query: "largest city of France?" });
      expect(finished(events).error).toBeUndefined();
      expect(messageText(events)).toBe("Paris: 2100000");
      const requests = mock!.chatRequests();
      expect(requests.map((r) => r.stream)).toEqual([false, false]);
      expect(requests[0].messages[0].content).toContain("Be brief.\n\nAnswer with one JSON value only");
      expect(requests[1].messages.slice(-2)).toEqual([
        { role: "assistant", content: "Paris, about two million" },
        { role: "user", content: expect.stringMatching(/^Your answer cannot be used: the answer is not valid JSON \(.+\)\. Answer again with only the JSON value\.$/) },
      ]);
      const done = events.find((e) => e.event === "node_finished" && e.data.component_id === "LLM:A");
      expect(done?.event === "node_finished" && done.data.outputs).toEqual({
        content: '{"city": "Paris", "population": 2100000}',
        structured: { city: "Paris", population: 2100000 },
      });
      expect(finished(events).usage.calls).toBe(2);
    });

    it("fails after max_retries + 1 answers that do not match the schema", async () => {
      const events = await runLlm({ rules: [{ match: ".", reply: '{"city": 7}' }] }, structuredCanvas({ max_retries: 1 }), { query: "q" });
      expect(finished(events).error).toBe(
        "LLM:A (LLM:A): structured output failed after 2 attempts: the JSON does not match the schema: the value must have required property 'population'; /city must be string",
      );
      expect(mock!.chatRequests()).toHaveLength(2);
    });
  });

  describe("failures", () => {
    const streamingCanvas = (params: Record<string, unknown>) =>
      canvasDsl({
        begin: node("Begin", {}, ["LLM:A"]),
        "LLM:A": llm(params, ["Message:M"]),
        "Message:M": node("Message", { content: ["{LLM:A@content}"] }),
        "Message:Fallback": node("Message", { content: ["fallback"] }),
      });

    it("retries 429 and 5xx answers max_retries times", async () => {
      const script: MockLlmScript = { rules: [{ match: ".", status: 503, times: 1 }, { match: ".", reply: "ok" }] };
      const events = await runLlm(script, streamingCanvas({ max_retries: 1, delay_after_error: 0.01 }), { query: "q" });
      expect(messageText(events)).toBe("ok");
      expect(mock!.chatRequests()).toHaveLength(2);
    });

    it("exception_method comment streams the default value when the streamed answer fails", async () => {
      const events = await runLlm({ rules: [{ match: ".", status: 500, message: "boom" }] }, streamingCanvas({ exception_method: "comment", exception_default_value: "Sorry, no answer." }), { query: "q" });
      expect(finished(events).error).toBeUndefined();
      expect(messageText(events)).toBe("Sorry, no answer.");
    });

    it("without a handler, a failed stream fails the Message that shows it", async () => {
      const events = await runLlm({ rules: [{ match: ".", status: 500, message: "boom" }] }, streamingCanvas({}), { query: "q" });
      expect(finished(events).error).toMatch(/^Message:M \(Message:M\): model "mock" \(llm_id "deepseek-chat@DeepSeek"\) at .* answered HTTP 500: boom$/);
    });

    it("with exception_goto it answers blocking, so the failure takes the goto branch", async () => {
      const events = await runLlm({ rules: [{ match: ".", status: 500, message: "boom" }] }, streamingCanvas({ exception_method: "goto", exception_goto: ["Message:Fallback"] }), { query: "q" });
      expect(trace(events).filter((t) => t.startsWith("node_finished") || t.startsWith("message"))).toEqual([
        "node_finished:begin",
        expect.stringMatching(/^node_finished:LLM:A!model "mock" .* answered HTTP 500: boom$/),
        "message:fallback",
        "message_end",
        "node_finished:Message:Fallback",
      ]);
      expect(mock!.chatRequests()[0].stream).toBe(false);
    });

    it("without an LLM provider fails naming the component (Browser's run without Chromium: test/components/browser.test.ts)", async () => {
      const dsl = canvasDsl({ begin: node("Begin", {}, ["LLM:A"]), "LLM:A": llm({}, []) });
      const events = await (await loadCanvas(dsl)).runToEnd({ query: "q" });
      expect(finished(events).error).toBe("LLM:A (LLM:A): component LLM:A (LLM) needs an LLM provider");
      const browser = canvasDsl({ begin: node("Begin", {}, ["Browser:B"]), "Browser:B": node("Browser", { llm_id: "m@F" }) });
      const browserEvents = await (await loadCanvas(browser)).runToEnd({ query: "q" });
      expect(finished(browserEvents).error).toBe("Browser:B (Browser:B): component Browser:B (Browser) needs an LLM provider");
    });
  });

  it("sums the usage of every model call into workflow_finished", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["LLM:A"]),
      "LLM:A": llm({}, ["LLM:B"]),
      "LLM:B": llm({ prompts: [{ role: "user", content: "Shorten: {LLM:A@content}" }] }, ["Message:M"]),
      "Message:M": node("Message", { content: ["{LLM:B@content}"] }),
    });
    const script: MockLlmScript = { rules: [{ match: "^Shorten", reply: "short" }, { match: ".", reply: "a long answer" }] };
    const events = await runLlm(script, dsl, { query: "tell me" });
    expect(messageText(events)).toBe("short");
    // A: reads "Be brief." + "tell me" (4), writes 3; B: reads "Be brief." + "Shorten: a long answer" (6), writes 1.
    expect(finished(events).usage).toEqual({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14, calls: 2 });
  });
});
