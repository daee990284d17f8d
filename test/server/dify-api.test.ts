/**
 * Dify's service API on canvasflow serve, driven by `dify-client` (npm, unmodified) over
 * 127.0.0.1: a workflow app and a chatflow served from an agents folder of Dify YAML files,
 * through the same keys and stores as RAGFlow's API. The streams are read as Dify's clients read
 * them (eventsource-parser over the raw body).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer as createHttpServer, type Server } from "node:http";
import type { Readable } from "node:stream";
import { ChatClient, CompletionClient, DifyClient } from "dify-client";
import { createParser } from "eventsource-parser";
import { stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { corpusPath } from "../helpers/corpus.js";
import { MEMORY_CHATFLOW, waitingWorkflow } from "../helpers/dify.js";
import { scratchDir } from "../helpers/scratch.js";
import { call, startTestServer, type TestServer } from "../helpers/server.js";

const scratch = scratchDir("cf-dify-api-");
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

function agentsDir(): string {
  const dir = join(scratch.dir, `agents-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hello.yml"), readFileSync(corpusPath("dify", "conditional_hello_branching_workflow.yml")));
  writeFileSync(join(dir, "memory.yaml"), stringify(MEMORY_CHATFLOW));
  return dir;
}

/** dify-client's runWorkflow exists in its JavaScript but not in its types (research/dify-import.md §4.2). */
type WorkflowClient = CompletionClient & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  runWorkflow(inputs: Record<string, unknown>, user: string, stream?: boolean): Promise<{ status: number; headers: Record<string, string>; data: any }>;
};

function workflowClient(server: TestServer): WorkflowClient {
  return new CompletionClient(server.key, `${server.base}/v1`) as WorkflowClient;
}

/** renameConversation's JavaScript takes auto_generate; its types do not. */
function rename(chat: ChatClient, id: string, name: string, user: string, auto: boolean) {
  return (chat.renameConversation as unknown as (id: string, name: string, user: string, auto: boolean) => ReturnType<ChatClient["renameConversation"]>).call(chat, id, name, user, auto);
}

async function difyServer(app: string): Promise<TestServer> {
  return startTestServer({ agentsDir: agentsDir(), difyApp: app });
}

/** The SSE events of a dify-client stream, parsed as Dify's own clients do. */
async function events(stream: Readable): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  const parser = createParser({
    onEvent: (message) => {
      if (message.event === "ping") return;
      out.push(JSON.parse(message.data) as Record<string, unknown>);
    },
  });
  for await (const chunk of stream) parser.feed(chunk.toString());
  return out;
}

describe("dify-client against canvasflow serve's /v1", () => {
  it("runWorkflow, blocking: Dify's answer with the End's outputs, status succeeded, the steps counted", async () => {
    const server = await difyServer("hello");
    const client = workflowClient(server);
    const answer = await client.runWorkflow({ query: "hello world" }, "ada");
    expect(answer.status).toBe(200);
    expect(answer.data.data).toMatchObject({ status: "succeeded", outputs: { true: "hello world" }, error: null, workflow_id: "hello" });
    expect(answer.data.data.total_steps).toBeGreaterThanOrEqual(3);
    expect(answer.data.workflow_run_id).toBe(answer.data.data.id);
    expect(typeof answer.data.task_id).toBe("string");
  });

  it("runWorkflow, streaming: workflow_started, node events with Dify's node types, workflow_finished with the outputs", async () => {
    const server = await difyServer("hello");
    const client = workflowClient(server);
    const answer = await client.runWorkflow({ query: "Hello world" }, "ada", true);
    expect(answer.headers["content-type"]).toMatch(/^text\/event-stream/);
    const sent = await events(answer.data as Readable);
    expect(sent[0]).toMatchObject({ event: "workflow_started", data: { inputs: { query: "Hello world" } } });
    const started = sent.filter((e) => e.event === "node_started").map((e) => (e.data as { node_type: string }).node_type);
    expect(started).toEqual(expect.arrayContaining(["start", "if-else", "end"]));
    const finished = sent.at(-1)!;
    expect(finished).toMatchObject({ event: "workflow_finished", data: { status: "succeeded", outputs: { false: "Hello world" } } });
    // Every event names the run.
    for (const event of sent) expect(event.workflow_run_id).toBe((finished.data as { id: string }).id);
  });

  it("a workflow's required input left out: 400 invalid_param naming it, before anything runs", async () => {
    const server = await difyServer("hello");
    const client = workflowClient(server);
    const error = await client.runWorkflow({}, "ada").catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(error.status).toBe(400);
    expect(error.data).toMatchObject({ code: "invalid_param", status: 400 });
    expect((error.data as { message: string }).message).toContain("query");
  });

  it("createChatMessage over two turns with conversation_id, blocking then streaming: conversation.* kept, sys.dialogue_count 2", async () => {
    const server = await difyServer("memory");
    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const first = await chat.createChatMessage({}, "one", "ada");
    expect(first.data).toMatchObject({ event: "message", mode: "advanced-chat", answer: "before: none yet (turn 1)" });
    const conversation = first.data.conversation_id as string;
    expect(conversation).toMatch(/^[0-9a-f]{32}$/);

    const second = await chat.createChatMessage({}, "two", "ada", true, conversation);
    const sent = await events(second.data as Readable);
    const text = sent.filter((e) => e.event === "message").map((e) => e.answer).join("");
    expect(text).toBe("before: one (turn 2)");
    for (const e of sent) expect(e.conversation_id).toBe(conversation);
    // Dify's order at the end: workflow_finished, then message_end with the usage.
    expect(sent.slice(-2).map((e) => e.event)).toEqual(["workflow_finished", "message_end"]);
    expect(sent.at(-1)).toMatchObject({ metadata: { usage: { total_tokens: 0 } } });

    const third = await chat.createChatMessage({}, "three", "ada", false, conversation);
    expect(third.data.answer).toBe("before: two (turn 3)");

    const messages = await chat.getConversationMessages("ada", conversation);
    expect(messages.data.data.map((m: { query: string; answer: string }) => [m.query, m.answer])).toEqual([
      ["one", "before: none yet (turn 1)"],
      ["two", "before: one (turn 2)"],
      ["three", "before: two (turn 3)"],
    ]);
  });

  it("another user's conversation id is not found; a workflow route on a chatflow is refused with not_workflow_app", async () => {
    const server = await difyServer("memory");
    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const first = await chat.createChatMessage({}, "one", "ada");
    const foreign = await chat.createChatMessage({}, "two", "bob", false, first.data.conversation_id).catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(foreign.status).toBe(404);
    expect(foreign.data).toMatchObject({ code: "not_found", message: "Conversation Not Exists." });
    const wrong = await workflowClient(server).runWorkflow({}, "ada").catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ code: "not_workflow_app" });
  });

  it("getApplicationParameters: the Start form and the app's opening statement and suggested questions", async () => {
    const hello = await difyServer("hello");
    const form = await new DifyClient(hello.key, `${hello.base}/v1`).getApplicationParameters("ada");
    expect(form.data.user_input_form).toEqual([{ "text-input": expect.objectContaining({ variable: "query", required: true }) }]);
    const memory = await difyServer("memory");
    const params = await new DifyClient(memory.key, `${memory.base}/v1`).getApplicationParameters("ada");
    expect(params.data).toMatchObject({ opening_statement: "Ask me anything.", suggested_questions: ["What did I say?"], user_input_form: [] });
  });

  it("getConversations, renameConversation, deleteConversation: the user's conversations, newest first", async () => {
    const server = await difyServer("memory");
    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const a = (await chat.createChatMessage({}, "first chat", "ada")).data.conversation_id as string;
    const b = (await chat.createChatMessage({}, "second chat", "ada")).data.conversation_id as string;
    await chat.createChatMessage({}, "bob's", "bob");

    const listed = await chat.getConversations("ada");
    expect(listed.data.data.map((c: { id: string }) => c.id)).toEqual([b, a]);
    expect(listed.data.has_more).toBe(false);
    const paged = await chat.getConversations("ada", b, 1);
    expect(paged.data).toMatchObject({ limit: 1, has_more: false, data: [{ id: a }] });

    const renamed = await rename(chat, a, "Renamed", "ada", false);
    expect(renamed.data).toMatchObject({ id: a, name: "Renamed" });
    const auto = await rename(chat, b, "", "ada", true);
    expect(auto.data.name).toBe("second chat");

    const deleted = await chat.deleteConversation(a, "ada");
    expect(deleted.data).toEqual({ result: "success" });
    expect((await chat.getConversations("ada")).data.data.map((c: { id: string }) => c.id)).toEqual([b]);
    const again = await chat.deleteConversation(a, "ada").catch((e: { response: { status: number } }) => e.response);
    expect(again.status).toBe(404);
  });

  it("a bad key: 401 in Dify's shape; the stop endpoints answer success for the user's task, 404 for an unknown one or another user's", async () => {
    const server = await difyServer("memory");
    const bad = await new DifyClient("wrong", `${server.base}/v1`).getApplicationParameters("ada").catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(bad.status).toBe(401);
    expect(bad.data).toMatchObject({ code: "unauthorized", status: 401 });

    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const task = (await chat.createChatMessage({}, "one", "ada")).data.task_id as string;
    const stopped = await call(server, `/v1/chat-messages/${task}/stop`, { method: "POST", body: { user: "ada" } });
    expect(stopped.status).toBe(200);
    expect(stopped.json).toEqual({ result: "success" });
    const unknown = await call(server, `/v1/chat-messages/${"0".repeat(32)}/stop`, { method: "POST", body: { user: "ada" } });
    expect(unknown.status).toBe(404);
    const foreign = await call(server, `/v1/chat-messages/${task}/stop`, { method: "POST", body: { user: "bob" } });
    expect(foreign.status).toBe(404);
  });

  it("fileUpload: a multipart file is kept and given to a run as sys.files, with its text; an unknown upload id is 404", async () => {
    const server = await difyServer("memory");
    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const form = new FormData();
    form.append("file", new Blob(["some notes"], { type: "text/plain" }), "notes.txt");
    form.append("user", "ada");
    const uploaded = await chat.fileUpload(form as never);
    expect(uploaded.status).toBe(201);
    const file = uploaded.data as { id: string; name: string; size: number; extension: string; mime_type: string };
    expect(file).toMatchObject({ name: "notes.txt", size: 10, extension: "txt", mime_type: "text/plain" });

    const answer = await chat.createChatMessage({}, "with a file", "ada", true, null, [{ type: "document", transfer_method: "local_file", upload_file_id: file.id }] as never);
    const sent = await events(answer.data as Readable);
    const start = sent.find((e) => e.event === "node_finished" && (e.data as { node_type: string }).node_type === "start")!;
    expect((start.data as { outputs: Record<string, unknown> }).outputs["sys.files"]).toEqual([expect.objectContaining({ filename: "notes.txt", text: "some notes", transfer_method: "local_file" })]);

    const missing = await chat
      .createChatMessage({}, "with a file", "ada", false, null, [{ type: "document", transfer_method: "local_file", upload_file_id: "nope" }] as never)
      .catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(missing.status).toBe(404);
    expect((missing.data as { message: string }).message).toContain("upload_file_id");
  });

  it("stop: a streaming workflow stopped while a step runs ends with status stopped", async () => {
    const silent: Server = createHttpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const dir = agentsDir();
      writeFileSync(join(dir, "waits.yml"), stringify(waitingWorkflow(`http://127.0.0.1:${(silent.address() as { port: number }).port}/`)));
      const server = await startTestServer({ agentsDir: dir, difyApp: "waits", allowPrivateNetwork: true });
      const answer = await workflowClient(server).runWorkflow({}, "ada", true);
      const sent: Array<Record<string, unknown>> = [];
      let stopped: { status: number; json: unknown } | undefined;
      const parser = createParser({
        onEvent: (message) => {
          if (message.event !== "ping") sent.push(JSON.parse(message.data) as Record<string, unknown>);
        },
      });
      for await (const chunk of answer.data as Readable) {
        parser.feed(chunk.toString());
        const waiting = sent.find((e) => e.event === "node_started" && (e.data as { node_id: string }).node_id === "http");
        if (waiting && !stopped) stopped = await call(server, `/v1/workflows/tasks/${waiting.task_id as string}/stop`, { method: "POST", body: { user: "ada" } });
      }
      expect(stopped).toMatchObject({ status: 200, json: { result: "success" } });
      expect(sent.at(-1)).toMatchObject({ event: "workflow_finished", data: { status: "stopped" } });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
