/**
 * The transport-independent turn (src/server/turn.ts): a turn given up before its events were
 * read lets its session go (a generator that never started never runs its `finally`); a turn
 * holds its place among the setups (limits.setupsAtOnce) until its run's first event, never longer.
 */
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { defaultRegistry, MemoryServerStore } from "../../src/index.js";
import { AgentCatalog } from "../../src/server/agent-catalog.js";
import { CompiledAgents } from "../../src/server/compiled-agents.js";
import { ComponentPolicy } from "../../src/policy/policy.js";
import { ActiveRuns, type ServerContext } from "../../src/server/context.js";
import { ServerMetrics } from "../../src/server/metrics.js";
import { SetupGate } from "../../src/server/setup-gate.js";
import { MemoryKeySlots, RunAdmission } from "../../src/server/run-slots.js";
import { DEFAULT_LIMITS, DEFAULT_RATE_LIMITS } from "../../src/server/settings.js";
import { Shutdown } from "../../src/server/shutdown.js";
import { startTurn } from "../../src/server/turn.js";
import { settled } from "../helpers/settled.js";
import { hello } from "./canvases.js";

function context(setupsAtOnce = DEFAULT_LIMITS.setupsAtOnce): ServerContext {
  const store = new MemoryServerStore();
  const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined, child: () => quiet } as unknown as FastifyBaseLogger;
  const metrics = new ServerMetrics();
  return {
    store,
    agents: new AgentCatalog(store.agents),
    registry: defaultRegistry,
    compiled: new CompiledAgents(defaultRegistry),
    canvas: {},
    runs: new ActiveRuns(),
    keepRunningOnDisconnect: false,
    shutdown: new Shutdown(),
    version: "test",
    now: Date.now,
    log: quiet,
    limits: { ...DEFAULT_LIMITS, setupsAtOnce },
    policy: ComponentPolicy.OPEN,
    setups: new SetupGate(setupsAtOnce),
    admission: new RunAdmission(DEFAULT_RATE_LIMITS, new MemoryKeySlots(), (kind) => metrics.rateLimited(kind)),
    metrics,
  };
}

async function agent(ctx: ServerContext): Promise<string> {
  const now = Date.now();
  const created = await ctx.store.agents.create({ id: "a".repeat(32), tenant: "t1", title: "hello", description: "", dsl: hello() as never, canvas_type: "", avatar: null, create_time: now, update_time: now });
  return created.id;
}

describe("a turn", () => {
  it("given up before its events were read, lets its session go", async () => {
    const ctx = context();
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
    const ctx = context();
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
    const ctx = context(1);
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

  it("a setup that fails (no such agent) gives its place back", async () => {
    const ctx = context(1);
    const agentId = await agent(ctx);
    await expect(startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId: "f".repeat(32), query: "Ada" })).rejects.toThrow("Make sure you have permission to access the agent.");
    const turn = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Bob" });
    for await (const _ of turn.events);
    expect(turn.transcript.content).toBe("Hello, Bob! This is turn 1.");
  });

  it("a turn given up before its events gives its place back", async () => {
    const ctx = context(1);
    const agentId = await agent(ctx);
    const first = await startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Ada" });
    const second = startTurn(ctx, { tenant: "t1", caller: "key:k1", agentId, query: "Bob" });
    await first.abandon();
    expect(await settled(second)).toBe(true);
    for await (const _ of (await second).events);
  });
});
