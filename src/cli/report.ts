/**
 * Human-readable validation reports.
 */
import type { ValidationIssue, ValidationReport } from "../dsl/validate.js";

const KIND_LABEL: Record<ValidationReport["kind"], string> = {
  agent: "agent canvas",
  pipeline: "ingestion pipeline",
  legacy: "legacy RAGFlow canvas",
  "graph-only": "graph-only DSL",
  dify: "Dify workflow",
  unknown: "not a canvas",
};

/** The kind's label; a Dify chatflow (advanced-chat) is not called a workflow. */
function kindLabel(report: ValidationReport): string {
  return report.kind === "dify" && report.appMode === "advanced-chat" ? "Dify chatflow" : KIND_LABEL[report.kind];
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function describeIssue(issue: ValidationIssue): string {
  const who = issue.componentId
    ? `${issue.componentId}${issue.componentName && issue.componentName !== issue.componentId ? ` "${issue.componentName}"` : ""}${issue.componentType ? ` (${issue.componentType})` : ""}: `
    : "";
  return `${who}${issue.message}`;
}

/** One block per file: a verdict line, then each issue with its JSON pointer. */
export function formatReport(report: ValidationReport, file = report.file ?? "<dsl>"): string {
  const errors = report.issues.filter((i) => i.severity === "error");
  const warnings = report.issues.filter((i) => i.severity === "warning");
  const verdict = report.valid ? "valid" : "INVALID";
  const tally = [errors.length ? count(errors.length, "error") : "", warnings.length ? count(warnings.length, "warning") : ""].filter(Boolean).join(", ");
  const lines = [`${file}: ${verdict} (${kindLabel(report)}${tally ? `; ${tally}` : ""})`];
  for (const issue of [...errors, ...warnings]) {
    lines.push(`  ${issue.severity === "error" ? "error  " : "warning"} ${issue.pointer}`);
    lines.push(`          ${describeIssue(issue)}`);
  }
  if (report.notes && report.notes.length > 0) {
    lines.push(`  normalized in memory (${count(report.notes.length, "change")}):`);
    for (const note of report.notes) {
      const who = note.component ? `${note.component}${note.componentType ? ` (${note.componentType})` : ""}: ` : "";
      lines.push(`    - ${who}${note.change} — ${note.reason}`);
    }
  }
  return lines.join("\n");
}
