/**
 * The migration report: what each step changed and what could not be converted, as text for
 * people or JSON for tools.
 */
import type { MigrationNote, MigrationResult, UnsupportedPart } from "./types.js";
import { DSL_MIGRATIONS } from "../../migrations-dsl/index.js";

export type MigrationStatus = "migrated" | "already-current";

export interface MigrationReport {
  file?: string;
  status: MigrationStatus;
  /** Where the migrated DSL was written (absent for --dry-run and stdout). */
  output?: string;
  applied: Array<{ id: string; description: string }>;
  notes: MigrationNote[];
  unsupported: UnsupportedPart[];
}

export function migrationReport(result: MigrationResult<unknown>, extra: { file?: string; output?: string } = {}): MigrationReport {
  const descriptions = new Map(DSL_MIGRATIONS.map((s) => [s.id, s.description]));
  return {
    ...(extra.file !== undefined ? { file: extra.file } : {}),
    status: result.applied.length > 0 ? "migrated" : "already-current",
    ...(extra.output !== undefined ? { output: extra.output } : {}),
    applied: result.applied.map((id) => ({ id, description: descriptions.get(id) ?? "" })),
    notes: result.notes,
    unsupported: result.unsupported,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function describeNote(note: MigrationNote): string {
  const who = note.component ? `${note.component}${note.componentType ? ` (${note.componentType})` : ""}: ` : "";
  return `${who}${note.change} — ${note.reason}`;
}

/** The report for people: a verdict line, each step with its changes, then the unsupported parts. */
export function formatMigrationReport(report: MigrationReport): string {
  const name = report.file ?? "<dsl>";
  const lines: string[] = [];
  if (report.status === "already-current") {
    lines.push(`${name}: already current (no migration step applies)`);
  } else {
    lines.push(`${name}: migrated (${plural(report.applied.length, "step")}, ${plural(report.notes.length, "change")})${report.output ? ` → ${report.output}` : ""}`);
    for (const step of report.applied) {
      lines.push(`  ${step.id}: ${step.description}`);
      for (const note of report.notes.filter((n) => n.step === step.id)) lines.push(`    - ${describeNote(note)}`);
    }
  }
  if (report.unsupported.length > 0) {
    lines.push(`  ${plural(report.unsupported.length, "unsupported component")} left (the canvas cannot run until ${report.unsupported.length === 1 ? "it is" : "they are"} replaced):`);
    for (const part of report.unsupported) lines.push(`    - ${part.component} (${part.componentType}): ${part.reason}`);
  }
  return lines.join("\n");
}

/** One line for `run`/`validate`, which migrate in memory. */
export function inMemoryWarning(file: string, result: MigrationResult<unknown>): string {
  const steps = result.applied.join(", ");
  const unsupported = result.unsupported.length > 0 ? `, ${plural(result.unsupported.length, "unsupported component")} left` : "";
  return `warning: ${file}: migrated in memory (${plural(result.notes.length, "change")} by ${steps}${unsupported}); convert the file with \`canvasflow migrate ${file} -o NEW.json\``;
}
