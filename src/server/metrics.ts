/**
 * `/metrics` in Prometheus's text format (prom-client), from a registry of this server's own, so
 * two servers in one process count apart: runs started, finished and failed, step latency (from
 * node_finished's elapsed_time), runs and streams going now, and rate-limit rejections, beside
 * the process's own figures (memory, CPU, event-loop lag).
 *
 * Who may read it: the figures cover every tenant, so an API key (a tenant's) does not open
 * them. They are served to clients on this machine (a loopback peer, with no proxy's forwarding
 * header: a reverse proxy on the same host would otherwise make every client look local), and
 * to every client only when the config says `server.metrics.public` (a scraper on a private
 * network, with the port firewalled).
 */
import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Counter, Gauge, Histogram, Registry } from "prom-client";
import { serverPackages } from "./packages.js";
import { ApiError, RET } from "./envelope.js";
import type { MetricsSettings } from "./settings.js";
import type { QueueMetrics } from "../worker/metrics.js";

/** How a run ended: a finished run completed or paused; a failed one ended with an error. */
export type RunOutcome = { finished: "completed" | "paused" } | { failed: "error" | "cancelled" | "time_limit" };

/** Which limit refused a request. */
export type RateLimitKind = "completions" | "requests" | "key_runs" | "server_runs";

/** Seconds; components take from milliseconds (a Switch) to minutes (an LLM on a slow model). */
const STEP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export class ServerMetrics {
  readonly registry: Registry;
  private readonly runsStarted: Counter;
  private readonly runsFinished: Counter<"outcome">;
  private readonly runsFailed: Counter<"reason">;
  private readonly activeRuns: Gauge;
  private readonly steps: Histogram<"component">;
  private readonly activeStreams: Gauge;
  private readonly rejections: Counter<"limit">;

  /** `processMetrics`: also the process's own figures (prom-client's defaults; they watch GC and the event loop). */
  constructor(options: { processMetrics?: boolean } = {}) {
    const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = serverPackages().prom;
    this.registry = new Registry();
    const registers = [this.registry];
    this.runsStarted = new Counter({ name: "canvasflow_runs_started_total", help: "Runs (turns of a session) started.", registers });
    this.runsFinished = new Counter({ name: "canvasflow_runs_finished_total", help: "Runs that ended without an error, by outcome (completed, paused for input).", labelNames: ["outcome"], registers });
    this.runsFailed = new Counter({ name: "canvasflow_runs_failed_total", help: "Runs that ended with an error, by reason (error, cancelled, time_limit).", labelNames: ["reason"], registers });
    this.activeRuns = new Gauge({ name: "canvasflow_active_runs", help: "Runs going now in this process.", registers });
    this.steps = new Histogram({ name: "canvasflow_step_duration_seconds", help: "Time a component took (node_finished elapsed_time), by component type.", labelNames: ["component"], buckets: STEP_BUCKETS, registers });
    this.activeStreams = new Gauge({ name: "canvasflow_active_streams", help: "Event streams (SSE responses) open now.", registers });
    this.rejections = new Counter({ name: "canvasflow_rate_limit_rejections_total", help: "Requests refused by a rate limit (HTTP 429), by limit.", labelNames: ["limit"], registers });
    // Start every labelled series at 0, so a rate can be taken from the first scrape.
    for (const outcome of ["completed", "paused"]) this.runsFinished.inc({ outcome }, 0);
    for (const reason of ["error", "cancelled", "time_limit"]) this.runsFailed.inc({ reason }, 0);
    for (const limit of ["completions", "requests", "key_runs", "server_runs"]) this.rejections.inc({ limit }, 0);
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  runStarted(): void {
    this.runsStarted.inc();
    this.activeRuns.inc();
  }

  runEnded(outcome: RunOutcome): void {
    this.activeRuns.dec();
    if ("finished" in outcome) this.runsFinished.inc({ outcome: outcome.finished });
    else this.runsFailed.inc({ reason: outcome.failed });
  }

  stepFinished(componentType: string, seconds: number): void {
    if (Number.isFinite(seconds) && seconds >= 0) this.steps.observe({ component: componentType }, seconds);
  }

  /** Count a streaming response as open until its connection closes. */
  trackStream(response: ServerResponse): void {
    this.activeStreams.inc();
    response.once("close", () => this.activeStreams.dec());
  }

  /** Turns waiting for a place to set up (server.limits.setupsAtOnce), read at each scrape. */
  watchSetups(waiting: () => number): void {
    const { Gauge } = serverPackages().prom;
    new Gauge({
      name: "canvasflow_setups_waiting",
      help: "Turns waiting for a place to set up in this process (server.limits.setupsAtOnce).",
      registers: [this.registry],
      collect() {
        this.set(waiting());
      },
    });
  }

  /**
   * The run queue's figures (`serve --queue`), read from Redis at each scrape: jobs by state now
   * (shared by every server on the queue, so sum them over one server only), and the count of
   * jobs found stalled.
   */
  watchQueue(read: () => Promise<QueueMetrics>): void {
    const { Counter, Gauge } = serverPackages().prom;
    const registers = [this.registry];
    let reading: Promise<QueueMetrics> | undefined;
    // One read per scrape for both metrics.
    const figures = () => (reading ??= read().finally(() => setTimeout(() => (reading = undefined), 0)));
    new Gauge({
      name: "canvasflow_queue_jobs",
      help: "Run jobs on the queue now, by state (waiting, active, delayed; completed and failed: those kept).",
      labelNames: ["state"],
      registers,
      async collect() {
        // Redis away: the last figures stay, the rest of /metrics is still served.
        const now = await figures().catch(() => undefined);
        if (!now) return;
        for (const state of ["waiting", "active", "delayed", "completed", "failed"] as const) this.set({ state }, now[state]);
      },
    });
    new Counter({
      name: "canvasflow_queue_stalled_jobs_total",
      help: "Run jobs found stalled (their worker died or stopped renewing their lock) since the queue began.",
      registers,
      async collect() {
        const now = await figures().catch(() => undefined);
        if (!now) return;
        this.reset();
        this.inc(now.stalled);
      },
    });
  }

  rateLimited(kind: RateLimitKind): void {
    this.rejections.inc({ limit: kind });
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"];

/** A client on this machine talking to the server directly (no proxy in between). */
export function isLocalClient(request: FastifyRequest): boolean {
  const address = request.raw.socket.remoteAddress ?? "";
  const loopback = address === "::1" || /^(::ffff:)?127\./.test(address);
  return loopback && FORWARDING_HEADERS.every((header) => request.headers[header] === undefined);
}

export const METRICS_FORBIDDEN =
  "/metrics is served only to clients on this machine (a loopback connection, without a proxy's forwarding headers); set server.metrics.public to true in the server's config to serve it to every client";

export function metricsRoute(app: FastifyInstance, metrics: ServerMetrics, settings: MetricsSettings): void {
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    if (!settings.public && !isLocalClient(request)) throw new ApiError(RET.forbidden, METRICS_FORBIDDEN, null, 403);
    reply.type(metrics.contentType);
    return metrics.exposition();
  });
}
