/**
 * The `openai` npm client, unmodified, against `/api/v1/agents_openai/{id}` (its baseURL): the
 * non-streaming and streaming calls, `.stream().finalChatCompletion()` (which needs the
 * finish_reason chunk RAGFlow never sends), a second turn through `session_id`, and a bad key.
 */
import OpenAI, { AuthenticationError } from "openai";
import { describe, expect, it } from "vitest";
import { startMockLlm } from "../helpers/mock-llm.js";
import { call, createAgent, startTestServer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas } from "./canvases.js";

function client(server: TestServer, agentId: string, apiKey = server.key): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${server.base}/api/v1/agents_openai/${agentId}`, maxRetries: 0 });
}

/** RAGFlow's extension of the request body: the session to continue (the client sends unknown fields as they are). */
function inSession<T extends object>(params: T, sessionId: string): T {
  return { ...params, session_id: sessionId };
}

async function sessionIds(server: TestServer, agentId: string): Promise<string[]> {
  const answer = await call(server, `/api/v1/agents/${agentId}/sessions`);
  return answer.json.data.map((s: { id: string }) => s.id);
}

describe("the openai client against /api/v1/agents_openai/{id}", () => {
  it("non-streaming: a chat.completion whose id is the new session, model the agent, finish_reason stop", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const completion = await client(server, agentId).chat.completions.create({ model: "anything", messages: [{ role: "user", content: "Ada" }] });
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe(agentId);
    expect(completion.choices[0].finish_reason).toBe("stop");
    expect(completion.choices[0].message).toMatchObject({ role: "assistant", content: "Hello, Ada! This is turn 1." });
    expect(await sessionIds(server, agentId)).toEqual([completion.id]);
    // No model was called: the usage is a word count of the question and the answer.
    expect(completion.usage).toMatchObject({ prompt_tokens: 1, completion_tokens: 6, total_tokens: 7 });
  });

  it("streaming, as a second turn through session_id: sees the first turn; every chunk has the session's id; ends with finish_reason stop", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const openai = client(server, agentId);
    const first = await openai.chat.completions.create({ model: "x", messages: [{ role: "user", content: "Ada" }] });
    const stream = await openai.chat.completions.create(
      inSession({ model: "x", messages: [{ role: "user", content: "Ada" }, { role: "assistant", content: "…" }, { role: "user", content: "Bob" }], stream: true }, first.id),
    );
    let text = "";
    const ids = new Set<string>();
    const finishReasons: Array<string | null> = [];
    for await (const chunk of stream) {
      ids.add(chunk.id);
      text += chunk.choices[0]?.delta?.content ?? "";
      finishReasons.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(text).toBe("Hello, Bob! This is turn 2.");
    expect([...ids]).toEqual([first.id]);
    expect(finishReasons.at(-1)).toBe("stop");
    expect(finishReasons.filter((r) => r !== null)).toEqual(["stop"]);
    expect(await sessionIds(server, agentId)).toEqual([first.id]);
  });

  it("non-streaming second turn through session_id sees the first", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const openai = client(server, agentId);
    const first = await openai.chat.completions.create({ model: "x", messages: [{ role: "user", content: "Ada" }] });
    const second = await openai.chat.completions.create(inSession({ model: "x", messages: [{ role: "user", content: "Bob" }] }, first.id));
    expect(second.id).toBe(first.id);
    expect(second.choices[0].message.content).toBe("Hello, Bob! This is turn 2.");
  });

  it(".stream().finalChatCompletion() returns the whole reply", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const final = await client(server, agentId).chat.completions.stream({ model: "x", messages: [{ role: "user", content: "Cy" }] }).finalChatCompletion();
    expect(final.choices[0].message.content).toBe("Hello, Cy! This is turn 1.");
    expect(final.choices[0].finish_reason).toBe("stop");
    expect(await sessionIds(server, agentId)).toEqual([final.id]);
  });

  it("a model's thinking comes back between <think> and </think>, with the run's real token usage", async () => {
    const mock = await startMockLlm({ rules: [{ match: "why", think: "Let me think.", reply: "Because." }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const agentId = await createAgent(server, llmCanvas());
    const openai = client(server, agentId);
    const completion = await openai.chat.completions.create({ model: "x", messages: [{ role: "user", content: "why?" }] });
    expect(completion.choices[0].message.content).toBe("<think>Let me think.</think>Because.");
    // Mock tokens are words: "Be brief." and "why?" read, "Let me think." and "Because." written.
    expect(completion.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    let streamed = "";
    for await (const chunk of await openai.chat.completions.create({ model: "x", messages: [{ role: "user", content: "why?" }], stream: true })) {
      streamed += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(streamed).toBe("<think>Let me think.</think>Because.");
  });

  it("user_id and inputs in an OpenAI body go to the run (RAGFlow raises a TypeError on user_id)", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const answer = await call(server, `/api/v1/agents_openai/${agentId}/chat/completions`, { body: { model: "x", messages: [{ role: "user", content: "Ada" }], user_id: "end-user-7", inputs: {} } });
    expect(answer.json.object).toBe("chat.completion");
    const session = (await call(server, `/api/v1/agents/${agentId}/sessions/${answer.json.id}`)).json.data;
    expect(session.user_id).toBe("end-user-7");
    expect(session.dsl.globals["sys.user_id"]).toBe("end-user-7");
  });

  it("a bad key raises AuthenticationError with status 401 and RAGFlow's message", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const error = await client(server, agentId, "ragflow-not-a-key")
      .chat.completions.create({ model: "x", messages: [{ role: "user", content: "hi" }] })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).message).toContain("<Unauthorized '401: Unauthorized'>");
  });
});
