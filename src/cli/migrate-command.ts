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
import { defaultRegistry } from "../api.js";
import { isDifyDocument } from "../dify/document.js";
import { NORMALIZATION_STEPS, readDifyGraph } from "../dify/graph.js";
import { validateDifyDocument } from "../dify/validate.js";
import { isYamlPath, readDifyYamlFile } from "../dify/yaml.js";
import type { MigrationReport } from "../migrate/report.js";

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
  if (isYamlPath(args.file)) return difyDryRun(args, format, io);

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

/**
 * `migrate FILE.yml --dry-run`: what the Dify front end normalizes when it loads the document (it
 * does so in memory every time: a Dify document is never rewritten), and the nodes it cannot run.
 */
async function difyDryRun(args: MigrateArgs, format: string, io: CliIO): Promise<number> {
  if (!args.dryRun) {
    throw new UsageError(`${args.file} is a Dify document: canvasflow reads it as it is and normalizes its legacy shapes in memory each time; see them with --dry-run`);
  }
  let document: unknown;
  try {
    document = await readDifyYamlFile(args.file);
  } catch (error) {
    if (!(error instanceof DslReadError)) throw error;
    io.err(`${error.message}\n`);
    return MIGRATE_EXIT.usage;
  }
  if (!isPlainObject(document) || !isDifyDocument(document)) {
    io.err(`${args.file}: not a Dify document (expected an app export, a kind: graph document, or nodes and edges)\n`);
    return MIGRATE_EXIT.usage;
  }
  const graph = readDifyGraph(document);
  const validation = validateDifyDocument({ dsl: document as never, file: args.file }, defaultRegistry);
  const steps = [...new Set(graph.notes.map((n) => n.step))];
  const report: MigrationReport = {
    file: args.file,
    status: steps.length > 0 ? "migrated" : "already-current",
    applied: steps.map((id) => ({ id, description: NORMALIZATION_STEPS[id] ?? "" })),
    notes: [...graph.notes],
    unsupported: validation.issues
      .filter((i) => i.code === "node.unsupported")
      .map((i) => ({ component: i.componentId ?? "", componentType: i.componentType ?? "", reason: i.message.replace(/^canvasflow cannot run this node: /, "").replace(/; the graph loads.*$/, "") })),
  };
  io.stdout.write(`${format === "json" ? JSON.stringify(report, null, 2) : formatMigrationReport(report)
          .replace(": migrated (", ": normalized in memory (")
          .replace(/\(the canvas cannot run until (it is|they are) replaced\)/, "(a run that reaches one fails)")}\n`);
  for (const issue of validation.issues.filter((i) => i.severity === "error")) io.err(`error ${issue.pointer}: ${issue.message}\n`);
  return report.unsupported.length > 0 || !validation.valid ? MIGRATE_EXIT.unsupported : MIGRATE_EXIT.done;
}
