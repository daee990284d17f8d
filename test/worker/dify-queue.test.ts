/**
 * Dify's service API under `serve --queue`: its runs go through the run queue to a worker, as
 * RAGFlow's turns do (real Redis, a prefix of this file; the worker in this process). The run's
 * id is the job's id; a chatflow keeps its conversation across turns run by the worker; the stop
 * endpoint cancels the run's own job.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { ChatClient, CompletionClient } from "dify-client";
import { createParser } from "eventsource-parser";
import { stringify } from "yaml";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createWorker, type RunWorker } from "../../src/worker/worker.js";
import { enqueueRun } from "../../src/worker/enqueue.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import { corpusPath } from "../helpers/corpus.js";
import { MEMORY_CHATFLOW, waitingWorkflow } from "../helpers/dify.js";
import { connectTestRedis, deleteKeys, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";
import { call, startTestServer, type TestServer } from "../helpers/server.js";

const prefix = uniqueTestPrefix();
const scratch = scratchDir("cf-dify-queue-");
const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix });
const workers: RunWorker[] = [];
const stand: Server[] = [];

afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close({ graceMs: 0 });
  for (const server of stand.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

afterAll(async () => {
  await queue.queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  const admin = await connectTestRedis();
  await deleteKeys(admin, prefix);
  admin.disconnect();
  rmSync(scratch.dir, { recursive: true, force: true });
}, 60_000);

async function queuedServer(app: string, extra: Record<string, Record<string, unknown>> = {}): Promise<TestServer> {
  const dir = join(scratch.dir, `agents-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hello.yml"), readFileSync(corpusPath("dify", "conditional_hello_branching_workflow.yml")));
  writeFileSync(join(dir, "memory.yml"), stringify(MEMORY_CHATFLOW));
  for (const [name, document] of Object.entries(extra)) writeFileSync(join(dir, `${name}.yml`), stringify(document));
  const store = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
  workers.push(await createWorker({ redis: TEST_REDIS_URL, prefix, lockDurationMs: 4000, graceMs: 2000, canvas: { services: { http: { allowPrivateNetwork: true } } } }));
  return startTestServer({ agentsDir: dir, difyApp: app, store, queue, allowPrivateNetwork: true });
}

type Sent = Record<string, unknown> & { event: string; data: Record<string, unknown> };

describe("Dify's API under serve --queue", () => {
  it("runWorkflow: the run is a job of the queue, run by the worker; its id is the job's id and the run's lookup key", async () => {
    const server = await queuedServer("hello");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const client = new CompletionClient(server.key, `${server.base}/v1`) as CompletionClient & { runWorkflow(inputs: Record<string, unknown>, user: string, stream?: boolean): Promise<{ data: Record<string, any> }> };
    const answer = (await client.runWorkflow({ query: "hello world" }, "ada")).data;
    expect(answer.data).toMatchObject({ status: "succeeded", outputs: { true: "hello world" } });
    expect(answer.task_id).toBe(answer.workflow_run_id);
    const job = await queue.queue.getJob(answer.task_id as string);
    expect(job?.id).toBe(answer.task_id);
    expect(await job?.getState()).toBe("completed");
    const run = await call(server, `/v1/workflows/run/${answer.workflow_run_id as string}`, { key: server.key });
    expect(run.json).toMatchObject({ status: "succeeded", outputs: { true: "hello world" } });
  });

  it("createChatMessage over two turns on the worker: the conversation's variables and dialogue count carry over", async () => {
    const server = await queuedServer("memory");
    const chat = new ChatClient(server.key, `${server.base}/v1`);
    const first = (await chat.createChatMessage({}, "one", "ada")).data;
    expect(first.answer).toBe("before: none yet (turn 1)");
    const second = await chat.createChatMessage({}, "two", "ada", true, first.conversation_id);
    const sent: Sent[] = [];
    const parser = createParser({ onEvent: (m) => void (m.event !== "ping" && sent.push(JSON.parse(m.data) as Sent)) });
    for await (const chunk of second.data as Readable) parser.feed(chunk.toString());
    expect(sent.filter((e) => e.event === "message").map((e) => e.answer).join("")).toBe("before: one (turn 2)");
    expect(sent.slice(-2).map((e) => e.event)).toEqual(["workflow_finished", "message_end"]);
    expect(await queue.queue.getJob(sent[0].task_id as string)).toBeDefined();
  });

  it("stop: the run's own job is cancelled on its worker; the stream ends stopped", async () => {
    const silent = createHttpServer(() => undefined);
    stand.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const server = await queuedServer("waits", { waits: waitingWorkflow(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`) });
    const client = new CompletionClient(server.key, `${server.base}/v1`) as CompletionClient & { runWorkflow(inputs: Record<string, unknown>, user: string, stream?: boolean): Promise<{ data: unknown }> };
    const answer = await client.runWorkflow({}, "ada", true);
    const sent: Sent[] = [];
    let stopped: { status: number; json: unknown } | undefined;
    const parser = createParser({ onEvent: (m) => void (m.event !== "ping" && sent.push(JSON.parse(m.data) as Sent)) });
    for await (const chunk of answer.data as Readable) {
      parser.feed(chunk.toString());
      const waiting = sent.find((e) => e.event === "node_started" && e.data.node_id === "http");
      if (waiting && !stopped) stopped = await call(server, `/v1/workflows/tasks/${waiting.task_id as string}/stop`, { method: "POST", key: server.key, body: { user: "ada" } });
    }
    expect(stopped).toMatchObject({ status: 200, json: { result: "success" } });
    expect(sent.at(-1)).toMatchObject({ event: "workflow_finished", data: { status: "stopped" } });
  });

  it("a run id the session never made is 404 for GET and stop in any server; the real run, waiting on the queue or on a worker, reads running; stopped, it reads stopped", async () => {
    const silent = createHttpServer(() => undefined);
    stand.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const dir = join(scratch.dir, `agents-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "waits.yml"), stringify(waitingWorkflow(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`)));
    // No worker yet: the run waits on the queue.
    const server = await startTestServer({ agentsDir: dir, difyApp: "waits", store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), queue, allowPrivateNetwork: true });
    const other = await startTestServer({ agentsDir: dir, difyApp: "waits", store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), queue, allowPrivateNetwork: true, keys: false });
    const client = new CompletionClient(server.key, `${server.base}/v1`) as CompletionClient & { runWorkflow(inputs: Record<string, unknown>, user: string, stream?: boolean): Promise<{ data: unknown }> };
    const answer = client.runWorkflow({}, "ada", true);
    let runId: string | undefined;
    for (let tries = 0; runId === undefined && tries < 100; tries++) {
      runId = (await queue.queue.getJobs(["waiting"])).find((job) => job?.data?.agent !== undefined)?.id;
      if (runId === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(runId).toMatch(/^[0-9a-f]{32}-[0-9a-f]{12}$/);
    const fake = `${runId!.slice(0, 32)}-000000000000`;
    expect(fake).not.toBe(runId);
    const lookups = async () => {
      for (const at of [server, other]) {
        expect((await call(at, `/v1/workflows/run/${runId!}`, { key: server.key })).json).toMatchObject({ id: runId, status: "running" });
        expect((await call(at, `/v1/workflows/run/${fake}`, { key: server.key })).json).toMatchObject({ code: "not_found", status: 404 });
        const stop = await call(at, `/v1/workflows/tasks/${fake}/stop`, { method: "POST", key: server.key, body: { user: "ada" } });
        expect(stop.json).toMatchObject({ code: "not_found", status: 404 });
      }
    };
    await lookups();
    expect(await queue.queue.getJobState(runId!)).toBe("waiting");

    workers.push(await createWorker({ redis: TEST_REDIS_URL, prefix, lockDurationMs: 4000, graceMs: 2000, canvas: { services: { http: { allowPrivateNetwork: true } } } }));
    const sent: Sent[] = [];
    let checked = false;
    const parser = createParser({ onEvent: (m) => void (m.event !== "ping" && sent.push(JSON.parse(m.data) as Sent)) });
    for await (const chunk of (await answer).data as Readable) {
      parser.feed(chunk.toString());
      if (checked || !sent.some((e) => e.event === "node_started" && e.data.node_id === "http")) continue;
      checked = true;
      await lookups();
      expect(await queue.queue.getJobState(runId!)).toBe("active");
      const stopped = await call(other, `/v1/workflows/tasks/${runId!}/stop`, { method: "POST", key: server.key, body: { user: "ada" } });
      expect(stopped).toMatchObject({ status: 200, json: { result: "success" } });
    }
    expect(checked).toBe(true);
    expect(sent.at(-1)).toMatchObject({ event: "workflow_finished", workflow_run_id: runId, data: { status: "stopped" } });
    expect((await call(other, `/v1/workflows/run/${runId!}`, { key: server.key })).json).toMatchObject({ status: "stopped" });
    expect((await call(other, `/v1/workflows/run/${fake}`, { key: server.key })).status).toBe(404);
  });

  it("enqueueRun refuses a job id that is not 1 to 128 letters, digits, '-' or '_', naming it, before anything is written", async () => {
    const store = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
    try {
      const error = await enqueueRun({ session: "dify-queue-bad-id", dsl: corpusPath("dify", "conditional_hello_branching_workflow.yml"), query: "hi" }, { queue, store: store.runs, jobId: "a:b" }).catch((e: unknown) => e);
      expect((error as Error).message).toBe('jobId must be 1 to 128 letters, digits, \'-\' or \'_\', got "a:b"');
      expect(await store.runs.load("dify-queue-bad-id")).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
