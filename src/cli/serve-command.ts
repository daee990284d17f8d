/**
 * `canvasflow serve [--host 127.0.0.1] [--port 9380] [--data DIR | --redis URL [--redis-prefix P] | --postgres URL [--schema NAME]]
 *                   [--agents DIR] [--dify-app ID] [--config FILE] [--mock-llm] [--mock-llm-script FILE]
 *                   [--api-key-env NAME] [--insecure-no-auth] [--grace SECONDS] [--log-level LEVEL]`
 *
 * RAGFlow's agent API (the library's `createServer`) over the store the flags name (the same
 * flags as `canvasflow keys`), until Ctrl+C or SIGTERM. Prints where it listens and how to make a
 * key; then logs one JSON line per request and per run (pino, to stderr, at `--log-level`, else
 * the config's `server.logLevel`, else info). The config's `server` section holds the limits,
 * rate limits, the private-network guard, /metrics and OpenAPI settings. Stopping takes no new
 * requests, gives the runs going on `--grace` seconds (default 30) to finish, cancels the rest
 * (their streams end with a cancelled workflow_finished and [DONE]; their sessions go on from
 * before that turn), and closes connections as they fall idle.
 *
 * Exit codes: 0 stopped, 1 cannot listen or the store failed, 2 usage (bad flags, an agents
 * folder that cannot be served, no key on a non-loopback host).
 */
import { AgentFolderError } from "../server/agent-folder.js";
import { createServer, InsecureListenError } from "../server/app.js";
import type { ServerConfig } from "../config/types.js";
import type { ServerStore } from "../server/store/types.js";
import { stopRequested, UsageError, type CliIO } from "./io.js";
import { withStore, type KeysStoreArgs } from "./keys-command.js";
import { integerFlag, secondsFlag } from "./numeric-flags.js";
import { EXIT } from "./run-command.js";
import { isSetupError, openRunServices, type RunServices } from "./services.js";
import { memoriesForServer } from "../memory/open.js";
import { MemoryStoreError, type MemoryStore } from "../memory/types.js";
import { DEFAULT_DATA_FOLDER } from "../server/store/open.js";
import { SnapshotStoreError } from "../stores/snapshot-store.js";

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
  return withStore(args, io, async (store) => {
    let services: RunServices;
    try {
      services = await openRunServices({ config: args.config, mockLlm: args.mockLlm, mockLlmScript: args.mockLlmScript }, io);
    } catch (error) {
      if (!isSetupError(error)) throw error;
      io.err(`${error.message}\n`);
      return EXIT.usage;
    }
    let memories: MemoryStore;
    try {
      // Memories live with the server's store, so every server process on it sees them.
      memories = memoriesForServer(services.config.memories, args, DEFAULT_DATA_FOLDER);
    } catch (error) {
      await services.close();
      if (!(error instanceof MemoryStoreError || error instanceof SnapshotStoreError)) throw error;
      io.err(`canvasflow: memories: ${error.message}\n`);
      return EXIT.usage;
    }
    try {
      return await serve(args, io, store, { ...services, services: { ...services.services, memories } }, { host, port, apiKey, grace, logLevel });
    } finally {
      await memories.close();
      await services.close();
    }
  });
}

/** `--api-key-env NAME`: the key in $NAME, which must be set. */
function keyFromEnvironment(name: string, env: Readonly<Record<string, string | undefined>>): string {
  const value = env[name];
  if (value === undefined || value.trim() === "") {
    throw new UsageError(`--api-key-env ${name}: the environment variable ${name} is ${value === undefined ? "not set" : "empty"}; set it to the key the server should accept`);
  }
  return value.trim();
}

async function serve(
  args: ServeArgs,
  io: CliIO,
  store: ServerStore,
  services: RunServices,
  at: { host: string; port: number; apiKey: string | undefined; grace: number; logLevel: LogLevel | undefined },
): Promise<number> {
  const { logLevel: configLevel, ...settings }: ServerConfig = services.config.server ?? {};
  // The private-network guard is the server's to decide (settings.allowPrivateNetwork), not the services'.
  const { allowPrivateNetwork: _cliOnly, ...http } = services.services.http ?? {};
  const app = createServer({
    store,
    canvas: { services: { ...services.services, http } },
    ...(args.agents !== undefined ? { agentsDir: args.agents } : {}),
    ...(args.difyApp !== undefined ? { difyApp: args.difyApp } : {}),
    ...(at.apiKey !== undefined ? { apiKey: at.apiKey } : {}),
    insecureNoAuth: args.insecureNoAuth === true,
    shutdownGraceMs: Math.round(at.grace * 1000),
    ...settings,
    // Keys, prompts, inputs and DSLs are never logged (server/logging.ts).
    logger: { level: at.logLevel ?? configLevel ?? DEFAULT_LOG_LEVEL, stream: { write: (line: string) => io.err(line) } },
  });
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
      ...(args.difyApp !== undefined ? [`canvasflow: Dify clients: base URL ${base}/v1 (the app is the agent ${args.difyApp})`] : []),
      `canvasflow: ${keys}`,
      ...(args.agents !== undefined ? [`canvasflow: agents of ${args.agents} are served read-only to every tenant`] : []),
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
    args.redis !== undefined ? ` --redis ${mask(args.redis)}` : "",
    args.redisPrefix !== undefined ? ` --redis-prefix ${args.redisPrefix}` : "",
    args.postgres !== undefined ? ` --postgres ${mask(args.postgres)}` : "",
    args.schema !== undefined ? ` --schema ${args.schema}` : "",
  ].join("");
}
