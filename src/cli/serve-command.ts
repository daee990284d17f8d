/**
 * `canvasflow serve [--host 127.0.0.1] [--port 9380] [--data DIR | --sqlite FILE | --redis URL [--redis-prefix P] | --postgres URL [--schema NAME]]
 *                   [--agents DIR] [--dify-app ID] [--config FILE] [--mock-llm] [--mock-llm-script FILE]
 *                   [--api-key-env NAME] [--insecure-no-auth] [--grace SECONDS] [--log-level LEVEL] [--otlp URL]
 *                   [--register MODULE]... [--queue URL [--queue-name NAME] [--workers N [--worker-concurrency N]]
 *                   [--dashboard-key-env NAME [--dashboard-path PATH]]]`
 *
 * RAGFlow's agent API (the library's `createServer`) over the store the flags name (the same
 * flags as `canvasflow keys`), until Ctrl+C or SIGTERM. Prints where it listens and how to make a
 * key; then logs one JSON line per request and per run (pino, to stderr, at `--log-level`, else
 * the config's `server.logLevel`, else info). The config's `server` section holds the limits,
 * rate limits, the egress guard (with the top-level egress section), /metrics and OpenAPI
 * settings, and the component policy (the in-process workers of `--workers` apply it too). Stopping takes no new
 * requests, gives the runs going on `--grace` seconds (default 30) to finish, cancels the rest
 * (their streams end with a cancelled workflow_finished and [DONE]; their sessions go on from
 * before that turn), and closes connections as they fall idle.
 *
 * With `--queue redis://…` every turn is enqueued for queue workers (`canvasflow worker`, on the
 * same Redis and prefix) and the responses follow the runs' event logs; the store is that Redis.
 * `--workers N` also runs N workers in this process (stopped after the server, with the grace).
 *
 * Exit codes: 0 stopped, 1 cannot listen or the store failed, 2 usage (bad flags, an agents
 * folder that cannot be served, no key on a non-loopback host).
 */
import { AgentFolderError } from "../server/agent-folder.js";
import { SERVER_FEATURE, SERVER_PACKAGE_NAMES } from "../server/packages.js";
import { requirePackages } from "../util/optional-package.js";
import { withServerEgress } from "../server/egress.js";
import { createServer, InsecureListenError } from "../server/app.js";
import { ServerOptionsError } from "../server/settings.js";
import { CONFIG_FILE_NAME, ConfigError } from "../config/load.js";
import { formatSchemaIssues } from "../util/json-schema.js";
import type { ServerConfig } from "../config/types.js";
import type { ServerStore, MemoryStore } from "../backends/contracts.js";
import { stopRequested, UsageError, type CliIO } from "./io.js";
import { withStore, type KeysStoreArgs } from "./keys-command.js";
import { integerFlag, secondsFlag } from "./numeric-flags.js";
import { EXIT } from "./run-command.js";
import { openUntrustedServices, type RunServices } from "./services.js";
import { legacyReportLines, migrateLegacyMemories } from "../memories/legacy.js";
import { memoriesForServer } from "../backends/open-memories.js";
import { sessionOwners } from "../server/memory-owners.js";
import { DatabaseFileError, MemoryStoreError, SnapshotStoreError } from "../backends/errors.js";
import { DEFAULT_DATA_FOLDER } from "../backends/open-server.js";
import { registryWithModules } from "./register-modules.js";
import { serverPolicy } from "./server-policy.js";
import type { ComponentPolicy } from "../policy/policy.js";
import type { ComponentRegistry } from "../components/registry.js";
import { RunQueue, RunQueueError } from "../worker/run-queue.js";
import { createWorker, type RunWorker } from "../worker/worker.js";
import { DEFAULT_DASHBOARD_PATH, dashboardSettings, MIN_DASHBOARD_KEY_LENGTH } from "../server/dashboard.js";

export const DEFAULT_HOST = "127.0.0.1";
/** RAGFlow's API port. */
export const DEFAULT_PORT = 9380;
/** How often, while closing, connections that fell idle are closed (clients keep them alive). */
const IDLE_SWEEP_MS = 100;
/** Seconds the runs going on get to finish when the server is stopped. */
export const DEFAULT_GRACE_SECONDS = 30;
/** The longest grace: a day. */
const MAX_GRACE_SECONDS = 86_400;

export interface ServeArgs extends KeysStoreArgs {
  host?: string;
  port?: string;
  agents?: string;
  /** The agent (a Dify app) served on Dify's service API under /v1. */
  difyApp?: string;
  config?: string;
  mockLlm?: boolean;
  mockLlmScript?: string;
  apiKeyEnv?: string;
  insecureNoAuth?: boolean;
  grace?: string;
  logLevel?: string;
  /** `--otlp URL`: export spans there (also the config's tracing section, OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlp?: string;
  register?: readonly string[];
  queue?: string;
  queueName?: string;
  workers?: string;
  workerConcurrency?: string;
  dashboardKeyEnv?: string;
  dashboardPath?: string;
}

/** The run queue of `--queue`, and the workers of `--workers` (none: separate worker processes). */
interface QueueSetup {
  url: string;
  name: string | undefined;
  workers: number;
  workerConcurrency: number | undefined;
}

/** `--queue URL`: the store is that Redis (sessions must be where the workers look for them). */
function queueSetup(args: ServeArgs): QueueSetup | undefined {
  const queueFlags = { "--workers": args.workers, "--worker-concurrency": args.workerConcurrency, "--queue-name": args.queueName, "--dashboard-key-env": args.dashboardKeyEnv, "--dashboard-path": args.dashboardPath };
  if (args.queue === undefined) {
    const given = Object.entries(queueFlags).find(([, value]) => value !== undefined);
    if (given) throw new UsageError(`${given[0]} needs --queue redis://…: the run queue the workers take turns from`);
    return undefined;
  }
  if (!/^rediss?:\/\//.test(args.queue)) throw new UsageError(`--queue must be a Redis URL (redis:// or rediss://), got ${JSON.stringify(args.queue)}`);
  const other = args.data !== undefined ? "--data" : args.sqlite !== undefined ? "--sqlite" : args.postgres !== undefined ? "--postgres" : undefined;
  if (other !== undefined) throw new UsageError(`--queue keeps the sessions in its Redis, where the workers run them: ${other} cannot be used with it`);
  if (args.redis !== undefined && args.redis !== args.queue) throw new UsageError("--queue and --redis name different servers: the workers keep the sessions on the queue's Redis; give one URL (--queue alone is enough)");
  const workers = args.workers === undefined ? 0 : integerFlag("--workers", args.workers, { min: 0, max: 64 });
  const workerConcurrency = args.workerConcurrency === undefined ? undefined : integerFlag("--worker-concurrency", args.workerConcurrency, { min: 1, max: 1000 });
  if (workerConcurrency !== undefined && workers === 0) throw new UsageError("--worker-concurrency is for the workers of --workers N");
  if (args.dashboardPath !== undefined && args.dashboardKeyEnv === undefined) throw new UsageError("--dashboard-path needs --dashboard-key-env NAME: the dashboard is off without its admin key");
  return { url: args.queue, name: args.queueName, workers, workerConcurrency };
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const DEFAULT_LOG_LEVEL: LogLevel = "info";

function logLevelFlag(value: string | undefined): LogLevel | undefined {
  if (value === undefined) return undefined;
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got "${value}"`);
  return value as LogLevel;
}

export async function serveCommand(args: ServeArgs, io: CliIO, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const port = args.port === undefined ? DEFAULT_PORT : integerFlag("--port", args.port, { min: 0, max: 65535 });
  const host = args.host ?? DEFAULT_HOST;
  if (host.trim() === "") throw new UsageError("--host must name an address, such as 127.0.0.1 or 0.0.0.0");
  const apiKey = args.apiKeyEnv === undefined ? undefined : keyFromEnvironment(args.apiKeyEnv, env);
  const grace = args.grace === undefined ? DEFAULT_GRACE_SECONDS : secondsFlag("--grace", args.grace, { min: 0, max: MAX_GRACE_SECONDS });
  const logLevel = logLevelFlag(args.logLevel);
  const queued = queueSetup(args);
  const dashboardKey = args.dashboardKeyEnv === undefined ? undefined : keyFromEnvironment(args.dashboardKeyEnv, env, "--dashboard-key-env", "the queue dashboard's admin key");
  if (dashboardKey !== undefined && dashboardKey.length < MIN_DASHBOARD_KEY_LENGTH) {
    throw new UsageError(`--dashboard-key-env ${args.dashboardKeyEnv}: the key must be at least ${MIN_DASHBOARD_KEY_LENGTH} characters (it opens every tenant's queued jobs)`);
  }
  if (dashboardKey !== undefined && args.dashboardPath !== undefined) {
    try {
      dashboardSettings({ key: dashboardKey, path: args.dashboardPath });
    } catch (error) {
      throw new UsageError(`--dashboard-path: ${(error as Error).message.replace(/^createServer: dashboard.path /, "")}`);
    }
  }
  const registry = await registryWithModules(args.register ?? []);
  const storeArgs = queued ? { ...args, redis: queued.url } : args;
  // Every package the server and its store need, named in one message (a lean install lacks them all).
  const sqlite = storeArgs.redis === undefined && storeArgs.postgres === undefined;
  requirePackages([...SERVER_PACKAGE_NAMES, ...(sqlite ? ["better-sqlite3"] : [])], SERVER_FEATURE);
  return withStore(storeArgs, io, async (store) => {
    const services = await openUntrustedServices({ config: args.config, mockLlm: args.mockLlm, mockLlmScript: args.mockLlmScript, otlp: args.otlp }, io);
    if (services === undefined) return EXIT.usage;
    let memories: MemoryStore;
    try {
      // Memories live with the server's store, so every server process on it sees them.
      memories = memoriesForServer(services.config.memories, storeArgs, DEFAULT_DATA_FOLDER);
    } catch (error) {
      await services.close();
      if (!(error instanceof MemoryStoreError || error instanceof SnapshotStoreError || error instanceof DatabaseFileError)) throw error;
      io.err(`canvasflow: memories: ${error.message}\n`);
      return EXIT.usage;
    }
    try {
      // Memories of earlier releases go to their tenants before any run reads or writes one.
      if (!(await moveLegacyMemories(memories, store, io))) return EXIT.failed;
      return await serve(storeArgs, io, store, { ...services, services: { ...services.services, memories } }, { host, port, apiKey, grace, logLevel, registry, queued, dashboardKey });
    } finally {
      await memories.close();
      await services.close();
    }
  });
}

/**
 * Move the memories written before memories had tenants to the tenant of the session that wrote
 * each message (memories/legacy.ts), saying what moved and what has no known owner; false, having
 * said why, when it failed (nothing is lost: each memory moves whole or not at all).
 */
async function moveLegacyMemories(memories: MemoryStore, store: ServerStore, io: CliIO): Promise<boolean> {
  try {
    const report = await migrateLegacyMemories(memories, { owners: sessionOwners(store.sessions) });
    for (const line of legacyReportLines(report)) io.err(`canvasflow: ${line}\n`);
    return true;
  } catch (error) {
    if (!(error instanceof MemoryStoreError)) throw error;
    io.err(`canvasflow: memories: ${error.message}\n`);
    return false;
  }
}

/** `--api-key-env NAME`: the key in $NAME, which must be set. */
function keyFromEnvironment(name: string, env: Readonly<Record<string, string | undefined>>, flag = "--api-key-env", what = "the key the server should accept"): string {
  const value = env[name];
  if (value === undefined || value.trim() === "") {
    throw new UsageError(`${flag} ${name}: the environment variable ${name} is ${value === undefined ? "not set" : "empty"}; set it to ${what}`);
  }
  return value.trim();
}

async function serve(
  args: ServeArgs,
  io: CliIO,
  store: ServerStore,
  services: RunServices,
  at: { host: string; port: number; apiKey: string | undefined; grace: number; logLevel: LogLevel | undefined; registry: ComponentRegistry; queued: QueueSetup | undefined; dashboardKey: string | undefined },
): Promise<number> {
  const { logLevel: configLevel, ...settings }: ServerConfig = services.config.server ?? {};
  // The egress guard is the server's to decide (settings.allowPrivateNetwork and the config's
  // egress.allow, server/egress.ts), not the services'.
  const { allowPrivateNetwork: _cliOnly, ...http } = services.services.http ?? {};
  let policy: ComponentPolicy;
  try {
    policy = serverPolicy(services, at.registry);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(`${error.message}\n`);
    return EXIT.usage;
  }
  const { egress: _server, ...unguarded } = services.services;
  const canvasServices = { ...unguarded, http };
  let queue: RunQueue | undefined;
  const workers: RunWorker[] = [];
  if (at.queued) {
    const workerServices = withServerEgress(canvasServices, settings.allowPrivateNetwork === true, services.config.egress, "/canvas/services") as RunServices["services"];
    const opened = await openQueue(args, io, at.queued, at.registry, workerServices, policy, workers);
    if (typeof opened === "number") return opened;
    queue = opened;
  }
  try {
    return await listenAndServe(args, io, store, services, at, settings, configLevel, canvasServices, queue, workers);
  } finally {
    // After the server: its followed runs have ended (or been cancelled) by then.
    await Promise.all(workers.map((worker) => worker.close({ graceMs: Math.round(at.grace * 1000) })));
    await queue?.close();
  }
}

/** Open the run queue (Redis must answer) and start the in-process workers; an exit code when it cannot. */
async function openQueue(
  args: ServeArgs,
  io: CliIO,
  queued: QueueSetup,
  registry: ComponentRegistry,
  workerServices: RunServices["services"],
  policy: ComponentPolicy,
  workers: RunWorker[],
): Promise<RunQueue | number> {
  let queue: RunQueue;
  try {
    queue = new RunQueue({ redis: queued.url, ...(args.redisPrefix !== undefined ? { prefix: args.redisPrefix } : {}), ...(queued.name !== undefined ? { queue: queued.name } : {}) });
  } catch (error) {
    if (error instanceof RunQueueError) throw new UsageError(error.message.replace(/^the queue name/, "--queue-name: the queue name"));
    throw error;
  }
  try {
    await queue.ping();
    for (let i = 0; i < queued.workers; i++) {
      workers.push(
        await createWorker({
          redis: queued.url,
          ...(args.redisPrefix !== undefined ? { prefix: args.redisPrefix } : {}),
          ...(queued.name !== undefined ? { queue: queued.name } : {}),
          registry,
          canvas: { services: { ...workerServices } },
          policy,
          ...(queued.workerConcurrency !== undefined ? { concurrency: queued.workerConcurrency } : {}),
          name: `${process.env.HOSTNAME ?? "serve"}:${process.pid}:${i + 1}`,
          onError: (error) => io.err(`canvasflow: worker: ${error.message}\n`),
        }),
      );
    }
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.close({ graceMs: 0 })));
    await queue.close();
    io.err(`canvasflow: cannot use the run queue at ${queue.location}: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  return queue;
}

async function listenAndServe(
  args: ServeArgs,
  io: CliIO,
  store: ServerStore,
  services: RunServices,
  at: { host: string; port: number; apiKey: string | undefined; grace: number; logLevel: LogLevel | undefined; registry: ComponentRegistry; queued: QueueSetup | undefined; dashboardKey: string | undefined },
  settings: Omit<ServerConfig, "logLevel">,
  configLevel: ServerConfig["logLevel"],
  canvasServices: RunServices["services"],
  queue: RunQueue | undefined,
  workers: RunWorker[],
): Promise<number> {
  let app: ReturnType<typeof createServer>;
  try {
    app = createServer({
      store,
      registry: at.registry,
      ...(queue ? { queue } : {}),
      ...(at.dashboardKey !== undefined ? { dashboard: { key: at.dashboardKey, ...(args.dashboardPath !== undefined ? { path: args.dashboardPath } : {}) } } : {}),
      canvas: { services: { ...canvasServices } },
      ...(services.config.egress ? { egress: services.config.egress } : {}),
      ...(args.agents !== undefined ? { agentsDir: args.agents } : {}),
      ...(args.difyApp !== undefined ? { difyApp: args.difyApp } : {}),
      ...(at.apiKey !== undefined ? { apiKey: at.apiKey } : {}),
      insecureNoAuth: args.insecureNoAuth === true,
      shutdownGraceMs: Math.round(at.grace * 1000),
      ...settings,
      // Keys, prompts, inputs and DSLs are never logged (server/logging.ts).
      logger: { level: at.logLevel ?? configLevel ?? DEFAULT_LOG_LEVEL, stream: { write: (line: string) => io.err(line) } },
    });
  } catch (error) {
    // Settings the schema accepts one by one but not together (limits.headersMs past limits.requestMs…).
    if (!(error instanceof ServerOptionsError)) throw error;
    io.err(`${formatSchemaIssues(args.config ?? CONFIG_FILE_NAME, error.issues.map((issue) => ({ ...issue, pointer: `/server${issue.pointer}` })))}\n`);
    return EXIT.usage;
  }
  try {
    await app.listen({ port: at.port, host: at.host });
  } catch (error) {
    await app.close();
    if (error instanceof InsecureListenError || error instanceof AgentFolderError) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.usage;
    }
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "EADDRINUSE" ? "the port is in use" : code === "EADDRNOTAVAIL" ? "no interface of this machine has that address" : code === "EACCES" ? "permission denied (ports below 1024 need privileges)" : (error as Error).message;
    io.err(`canvasflow: cannot serve on ${at.host}:${at.port}: ${reason}\n`);
    return EXIT.failed;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : at.port;
  const base = `http://${at.host.includes(":") ? `[${at.host}]` : at.host}:${port}`;
  const liveKeys = (await store.keys.list()).filter((key) => !key.revoked).length;
  const makeKey = `canvasflow keys create --tenant T --name N${storeFlags(args)}`;
  const keys =
    at.apiKey !== undefined
      ? `API keys: the key in $${args.apiKeyEnv} (tenant "default") and ${liveKeys} in the store; make more with: ${makeKey}`
      : liveKeys > 0
        ? `API keys: ${liveKeys} in the store; make another with: ${makeKey}`
        : args.insecureNoAuth
          ? `no API key is configured and --insecure-no-auth is given: anyone who can reach ${base} can run, change and delete agents (as the tenant "default"); make a key with: ${makeKey}, then restart`
          : `no API key is configured: every request is served as the tenant "default", on this loopback address only; to require keys: ${makeKey}, then restart`;
  io.err(
    [
      `canvasflow: serving RAGFlow's agent API at ${base}/api/v1 (store: ${store.location})`,
      `canvasflow: OpenAI clients: baseURL ${base}/api/v1/agents_openai/<agent id>`,
      ...(settings.playground?.enabled !== false ? [`canvasflow: playground: open ${base}/ in a browser and log in with an API key`] : []),
      ...(args.difyApp !== undefined ? [`canvasflow: Dify clients: base URL ${base}/v1 (the app is the agent ${args.difyApp})`] : []),
      `canvasflow: ${keys}`,
      ...(args.agents !== undefined ? [`canvasflow: agents of ${args.agents} are served read-only to every tenant`] : []),
      ...(queue
        ? [
            `canvasflow: turns go on the run queue "${queue.name}" at ${queue.location} (prefix ${queue.names.prefix}) for workers` +
              (workers.length > 0 ? `; ${workers.length} worker${workers.length === 1 ? "" : "s"} run in this process` : ": start them with canvasflow worker"),
            ...(at.dashboardKey !== undefined ? [`canvasflow: queue dashboard (read-only) at ${base}${args.dashboardPath ?? DEFAULT_DASHBOARD_PATH}/, opened by the key in $${args.dashboardKeyEnv} only`] : []),
          ]
        : []),
      "canvasflow: Ctrl+C stops it.",
      "",
    ].join("\n"),
  );
  await stopRequested(io);
  io.err(
    at.grace > 0
      ? `canvasflow: stopping: no new requests; runs going on get ${at.grace} s to finish, then are cancelled\n`
      : "canvasflow: stopping: no new requests; runs going on are cancelled\n",
  );
  const closing = app.close();
  // Clients keep connections alive; each is closed once its last answer went out.
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await closing;
  } finally {
    clearInterval(sweep);
  }
  io.err("canvasflow: stopped\n");
  return EXIT.finished;
}

/** The store flags as given, for the `keys create` hint (passwords masked). */
function storeFlags(args: KeysStoreArgs): string {
  const mask = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
  return [
    args.data !== undefined ? ` --data ${args.data}` : "",
    args.sqlite !== undefined ? ` --sqlite ${args.sqlite}` : "",
    args.redis !== undefined ? ` --redis ${mask(args.redis)}` : "",
    args.redisPrefix !== undefined ? ` --redis-prefix ${args.redisPrefix}` : "",
    args.postgres !== undefined ? ` --postgres ${mask(args.postgres)}` : "",
    args.schema !== undefined ? ` --schema ${args.schema}` : "",
  ].join("");
}
