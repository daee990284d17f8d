/**
 * Dify's service API on canvasflow serve, the parts past the first client calls: Dify's container
 * and retry events and token counts in a stream, the run's id as task_id (stoppable from another
 * server process on the same store), GET /v1/workflows/run/{id}, GET /v1/info, message feedback,
 * and completion-messages refused in Dify's shape. Driven by `dify-client` (npm, unmodified) and,
 * where it has no method, raw HTTP, over 127.0.0.1.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { ChatClient, CompletionClient, DifyClient } from "dify-client";
import { createParser } from "eventsource-parser";
import { stringify } from "yaml";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { corpusPath } from "../helpers/corpus.js";
import { difyApp, edge, waitingWorkflow } from "../helpers/dify.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { scratchDir } from "../helpers/scratch.js";
import { call, startTestServer, type TestServer } from "../helpers/server.js";

const scratch = scratchDir("cf-dify-runs-");
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

const stand: Server[] = [];
afterEach(async () => {
  for (const server of stand.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback HTTP server; closed after the test. */
async function standIn(handler: Parameters<typeof createHttpServer>[1]): Promise<string> {
  const server = createHttpServer(handler);
  stand.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function workflowApp(name: string, nodes: unknown[], edges: Array<[string, string]>): Record<string, unknown> {
  return { app: { mode: "workflow", name, description: `the ${name} app` }, kind: "app", version: "0.3.1", workflow: { graph: { nodes, edges: edges.map(([source, target]) => ({ source, target })) } } };
}

/** start → an HTTP call that is retried (the first answer is a 500) → end. */
function retryingWorkflow(url: string): Record<string, unknown> {
  return workflowApp(
    "retries",
    [
      { id: "start", data: { type: "start", title: "Start", variables: [] } },
      { id: "call", data: { type: "http-request", title: "Call", method: "get", url, authorization: { type: "no-auth" }, body: { type: "none", data: [] }, headers: "", params: "", retry_config: { retry_enabled: true, max_retries: 2, retry_interval: 10 } } },
      { id: "end", data: { type: "end", title: "End", outputs: [{ variable: "body", value_selector: ["call", "body"] }] } },
    ],
    [
      ["start", "call"],
      ["call", "end"],
    ],
  );
}

function agentsDir(extra: Record<string, Record<string, unknown>> = {}): string {
  const dir = join(scratch.dir, `agents-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  for (const file of ["conditional_hello_branching_workflow.yml", "increment_loop_with_break_condition_workflow.yml", "iteration_flatten_output_enabled_workflow.yml", "graphon__slim_llm_graph.yml"]) {
    writeFileSync(join(dir, file), readFileSync(corpusPath("dify", file)));
  }
  for (const [name, document] of Object.entries(extra)) writeFileSync(join(dir, `${name}.yml`), stringify(document));
  return dir;
}

type WorkflowClient = CompletionClient & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  runWorkflow(inputs: Record<string, unknown>, user: string, stream?: boolean): Promise<{ status: number; data: any }>;
};

function workflowClient(server: TestServer): WorkflowClient {
  return new CompletionClient(server.key, `${server.base}/v1`) as WorkflowClient;
}

type Sent = Record<string, unknown> & { event: string; data: Record<string, unknown> };

async function events(stream: Readable): Promise<Sent[]> {
  const out: Sent[] = [];
  const parser = createParser({
    onEvent: (message) => {
      if (message.event !== "ping") out.push(JSON.parse(message.data) as Sent);
    },
  });
  for await (const chunk of stream) parser.feed(chunk.toString());
  return out;
}

describe("Dify's stream: containers, retries, tokens", () => {
  it("an iteration: iteration_started, an iteration_next per round before its steps, the steps with iteration_id and index, iteration_completed with the output", async () => {
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "iteration_flatten_output_enabled_workflow" });
    const sent = await events((await workflowClient(server).runWorkflow({}, "ada", true)).data as Readable);
    expect(sent.at(-1)).toMatchObject({ event: "workflow_finished", data: { status: "succeeded", outputs: { output: [1, 2, 2, 4, 3, 6] } } });
    const started = sent.filter((e) => e.event === "iteration_started");
    expect(started).toHaveLength(1);
    const iterationId = started[0].data.node_id as string;
    expect(started[0].data).toMatchObject({ node_type: "iteration", inputs: {}, metadata: {} });
    const nexts = sent.filter((e) => e.event === "iteration_next");
    expect(nexts.map((e) => e.data.index)).toEqual([0, 1, 2]);
    for (const next of nexts) expect(next.data).toMatchObject({ node_id: iterationId, node_type: "iteration" });
    // Every step inside comes after its round's iteration_next and names the iteration and the round.
    const inside = sent.filter((e) => (e.event === "node_started" || e.event === "node_finished") && e.data.iteration_id === iterationId);
    expect(inside.length).toBeGreaterThanOrEqual(6);
    for (const step of inside.filter((e) => e.event === "node_finished")) {
      const round = (step.data.execution_metadata as { iteration_index: number }).iteration_index;
      expect(step.data.execution_metadata).toMatchObject({ iteration_id: iterationId });
      expect(sent.indexOf(nexts[round])).toBeLessThan(sent.indexOf(step));
      expect(step.data.loop_id).toBeNull();
    }
    const completed = sent.filter((e) => e.event === "iteration_completed");
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toMatchObject({ node_id: iterationId, status: "succeeded", steps: 3, outputs: { output: [1, 2, 2, 4, 3, 6] }, total_tokens: 0 });
    // The container itself has no node_started / node_finished of its own, as in Dify.
    expect(sent.filter((e) => e.event.startsWith("node_") && e.data.node_id === iterationId)).toEqual([]);
  });

  it("a loop: loop_started, loop_next per round with pre_loop_output, steps with loop_id, loop_completed with loop_round", async () => {
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "increment_loop_with_break_condition_workflow" });
    const sent = await events((await workflowClient(server).runWorkflow({}, "ada", true)).data as Readable);
    expect(sent.at(-1)).toMatchObject({ event: "workflow_finished", data: { status: "succeeded", outputs: { num: 5 } } });
    const loopId = sent.find((e) => e.event === "loop_started")!.data.node_id as string;
    const nexts = sent.filter((e) => e.event === "loop_next");
    expect(nexts.map((e) => e.data.index)).toEqual([0, 1, 2, 3]);
    expect(nexts[0].data).toHaveProperty("pre_loop_output");
    const inside = sent.filter((e) => e.event === "node_finished" && e.data.loop_id === loopId);
    expect(inside.map((e) => (e.data.execution_metadata as { loop_index: number }).loop_index)).toEqual(expect.arrayContaining([0, 1, 2, 3]));
    expect(sent.find((e) => e.event === "loop_completed")!.data).toMatchObject({ node_id: loopId, status: "succeeded", steps: 4, outputs: { loop_round: 4 } });
  });

  it("a retried step: one node_retry per failed attempt (retry_index from 1, the attempt's error), then node_finished", async () => {
    let calls = 0;
    const url = await standIn((_request, response) => {
      calls++;
      response.statusCode = calls === 1 ? 500 : 200;
      response.end(calls === 1 ? "down" : "up");
    });
    const server = await startTestServer({ agentsDir: agentsDir({ retries: retryingWorkflow(url) }), difyApp: "retries", allowPrivateNetwork: true });
    const sent = await events((await workflowClient(server).runWorkflow({}, "ada", true)).data as Readable);
    expect(sent.at(-1)).toMatchObject({ event: "workflow_finished", data: { status: "succeeded", outputs: { body: "up" } } });
    const call = sent.filter((e) => e.data?.node_id === "call").map((e) => e.event);
    expect(call).toEqual(["node_started", "node_retry", "node_finished"]);
    const retry = sent.find((e) => e.event === "node_retry")!;
    expect(retry.data).toMatchObject({ node_type: "http-request", retry_index: 1, status: "retry", outputs: null });
    expect(retry.data.error).toContain("500");
  });

  it("an LLM step's tokens: node_finished execution_metadata.total_tokens, message_end's usage and workflow_finished's total_tokens agree and are not 0", async () => {
    const mock = await startMockLlm({ rules: [{ match: "[\\s\\S]*", reply: "mocked llm text" }] });
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "graphon__slim_llm_graph", canvas: { services: { llm: mock.provider } } });
    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const sent = await events((await chat.createChatMessage({}, "hi", "ada", true)).data as Readable);
    expect(sent.filter((e) => e.event === "message").map((e) => e.answer).join("")).toBe("mocked llm text");
    const llm = sent.find((e) => e.event === "node_finished" && e.data.node_type === "llm")!;
    const tokens = (llm.data.execution_metadata as { total_tokens: number }).total_tokens;
    expect(tokens).toBeGreaterThan(0);
    expect(llm.data.execution_metadata).toMatchObject({ total_price: "0", currency: "USD" });
    expect(sent.find((e) => e.event === "workflow_finished")!.data.total_tokens).toBe(tokens);
    const end = sent.at(-1)!;
    expect(end.event).toBe("message_end");
    expect((end.metadata as { usage: { total_tokens: number } }).usage.total_tokens).toBe(tokens);
    // Steps without a model show no token metadata.
    const start = sent.find((e) => e.event === "node_finished" && e.data.node_type === "start")!;
    expect(start.data.execution_metadata).toEqual({});
  });
});

describe("a run's id", () => {
  it("is the task_id, the workflow_run_id and the run's data.id; GET /v1/workflows/run/{id} gives its status, inputs, outputs, steps and times", async () => {
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "conditional_hello_branching_workflow" });
    const client = workflowClient(server);
    const answer = (await client.runWorkflow({ query: "hello world" }, "ada")).data;
    expect(answer.task_id).toBe(answer.workflow_run_id);
    expect(answer.data.id).toBe(answer.workflow_run_id);
    const again = (await client.runWorkflow({ query: "hello world" }, "ada")).data;
    expect(again.task_id).not.toBe(answer.task_id);

    const run = await call(server, `/v1/workflows/run/${answer.workflow_run_id}`, { key: server.key });
    expect(run.status).toBe(200);
    expect(run.json).toMatchObject({
      id: answer.workflow_run_id,
      status: "succeeded",
      inputs: { query: "hello world" },
      outputs: { true: "hello world" },
      error: null,
      total_steps: answer.data.total_steps,
      total_tokens: 0,
      created_at: answer.data.created_at,
    });
    expect(run.json.finished_at).toBeGreaterThanOrEqual(run.json.created_at);
    expect(run.json.elapsed_time).toBeGreaterThanOrEqual(0);

    const unknown = await call(server, `/v1/workflows/run/${"0".repeat(32)}-000000000000`, { key: server.key });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: "not_found", status: 404 });
  });

  it("another tenant's key does not find the run", async () => {
    const store = new InProcessServerStore();
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "conditional_hello_branching_workflow", store });
    const answer = (await workflowClient(server).runWorkflow({ query: "hello" }, "ada")).data;
    const { addKey } = await import("../helpers/server.js");
    const other = await addKey(store, "t2");
    const foreign = await call(server, `/v1/workflows/run/${answer.workflow_run_id}`, { key: other });
    expect(foreign.status).toBe(404);
  });

  it("a failed run is kept too: its status and error", async () => {
    const url = await standIn((_request, response) => {
      response.statusCode = 500;
      response.end("down");
    });
    const server = await startTestServer({ agentsDir: agentsDir({ retries: retryingWorkflow(url) }), difyApp: "retries", allowPrivateNetwork: true });
    const answer = (await workflowClient(server).runWorkflow({}, "ada")).data;
    expect(answer.data.status).toBe("failed");
    const run = await call(server, `/v1/workflows/run/${answer.workflow_run_id}`, { key: server.key });
    expect(run.json).toMatchObject({ status: "failed", error: answer.data.error });
    expect(run.json.error).toContain("500");
  });

  it("stop through another server process on the same store: the run ends stopped; stopping a finished run is a no-op success", async () => {
    const { running, other } = await twoProcessesOneStore();
    const answer = await workflowClient(running).runWorkflow({}, "ada", true);
    const sent: Sent[] = [];
    let stopped: { status: number; json: unknown } | undefined;
    const parser = createParser({ onEvent: (message) => void (message.event !== "ping" && sent.push(JSON.parse(message.data) as Sent)) });
    for await (const chunk of answer.data as Readable) {
      parser.feed(chunk.toString());
      const waiting = sent.find((e) => e.event === "node_started" && e.data.node_id === "http");
      if (waiting && !stopped) {
        const taskId = waiting.task_id as string;
        expect(taskId).toBe(waiting.workflow_run_id);
        const foreign = await call(other, `/v1/workflows/tasks/${taskId}/stop`, { method: "POST", key: running.key, body: { user: "bob" } });
        expect(foreign.status).toBe(404);
        stopped = await call(other, `/v1/workflows/tasks/${taskId}/stop`, { method: "POST", key: running.key, body: { user: "ada" } });
      }
    }
    expect(stopped).toMatchObject({ status: 200, json: { result: "success" } });
    const finished = sent.at(-1)!;
    expect(finished).toMatchObject({ event: "workflow_finished", data: { status: "stopped" } });
    const run = await call(other, `/v1/workflows/run/${finished.workflow_run_id as string}`, { key: running.key });
    expect(run.json).toMatchObject({ status: "stopped" });
    const late = await call(other, `/v1/workflows/tasks/${finished.task_id as string}/stop`, { method: "POST", key: running.key, body: { user: "ada" } });
    expect(late).toMatchObject({ status: 200, json: { result: "success" } });
  });
});

/**
 * Two server processes on one store serving the waiting workflow (its HTTP step waits on a
 * server that never answers): `running` is given the run, `other` is the second process.
 */
async function twoProcessesOneStore() {
  const silent = await standIn(() => undefined);
  const store = new InProcessServerStore();
  const dir = agentsDir({ waits: waitingWorkflow(silent) });
  const running = await startTestServer({ agentsDir: dir, difyApp: "waits", allowPrivateNetwork: true, store });
  const other = await startTestServer({ agentsDir: dir, difyApp: "waits", allowPrivateNetwork: true, store, keys: false });
  return { running, other };
}

describe("a run id the session never made", () => {
  /** The id of no run: the real run's session and a suffix it did not get. */
  function madeUp(runId: string): string {
    const id = `${runId.slice(0, 32)}-000000000000`;
    expect(id).not.toBe(runId);
    return id;
  }

  it("is 404 not_found, here and in another process, while the session's real run is in flight and reads running; stopping it is 404 and leaves the run going; the run then stops and reads with its summary", async () => {
    const { running, other } = await twoProcessesOneStore();
    const answer = await workflowClient(running).runWorkflow({}, "ada", true);
    const sent: Sent[] = [];
    let checked = false;
    const parser = createParser({ onEvent: (message) => void (message.event !== "ping" && sent.push(JSON.parse(message.data) as Sent)) });
    for await (const chunk of answer.data as Readable) {
      parser.feed(chunk.toString());
      const waiting = sent.find((e) => e.event === "node_started" && e.data.node_id === "http");
      if (!waiting || checked) continue;
      checked = true;
      const runId = waiting.workflow_run_id as string;
      const fake = madeUp(runId);
      for (const server of [running, other]) {
        const real = await call(server, `/v1/workflows/run/${runId}`, { key: running.key });
        expect(real).toMatchObject({ status: 200, json: { id: runId, status: "running" } });
        const unknown = await call(server, `/v1/workflows/run/${fake}`, { key: running.key });
        expect(unknown.status).toBe(404);
        expect(unknown.json).toMatchObject({ code: "not_found", status: 404, message: `Workflow run ${fake} not found.` });
        for (const path of [`/v1/workflows/tasks/${fake}/stop`, `/v1/chat-messages/${fake}/stop`]) {
          const stop = await call(server, path, { method: "POST", key: running.key, body: { user: "ada" } });
          expect(stop.status).toBe(404);
          expect(stop.json).toMatchObject({ code: "not_found" });
        }
      }
      // A cancel would have ended the run by now: it is still waiting on its step.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sent.some((e) => e.event === "workflow_finished")).toBe(false);
      expect((await call(other, `/v1/workflows/run/${runId}`, { key: running.key })).json).toMatchObject({ status: "running" });
      const stopped = await call(other, `/v1/workflows/tasks/${runId}/stop`, { method: "POST", key: running.key, body: { user: "ada" } });
      expect(stopped).toMatchObject({ status: 200, json: { result: "success" } });
    }
    expect(checked).toBe(true);
    const finished = sent.at(-1)!;
    expect(finished).toMatchObject({ event: "workflow_finished", data: { status: "stopped" } });
    const runId = finished.workflow_run_id as string;
    for (const server of [running, other]) {
      expect((await call(server, `/v1/workflows/run/${runId}`, { key: running.key })).json).toMatchObject({ id: runId, status: "stopped", total_steps: 2 });
      expect((await call(server, `/v1/workflows/run/${madeUp(runId)}`, { key: running.key })).status).toBe(404);
    }
  });

  it("an ended run whose summary was not kept reads from the session's log; a made-up id of that session is still 404", async () => {
    const store = new InProcessServerStore();
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "conditional_hello_branching_workflow", store });
    const answer = (await workflowClient(server).runWorkflow({ query: "hello world" }, "ada")).data;
    const runId = answer.workflow_run_id as string;
    const kept = await call(server, `/v1/workflows/run/${runId}`, { key: server.key });
    // As if the summary could not be kept (a store failure when the run ended).
    const record = (await store.sessions.get("t1", runId.slice(0, 32)))!;
    await store.sessions.update("t1", record.id, { message: record.message.map(({ run: _run, ...m }) => m) }, Date.now());
    const logged = await call(server, `/v1/workflows/run/${runId}`, { key: server.key });
    expect(logged.status).toBe(200);
    const { finished_at: _finished, ...rest } = kept.json as Record<string, unknown>;
    expect(logged.json).toMatchObject({ ...rest, status: "succeeded", outputs: { true: "hello world" } });
    expect(logged.json.finished_at).toBeGreaterThanOrEqual(logged.json.created_at);
    expect((await call(server, `/v1/workflows/run/${madeUp(runId)}`, { key: server.key })).status).toBe(404);
  });
});

describe("uploads in the server's store", () => {
  /** A chatflow that answers with the names and texts of sys.files. */
  const FILES_CHATFLOW = difyApp(
    [
      { id: "start", type: "start", variables: [] },
      { id: "say", type: "answer", answer: "{{#sys.files#}}" },
    ],
    [edge("start", "say")],
    { mode: "advanced-chat" },
  );

  it("a file uploaded before a restart is found by the next server on the same data folder; another tenant's key cannot use it", async () => {
    const data = join(scratch.dir, `data-${Math.random().toString(36).slice(2)}`);
    const dir = agentsDir({ files: FILES_CHATFLOW });
    const first = await startTestServer({ agentsDir: dir, difyApp: "files", store: new SqliteServerStore({ file: join(data, "canvasflow.db") }) });
    const form = new FormData();
    form.append("file", new Blob(["kept across a restart"], { type: "text/plain" }), "kept.txt");
    form.append("user", "ada");
    const uploaded = await new ChatClient(first.key, `${first.base}/v1`).fileUpload(form as never);
    expect(uploaded.status).toBe(201);
    const id = (uploaded.data as { id: string }).id;
    await first.close();

    const secondStore = new SqliteServerStore({ file: join(data, "canvasflow.db") });
    const second = await startTestServer({ agentsDir: dir, difyApp: "files", store: secondStore, keys: false });
    const chat = new ChatClient(first.key, `${second.base}/v1`);
    const files = [{ type: "document", transfer_method: "local_file", upload_file_id: id }];
    const answer = await chat.createChatMessage({}, "read it", "ada", false, null, files as never);
    expect(answer.data.answer).toContain("kept across a restart");
    expect(answer.data.answer).toContain("kept.txt");

    const { addKey } = await import("../helpers/server.js");
    const otherTenant = new ChatClient(await addKey(secondStore, "t2"), `${second.base}/v1`);
    const refused = await otherTenant.createChatMessage({}, "read it", "ada", false, null, files as never).catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(refused.status).toBe(404);
    expect((refused.data as { message: string }).message).toContain("upload_file_id");
  });
});

describe("app info, feedback, completion-messages", () => {
  it("GET /v1/info: the app's name, description, tags and mode", async () => {
    const server = await startTestServer({ agentsDir: agentsDir({ retries: retryingWorkflow("http://127.0.0.1:9/") }), difyApp: "retries" });
    const info = await call(server, "/v1/info", { key: server.key });
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ name: "retries", description: "the retries app", tags: [], mode: "workflow" });
  });

  it("messageFeedback: a like with a comment is kept on the message, shown in the messages and the app's feedback list; null takes it back", async () => {
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "graphon__slim_llm_graph", canvas: { services: { llm: (await startMockLlm()).provider } } });
    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const first = (await chat.createChatMessage({}, "hi", "ada")).data;
    const messageId = first.message_id as string;
    expect(first.task_id).toBe(messageId);
    const liked = await chat.messageFeedback(messageId, "like" as never, "ada");
    expect(liked.data).toEqual({ result: "success" });
    const messages = await chat.getConversationMessages("ada", first.conversation_id as string);
    expect(messages.data.data[0]).toMatchObject({ id: messageId, feedback: { rating: "like" } });

    const commented = await call(server, `/v1/messages/${messageId}/feedbacks`, { method: "POST", key: server.key, body: { rating: "dislike", user: "ada", content: "too short" } });
    expect(commented.json).toEqual({ result: "success" });
    const listed = await call(server, "/v1/app/feedbacks?page=1&limit=20", { key: server.key });
    expect(listed.json.data).toEqual([expect.objectContaining({ message_id: messageId, conversation_id: first.conversation_id, rating: "dislike", content: "too short", from_end_user_id: "ada" })]);

    const foreign = await chat.messageFeedback(messageId, "like" as never, "bob").catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(foreign.status).toBe(404);
    expect(foreign.data).toMatchObject({ code: "not_found", message: "Message Not Exists." });
    const bad = await call(server, `/v1/messages/${messageId}/feedbacks`, { method: "POST", key: server.key, body: { rating: "meh", user: "ada" } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: "invalid_param" });
    expect(bad.json.message).toContain("rating");

    await call(server, `/v1/messages/${messageId}/feedbacks`, { method: "POST", key: server.key, body: { rating: null, user: "ada" } });
    expect((await call(server, "/v1/app/feedbacks", { key: server.key })).json.data).toEqual([]);
  });

  it("createCompletionMessage: 400 app_unavailable in Dify's shape, naming the route to use", async () => {
    const server = await startTestServer({ agentsDir: agentsDir(), difyApp: "conditional_hello_branching_workflow" });
    const refused = await new CompletionClient(server.key, `${server.base}/v1`).createCompletionMessage({ query: "hi" }, "ada").catch((e: { response: { status: number; data: unknown } }) => e.response);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ code: "app_unavailable", status: 400 });
    expect((refused.data as { message: string }).message).toContain("/workflows/run");
    const params = await new DifyClient(server.key, `${server.base}/v1`).getApplicationParameters("ada");
    expect(params.status).toBe(200);
  });
});
