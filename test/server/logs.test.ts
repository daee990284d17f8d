/**
 * The server's logs (docs/server.md, Logs): structured JSON lines (pino) carrying request ids,
 * which never contain API keys, prompts, questions, inputs, answers or DSL secrets. The log stream
 * of a real request sequence is captured at the most verbose level and searched.
 */
import Fastify from "fastify";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { hashApiKey } from "../../src/server/store/api-keys.js";
import { REDACTED, redactedUrl, safeLoggerOptions } from "../../src/server/logging.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { call, createAgent, startTestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

const COMPLETIONS = "/api/v1/agents/chat/completions";

function capture(): { lines: string[]; stream: { write(line: string): void } } {
  const lines: string[] = [];
  return { lines, stream: { write: (chunk: string) => lines.push(...chunk.split("\n").filter((line) => line !== "")) } };
}

/** An agent whose Invoke sends a secret header and whose LLM prompt holds a secret (the agent is stored, not run). */
function agentWithSecrets(secret: string) {
  return canvasDsl({
    begin: node("Begin", { mode: "conversational", prologue: "Hi." }, ["Invoke:Call"]),
    "Invoke:Call": node("Invoke", { url: "https://api.example.com/v1/things", method: "post", headers: JSON.stringify({ Authorization: `Bearer ${secret}` }), timeout: 5 }, ["Message:Show"]),
    "Message:Show": node("Message", { content: ["{Invoke:Call@result}"] }),
  });
}

describe("logs", () => {
  it("carry request ids and never a key, a question, inputs, an answer or a DSL secret", async () => {
    const log = capture();
    const server = await startTestServer({ logger: { level: "trace", stream: log.stream } });
    const secret = "sk-live-DSLSECRET-9f8e7d6c5b4a";
    const question = "QUESTION-MARKER-how-do-I-reset-my-password";
    const inputValue = "INPUT-MARKER-alice@example.com";
    const openAiPrompt = "OPENAI-PROMPT-MARKER-my-card-is-4111";
    const badKey = "cf-BADKEY-MARKER-0123456789abcdef0123456789abcdef01";

    const secretAgent = await createAgent(server, agentWithSecrets(secret));
    expect((await call(server, `/api/v1/agents/${secretAgent}`, { method: "PUT", body: { dsl: agentWithSecrets(`${secret}-v2`) } })).json.code).toBe(0);
    expect((await call(server, `/api/v1/agents/${secretAgent}`)).json.data.dsl.components["Invoke:Call"].obj.params.headers).toContain(secret);
    const agentId = await createAgent(server, hello());
    const answered = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: question, inputs: { email: inputValue } } });
    expect(answered.json.data.data.content).toContain(question); // hello repeats it: the answer must not be logged either
    const streamed = await call(server, COMPLETIONS, { body: { agent_id: agentId, question, stream: true }, headers: { "x-request-id": "client-trace-42" } });
    expect(streamed.headers.get("x-request-id")).toBe("client-trace-42");
    const client = new OpenAI({ apiKey: server.key, baseURL: `${server.base}/api/v1/agents_openai/${agentId}`, maxRetries: 0 });
    await client.chat.completions.create({ model: "x", messages: [{ role: "user", content: openAiPrompt }] });
    expect((await call(server, "/api/v1/agents", { key: badKey })).status).toBe(401);
    expect((await call(server, COMPLETIONS, { body: { agent_id: agentId, query: question }, key: badKey })).status).toBe(401);
    // A bad body (the parser's message quotes it) and a failing field check.
    expect((await call(server, COMPLETIONS, { body: `{"agent_id": "${agentId}", "query": "${question}"` })).json.code).toBe(101);
    await server.close();

    expect(log.lines.length).toBeGreaterThan(20);
    const entries = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const marker of [server.key, hashApiKey(server.key), badKey, secret, question, inputValue, openAiPrompt, "Hello, "]) {
      const leaks = log.lines.filter((line) => line.includes(marker));
      expect(leaks, `logs contain ${marker}`).toEqual([]);
    }
    // Every request's lines carry its id; the id the client gave is kept.
    const requests = entries.filter((entry) => entry.msg === "incoming request");
    expect(requests.length).toBeGreaterThanOrEqual(8);
    for (const entry of requests) expect(entry.reqId).toEqual(expect.any(String));
    expect(new Set(requests.map((entry) => entry.reqId)).size).toBe(requests.length);
    expect(requests.map((entry) => entry.reqId)).toContain("client-trace-42");
    expect(requests.map((entry) => entry.reqId)).toContain(answered.headers.get("x-request-id"));
    // Runs say when they start and how they end, with the request's id and the session.
    const runs = entries.filter((entry) => entry.msg === "run ended");
    expect(runs).toHaveLength(3);
    expect(runs.find((entry) => entry.reqId === "client-trace-42")).toMatchObject({ outcome: "completed", steps: 2, agent: agentId, session: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(entries.filter((entry) => entry.msg === "run started").map((entry) => entry.reqId)).toContain("client-trace-42");
  });

  it("a key sent in the URL by mistake (?api_key=, a key-shaped value, a path) is blanked from the logged URL; other parameters stay", async () => {
    const log = capture();
    const server = await startTestServer({ logger: { level: "trace", stream: log.stream } });
    const key = server.key;
    const urls = [
      `/api/v1/agents?api_key=${key}`,
      `/api/v1/agents?page=2&apiKey=${key}&page_size=5`,
      `/api/v1/agents?token=TOKEN-MARKER-123&Access-Token=TOKEN-MARKER-456&PASSWORD=PASSWORD-MARKER`,
      `/api/v1/agents?keywords=${key}`,
      `/api/v1/agents/${key}`,
    ];
    for (const url of urls) await call(server, url);
    // Without a header: refused, and still not logged.
    expect((await call(server, `/api/v1/agents?key=${key}`, { key: null })).status).toBe(401);
    const agentId = await createAgent(server, hello());
    const socket = new WebSocket(`${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws?api_key=${key}`, { headers: { authorization: `Bearer ${key}` } });
    await new Promise((resolve) => socket.once("open", resolve));
    socket.close();
    await server.close();

    for (const marker of [key, key.slice(3, 30), "TOKEN-MARKER", "PASSWORD-MARKER"]) expect(log.lines.filter((line) => line.includes(marker)), `logs contain ${marker}`).toEqual([]);
    const logged = log.lines.map((line) => JSON.parse(line) as { msg: string; req?: { url: string; method: string } }).filter((entry) => entry.msg === "incoming request").map((entry) => entry.req!.url);
    expect(logged).toEqual(
      expect.arrayContaining([
        "/api/v1/agents?api_key=[redacted]",
        "/api/v1/agents?page=2&apiKey=[redacted]&page_size=5",
        "/api/v1/agents?token=[redacted]&Access-Token=[redacted]&PASSWORD=[redacted]",
        "/api/v1/agents?keywords=[redacted]",
        "/api/v1/agents/[redacted]",
        "/api/v1/agents?key=[redacted]",
        `/api/v1/agents/${agentId}/ws?api_key=[redacted]`,
      ]),
    );
  });

  it("redactedUrl: key-like parameter names in any spelling or encoding, key-shaped text anywhere; the rest as it was", () => {
    const key = `cf-${"a".repeat(43)}`;
    expect(redactedUrl("/x")).toBe("/x");
    expect(redactedUrl("/x?")).toBe("/x?");
    expect(redactedUrl("/x?a=1&b&c=")).toBe("/x?a=1&b&c=");
    expect(redactedUrl("/x?API-KEY=s&api%5Fkey=s&Api+Key=s&bearer=s&secret=s&client_secret=s&sig=s&auth=s")).toBe(
      "/x?API-KEY=[redacted]&api%5Fkey=[redacted]&Api+Key=[redacted]&bearer=[redacted]&secret=[redacted]&client_secret=[redacted]&sig=[redacted]&auth=[redacted]",
    );
    expect(redactedUrl(`/x/${key}/y?q=${key}&${key}`)).toBe("/x/[redacted]/y?q=[redacted]&[redacted]");
    expect(redactedUrl("/x?key%ZZ=s&keys=kept")).toBe("/x?key%ZZ=s&keys=kept");
  });

  it("redacts keys, bodies, DSLs, inputs and questions from whatever a log call is given", () => {
    const log = capture();
    const app = Fastify({ logger: safeLoggerOptions({ level: "info", stream: log.stream }) });
    app.log.info(
      { headers: { authorization: "Bearer cf-KEY", cookie: "c=SECRET" }, authorization: "cf-KEY2", body: { query: "Q" }, dsl: { components: {} }, inputs: { a: "I" }, question: "Q2", nested: { messages: ["M"], prompt: "P" } },
      "a careless log call",
    );
    const entry = JSON.parse(log.lines[0]);
    expect(entry).toMatchObject({
      headers: { authorization: REDACTED, cookie: REDACTED },
      authorization: REDACTED,
      body: REDACTED,
      dsl: REDACTED,
      inputs: REDACTED,
      question: REDACTED,
      nested: { messages: REDACTED, prompt: REDACTED },
      msg: "a careless log call",
    });
    expect(safeLoggerOptions(false)).toBe(false);
    expect(safeLoggerOptions(undefined)).toBe(false);
  });
});
