/**
 * The transport-independent turn (src/server/turn.ts): a turn given up before its events were
 * read lets its session go (a generator that never started never runs its `finally`).
 */
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { defaultRegistry, MemoryServerStore } from "../../src/index.js";
import { AgentCatalog } from "../../src/server/agent-catalog.js";
import { CompiledAgents } from "../../src/server/compiled-agents.js";
import { ActiveRuns, type ServerContext } from "../../src/server/context.js";
import { ServerMetrics } from "../../src/server/metrics.js";
import { MemoryKeySlots, RunAdmission } from "../../src/server/run-slots.js";
import { DEFAULT_LIMITS, DEFAULT_RATE_LIMITS } from "../../src/server/settings.js";
import { Shutdown } from "../../src/server/shutdown.js";
import { startTurn } from "../../src/server/turn.js";
import { hello } from "./canvases.js";

function context(): ServerContext {
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
    limits: { ...DEFAULT_LIMITS },
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
