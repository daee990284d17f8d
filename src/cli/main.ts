/**
 * The `canvasflow` command: a thin shell over the library API.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../dsl/schemas.js";
import { processIO, UsageError, type CliIO } from "./io.js";
import { mockLlmCommand } from "./mock-llm-command.js";
import { migrateCommand } from "./migrate-command.js";
import { attachDashValues, type OptionSpecs } from "./numeric-flags.js";
import { EXIT, runCommand } from "./run-command.js";
import { validateCommand } from "./validate-command.js";

const USAGE = `canvasflow — run agent canvases stored as JSON DSL (RAGFlow format)

Usage:
  canvasflow run FILE [--query TEXT] [--input NAME=VALUE]... [--inputs JSON]
                      [--session FILE|redis://HOST:PORT[/DB]#KEY] [--events ndjson|pretty]
                      [--max-steps N] [--concurrency N] [--timeout SECONDS] [--event-value-limit BYTES]
                      [--allow-private-network]
                      [--config FILE] [--kb ID=DIR]... [--mock-llm] [--mock-llm-script FILE]
  canvasflow validate FILE... [--json]
  canvasflow migrate IN [-o OUT] [--dry-run] [--report json|text]
  canvasflow mock-llm [--port N] [--script FILE]
  canvasflow --version | --help

run exit codes: 0 finished, 3 paused waiting for input, 1 the run failed, 2 invalid DSL or usage,
  4 the session is locked by another run, 130/143 cancelled by Ctrl+C (SIGINT)/SIGTERM.
  A turn that fails or is cancelled leaves the session as it was before the turn.
migrate exit codes: 0 migrated or already current, 1 unsupported components remain or OUT could not be written,
                    2 unreadable input or usage.
`;

const RUN_OPTIONS = {
  query: { type: "string", short: "q" },
  input: { type: "string", short: "i", multiple: true },
  inputs: { type: "string" },
  session: { type: "string", short: "s" },
  events: { type: "string", short: "e" },
  "max-steps": { type: "string" },
  concurrency: { type: "string" },
  timeout: { type: "string" },
  "event-value-limit": { type: "string" },
  "allow-private-network": { type: "boolean" },
  config: { type: "string" },
  kb: { type: "string", multiple: true },
  "mock-llm": { type: "boolean" },
  "mock-llm-script": { type: "string" },
} as const satisfies OptionSpecs;

const MOCK_LLM_OPTIONS = { port: { type: "string", short: "p" }, script: { type: "string" } } as const satisfies OptionSpecs;

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
      return await runCommand(
        {
          file: positionals[0],
          query: values.query,
          input: values.input ?? [],
          inputs: values.inputs,
          session: values.session,
          events: values.events,
          maxSteps: values["max-steps"],
          concurrency: values.concurrency,
          timeout: values.timeout,
          eventValueLimit: values["event-value-limit"],
          allowPrivateNetwork: values["allow-private-network"] ?? false,
          config: values.config,
          kb: values.kb ?? [],
          mockLlm: values["mock-llm"] ?? false,
          mockLlmScript: values["mock-llm-script"],
        },
        io,
      );
    }
    if (command === "mock-llm") {
      const { values, positionals } = parseArgs({ args: attachDashValues(rest, MOCK_LLM_OPTIONS, ["--port"]), allowPositionals: true, strict: true, options: MOCK_LLM_OPTIONS });
      if (positionals.length > 0) throw new UsageError(`mock-llm takes no arguments, got "${positionals[0]}"`);
      return await mockLlmCommand({ port: values.port, script: values.script }, io);
    }
    if (command === "migrate") {
      const { values, positionals } = parseArgs({
        args: [...rest],
        allowPositionals: true,
        strict: true,
        options: { output: { type: "string", short: "o" }, "dry-run": { type: "boolean" }, report: { type: "string" } },
      });
      if (positionals.length !== 1) throw new UsageError(`migrate expects exactly one IN file, got ${positionals.length}`);
      return await migrateCommand({ file: positionals[0], output: values.output, dryRun: values["dry-run"] ?? false, report: values.report }, io);
    }
    if (command === "validate") {
      const { values, positionals } = parseArgs({ args: [...rest], allowPositionals: true, strict: true, options: { json: { type: "boolean" } } });
      if (positionals.length === 0) throw new UsageError("validate expects at least one FILE");
      return await validateCommand(positionals, values.json ?? false, io);
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`canvasflow: ${(error as Error).message}\n\n${USAGE}`);
      return EXIT.usage;
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
