/**
 * The `canvasflow` command: a thin shell over the library API.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../dsl/schemas.js";
import { processIO, UsageError, type CliIO } from "./io.js";
import { EXIT, runCommand } from "./run-command.js";
import { validateCommand } from "./validate-command.js";

const USAGE = `canvasflow — run agent canvases stored as JSON DSL (RAGFlow format)

Usage:
  canvasflow run FILE [--query TEXT] [--input NAME=VALUE]... [--inputs JSON]
                      [--session FILE|redis://HOST:PORT[/DB]#KEY] [--events ndjson|pretty]
                      [--max-steps N] [--concurrency N] [--timeout SECONDS] [--allow-private-network]
  canvasflow validate FILE... [--json]
  canvasflow --version | --help

run exit codes: 0 finished, 3 paused waiting for input, 1 the run failed, 2 invalid DSL or usage.
`;

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
        args: [...rest],
        allowPositionals: true,
        strict: true,
        options: {
          query: { type: "string", short: "q" },
          input: { type: "string", short: "i", multiple: true },
          inputs: { type: "string" },
          session: { type: "string", short: "s" },
          events: { type: "string", short: "e" },
          "max-steps": { type: "string" },
          concurrency: { type: "string" },
          timeout: { type: "string" },
          "allow-private-network": { type: "boolean" },
        },
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
          allowPrivateNetwork: values["allow-private-network"] ?? false,
        },
        io,
      );
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
    io.err(`canvasflow: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failed;
  }
}
