/**
 * The `canvasflow` command: a thin shell over the library API.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../dsl/schemas.js";
import { UsageError, type CliIO } from "./io.js";
// Each command's module is imported when that command runs: together they load Fastify, BullMQ,
// ioredis, pg and the tools' libraries, seconds of startup that `--version` or `validate` never need.
import { attachDashValues, type OptionSpecs } from "./numeric-flags.js";
import { CANCEL_DIR_ENV } from "./cancel-folder.js";
import { EXIT } from "./exit-codes.js";
import { MissingPackageError } from "../util/optional-package.js";

const USAGE = `canvasflow — run agent canvases stored as JSON DSL (RAGFlow format)

Usage:
  canvasflow run FILE [--query TEXT] [--input NAME=VALUE]... [--inputs JSON]
                      [--session FILE|redis://HOST:PORT[/DB]#KEY|postgres://USER@HOST:PORT/DB[?schema=NAME]#KEY|sqlite:FILE#KEY]
                      [--durability sync|async|exit] [--task-id ID] [--events ndjson|pretty]
                      [--max-steps N] [--concurrency N] [--timeout SECONDS] [--event-value-limit BYTES]
                      [--allow-private-network] [--trust-code] [--otlp URL]
                      [--config FILE] [--kb ID=DIR]... [--mock-llm] [--mock-llm-script FILE]
                      [--trace FILE.html] [--file DOC]...   (--file: a document for an ingestion pipeline, one run each)
                      [--register MODULE]...
  canvasflow cancel TASK_ID [--redis URL [--redis-prefix P] | --postgres URL | --sqlite FILE | --dir DIR]
  canvasflow db migrate (--postgres URL [--schema NAME] | --redis URL [--redis-prefix P] | --sqlite FILE | --data DIR)
                       [--memories LOCATION] [--unowned-to TENANT]
  canvasflow db check [--sqlite FILE]
  canvasflow db import --data-folder DIR [--sqlite FILE]
  canvasflow keys create --tenant T --name N [--data DIR | --sqlite FILE | --redis URL [--redis-prefix P] | --postgres URL [--schema NAME]]
  canvasflow keys list [--tenant T] [--data DIR | --sqlite FILE | --redis URL [--redis-prefix P] | --postgres URL [--schema NAME]]
  canvasflow keys revoke ID [--data DIR | --sqlite FILE | --redis URL [--redis-prefix P] | --postgres URL [--schema NAME]]
  canvasflow serve [--host 127.0.0.1] [--port 9380] [--data DIR | --sqlite FILE | --redis URL [--redis-prefix P] | --postgres URL [--schema NAME]]
                   [--agents DIR] [--dify-app ID] [--config FILE] [--mock-llm] [--mock-llm-script FILE]
                   [--api-key-env NAME] [--insecure-no-auth] [--grace SECONDS] [--log-level LEVEL] [--otlp URL]
                   [--register MODULE]... [--queue URL [--queue-name NAME] [--workers N [--worker-concurrency N]]
                   [--dashboard-key-env NAME [--dashboard-path PATH]]]
  canvasflow kb index DIR [--pipeline FILE | --default-chunker] [--config FILE] [--mock-llm] [--mock-llm-script FILE]
  canvasflow kb search DIR "QUERY" [--top-n N] [--top-k N] [--threshold X] [--keywords-weight W]
                       [--rerank-id ID] [--json] [--config FILE] [--mock-llm] [--mock-llm-script FILE]
  canvasflow worker --redis URL [--queue NAME] [--prefix P] [--concurrency N] [--register MODULE]...
                    [--config FILE] [--kb ID=DIR]... [--mock-llm] [--mock-llm-script FILE]
                    [--allow-private-network] [--durability sync|async] [--max-stalled N]
                    [--stall-timeout SECONDS] [--grace SECONDS] [--otlp URL]
  canvasflow validate FILE... [--json] [--register MODULE]...
  canvasflow mcp list [--config FILE] [--json]
  canvasflow migrate IN [-o OUT] [--dry-run] [--report json|text]
  canvasflow graph FILE [--format mermaid|svg|html] [-o OUT] [--register MODULE]...
  canvasflow mock-llm [--port N] [--script FILE]
  canvasflow --version | --help

run: every run is checkpointed after each step (--durability; default: the store's own, sync for
  Redis and SQLite, async for files and PostgreSQL). A session whose last run never finished (its process
  died) is continued by the next run on it. A turn that fails or is cancelled leaves the session
  as it was before the turn.
run --trace FILE.html: writes the turn's trace (timeline, path taken, each step's inputs and outputs,
  the messages) as one self-contained page when the turn ends, whatever its outcome.
run, validate, graph --register MODULE: adds the component types a module registers (it exports
  register(registry), as serve and worker load them), for canvases made of them (a compiled StateGraph).
run, serve, worker --otlp URL: export OpenTelemetry spans (each run, component, model call, tool call,
  retrieval) over OTLP/HTTP to URL (http://host:4318, or the …/v1/traces URL itself); the config's
  "tracing" section and OTEL_EXPORTER_OTLP_ENDPOINT turn it on too.
run --trust-code: CodeExec and Dify's code node run Python as a plain child process instead of in
  the bubblewrap sandbox. Only for your own canvases; serve and worker never do this.
run exit codes: 0 finished, 3 paused waiting for input, 1 the run failed, 2 invalid DSL or usage,
  4 the session is locked by another run, 130/143 cancelled by canvasflow cancel or Ctrl+C (SIGINT)/SIGTERM.
cancel: asks every process running TASK_ID to stop it: through Redis or PostgreSQL, or (default)
  the local folder ${"$"}${CANCEL_DIR_ENV} or <temp>/canvasflow-cancel-<uid>, where runs without a session or
  with a file session listen. --redis-prefix P reaches the runs of serve --redis-prefix P and
  worker --prefix P. Exit codes: 0 requested, 1 the server is unreachable, 2 usage.
keys: the API keys of canvasflow serve, in the store it uses (default the database ./.canvasflow/canvasflow.db).
  create prints the key once (only its SHA-256 is kept); list never shows keys. Exit codes: 0 done,
  1 no such key or the store failed, 2 usage.
serve: RAGFlow's agent HTTP API (and its OpenAI-compatible route) until Ctrl+C or SIGTERM, over the
  keys' store; --dify-app ID also serves that agent (a Dify app) on Dify's service API under /v1. With no API key configured it serves everyone as the tenant "default" and listens on
  loopback only, unless --insecure-no-auth. On Ctrl+C or SIGTERM it takes no new requests, gives
  the runs going on --grace seconds (default 30) to finish, then cancels the rest. With --queue URL
  (Redis: the store and the queue) turns are enqueued for canvasflow worker processes and answered
  from their event logs; --workers N also runs N workers in the server's process. Exit codes: 0 stopped, 1 cannot listen or the store
  failed, 2 usage, an --agents folder that cannot be served, or no key on a non-loopback host.
kb: a local knowledge base's index (chunks, keyword terms, vectors), kept in DIR/.canvasflow-index
  or the indexDir configured for DIR. index builds or updates it (only changed files are read and
  embedded); search shows the scored chunks (term, vector, blended), those below the threshold too.
  index --pipeline FILE chunks the folder with a RAGFlow ingestion pipeline (kept for later indexes and searches).
  Exit codes: 0 done, 1 the folder, embedding or rerank model cannot be used, 2 usage or config.
mcp list: opens each MCP server of the config's "mcpServers" and lists its tools. Exit codes: 0 listed,
  1 a server could not be opened, 2 usage or an invalid config.
worker: takes queued runs (enqueueRun) from the queue NAME (default runs) on Redis and runs them with
  the durable checkpointer, each event in the session's log as it happens; sessions, cancel flags and
  the queue live under the prefix P (default canvasflow:, as canvasflow serve --redis keeps them).
  --concurrency runs at once (default 4); --register adds components from a module exporting
  register(registry); a job whose worker died is handed to another after --stall-timeout (default
  30 s), --max-stalled times at most (default 1), then fails with an error in the session's log.
  Ctrl+C or SIGTERM: no new runs; runs still going get --grace (default 30 s) to finish, then go back
  to the queue between two steps. Exit codes: 0 stopped, 1 Redis cannot be reached, 2 usage.
graph: a diagram of the canvas or Dify app (old DSLs migrated in memory): a mermaid flowchart (default), an SVG,
  or one self-contained HTML page with pan, zoom and each component's params on click. Exit codes:
  0 drawn, 1 OUT could not be written, 2 usage, or a file that is not an agent canvas.
migrate exit codes: 0 migrated or already current, 1 unsupported components remain or OUT could not be written,
                    2 unreadable input or usage.
`;

const RUN_OPTIONS = {
  query: { type: "string", short: "q" },
  input: { type: "string", short: "i", multiple: true },
  inputs: { type: "string" },
  session: { type: "string", short: "s" },
  durability: { type: "string" },
  "task-id": { type: "string" },
  events: { type: "string", short: "e" },
  "max-steps": { type: "string" },
  concurrency: { type: "string" },
  timeout: { type: "string" },
  "event-value-limit": { type: "string" },
  "allow-private-network": { type: "boolean" },
  "trust-code": { type: "boolean" },
  otlp: { type: "string" },
  config: { type: "string" },
  kb: { type: "string", multiple: true },
  "mock-llm": { type: "boolean" },
  "mock-llm-script": { type: "string" },
  trace: { type: "string" },
  file: { type: "string", short: "f", multiple: true },
  register: { type: "string", multiple: true },
} as const satisfies OptionSpecs;

const CANCEL_OPTIONS = { redis: { type: "string" }, "redis-prefix": { type: "string" }, postgres: { type: "string" }, sqlite: { type: "string" }, dir: { type: "string" } } as const satisfies OptionSpecs;
const DB_MIGRATE_OPTIONS = {
  postgres: { type: "string" },
  schema: { type: "string" },
  redis: { type: "string" },
  "redis-prefix": { type: "string" },
  data: { type: "string" },
  memories: { type: "string" },
  "unowned-to": { type: "string" },
  sqlite: { type: "string" },
  "data-folder": { type: "string" },
} as const satisfies OptionSpecs;

const KEYS_OPTIONS = {
  tenant: { type: "string" },
  name: { type: "string" },
  data: { type: "string" },
  sqlite: { type: "string" },
  redis: { type: "string" },
  "redis-prefix": { type: "string" },
  postgres: { type: "string" },
  schema: { type: "string" },
} as const satisfies OptionSpecs;

const SERVE_OPTIONS = {
  host: { type: "string" },
  port: { type: "string", short: "p" },
  data: { type: "string" },
  sqlite: { type: "string" },
  redis: { type: "string" },
  "redis-prefix": { type: "string" },
  postgres: { type: "string" },
  schema: { type: "string" },
  agents: { type: "string" },
  "dify-app": { type: "string" },
  grace: { type: "string" },
  config: { type: "string" },
  "mock-llm": { type: "boolean" },
  "mock-llm-script": { type: "string" },
  "api-key-env": { type: "string" },
  "insecure-no-auth": { type: "boolean" },
  "log-level": { type: "string" },
  otlp: { type: "string" },
  register: { type: "string", multiple: true },
  queue: { type: "string" },
  "queue-name": { type: "string" },
  workers: { type: "string" },
  "worker-concurrency": { type: "string" },
  "dashboard-key-env": { type: "string" },
  "dashboard-path": { type: "string" },
} as const satisfies OptionSpecs;

const KB_OPTIONS = {
  config: { type: "string" },
  "mock-llm": { type: "boolean" },
  "mock-llm-script": { type: "string" },
  "top-n": { type: "string" },
  "top-k": { type: "string" },
  threshold: { type: "string" },
  "keywords-weight": { type: "string" },
  "rerank-id": { type: "string" },
  json: { type: "boolean" },
  pipeline: { type: "string" },
  "default-chunker": { type: "boolean" },
} as const satisfies OptionSpecs;

const MCP_OPTIONS = { config: { type: "string" }, json: { type: "boolean" } } as const satisfies OptionSpecs;

const WORKER_OPTIONS = {
  redis: { type: "string" },
  queue: { type: "string" },
  prefix: { type: "string" },
  concurrency: { type: "string" },
  config: { type: "string" },
  kb: { type: "string", multiple: true },
  "mock-llm": { type: "boolean" },
  "mock-llm-script": { type: "string" },
  "allow-private-network": { type: "boolean" },
  register: { type: "string", multiple: true },
  durability: { type: "string" },
  "max-stalled": { type: "string" },
  "stall-timeout": { type: "string" },
  grace: { type: "string" },
  otlp: { type: "string" },
} as const satisfies OptionSpecs;

const MOCK_LLM_OPTIONS = { port: { type: "string", short: "p" }, script: { type: "string" } } as const satisfies OptionSpecs;
const MIGRATE_OPTIONS = { output: { type: "string", short: "o" }, "dry-run": { type: "boolean" }, report: { type: "string" } } as const satisfies OptionSpecs;
const GRAPH_OPTIONS = { output: { type: "string", short: "o" }, format: { type: "string", short: "f" }, register: { type: "string", multiple: true } } as const satisfies OptionSpecs;
const VALIDATE_OPTIONS = { json: { type: "boolean" }, register: { type: "string", multiple: true } } as const satisfies OptionSpecs;

/** A command the CLI knows: its flags, and its subcommands when it has some (`keys create`). */
export interface CliCommandSpec {
  readonly options: OptionSpecs;
  readonly subcommands?: readonly string[];
}

/**
 * Every command and the flags `main` parses it with: the one table, so what the docs show can be
 * checked against what the parser accepts (test/docs). `--help` and `--version` stand alone.
 */
export const CLI_COMMANDS: Readonly<Record<string, CliCommandSpec>> = {
  run: { options: RUN_OPTIONS },
  cancel: { options: CANCEL_OPTIONS },
  db: { options: DB_MIGRATE_OPTIONS, subcommands: ["migrate", "check", "import"] },
  keys: { options: KEYS_OPTIONS, subcommands: ["create", "list", "revoke"] },
  serve: { options: SERVE_OPTIONS },
  kb: { options: KB_OPTIONS, subcommands: ["index", "search"] },
  worker: { options: WORKER_OPTIONS },
  mcp: { options: MCP_OPTIONS, subcommands: ["list"] },
  "mock-llm": { options: MOCK_LLM_OPTIONS },
  migrate: { options: MIGRATE_OPTIONS },
  graph: { options: GRAPH_OPTIONS },
  validate: { options: VALIDATE_OPTIONS },
};

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout.write(USAGE);
    return command === undefined ? EXIT.usage : 0;
  }
  if (command === "--version" || command === "-v") {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  try {
    if (command === "run") {
      const { values, positionals } = parseArgs({
        args: attachDashValues(rest, RUN_OPTIONS, ["--max-steps", "--concurrency", "--timeout", "--event-value-limit"]),
        allowPositionals: true,
        strict: true,
        options: RUN_OPTIONS,
      });
      if (positionals.length !== 1) throw new UsageError(`run expects exactly one FILE, got ${positionals.length}`);
      return await (await import("./run-command.js")).runCommand(
        {
          file: positionals[0],
          query: values.query,
          input: values.input ?? [],
          inputs: values.inputs,
          session: values.session,
          durability: values.durability,
          taskId: values["task-id"],
          events: values.events,
          maxSteps: values["max-steps"],
          concurrency: values.concurrency,
          timeout: values.timeout,
          eventValueLimit: values["event-value-limit"],
          allowPrivateNetwork: values["allow-private-network"] ?? false,
          trustCode: values["trust-code"] ?? false,
          otlp: values.otlp,
          config: values.config,
          kb: values.kb ?? [],
          mockLlm: values["mock-llm"] ?? false,
          mockLlmScript: values["mock-llm-script"],
          trace: values.trace,
          files: values.file ?? [],
          register: values.register ?? [],
        },
        io,
      );
    }
    if (command === "cancel") {
      const { values, positionals } = parseArgs({ args: [...rest], allowPositionals: true, strict: true, options: CANCEL_OPTIONS });
      if (positionals.length !== 1) throw new UsageError(`cancel expects exactly one TASK_ID, got ${positionals.length}`);
      return await (await import("./cancel-command.js")).cancelCommand({ taskId: positionals[0], redis: values.redis, redisPrefix: values["redis-prefix"], postgres: values.postgres, sqlite: values.sqlite, dir: values.dir }, io);
    }
    if (command === "db") {
      const [sub, ...flags] = rest;
      if (sub !== "migrate" && sub !== "check" && sub !== "import") throw new UsageError(sub === undefined ? "db expects a subcommand: migrate, check or import" : `unknown db subcommand "${sub}": use migrate, check or import`);
      const { values, positionals } = parseArgs({ args: flags, allowPositionals: true, strict: true, options: DB_MIGRATE_OPTIONS });
      if (positionals.length > 0) throw new UsageError(`db ${sub} takes no arguments, got "${positionals[0]}"`);
      const foreign = (allowed: string[]) => Object.keys(values).find((flag) => !allowed.includes(flag));
      if (sub === "import") {
        const other = foreign(["data-folder", "sqlite"]);
        if (other !== undefined) throw new UsageError(`db import copies a data folder into a SQLite database: --${other} does not apply (give --data-folder DIR [--sqlite FILE])`);
        return await (await import("./db-import-command.js")).dbImportCommand({ dataFolder: values["data-folder"], sqlite: values.sqlite }, io);
      }
      if (values["data-folder"] !== undefined) throw new UsageError(`--data-folder is for db import`);
      if (sub === "check") {
        const other = foreign(["sqlite"]);
        if (other !== undefined) throw new UsageError(`db check checks a SQLite database: --${other} does not apply (give --sqlite FILE, or nothing for ./.canvasflow/canvasflow.db)`);
        return await (await import("./db-check-command.js")).dbCheckCommand({ sqlite: values.sqlite }, io);
      }
      return await (await import("./db-command.js")).dbMigrateCommand(
        { postgres: values.postgres, sqlite: values.sqlite, schema: values.schema, redis: values.redis, redisPrefix: values["redis-prefix"], data: values.data, memories: values.memories, unownedTo: values["unowned-to"] },
        io,
      );
    }
    if (command === "keys") {
      const [action, ...flags] = rest;
      const { values, positionals } = parseArgs({ args: flags, allowPositionals: true, strict: true, options: KEYS_OPTIONS });
      const { "redis-prefix": redisPrefix, ...storeFlags } = values;
      return await (await import("./keys-command.js")).keysCommand({ action, positionals, ...storeFlags, redisPrefix }, io);
    }
    if (command === "serve") {
      const { values, positionals } = parseArgs({ args: attachDashValues(rest, SERVE_OPTIONS, ["--port", "--grace", "--workers", "--worker-concurrency"]), allowPositionals: true, strict: true, options: SERVE_OPTIONS });
      if (positionals.length > 0) throw new UsageError(`serve takes no arguments, got "${positionals[0]}" (agents come from the store, or from --agents DIR)`);
      return await (await import("./serve-command.js")).serveCommand(
        {
          host: values.host,
          port: values.port,
          data: values.data,
          sqlite: values.sqlite,
          redis: values.redis,
          redisPrefix: values["redis-prefix"],
          postgres: values.postgres,
          schema: values.schema,
          agents: values.agents,
          difyApp: values["dify-app"],
          grace: values.grace,
          config: values.config,
          mockLlm: values["mock-llm"] ?? false,
          mockLlmScript: values["mock-llm-script"],
          apiKeyEnv: values["api-key-env"],
          insecureNoAuth: values["insecure-no-auth"] ?? false,
          logLevel: values["log-level"],
          otlp: values.otlp,
          register: values.register ?? [],
          queue: values.queue,
          queueName: values["queue-name"],
          workers: values.workers,
          workerConcurrency: values["worker-concurrency"],
          dashboardKeyEnv: values["dashboard-key-env"],
          dashboardPath: values["dashboard-path"],
        },
        io,
      );
    }
    if (command === "kb") {
      const [action, ...flags] = rest;
      const { values, positionals } = parseArgs({ args: flags, allowPositionals: true, strict: true, options: KB_OPTIONS });
      return await (await import("./kb-command.js")).kbCommand(
        {
          action,
          positionals,
          config: values.config,
          mockLlm: values["mock-llm"] ?? false,
          mockLlmScript: values["mock-llm-script"],
          topN: values["top-n"],
          topK: values["top-k"],
          threshold: values.threshold,
          keywordsWeight: values["keywords-weight"],
          rerankId: values["rerank-id"],
          json: values.json ?? false,
          pipeline: values.pipeline,
          defaultChunker: values["default-chunker"] ?? false,
        },
        io,
      );
    }
    if (command === "worker") {
      const { values, positionals } = parseArgs({
        args: attachDashValues(rest, WORKER_OPTIONS, ["--concurrency", "--max-stalled", "--stall-timeout", "--grace"]),
        allowPositionals: true,
        strict: true,
        options: WORKER_OPTIONS,
      });
      if (positionals.length > 0) throw new UsageError(`worker takes no arguments, got "${positionals[0]}" (canvases come with the queued runs' sessions)`);
      return await (await import("./worker-command.js")).workerCommand(
        {
          redis: values.redis,
          queue: values.queue,
          prefix: values.prefix,
          concurrency: values.concurrency,
          config: values.config,
          kb: values.kb ?? [],
          mockLlm: values["mock-llm"] ?? false,
          mockLlmScript: values["mock-llm-script"],
          allowPrivateNetwork: values["allow-private-network"] ?? false,
          register: values.register ?? [],
          durability: values.durability,
          maxStalled: values["max-stalled"],
          stallTimeout: values["stall-timeout"],
          grace: values.grace,
          otlp: values.otlp,
        },
        io,
      );
    }
    if (command === "mcp") {
      const [action, ...flags] = rest;
      const { values, positionals } = parseArgs({ args: flags, allowPositionals: true, strict: true, options: MCP_OPTIONS });
      return await (await import("./mcp-command.js")).mcpCommand({ action, positionals, config: values.config, json: values.json ?? false }, io);
    }
    if (command === "mock-llm") {
      const { values, positionals } = parseArgs({ args: attachDashValues(rest, MOCK_LLM_OPTIONS, ["--port"]), allowPositionals: true, strict: true, options: MOCK_LLM_OPTIONS });
      if (positionals.length > 0) throw new UsageError(`mock-llm takes no arguments, got "${positionals[0]}"`);
      return await (await import("./mock-llm-command.js")).mockLlmCommand({ port: values.port, script: values.script }, io);
    }
    if (command === "migrate") {
      const { values, positionals } = parseArgs({
        args: [...rest],
        allowPositionals: true,
        strict: true,
        options: MIGRATE_OPTIONS,
      });
      if (positionals.length !== 1) throw new UsageError(`migrate expects exactly one IN file, got ${positionals.length}`);
      return await (await import("./migrate-command.js")).migrateCommand({ file: positionals[0], output: values.output, dryRun: values["dry-run"] ?? false, report: values.report }, io);
    }
    if (command === "graph") {
      const { values, positionals } = parseArgs({
        args: [...rest],
        allowPositionals: true,
        strict: true,
        options: GRAPH_OPTIONS,
      });
      if (positionals.length !== 1) throw new UsageError(`graph expects exactly one FILE, got ${positionals.length}`);
      return await (await import("./graph-command.js")).graphCommand({ file: positionals[0], format: values.format, output: values.output, register: values.register ?? [] }, io);
    }
    if (command === "validate") {
      const { values, positionals } = parseArgs({ args: [...rest], allowPositionals: true, strict: true, options: VALIDATE_OPTIONS });
      if (positionals.length === 0) throw new UsageError("validate expects at least one FILE");
      return await (await import("./validate-command.js")).validateCommand(positionals, values.json ?? false, io, values.register ?? []);
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`canvasflow: ${(error as Error).message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    // An optional package the command needs is not installed: what to install, not a bug.
    if (error instanceof MissingPackageError) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.failed;
    }
    io.err(internalError(error));
    return EXIT.failed;
  }
}

/**
 * What reaches here is a defect in canvasflow, not a mistake of the user's (those have error types
 * of their own): one line, and the stack trace only when asked for.
 */
export function internalError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (process.env.CANVASFLOW_DEBUG) return `canvasflow: internal error: ${(error as Error)?.stack ?? message}\n`;
  return `canvasflow: internal error: ${message} (this is a bug in canvasflow; run with CANVASFLOW_DEBUG=1 to see where it happened)\n`;
}
