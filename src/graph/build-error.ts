/**
 * What build() throws: every problem it found, each naming the component, the param (a JSON
 * pointer into the DSL) and what is wrong, and the validation report when validateDsl made one.
 */
import type { ValidationIssue, ValidationReport } from "../contracts/dsl.js";

export class CanvasBuildError extends Error {
  constructor(
    /** Every error, in the order found. */
    readonly issues: readonly ValidationIssue[],
    /** validateDsl's full report, when the references were sound and the DSL was validated. */
    readonly report?: ValidationReport,
  ) {
    const lines = issues.map((i) => `  ${i.componentId ? `${i.componentId} ` : ""}${i.pointer}: ${i.message}`);
    super(`canvas build failed (${issues.length} error${issues.length === 1 ? "" : "s"}):\n${lines.join("\n")}`);
    this.name = "CanvasBuildError";
  }
}
