/**
 * `run` and `validate` accept old DSLs: they are migrated in memory (the file is untouched) and
 * a one-line warning says how much changed and how to convert the file for good.
 */
import type { DslSource } from "../dsl/source.js";
import { inMemoryWarning } from "../migrate/report.js";
import { migrateDsl, needsMigration } from "../migrate/runner.js";
import { MigrationError } from "../migrate/types.js";
import type { CliIO } from "./io.js";

export function migrateInMemory(source: DslSource, label: string, io: CliIO): DslSource {
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
