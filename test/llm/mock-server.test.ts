/**
 * The mock server's HTTP surface (models, embeddings, errors), its script files, and the pure
 * pieces behind the chat answers: schema-made arguments, word counts, tool-call assembly, backoff.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMockLlmScript, MockScriptError, parseMockLlmScript, startMockLlmServer, type MockLlmServer } from "../../src/llm/index.js";
import { argumentsFromSchema, countWords, MockResponder } from "../../src/llm/mock-replies.js";
import { conceptVector, cosine, ngramEmbedding } from "../../src/llm/mock-vectors.js";
import { backoffDelay, isRetryableStatus, MAX_BACKOFF_MS } from "../../src/llm/retry.js";
import { ToolCallAssembler } from "../../src/llm/tool-call-assembler.js";

const dir = mkdtempSync(join(tmpdir(), "canvasflow-mock-"));

describe("the mock server over HTTP", () => {
  let server: MockLlmServer;
  let client: OpenAI;
  beforeAll(async () => {
    server = await startMockLlmServer();
    client = new OpenAI({ baseURL: server.url, apiKey: "mock", maxRetries: 0 });
  });
  afterAll(() => server.close());

  it("listens on loopback with a /v1 base URL", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
  });

  it("lists its model", async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["canvasflow-mock"]);
  });

  it("returns deterministic unit embeddings, as floats or base64 (the client's default)", async () => {
    const viaClient = await client.embeddings.create({ model: "emb", input: ["hello world", "other"] });
    expect(viaClient.data).toHaveLength(2);
    expect(viaClient.data[0].embedding).toHaveLength(256);
    expect(viaClient.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    const again = await client.embeddings.create({ model: "emb", input: "hello world", encoding_format: "float", dimensions: 8 });
    expect(again.data[0].embedding).toEqual(ngramEmbedding("hello world", 8));
    for (const [i, expected] of viaClient.data[0].embedding.entries()) expect(expected).toBeCloseTo(ngramEmbedding("hello world", 256)[i], 6);
    expect(Math.hypot(...ngramEmbedding("x", 100))).toBeCloseTo(1, 10);
    expect(ngramEmbedding("a", 16)).not.toEqual(ngramEmbedding("b", 16));
  });

  it("makes texts that share words or word parts closer than texts that share nothing", () => {
    const d = 384;
    const reset = ngramEmbedding("how to reset a password", d);
    expect(cosine(reset, ngramEmbedding("password reset steps", d))).toBeGreaterThan(0.5);
    expect(cosine(ngramEmbedding("passwords", d), ngramEmbedding("password", d))).toBeGreaterThan(0.6);
    expect(Math.abs(cosine(reset, ngramEmbedding("zeppelin timetable", d)))).toBeLessThan(0.25);
    // Case and accents do not matter; a text without letters or digits still gets a unit vector.
    expect(ngramEmbedding("Café", d)).toEqual(ngramEmbedding("cafe", d));
    expect(Math.hypot(...ngramEmbedding("?!", d))).toBeCloseTo(1, 10);
  });

  it("reranks documents by n-gram cosine, best first, cut to top_n, on /v1/rerank", async () => {
    const response = await fetch(`${server.url}/rerank`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "rr", query: "reset password", documents: ["zeppelin timetable", "how to reset your password", { text: "password rules" }], top_n: 2, return_documents: true }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { model: string; results: Array<{ index: number; relevance_score: number; document?: { text: string } }>; usage: { total_tokens: number } };
    expect(body.model).toBe("rr");
    expect(body.results.map((r) => r.index)).toEqual([1, 2]);
    expect(body.results[0].relevance_score).toBeGreaterThan(body.results[1].relevance_score);
    expect(body.results[0].document).toEqual({ text: "how to reset your password" });
    for (const r of body.results) expect(r.relevance_score).toBeGreaterThanOrEqual(0);
    expect(body.usage.total_tokens).toBeGreaterThan(0);
    const bad = await fetch(`${server.url}/rerank`, { method: "POST", body: JSON.stringify({ query: "q", documents: "x" }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe("'documents' must be an array of strings");
  });

  it("answers unknown paths, wrong methods and broken bodies with OpenAI-style errors", async () => {
    const notFound = await fetch(`${server.url}/completions`, { method: "POST", body: "{}" });
    expect(notFound.status).toBe(404);
    expect(((await notFound.json()) as { error: { message: string } }).error.message).toContain("the mock LLM serves /v1/chat/completions");
    expect((await fetch(`${server.url}/chat/completions`)).status).toBe(405);
    const broken = await fetch(`${server.url}/chat/completions`, { method: "POST", body: "{not json" });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { message: string } }).error.message).toMatch(/^request body is not valid JSON/);
    await expect(client.chat.completions.create({ model: "m", messages: [] })).rejects.toThrow("400 'messages' must be a non-empty array");
  });

  it("records the requests it received", async () => {
    await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], temperature: 0.5 });
    expect(server.requests.at(-1)).toMatchObject({ method: "POST", path: "/v1/chat/completions", body: { model: "m", temperature: 0.5 } });
  });
});

describe("mock scripts", () => {
  it("pins matching texts to concept vectors, scripts rerank scores and fails requests as told", async () => {
    const server = await startMockLlmServer({
      script: {
        embeddings: [
          { match: "\\b(automobile|car)s?\\b", concept: "vehicle" },
          { match: "overloaded", status: 503, message: "busy", times: 1 },
        ],
        rerank: [
          { match: "^reverse", order: "reverse" },
          { match: "^explicit", scores: [0.1, 0.9] },
          { match: "^broken", status: 500, message: "reranker down" },
        ],
      },
    });
    try {
      const client = new OpenAI({ baseURL: server.url, apiKey: "mock", maxRetries: 0 });
      const out = await client.embeddings.create({ model: "e", input: ["an Automobile", "my car", "a bicycle"], dimensions: 64 });
      expect(out.data[0].embedding).toEqual(out.data[1].embedding);
      for (const [i, v] of out.data[0].embedding.entries()) expect(v).toBeCloseTo(conceptVector("vehicle", 64)[i], 6);
      expect(out.data[2].embedding).not.toEqual(out.data[0].embedding);
      await expect(client.embeddings.create({ model: "e", input: ["fine", "overloaded"] })).rejects.toThrow("503 busy");
      expect((await client.embeddings.create({ model: "e", input: ["overloaded"] })).data).toHaveLength(1);

      const rerank = async (query: string) => {
        const response = await fetch(`${server.url}/rerank`, { method: "POST", body: JSON.stringify({ query, documents: ["a", "b", "c"] }) });
        return { status: response.status, body: (await response.json()) as { results?: Array<{ index: number; relevance_score: number }>; error?: { message: string } } };
      };
      expect((await rerank("reverse it")).body.results).toEqual([
        { index: 2, relevance_score: 1 },
        { index: 1, relevance_score: 2 / 3 },
        { index: 0, relevance_score: 1 / 3 },
      ]);
      expect((await rerank("explicit")).body.results!.map((r) => [r.index, r.relevance_score])).toEqual([
        [1, 0.9],
        [0, 0.1],
        [2, 0],
      ]);
      expect(await rerank("broken")).toEqual({ status: 500, body: { error: { message: "reranker down", type: "server_error", param: null, code: null } } });
    } finally {
      await server.close();
    }
  });

  it("checks the regexes of embedding and rerank rules", () => {
    expect(() => parseMockLlmScript({ embeddings: [{ match: "(", concept: "x" }], rerank: [{ match: "[" }] })).toThrow(/\/embeddings\/0\/match[\s\S]*\/rerank\/0\/match/);
    expect(() => parseMockLlmScript({ embeddings: [{ match: "x" }] })).toThrow(MockScriptError);
  });

  it("loads a script file given by path", async () => {
    const file = join(dir, "script.json");
    writeFileSync(file, JSON.stringify({ rules: [{ match: "hello", reply: "scripted hello" }] }));
    const server = await startMockLlmServer({ script: file });
    try {
      const client = new OpenAI({ baseURL: server.url, apiKey: "mock", maxRetries: 0 });
      const reply = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Hello!" }] });
      expect(reply.choices[0].message.content).toBe("scripted hello");
    } finally {
      await server.close();
    }
  });

  it("rejects a bad script with JSON pointers and the file", async () => {
    const file = join(dir, "bad-script.json");
    writeFileSync(file, JSON.stringify({ rules: [{ reply: "x" }, { match: "a", on: "user", status: 200, tool_calls: [{}] }, { match: "a", extra: 1 }] }));
    const error = await loadMockLlmScript(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockScriptError);
    expect((error as MockScriptError).issues).toEqual([
      { pointer: "/rules/0", message: 'missing the required property "match"' },
      { pointer: "/rules/1/on", message: 'must be one of "last_user", "system", "any", "tool"' },
      { pointer: "/rules/1/tool_calls/0", message: 'missing the required property "name"' },
      { pointer: "/rules/1/status", message: "must be >= 400" },
      { pointer: "/rules/2/extra", message: 'has the unknown property "extra"' },
    ]);
    expect((error as Error).message).toContain(`${file}: /rules/0: missing the required property "match"`);
  });

  it("rejects a regex that does not compile, a missing file and broken JSON", async () => {
    expect(() => parseMockLlmScript({ rules: [{ match: "(" }] }, "s.json")).toThrow("s.json: /rules/0/match: is not a valid regular expression");
    await expect(loadMockLlmScript(join(dir, "missing.json"))).rejects.toThrow("missing.json: cannot be read");
    writeFileSync(join(dir, "broken.json"), "{");
    await expect(loadMockLlmScript(join(dir, "broken.json"))).rejects.toThrow("broken.json: is not valid JSON");
    await expect(startMockLlmServer({ script: join(dir, "missing.json") })).rejects.toBeInstanceOf(MockScriptError);
  });
});

describe("MockResponder", () => {
  it("is case-insensitive by default and honours flags", () => {
    const responder = new MockResponder({ rules: [{ match: "ABC", flags: "", reply: "exact" }, { match: "abc", reply: "loose" }] });
    expect(responder.plan({ messages: [{ role: "user", content: "ABC" }] })).toMatchObject({ content: "exact", why: "rule 1" });
    expect(responder.plan({ messages: [{ role: "user", content: "aBc" }] })).toMatchObject({ content: "loose", why: "rule 2" });
  });

  it("matches `any` across every message and reads text parts", () => {
    const responder = new MockResponder({ rules: [{ match: "secret word", on: "any", reply: "found" }] });
    const messages = [
      { role: "system", content: "the secret word is here" },
      { role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: "data:," } }] },
    ];
    expect(responder.plan({ messages })).toMatchObject({ content: "found" });
    expect(new MockResponder().plan({ messages })).toMatchObject({ content: "[mock reply] You said: hi" });
  });

  it("calls the tool tool_choice names, and none with tool_choice none", () => {
    const tools = [
      { type: "function", function: { name: "a", parameters: { type: "object", properties: {} } } },
      { type: "function", function: { name: "b", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } } },
    ];
    const messages = [{ role: "user", content: "go" }];
    expect(new MockResponder().plan({ messages, tools, tool_choice: { type: "function", function: { name: "b" } } })).toMatchObject({ toolCalls: [{ name: "b", arguments: '{"q":"go"}' }] });
    expect(new MockResponder().plan({ messages, tools, tool_choice: "none" })).toMatchObject({ toolCalls: [], content: "[mock reply] You said: go" });
  });

  it("truncates a long user message in the echo", () => {
    const plan = new MockResponder().plan({ messages: [{ role: "user", content: "x".repeat(500) }] });
    expect(plan).toMatchObject({ content: `[mock reply] You said: ${"x".repeat(200)}…` });
  });
});

describe("arguments from a tool's schema", () => {
  it("fills required params by type and leaves optional ones out", () => {
    expect(
      argumentsFromSchema(
        {
          type: "object",
          properties: {
            q: { type: "string" },
            n: { type: "number" },
            k: { type: ["integer", "null"] },
            flag: { type: "boolean" },
            list: { type: "array" },
            mode: { type: "string", enum: ["fast", "slow"] },
            nested: { type: "object", properties: { inner: { type: "string" }, opt: { type: "string" } }, required: ["inner"] },
            optional: { type: "string" },
          },
          required: ["q", "n", "k", "flag", "list", "mode", "nested"],
        },
        "the question",
      ),
    ).toEqual({ q: "the question", n: 1, k: 1, flag: false, list: [], mode: "fast", nested: { inner: "the question" } });
    expect(argumentsFromSchema(undefined, "q")).toEqual({});
  });
});

describe("word counts", () => {
  it("counts whitespace-separated words", () => {
    expect(countWords("")).toBe(0);
    expect(countWords("   ")).toBe(0);
    expect(countWords(" one  two\nthree ")).toBe(3);
  });
});

describe("ToolCallAssembler", () => {
  it("assembles calls by index, in index order", () => {
    const calls = new ToolCallAssembler();
    calls.add({ index: 1, id: "b", type: "function", function: { name: "second", arguments: "" } });
    calls.add({ index: 0, id: "a", type: "function", function: { name: "first", arguments: '{"x"' } });
    calls.add({ index: 0, function: { arguments: ":1}" } });
    expect(calls.result()).toEqual([
      { id: "a", type: "function", function: { name: "first", arguments: '{"x":1}' } },
      { id: "b", type: "function", function: { name: "second", arguments: "{}" } },
    ]);
  });

  it("handles servers without index, without ids, or that repeat the name", () => {
    const calls = new ToolCallAssembler();
    calls.add({ id: "c1", function: { name: "f", arguments: '{"a":' } });
    calls.add({ function: { name: "f", arguments: "1}" } });
    calls.add({ function: { name: "g", arguments: "{}" } });
    const result = calls.result();
    expect(result.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ["c1", "f", '{"a":1}'],
      ["call_1", "g", "{}"],
    ]);
  });

  it("reassembles arguments split anywhere (property)", () => {
    fc.assert(
      fc.property(fc.json(), fc.array(fc.nat(), { maxLength: 6 }), (json, cuts) => {
        const text = JSON.stringify(JSON.parse(json));
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const calls = new ToolCallAssembler();
        calls.add({ index: 0, id: "x", function: { name: "f", arguments: "" } });
        let last = 0;
        for (const point of [...points, text.length]) {
          calls.add({ index: 0, function: { arguments: text.slice(last, point) } });
          last = point;
        }
        expect(calls.result()[0].function.arguments).toBe(text.trim() === "" ? "{}" : text);
      }),
    );
  });
});

describe("retry policy", () => {
  it("retries 429 and 5xx only", () => {
    expect([429, 500, 502, 503, 599].every(isRetryableStatus)).toBe(true);
    expect([undefined, 400, 401, 404, 408, 422, 600].some(isRetryableStatus)).toBe(false);
  });

  it("backs off exponentially from delayMs, capped", () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 100))).toEqual([100, 200, 400, 800]);
    expect(backoffDelay(20, 1000)).toBe(MAX_BACKOFF_MS);
    expect(backoffDelay(3, 120_000)).toBe(120_000);
    expect(backoffDelay(1, 0)).toBe(0);
  });
});
