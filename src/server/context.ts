/**
 * What the routes share: the store, the agents, the engine's settings, and the runs this process
 * is running now.
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { AgentCatalog } from "./agent-catalog.js";
import type { CompiledAgents } from "./compiled-agents.js";
import type { ServerMetrics } from "./metrics.js";
import type { RunAdmission } from "./run-slots.js";
import type { ServerLimits } from "./settings.js";
import type { SetupGate } from "./setup-gate.js";
import type { Shutdown } from "./shutdown.js";
import type { ServerStore, MemoryStore } from "../backends/contracts.js";
import type { RunQueue } from "../worker/run-queue.js";
import type { JobEnds } from "./job-ends.js";
import type { ComponentPolicy } from "../policy/policy.js";

export interface ServerContext {
  store: ServerStore;
  agents: AgentCatalog;
  registry: ComponentRegistry;
  /** The agents' DSLs, validated and compiled once per version for their new sessions. */
  compiled: CompiledAgents;
  /** Engine options and services every run gets (its taskId is set per session), without memories. */
  canvas: CanvasRuntimeOptions;
  /** The memory store: a run gets its tenant's memories from it (tenant-canvas.ts), never the store. */
  memories?: MemoryStore;
  /** The runs of this process, by session id. */
  runs: ActiveRuns;
  /** Keep a run going when its streaming client goes away (default: cancel it). */
  keepRunningOnDisconnect: boolean;
  /** Whether the server is closing, and the long-lived streams to end when it does. */
  shutdown: Shutdown;
  version: string;
  now(): number;
  log: FastifyBaseLogger;
  /** Sizes and times: bodies, DSLs, a run's wall-clock time. */
  limits: ServerLimits;
  /** What agents may use, per tenant (component-policy.ts). */
  policy: ComponentPolicy;
  /** Runs going at once, per key and per process. */
  admission: RunAdmission;
  /** Turns setting up at once (setup-gate.ts). */
  setups: SetupGate;
  metrics: ServerMetrics;
  /** Set when turns are enqueued for workers instead of run here (`serve --queue`): queued-turn.ts. */
  queue?: RunQueue;
  /** Wakes followers of queued runs when their jobs end (with `queue`). */
  jobEnds?: JobEnds;
}

/**
 * A 32-hex id, as RAGFlow's (uuid1().hex): a random UUID (122 random bits) without its dashes.
 * randomUUID draws from Node's cached entropy; randomBytes(16) asked the system every time, which
 * was 3 % of a completion turn's CPU.
 */
export function newId(): string {
  return randomUUID().replaceAll("-", "");
}

/**
 * The sessions this process is running a turn of. A second turn of the same session is refused
 * here at once; across processes the session's lease refuses it.
 */
export class ActiveRuns {
  private readonly running = new Map<string, AbortController>();
  /** The message id of the run each turn is running, once known (Dify's run lookups ask for it). */
  private readonly runIds = new Map<string, string>();
  private idleWaiters: Array<() => void> = [];

  /** Claims the session; false when this process is already running it. */
  claim(sessionId: string, controller: AbortController): boolean {
    if (this.running.has(sessionId)) return false;
    this.running.set(sessionId, controller);
    return true;
  }

  /** Say which run (message id) the session's turn runs; only the turn holding the claim may. */
  nameRun(sessionId: string, controller: AbortController, runId: string): void {
    if (this.running.get(sessionId) === controller) this.runIds.set(sessionId, runId);
  }

  /** The message id of the run this process runs (or follows) for the session, when it is known. */
  runOf(sessionId: string): string | undefined {
    return this.runIds.get(sessionId);
  }

  release(sessionId: string, controller: AbortController): void {
    if (this.running.get(sessionId) === controller) {
      this.running.delete(sessionId);
      this.runIds.delete(sessionId);
    }
    if (this.running.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Whether this process is running a turn of the session. */
  has(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /** Resolves to true once no run is left, or to false when `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.running.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      this.idleWaiters.push(wake);
    });
  }

  /** Stop the session's run if this process runs it (a cancel also goes through the store for the others). */
  abort(sessionId: string, reason: string): boolean {
    const controller = this.running.get(sessionId);
    controller?.abort(new Error(reason));
    return controller !== undefined;
  }

  /** Stop every run of this process (the server is closing). */
  abortAll(reason: string): void {
    for (const controller of this.running.values()) controller.abort(new Error(reason));
  }

  get size(): number {
    return this.running.size;
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** The tenant of the request's API key (set by the auth hook before any handler runs). */
    tenant: string;
    /**
     * Whom rate limits count the request against (set with `tenant`): `key:<key id>`, or
     * `ip:<address>` on an open server without a known key. Never the key itself.
     */
    caller: string;
  }
}
