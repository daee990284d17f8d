/**
 * A queued turn (`serve --queue`, src/server/queued-turn.ts) keeps its messages as an in-process
 * turn does (issue 24, item 12): they are in the session's record before message_end and
 * workflow_finished reach the client, so a client that stops at message_end, or a server killed
 * after sending the end, never leaves a finished turn out of the session's messages. A session
 * holding `limits.sessionMessageChars` is refused a new turn here too. Real Redis, a worker in
 * this process.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createWorker, type RunWorker } from "../../src/worker/index.js";
import { RunQueue } from "../../src/worker/run-queue.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { startQueuedTurn } from "../../src/server/queued-turn.js";
import { clearQueueTest, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { allEvents, testAgent, testServerContext, turnInput } from "../helpers/server-context.js";
import { hello } from "./canvases.js";

const prefix = uniqueTestPrefix();
const queues: RunQueue[] = [];
const workers: RunWorker[] = [];
const stores: RedisServerStore[] = [];

afterAll(async () => {
  await clearQueueTest(workers, queues, prefix);
  await Promise.all(stores.map((store) => store.close()));
}, 60_000);

async function queued(name: string, agentId: string, limits: { sessionMessageChars?: number } = {}) {
  const queue = new RunQueue({ redis: TEST_REDIS_URL, prefix, queue: name });
  queues.push(queue);
  workers.push(await createWorker({ redis: TEST_REDIS_URL, prefix, queue: name, canvas: {}, lockDurationMs: 10_000 }));
  const store = new RedisServerStore({ url: TEST_REDIS_URL, prefix });
  stores.push(store);
  const ctx = testServerContext({ store, limits });
  return { ctx, queue, agentId: await testAgent(ctx, hello(), { id: agentId }) };
}

describe("a queued turn's messages", () => {
  it("are in the session's record before message_end and workflow_finished go out", async () => {
    const { ctx, queue, agentId } = await queued("record", "a".repeat(32));
    const first = await startQueuedTurn(ctx, queue, turnInput(agentId, "Ada"));
    await allEvents(first.events);
    const sessions = ctx.store.sessions;
    const update = sessions.update.bind(sessions);
    const delivered: string[] = [];
    let deliveredAtUpdate: string[] | undefined;
    sessions.update = async (...args) => {
      deliveredAtUpdate ??= [...delivered];
      return update(...args);
    };
    const turn = await startQueuedTurn(ctx, queue, turnInput(agentId, "Bob", first.sessionId));
    for await (const event of turn.events) delivered.push(event.event);
    expect(delivered).toContain("message_end");
    expect(delivered.at(-1)).toBe("workflow_finished");
    expect(deliveredAtUpdate).toBeDefined();
    expect(deliveredAtUpdate).not.toContain("message_end");
    expect(deliveredAtUpdate).not.toContain("workflow_finished");
    const record = await sessions.get("t1", first.sessionId);
    expect(record!.message.slice(1).map((m) => m.content)).toEqual(["Ada", "Hello, Ada! This is turn 1.", "Bob", "Hello, Bob! This is turn 2."]);
  }, 60_000);

  it("a session whose messages reach limits.sessionMessageChars is refused its next turn, naming the setting", async () => {
    // The prologue (43 characters), "Ada" and "Hello, Ada! This is turn 1." make 73.
    const { ctx, queue, agentId } = await queued("full", "b".repeat(32), { sessionMessageChars: 60 });
    const first = await startQueuedTurn(ctx, queue, turnInput(agentId, "Ada"));
    await allEvents(first.events);
    await expect(startQueuedTurn(ctx, queue, turnInput(agentId, "Bob", first.sessionId))).rejects.toMatchObject({
      code: 103,
      message: `session ${first.sessionId} is full: its messages hold 73 characters, the most a session may hold is 60 (server.limits.sessionMessageChars); start a new session`,
    });
    // The refused turn took nothing: a new session of the agent runs.
    const fresh = await startQueuedTurn(ctx, queue, turnInput(agentId, "Cy"));
    await allEvents(fresh.events);
    expect(fresh.transcript.content).toBe("Hello, Cy! This is turn 1.");
  }, 60_000);
});
