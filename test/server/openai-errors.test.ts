/**
 * Every bad input on the OpenAI-compatible route (`/agents_openai/{id}`): RAGFlow's envelope plus
 * OpenAI's `error` object, with a real HTTP status (400; 401, 413 as everywhere), and the `openai` client,
 * unmodified, raising it with the message, streaming or not. With HTTP 200, as on the native
 * routes, the client returned the envelope as if it were a completion, and a stream yielded
 * nothing: the error was lost.
 */
import OpenAI, { APIError, AuthenticationError, BadRequestError } from "openai";
import { describe, expect, it } from "vitest";
import { addKey, call, createAgent, startTestServer, type Answer, type TestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

const COMPLETIONS = "/api/v1/agents/chat/completions";
const openAiPath = (agentId: string) => `/api/v1/agents_openai/${agentId}/chat/completions`;

function expectOpenAiError(answer: Answer, status: number, code: number, message: string | RegExp): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.json.code, answer.text).toBe(code);
  if (typeof message === "string") expect(answer.json.message).toBe(message);
  else expect(answer.json.message).toMatch(message);
  expect(answer.json.error).toEqual({ message: answer.json.message, type: "invalid_request_error", code });
}

function client(server: TestServer, agentId: string, apiKey = server.key): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${server.base}/api/v1/agents_openai/${agentId}`, maxRetries: 0 });
}

/** What the client throws for a request, streaming and not (undefined when it does not throw). */
async function clientErrors(openai: OpenAI, body: Record<string, unknown>): Promise<unknown[]> {
  const params = { model: "x", messages: [{ role: "user" as const, content: "hi" }], ...body };
  const plain = await openai.chat.completions.create({ ...params, stream: false } as OpenAI.ChatCompletionCreateParamsNonStreaming).then(
    () => undefined,
    (e: unknown) => e,
  );
  const streamed = await (async () => {
    for await (const _chunk of await openai.chat.completions.create({ ...params, stream: true } as OpenAI.ChatCompletionCreateParamsStreaming));
  })().then(
    () => undefined,
    (e: unknown) => e,
  );
  return [plain, streamed];
}

describe("bad input on the OpenAI routes", () => {
  it("malformed JSON and wrong types: 400, code 101 naming the problem", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    expectOpenAiError(await call(server, openAiPath(agentId), { body: '{"messages": [' }), 400, 101, /^The request body is not valid JSON: /);
    expectOpenAiError(await call(server, openAiPath(agentId), { body: { messages: [{ content: "hi" }] } }), 400, 101, 'Field `messages.0` is missing the required property "role"');
    expectOpenAiError(await call(server, openAiPath(agentId), { body: { messages: [{ role: "user", content: "hi" }], stream: "yes" } }), 400, 101, "Field `stream` must be boolean,null");
  });

  it("empty messages: 400, code 102", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    expectOpenAiError(await call(server, openAiPath(agentId), { body: { messages: [] } }), 400, 102, "You must provide at least one message.");
  });

  it("an unknown agent or session, another agent's or another tenant's session: 400 with RAGFlow's code and message", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const otherAgent = await createAgent(server, hello());
    const otherKey = await addKey(server.store, "t2");
    const theirAgent = await createAgent(server, hello(), "theirs", otherKey);
    const theirSession = (await call(server, COMPLETIONS, { body: { agent_id: theirAgent, query: "Eve" }, key: otherKey })).json.data.session_id;
    const mySession = (await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "Ada" } })).json.data.session_id;
    const ask = (agent: string, extra: Record<string, unknown> = {}) => call(server, openAiPath(agent), { body: { messages: [{ role: "user", content: "hi" }], ...extra } });
    expectOpenAiError(await ask("0".repeat(32)), 400, 103, "Make sure you have permission to access the agent.");
    expectOpenAiError(await ask(theirAgent), 400, 103, "Make sure you have permission to access the agent.");
    expectOpenAiError(await ask(agentId, { session_id: "0".repeat(32) }), 400, 102, "Session not found!");
    expectOpenAiError(await ask(otherAgent, { session_id: mySession }), 400, 103, "Session does not belong to the requested agent.");
    expectOpenAiError(await ask(agentId, { session_id: theirSession }), 400, 103, "Only authorized users can access this agent session.");
    // Nothing was started: their session is still at its first turn, mine too.
    expect((await call(server, `/api/v1/agents/${agentId}/sessions/${mySession}`)).json.data.message).toHaveLength(3);
    expect((await call(server, `/api/v1/agents/${theirAgent}/sessions/${theirSession}`, { key: otherKey })).json.data.message).toHaveLength(3);
  });

  it("an oversized body: 413 with the error object", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const answer = await call(server, openAiPath(agentId), { body: { messages: [{ role: "user", content: "x".repeat(1024 * 1024 + 1) }] } });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ code: 413, message: "Request body is too large", data: null, error: { message: "Request body is too large", type: "invalid_request_error", code: 413 } });
  });

  it("the native routes keep RAGFlow's HTTP 200 for the same errors, with \"openai-compatible\": true too (test_agent_openai_compatible_mode)", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const answer = await call(server, COMPLETIONS, { body: { agent_id: "0".repeat(32), query: "hi" } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ code: 103, message: "Make sure you have permission to access the agent.", data: false });
    for (const [body, code, message] of [
      [{ agent_id: agentId, "openai-compatible": true, messages: [] }, 102, "You must provide at least one message."],
      [{ agent_id: agentId, "openai-compatible": true, messages: "hi" }, 101, "Field `messages` must be array,null"],
      [{ "openai-compatible": true, messages: [{ role: "user", content: "hi" }] }, 101, "`agent_id` is required."],
    ] as const) {
      const native = await call(server, COMPLETIONS, { body });
      expect(native.status, native.text).toBe(200);
      expect(native.json).toMatchObject({ code, message });
      expect(native.json.error).toBeUndefined();
    }
  });
});

describe("the openai client raises each of them with the message", () => {
  it("unknown agent, unknown session, empty messages: BadRequestError (400), streaming or not", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    for (const [openai, body, message] of [
      [client(server, "0".repeat(32)), {}, "Make sure you have permission to access the agent."],
      [client(server, agentId), { session_id: "0".repeat(32) }, "Session not found!"],
      [client(server, agentId), { messages: [] }, "You must provide at least one message."],
    ] as const) {
      for (const error of await clientErrors(openai, body)) {
        expect(error).toBeInstanceOf(BadRequestError);
        expect((error as BadRequestError).status).toBe(400);
        expect((error as BadRequestError).message).toBe(`400 ${message}`);
      }
    }
    // A valid request still answers.
    const completion = await client(server, agentId).chat.completions.create({ model: "x", messages: [{ role: "user", content: "Ada" }] });
    expect(completion.choices[0].message.content).toBe("Hello, Ada! This is turn 1.");
  });

  it("a bad key: AuthenticationError (401); an oversized body: APIError 413, streaming or not", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    for (const error of await clientErrors(client(server, agentId, "ragflow-bad"), {})) {
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as AuthenticationError).message).toBe("401 <Unauthorized '401: Unauthorized'>");
    }
    for (const error of await clientErrors(client(server, agentId), { messages: [{ role: "user", content: "x".repeat(1024 * 1024 + 1) }] })) {
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(413);
      expect((error as APIError).message).toBe("413 Request body is too large");
    }
  });
});
