/**
 * ExcelProcessor (agent/component/excel_processor.py): reads, merges, transforms or writes
 * spreadsheets. `input_files` are references to uploaded files, `transform_data` a reference to
 * rows to transform or write out. A canvas node only, not an Agent tool.
 */
import { findReferences, parseSelector, type Reference } from "../refs/grammar.js";
import type { ParamProblem, Params } from "../components/types.js";
import { jsonPointer, listParam } from "../util/values.js";
import { defineTool, lazyRun } from "./define-tool.js";

/** A file or data reference: a bare selector, or text holding template references. */
function referencesIn(value: unknown): Reference[] {
  if (typeof value !== "string" || value.trim() === "") return [];
  const ref = parseSelector(value);
  return ref ? [ref] : findReferences(value);
}

function checkReferences(params: Params): ParamProblem[] {
  const problems: ParamProblem[] = [];
  listParam(params.input_files).forEach((entry, i) => {
    if (referencesIn(entry).length === 0) problems.push({ pointer: jsonPointer("input_files", i), message: `input_files[${i}] must be a reference to a file, not ${JSON.stringify(entry)}` });
  });
  const data = params.transform_data;
  if (typeof data === "string" && data.trim() !== "" && referencesIn(data).length === 0) {
    problems.push({ pointer: "/transform_data", message: `transform_data must be a reference to the data, not ${JSON.stringify(data)}` });
  }
  const operation = params.operation;
  if ((operation === "transform" || operation === "output") && (typeof data !== "string" || data.trim() === "")) {
    problems.push({ pointer: "/transform_data", severity: "warning", message: `operation "${operation}" reads transform_data, which is empty: the result will be empty` });
  }
  return problems;
}

const THOUGHTS: Readonly<Record<string, string>> = {
  read: "Reading Excel files...",
  merge: "Merging Excel data...",
  transform: "Transforming data...",
  output: "Generating Excel output...",
};

export const ExcelProcessor = defineTool({
  name: "ExcelProcessor",
  meta: {},
  defaults: {
    input_files: [],
    operation: "read",
    sheet_selection: "all",
    merge_strategy: "concat",
    join_on: "",
    transform_instructions: "",
    transform_data: "",
    output_format: "xlsx",
    output_filename: "output",
  },
  usableAsTool: false,
  timeoutSeconds: 600,
  primaryOutput: "summary",
  thoughts: (params) => THOUGHTS[String(params.operation)] ?? "Processing Excel...",
  references: (params) => [...listParam(params.input_files).flatMap(referencesIn), ...referencesIn(params.transform_data)],
  check: checkReferences,
  run: lazyRun(() => import("./excel/process.js"), (m) => m.runExcelProcessor),
});
