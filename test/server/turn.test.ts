/**
 * The transport-independent turn (src/server/turn.ts): a turn given up before its events were
 * read lets its session go (a generator that never started never runs its `finally`); a turn
 * holds its place among the setups (limits.setupsAtOnce) until its run's first event, never longer.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/api.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import type { ServerContext } from "../../src/server/context.js";
import { startTurn } from "../../src/server/turn.js";
import { testServerContext } from "../helpers/server-context.js";
import { settled } from "../helpers/settled.js";
import { hello } from "./canvases.js";


async function agent(ctx: ServerContext): Promise<string> {
  const now = Date.now();
  const created = await ctx.store.agents.create({ id: "a".repeat(32), tenant: "t1", title: "hello", description: "", dsl: hello() as never, canvas_type: "", avatar: null, create_time: now, update_time: now });
  return created.id;
}

describe("a turn", () => {
  it("given up before its events were read, lets its session go", async () => {
    const ctx = testServerContext();
    const agentId = await agent(ctx);
    const first = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Ada" });
    await first.abandon();
    const again = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, sessionId: first.sessionId, query: "Bob" });
    const events = [];
    for await (const event of again.events) events.push(event);
    expect(events.at(-1)?.event).toBe("workflow_finished");
    expect(again.transcript.content).toBe("Hello, Bob! This is turn 1.");
    // After its events, abandoning is a no-op, and the session is free.
    await again.abandon();
    const lock = await ctx.store.runs.lock(first.sessionId);
    await lock.release();
  });

  it("read to the end, releases its session once", async () => {
    const ctx = testServerContext();
    const agentId = await agent(ctx);
    const turn = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Ada" });
    for await (const _ of turn.events);
    expect(ctx.runs.size).toBe(0);
    const lock = await ctx.store.runs.lock(turn.sessionId);
    await lock.release();
  });
});

describe("setups at once (limits.setupsAtOnce: 1)", () => {
  it("the next turn sets up once the first's run has sent its first event, while that run still goes on", async () => {
    const ctx = testServerContext({ limits: { setupsAtOnce: 1 } });
    const agentId = await agent(ctx);
    const first = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Ada" });
    const second = startTurn(ctx, { tenant: "t1", caller: "key:k2", agentId, query: "Bob" });
    expect(await settled(second)).toBe(false);
    const firstEvents = first.events[Symbol.asyncIterator]();
    expect((await firstEvents.next()).value?.event).toBe("workflow_started");
    expect(await settled(second)).toBe(true);
    expect(ctx.runs.size).toBe(2);
    for await (const _ of (await second).events);
    for (let step = await firstEvents.next(); !step.done; step = await firstEvents.next());
    expect(first.transcript.content).toBe("Hello, Ada! This is turn 1.");
  });

  it("a session whose messages reach limits.sessionMessageChars is refused its next turn, naming the setting; it takes no place", async () => {
    // The prologue (43 characters), "Ada" and "Hello, Ada! This is turn 1." make 73.
    const ctx = testServerContext({ limits: { sessionMessageChars: 73, setupsAtOnce: 1 } });
    const agentId = await agent(ctx);
    const first = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Ada" });
    for await (const _ of first.events);
    await expect(startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, sessionId: first.sessionId, query: "Bob" })).rejects.toMatchObject({
      code: 103,
      message: `session ${first.sessionId} is full: its messages hold 73 characters, the most a session may hold is 73 (server.limits.sessionMessageChars); start a new session`,
    });
    const fresh = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Cy" });
    for await (const _ of fresh.events);
    expect(fresh.transcript.content).toBe("Hello, Cy! This is turn 1.");
  });

  it("a setup that fails (no such agent) gives its place back", async () => {
    const ctx = testServerContext({ limits: { setupsAtOnce: 1 } });
    const agentId = await agent(ctx);
    await expect(startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId: "f".repeat(32), query: "Ada" })).rejects.toThrow("Make sure you have permission to access the agent.");
    const turn = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Bob" });
    for await (const _ of turn.events);
    expect(turn.transcript.content).toBe("Hello, Bob! This is turn 1.");
  });

  it("a turn given up before its events gives its place back", async () => {
    const ctx = testServerContext({ limits: { setupsAtOnce: 1 } });
    const agentId = await agent(ctx);
    const first = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Ada" });
    const second = startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Bob" });
    await first.abandon();
    expect(await settled(second)).toBe(true);
    for await (const _ of (await second).events);
  });
});
