/**
 * `createServer(options)`: RAGFlow's agent HTTP API on Fastify 5, validated by the project's ajv
 * with the schemas in `schemas/server/`. Every answer, errors included, is RAGFlow's envelope
 * `{code, message, data}` (research/ragflow-api.md §1); nothing a client sends crashes the process.
 *
 * Layout: the health routes, /metrics (loopback clients only, unless configured), the OpenAPI
 * document, the playground's page and assets (playground/: it calls the API with its user's key)
 * and the 404 answer need no key; every other route (WebSocket upgrades included, whose
 * key may come as a subprotocol: ws-auth.ts) is in a child context whose first hook checks the
 * key (auth.ts), then the rate limits (rate-limits.ts). CORS headers are set before either, so a
 * browser can read refusals too.
 */
import type { FastifyError, FastifyInstance, FastifyListenOptions, FastifyServerOptions } from "fastify";
import type { Redis } from "ioredis";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isMcpHub, MCP_SERVICE } from "../tools/mcp/hub.js";
import type { EgressConfig } from "../config/types.js";
import { withServerEgress } from "./egress.js";
import { defaultRegistry } from "../api.js";
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import type { ComponentRegistry } from "../components/registry.js";
import { packageRoot } from "../dsl/schemas.js";
import { takeMemoryStore } from "../memories/scope.js";
import { MemoryStoreError, DamagedRecordError, DuplicateTitleError, ServerStoreError } from "../backends/errors.js";
import type { MemoryStore, ServerStore } from "../backends/contracts.js";
import { AgentCatalog } from "./agent-catalog.js";
import { CompiledAgents } from "./compiled-agents.js";
import { loadAgentFolder } from "./agent-folder.js";
import { anyKeyConfigured, KeyChecker } from "./auth.js";
import { ActiveRuns, type ServerContext } from "./context.js";
import { ApiError, argumentError, RET, tooLarge, TooManyRequestsError, unauthorized } from "./envelope.js";
import { httpTimeoutOptions } from "./http-timeouts.js";
import { requestId, safeLoggerOptions } from "./logging.js";
import { metricsRoute, ServerMetrics } from "./metrics.js";
import { installOpenApi } from "./openapi.js";
import { serverPackages } from "./packages.js";
import { installRateLimits } from "./rate-limits.js";
import { agentRoutes } from "./routes/agents.js";
import { COMPLETION_ROUTES, completionRoutes, speaksOpenAi } from "./routes/completions.js";
import { DIFY_RUN_ROUTES, difyApiRoutes } from "./dify/index.js";
import { eventRoutes } from "./routes/events.js";
import { pictureRoutes } from "./routes/pictures.js";
import { pipelineRoutes } from "./routes/pipelines.js";
import { playgroundRoutes } from "./playground/index.js";
import { sessionRoutes } from "./routes/sessions.js";
import { systemRoutes } from "./routes/system.js";
import { taskRoutes } from "./routes/tasks.js";
import { webSocketRoutes } from "./routes/ws.js";
import { MemoryKeySlots, RedisKeySlots, RunAdmission } from "./run-slots.js";
import { DEFAULT_LIMITS, resolveServerSettings, ServerOptionsError, type ServerSettingsInput } from "./settings.js";
import { SetupGate } from "./setup-gate.js";
import { installGracefulClose } from "./graceful-close.js";
import { Shutdown } from "./shutdown.js";
import { validationError, validatorCompiler } from "./validation.js";
import { queueMetrics } from "../worker/metrics.js";
import { JobEnds } from "./job-ends.js";
import { dashboardSettings, installDashboard, type DashboardOptions } from "./dashboard.js";
import type { RunQueue } from "../worker/run-queue.js";
import { trustsCode, UNTRUSTED_CODE_ONLY } from "../sandbox/code/trust.js";
import { selectProtocol, webSocketKey } from "./ws-auth.js";
import { installRequestSpans } from "./request-span.js";

/** Bytes a request body may take by default (limits.bodyBytes; agent writes: limits.agentBodyBytes). */
export const DEFAULT_BODY_LIMIT = DEFAULT_LIMITS.bodyBytes;

/** How long a WebSocket the server closes waits for the client's close frame before its socket is ended (ws's default: 30 s). */
const WS_CLOSE_TIMEOUT_MS = 5000;

/** How long past a run's wall-clock limit a key's run slot is kept in Redis when its server never gives it back. */
const SLOT_LEASE_MARGIN_MS = 60_000;

export { SERVER_PRIVATE_NETWORK_HINT } from "./egress.js";

export interface CreateServerOptions extends ServerSettingsInput {
  /** Agents, sessions, keys, run state and cancel signals. The caller closes it after the server. */
  store: ServerStore;
  /** Component types (default: the built-ins and what `registerComponent` added). */
  registry?: ComponentRegistry;
  /**
   * Engine options and services (LLM provider…) of every run; the task id is set per session. A
   * `memories` service must be a MemoryStore: each run gets its tenant's memories from it.
   */
  canvas?: CanvasRuntimeOptions;
  /**
   * The egress guard's allow-list (the config file's top-level `egress`): non-public addresses
   * canvases may reach. With `allowPrivateNetwork`, the server's alone to decide (server/egress.ts).
   */
  egress?: EgressConfig;
  /** Serve every DSL file of this folder as a read-only agent of every tenant. */
  agentsDir?: string;
  /** A single key for a one-key deployment (tenant "default"), besides the store's keys. */
  apiKey?: string;
  /** Listen on any host even with no key configured (every request is then the tenant "default"). */
  insecureNoAuth?: boolean;
  /**
   * Serve this agent (a Dify app's DSL) on Dify's service API under /v1 (docs/dify.md): the
   * routes dify-client calls, with the same keys, limits and stores. None: no /v1 routes.
   */
  difyApp?: string;
  /** Keep a run going when its client disconnects (default: the run is cancelled). */
  keepRunningOnDisconnect?: boolean;
  /**
   * On `close()`, how long the runs going on get to finish before they are cancelled (default 0:
   * cancelled at once). New requests are refused meanwhile (shutdown.ts).
   */
  shutdownGraceMs?: number;
  /** Allowed CORS origins (default "*", as RAGFlow). */
  corsOrigin?: string | string[] | boolean;
  /**
   * Fastify's logger option (default: no logs). Keys, prompts, inputs and DSLs are redacted from
   * whatever is given (logging.ts).
   */
  logger?: FastifyServerOptions["logger"];
  /**
   * Where per-key rate limits and runs-at-once are counted, shared by every server using it
   * (default: the store's Redis connection, if it has one; else each process counts its own).
   * The caller closes a client given here.
   */
  redis?: { client: Redis; prefix?: string };
  /**
   * Enqueue every turn on this run queue for workers (`createWorker`, `canvasflow worker`) instead
   * of running it here; the responses follow the runs' event logs. The store's run state and
   * cancel signals must be the workers' (a RedisServerStore on the queue's Redis and prefix). The
   * caller closes the queue after the server. Its figures join /metrics.
   */
  queue?: RunQueue;
  /**
   * The queue dashboard (@bull-board, read-only) at `path` (default /admin/queues), opened by
   * `key` only (a bearer token, or Basic authentication's password): it shows every tenant's
   * jobs. Needs `queue`. Off when left out.
   */
  dashboard?: DashboardOptions;
  // From ServerSettingsInput (the config file's `server` section, docs/server.md):
  // limits (bodyBytes, agentBodyBytes, dslBytes, dslComponents, runMs, setupsAtOnce, requestMs,
  // headersMs, wsHighWaterBytes, wsMaxQueuedBytes, wsStallMs, wsBadFrames, wsBadFramesMs,
  // wsConnectionsPerKey), rateLimits
  // (completionsPerMinute, requestsPerMinute, runsPerKey, runsPerServer; 0 is off),
  // allowPrivateNetwork (every canvas connection; default false), metrics ({enabled, public}), openapi ({enabled}),
  // playground ({enabled}), policy (component types, tools and MCP servers agents may use: its
  // names must be the registry's components and canvas.services.mcp's servers).
}

/** The server would listen beyond loopback with no key configured. */
export class InsecureListenError extends Error {
  constructor(readonly host: string) {
    super(
      `refusing to listen on ${host}: no API key is configured, so anyone who can reach it could run, change and delete agents. ` +
        "Create a key (canvasflow keys create --tenant T --name N), give one (--api-key-env NAME), listen on 127.0.0.1, " +
        "or pass --insecure-no-auth to serve without keys anyway.",
    );
    this.name = "InsecureListenError";
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]", "::ffff:127.0.0.1"]);

/** Whether a listen host only accepts connections from this machine (no host: Fastify's localhost). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

export function createServer(options: CreateServerOptions): FastifyInstance {
  const registry = options.registry ?? defaultRegistry;
  const mcp = options.canvas?.services?.[MCP_SERVICE];
  const settings = resolveServerSettings(
    {
      limits: options.limits,
      rateLimits: options.rateLimits,
      allowPrivateNetwork: options.allowPrivateNetwork,
      metrics: options.metrics,
      openapi: options.openapi,
      playground: options.playground,
      policy: options.policy,
    },
    { registry, mcpServers: isMcpHub(mcp) ? mcp.serverIds() : [] },
  );
  // Fastify's plugins and prom-client load now (optional packages: one error names those missing).
  const { fastify: Fastify, cors, websocket } = serverPackages();
  // Requests that arrive while closing are refused with the API's envelope (shutdown.ts), not Fastify's.
  const app = Fastify({
    logger: safeLoggerOptions(options.logger),
    bodyLimit: settings.limits.bodyBytes,
    // A request must arrive whole in time (limits.requestMs, headersMs); answers are not timed.
    ...httpTimeoutOptions(settings.limits),
    genReqId: requestId,
    return503OnClosing: false,
  });
  const redis = options.redis ? { client: options.redis.client, prefix: options.redis.prefix ?? "canvasflow:" } : options.store.redis;
  const metrics = new ServerMetrics({ processMetrics: settings.metrics.enabled });
  const keySlots = redis ? new RedisKeySlots(redis.client, `${redis.prefix}run-slots:`, settings.limits.runMs + SLOT_LEASE_MARGIN_MS) : new MemoryKeySlots();
  const { options: canvas, store: memories } = serverMemories(options.canvas ?? {});
  const ctx: ServerContext = {
    store: options.store,
    agents: new AgentCatalog(options.store.agents),
    registry,
    compiled: new CompiledAgents(registry),
    canvas: withNetworkGuard(untrustedCode(canvas), settings.allowPrivateNetwork, options.egress),
    ...(memories ? { memories } : {}),
    runs: new ActiveRuns(),
    keepRunningOnDisconnect: options.keepRunningOnDisconnect ?? false,
    shutdown: new Shutdown(),
    version: packageVersion(),
    now: Date.now,
    log: app.log,
    limits: settings.limits,
    policy: settings.policy,
    admission: new RunAdmission(settings.rateLimits, keySlots, (kind) => metrics.rateLimited(kind)),
    setups: new SetupGate(settings.limits.setupsAtOnce),
    metrics,
    ...(options.queue ? { queue: options.queue, jobEnds: new JobEnds(options.queue) } : {}),
  };
  metrics.watchSetups(() => ctx.setups.waiting);
  if (options.queue) {
    const queue = options.queue;
    metrics.watchQueue(() => queueMetrics(queue));
    const jobEnds = ctx.jobEnds!;
    app.addHook("onReady", () => jobEnds.ready());
    app.addHook("onClose", () => jobEnds.close());
  }
  if (options.dashboard !== undefined) {
    if (!options.queue) throw new RangeError("createServer: dashboard needs queue: it shows the run queue's jobs");
    const dashboard = dashboardSettings(options.dashboard);
    const queue = options.queue;
    app.register(async (scope) => installDashboard(scope, queue, dashboard));
  }
  // Decided when the server gets ready: whether keys are required.
  let checker: KeyChecker | undefined;
  let open = false;

  // A damaged stored record is skipped by the lists (and told to its owner there); the log has where it is.
  const stopDamageLog = options.store.onDamaged?.((damaged) => {
    app.log.warn({ damaged: { kind: damaged.kind, id: damaged.id, tenant: damaged.tenant } }, `a damaged stored record was skipped: ${damaged.detail}`);
  });
  if (stopDamageLog) app.addHook("onClose", async () => stopDamageLog());

  app.setValidatorCompiler(validatorCompiler());
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A store's messages name its files, keys or rows, and perhaps another tenant's records:
    // the log has them, the client the request id to quote.
    const hidden = error instanceof ServerStoreError && !(error instanceof DuplicateTitleError) && !(error instanceof DamagedRecordError);
    const answer = hidden ? new ApiError(RET.exception, `the server's store failed; its log has the details under request id ${request.id}`, null) : asApiError(error);
    if (answer.code === RET.exception) request.log.error({ err: error }, "request failed");
    if (answer instanceof TooManyRequestsError) reply.header("retry-after", String(answer.retryAfterSeconds));
    const openAi = speaksOpenAi(request);
    void reply.code(answer.httpStatus(openAi)).send(answer.envelope(openAi));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    void reply.code(404).send({ code: RET.notFound, message: `Not Found: ${path}`, data: null, error: "Not Found" });
  });
  installJsonParser(app);
  // Sent back on every answer (streams too: their headers are the reply's), so a client can quote it.
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.register(cors, {
    origin: options.corsOrigin ?? "*",
    credentials: false,
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowedHeaders: ["Authorization", "Content-Type"],
    // A page's script may read when to retry and which request to quote.
    exposedHeaders: ["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-request-id"],
  });

  app.addHook("onReady", async () => {
    if (options.agentsDir !== undefined) {
      const folder = await loadAgentFolder(options.agentsDir, registry, settings.policy);
      for (const warning of folder.warnings) app.log.warn(warning);
      ctx.agents = new AgentCatalog(options.store.agents, folder.agents);
    }
    open = options.insecureNoAuth === true || !(await anyKeyConfigured(options.store.keys, options.apiKey));
    checker = new KeyChecker({ keys: options.store.keys, apiKey: options.apiKey, open });
  });
  // Closing lets this process's runs finish within the grace period, then cancels the rest: their
  // streams end with a cancelled workflow_finished and [DONE].
  installGracefulClose(app, ctx, options.shutdownGraceMs ?? 0);

  // WebSocket frames are held to the body limit; the connections are closed by the graceful close.
  // A connection the server closes (a limit: ws-flow.ts) is ended if the client does not answer the close soon.
  // (ws 8.23 takes closeTimeout; @types/ws does not list it yet.)
  const wsOptions = { maxPayload: settings.limits.bodyBytes, handleProtocols: selectProtocol, closeTimeout: WS_CLOSE_TIMEOUT_MS };
  app.register(websocket, {
    options: wsOptions,
    preClose(done) {
      for (const client of this.websocketServer.clients) client.terminate();
      this.websocketServer.close(() => done());
    },
  });

  // The routes that start runs: rate limits count them as completions, and each request is a span
  // (OpenTelemetry: a no-op unless an SDK is registered) whose child the run is.
  const runRoutes = options.difyApp !== undefined ? new Set([...COMPLETION_ROUTES, ...DIFY_RUN_ROUTES]) : COMPLETION_ROUTES;
  installRequestSpans(app, runRoutes);

  // Registered first: the document is made from the routes registered after it.
  if (settings.openapi.enabled) installOpenApi(app, { version: ctx.version });
  app.register(async (unkeyed) => {
    systemRoutes(unkeyed, ctx);
    if (settings.playground.enabled) playgroundRoutes(unkeyed);
    if (settings.metrics.enabled) metricsRoute(unkeyed, metrics, settings.metrics);
  });
  app.register(async (api) => {
    api.addHook("onRequest", async (request) => {
      const caller = await checker!.callerOf(request.headers.authorization ?? webSocketKey(request));
      if (caller === undefined) throw unauthorized();
      request.tenant = caller.tenant;
      request.caller = caller.keyId !== undefined ? `key:${caller.keyId}` : `ip:${request.ip}`;
    });
    // After the key check (its hook is the context's, theirs the routes'): a bad key never counts.
    await installRateLimits(api, { limits: settings.rateLimits, ...(redis ? { redis } : options.store.rateLimitCounters ? { counters: options.store.rateLimitCounters } : {}), completionRoutes: runRoutes, metrics });
    // A request without a body (curl -X POST) is an empty one, as RAGFlow reads it.
    api.addHook("preValidation", async (request) => {
      if (request.body === undefined || request.body === null) request.body = {};
    });
    agentRoutes(api, ctx);
    sessionRoutes(api, ctx);
    completionRoutes(api, ctx);
    taskRoutes(api, ctx);
    eventRoutes(api, ctx);
    pictureRoutes(api, ctx);
    pipelineRoutes(api, ctx);
    webSocketRoutes(api, ctx);
    if (options.difyApp !== undefined) await difyApiRoutes(api, ctx, options.difyApp);
  });

  guardListen(app, () => open && options.insecureNoAuth !== true);
  return app;
}

/** The memory store taken out of the services every run shares: each run gets its tenant's (tenant-canvas.ts). */
function serverMemories(canvas: CanvasRuntimeOptions): { options: CanvasRuntimeOptions; store: MemoryStore | undefined } {
  try {
    return takeMemoryStore(canvas, "canvas.services.memories");
  } catch (error) {
    if (error instanceof MemoryStoreError) throw new ServerOptionsError([{ pointer: "/canvas/services/memories", message: error.message }]);
    throw error;
  }
}

/** The egress guard as the server decides it (server/egress.ts): its settings, whatever the canvas options say. */
function withNetworkGuard(canvas: CanvasRuntimeOptions, allowPrivateNetwork: boolean, egress: EgressConfig | undefined): CanvasRuntimeOptions {
  return { ...canvas, services: withServerEgress(canvas.services ?? {}, allowPrivateNetwork, egress, "/canvas/services") };
}

/** The server's canvases are untrusted: a service that would run their code unsandboxed is refused. */
function untrustedCode(canvas: CanvasRuntimeOptions): CanvasRuntimeOptions {
  if (trustsCode(canvas.services?.codeExec)) throw new ServerOptionsError([{ pointer: "/canvas/services/codeExec/trustCode", message: `is true, but ${UNTRUSTED_CODE_ONLY}` }]);
  return canvas;
}

/** Refuse to listen beyond loopback while no key is required. */
function guardListen(app: FastifyInstance, keyless: () => boolean): void {
  const listen = app.listen.bind(app) as (opts: FastifyListenOptions) => Promise<string>;
  const guarded = async (opts: FastifyListenOptions = {}): Promise<string> => {
    await app.ready();
    if (keyless() && opts.path === undefined && !isLoopbackHost(opts.host)) throw new InsecureListenError(opts.host!);
    return listen(opts);
  };
  app.listen = ((opts?: FastifyListenOptions, callback?: (error: Error | null, address: string) => void) => {
    const started = guarded(opts);
    if (!callback) return started;
    started.then((address) => callback(null, address), (error: Error) => callback(error, ""));
    return undefined;
  }) as FastifyInstance["listen"];
}

/**
 * JSON bodies, read safely (a body that sets `__proto__` or `constructor.prototype` is refused),
 * with the parser's reason in the message. An empty body is no body.
 */
function installJsonParser(app: FastifyInstance): void {
  const safeParse = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === "") return done(null, undefined);
    safeParse(request, text, (error, value) => {
      if (!error) return done(null, value);
      let reason: string;
      try {
        JSON.parse(text);
        reason = "it sets __proto__ or constructor.prototype, which is not allowed";
      } catch (syntax) {
        reason = (syntax as Error).message;
      }
      done(argumentError(`The request body is not valid JSON: ${reason}`, null), undefined);
    });
  });
}

/** Every failure as RAGFlow's envelope. */
function asApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return validationError(error.validation, error.validationContext);
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return tooLarge();
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return argumentError("The request body must be JSON (send it with Content-Type: application/json).", null);
  }
  // Other request errors Fastify finds (a bad Content-Length…): the client's, code 101.
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) return argumentError(error.message, null);
  return new ApiError(RET.exception, error.message, null);
}
