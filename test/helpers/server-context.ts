/**
 * A server's context without a server, for the turn tests (src/server/turn.ts, queued-turn.ts):
 * the stores, registry and limits a test chooses, an open policy, and a logger that says nothing.
 */
import type { FastifyBaseLogger } from "fastify";
import { defaultRegistry } from "../../src/api.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import { AgentCatalog } from "../../src/server/agent-catalog.js";
import { CompiledAgents } from "../../src/server/compiled-agents.js";
import { ComponentPolicy } from "../../src/policy/policy.js";
import { ActiveRuns, type ServerContext } from "../../src/server/context.js";
import { ServerMetrics } from "../../src/server/metrics.js";
import { SetupGate } from "../../src/server/setup-gate.js";
import { MemoryKeySlots, RunAdmission } from "../../src/server/run-slots.js";
import { DEFAULT_LIMITS, DEFAULT_RATE_LIMITS, type ServerLimits } from "../../src/server/settings.js";
import { Shutdown } from "../../src/server/shutdown.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import type { ServerStore } from "../../src/backends/contracts.js";
import type { SessionEvent } from "../../src/server/transcript.js";

export interface TestContextOptions {
  store?: ServerStore;
  registry?: ComponentRegistry;
  limits?: Partial<ServerLimits>;
}

export function testServerContext(options: TestContextOptions = {}): ServerContext {
  const store = options.store ?? new InProcessServerStore();
  const registry = options.registry ?? defaultRegistry;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined, child: () => quiet } as unknown as FastifyBaseLogger;
  const metrics = new ServerMetrics();
  return {
    store,
    agents: new AgentCatalog(store.agents),
    registry,
    compiled: new CompiledAgents(registry),
    canvas: {},
    runs: new ActiveRuns(),
    keepRunningOnDisconnect: false,
    shutdown: new Shutdown(),
    version: "test",
    now: Date.now,
    log: quiet,
    limits,
    policy: ComponentPolicy.OPEN,
    setups: new SetupGate(limits.setupsAtOnce),
    admission: new RunAdmission(DEFAULT_RATE_LIMITS, new MemoryKeySlots(), (kind) => metrics.rateLimited(kind)),
    metrics,
  };
}

/** A tenant t1's agent with this DSL (id "a"×32 unless given), as the agent routes would store it. */
export async function testAgent(ctx: ServerContext, dsl: unknown, options: { id?: string; title?: string } = {}): Promise<string> {
  const now = Date.now();
  const id = options.id ?? "a".repeat(32);
  const title = options.title ?? `agent ${id}`;
  return (await ctx.store.agents.create({ id, tenant: "t1", title, description: "", dsl: dsl as never, canvas_type: "", avatar: null, create_time: now, update_time: now })).id;
}

/** Every event of a turn, in order. */
export async function allEvents(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const out: SessionEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** A turn of tenant t1's key k1 on this agent (in this session, when given). */
export const turnInput = (agentId: string, query: string, sessionId?: string) => ({ tenant: "t1", caller: "key:k1", agentId, query, ...(sessionId ? { sessionId } : {}) });
