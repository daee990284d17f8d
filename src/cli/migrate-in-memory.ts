/**
 * `run` and `validate` accept old DSLs: they are migrated in memory (the file is untouched) and
 * a one-line warning says how much changed and how to convert the file for good. A Dify document
 * is no RAGFlow DSL: its front end normalizes its legacy shapes itself, and the warning says how
 * many it normalized.
 */
import { defaultRegistry } from "../api.js";
import { readDifyGraph } from "../dify/graph.js";
import type { DslSource } from "../dsl/source.js";
import { inMemoryWarning } from "../migrate/report.js";
import { migrateDsl, needsMigration } from "../migrate/runner.js";
import { MigrationError } from "../migrate/types.js";
import type { CliIO } from "./io.js";

export function migrateInMemory(source: DslSource, label: string, io: CliIO): DslSource {
  const frontEnd = source.envelope ? undefined : defaultRegistry.frontEndFor(source.dsl);
  if (frontEnd) {
    if (frontEnd.kind === "dify") {
      const notes = readDifyGraph(source.dsl as Record<string, unknown>).notes;
      if (notes.length > 0) {
        io.err(`warning: ${label}: Dify legacy shapes normalized in memory (${notes.length} change${notes.length === 1 ? "" : "s"}); see them with \`canvasflow migrate ${label} --dry-run\`\n`);
      }
    }
    return source;
  }
  if (!needsMigration(source.dsl)) return source;
  try {
    const result = migrateDsl(source.dsl);
    io.err(`${inMemoryWarning(label, result)}\n`);
    return { ...source, dsl: result.dsl as unknown as DslSource["dsl"] };
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    // The validator then reports the DSL as the old format it is.
    io.err(`warning: ${label}: could not be migrated in memory (${error.message})\n`);
    return source;
  }
}
