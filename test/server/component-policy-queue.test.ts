/**
 * The component policy under `serve --queue` (real Redis under a prefix of this file): the server
 * refuses a turn of a denied agent before anything is enqueued, and a worker that runs with the
 * same policy ends the run of a session whose DSL the policy denies the job's tenant (a session
 * older than its agent's DSL, or a server that runs without the policy), with the same message.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createWorker, type RunWorker } from "../../src/worker/worker.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import { ComponentPolicy } from "../../src/policy/policy.js";
import { defaultRegistry } from "../../src/api.js";
import type { ComponentPolicyConfig } from "../../src/config/types.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { clearQueueTest, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { addKey, call, createAgent, frames, startTestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

const prefix = uniqueTestPrefix();
const queues: RunQueue[] = [];
const workers: RunWorker[] = [];

afterAll(() => clearQueueTest(workers, queues, prefix), 60_000);

const DENY_CODE: ComponentPolicyConfig = { components: { deny: ["CodeExec"] } };

function codeCanvas() {
  return canvasDsl({
    begin: node("Begin", {}, ["CodeExec:Calc"]),
    "CodeExec:Calc": node("CodeExec", { lang: "javascript", script: "function main() { return 1; }", outputs: { result: { type: "Number", value: "" } } }, ["Message:Out"]),
    "Message:Out": node("Message", { content: ["{CodeExec:Calc@result}"] }),
  });
}

function openQueue(name: string): RunQueue {
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: name });
  queues.push(queue);
  return queue;
}

async function startWorker(name: string, policy: ComponentPolicyConfig | undefined): Promise<RunWorker> {
  const worker = await createWorker({ redis: TEST_REDIS_URL, prefix, queue: name, lockDurationMs: 10_000, ...(policy ? { policy: ComponentPolicy.resolve(policy, { registry: defaultRegistry, mcpServers: [] }) } : {}) });
  workers.push(worker);
  return worker;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const streamed = (text: string): any[] => frames(text).map((frame) => frame.replace(/^data:/, "")).filter((part) => part !== "[DONE]").map((part) => JSON.parse(part));

describe("the component policy with a run queue", () => {
  it("the server refuses a turn of a denied agent with the envelope, before anything is enqueued", async () => {
    const store = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
    const before = await startTestServer({ store, queue: openQueue("server-side") });
    const agentId = await createAgent(before, codeCanvas());
    const queue = openQueue("server-side");
    const after = await startTestServer({ store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), keys: false, queue, policy: DENY_CODE });
    const answer = await call(after, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "go" }, key: before.key });
    expect(answer.json).toMatchObject({ code: 103, data: { denied: [{ component_id: "CodeExec:Calc", rule: "server.policy.components.deny" }] } });
    expect(await queue.queue.getJobCounts()).toMatchObject({ waiting: 0, active: 0, completed: 0, failed: 0 });
  }, 60_000);

  it("a worker with the policy ends the run of a session whose DSL it denies the job's tenant, with the server's message", async () => {
    const queue = openQueue("worker-side");
    // The server itself runs without the policy: the worker is where it holds.
    const server = await startTestServer({ store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), queue });
    const other = await addKey(server.store, "t2");
    await startWorker("worker-side", { tenants: { t1: { components: { deny: ["CodeExec"] } } } });
    const agentId = await createAgent(server, codeCanvas());
    const turn = streamed((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "go", stream: true } })).text);
    const last = turn.at(-1);
    expect(last.event).toBe("workflow_finished");
    expect(last.data.error).toBe('This server\'s component policy denies what the DSL uses: component CodeExec:Calc (component_name "CodeExec") is denied by server.policy.tenants.t1.components.deny');
    expect(turn.filter((e) => e.event === "node_started")).toEqual([]);
    // The message is the one a server with that policy answers with.
    const refusing = await startTestServer({ store: new InProcessServerStore(), policy: { tenants: { t1: { components: { deny: ["CodeExec"] } } } } });
    const written = await call(refusing, "/api/v1/agents", { body: { title: "calc", dsl: codeCanvas() } });
    expect(written.json.message).toBe(last.data.error);
    // Another tenant's run of the same DSL goes on.
    const theirs = await createAgent(server, codeCanvas(), "theirs", other);
    const ran = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: theirs, query: "go" }, key: other });
    expect(ran.json).toMatchObject({ code: 0, data: { data: { content: "1" } } });
  }, 60_000);

  it("a session older than its agent's DSL: the server lets the turn through, the worker refuses it", async () => {
    // Before the policy: the agent, a session of it, then the agent changed.
    const before = await startTestServer({ store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), queue: openQueue("old-session") });
    const agentId = await createAgent(before, codeCanvas());
    const session = (await call(before, `/api/v1/agents/${agentId}/sessions`, { body: {} })).json.data.id as string;
    expect((await call(before, `/api/v1/agents/${agentId}`, { method: "PUT", body: { dsl: hello() } })).json.code).toBe(0);
    const server = await startTestServer({ store: new RedisServerStore({ url: TEST_REDIS_URL, prefix }), keys: false, queue: openQueue("old-session"), policy: DENY_CODE });
    server.key = before.key;
    await startWorker("old-session", DENY_CODE);
    const turn = streamed((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: session, query: "go", stream: true } })).text);
    expect(turn.at(-1).data.error).toContain("component CodeExec:Calc (component_name \"CodeExec\") is denied by server.policy.components.deny");
    // A new session runs the agent's DSL as it is now.
    const fresh = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada" } });
    expect(fresh.json).toMatchObject({ code: 0, data: { data: { content: "Hello, Ada! This is turn 1." } } });
  }, 60_000);
});
