/**
 * `canvasflow migrate IN [-o OUT] [--dry-run] [--report json|text]`: bring an old DSL (RAGFlow
 * v0.19 canvas, graph-only export, renamed components) to the current format.
 *
 * The migrated DSL goes to OUT, or to stdout when there is no -o (the report then goes to
 * stderr); --dry-run writes nothing. IN is never modified unless -o names it.
 * Exit codes: 0 migrated or already current, 1 unsupported components remain (or the migration
 * failed, or OUT cannot be written), 2 usage or unreadable input.
 */
import { readFile, writeFile } from "node:fs/promises";
import { DslReadError } from "../dsl/source.js";
import { migrateDsl } from "../migrate/runner.js";
import { formatMigrationReport, migrationReport } from "../migrate/report.js";
import { MigrationError } from "../migrate/types.js";
import { describeJson, isPlainObject } from "../util/values.js";
import { describeWriteError } from "./write-errors.js";
import { UsageError, type CliIO } from "./io.js";

export interface MigrateArgs {
  file: string;
  output?: string;
  dryRun: boolean;
  report?: string;
}

export const MIGRATE_EXIT = { done: 0, unsupported: 1, failed: 1, usage: 2 } as const;

async function readJson(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DslReadError(code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (error as Error).message, file);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DslReadError(`not valid JSON: ${(error as Error).message}`, file);
  }
  if (!isPlainObject(value)) throw new DslReadError(`expected a JSON object (a canvas DSL or a template envelope), got ${describeJson(value)}`, file);
  return value;
}

export async function migrateCommand(args: MigrateArgs, io: CliIO): Promise<number> {
  const format = args.report ?? "text";
  if (format !== "text" && format !== "json") throw new UsageError(`--report must be json or text, got "${format}"`);
  if (args.dryRun && args.output !== undefined) throw new UsageError("--dry-run writes nothing: leave out -o");

  let input: Record<string, unknown>;
  try {
    input = await readJson(args.file);
  } catch (error) {
    if (!(error instanceof DslReadError)) throw error;
    io.err(`${error.message}\n`);
    return MIGRATE_EXIT.usage;
  }

  let result;
  try {
    result = migrateDsl(input);
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    io.err(`canvasflow: ${args.file}: ${error.message}\n`);
    return MIGRATE_EXIT.failed;
  }

  const toStdout = !args.dryRun && args.output === undefined;
  const text = `${JSON.stringify(result.dsl, null, 2)}\n`;
  if (args.output !== undefined) {
    try {
      await writeFile(args.output, text, "utf8");
    } catch (error) {
      io.err(`canvasflow: cannot write ${args.output}: ${describeWriteError(error as NodeJS.ErrnoException)}\n`);
      return MIGRATE_EXIT.failed;
    }
  }
  const report = migrationReport(result, { file: args.file, ...(args.output !== undefined ? { output: args.output } : {}) });
  const printed = format === "json" ? JSON.stringify(report, null, 2) : formatMigrationReport(report);
  if (toStdout) {
    io.stdout.write(text);
    io.err(`${printed}\n`);
  } else {
    io.stdout.write(`${printed}\n`);
  }
  return result.unsupported.length > 0 ? MIGRATE_EXIT.unsupported : MIGRATE_EXIT.done;
}
