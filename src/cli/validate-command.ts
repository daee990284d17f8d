/**
 * `canvasflow validate FILE... [--json] [--register MODULE]...`: a report per file; exit 0 when
 * every file is valid, else 1. The components of the `--register` modules are known to it.
 */
import { readSource } from "../api.js";
import { DslReadError } from "../dsl/source.js";
import { validateSource, type ValidationReport } from "../dsl/validate.js";
import { formatReport } from "./report.js";
import { migrateInMemory } from "./migrate-in-memory.js";
import type { CliIO } from "./io.js";
import { commandRegistry } from "./register-modules.js";

export async function validateCommand(files: readonly string[], json: boolean, io: CliIO, register: readonly string[] = []): Promise<number> {
  const registry = await commandRegistry(register);
  const reports: ValidationReport[] = [];
  for (const file of files) {
    let report: ValidationReport;
    try {
      report = validateSource(migrateInMemory(await readSource(file), file, io), { registry });
    } catch (error) {
      if (!(error instanceof DslReadError)) throw error;
      report = {
        file,
        kind: "unknown",
        valid: false,
        issues: [{ severity: "error", code: "unreadable", pointer: "/", message: error.message.replace(`${file}: `, "") }],
      };
    }
    reports.push({ ...report, file });
    if (!json) io.stdout.write(`${formatReport(report, file)}\n`);
  }
  if (json) io.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else if (files.length > 1) {
    const valid = reports.filter((r) => r.valid).length;
    io.stdout.write(`\n${valid} of ${files.length} files valid\n`);
  }
  return reports.every((r) => r.valid) ? 0 : 1;
}
