/**
 * The ingestion-pipeline front end (research/ragflow-pipelines.md §1, §2): RAGFlow's dataflow
 * canvases load into the same engine as agent canvases, as a chain that starts at the File step
 * and runs one step after another under RAGFlow's own scheduling (the frontier). A pipeline is
 * recognized by its category or by holding pipeline steps and no Begin; its legacy step names
 * (Splitter, HierarchicalMerger) are renamed on every load, as RAGFlow does.
 */
import { chunkerRenames } from "../../migrations-dsl/001-chunker-renames.js";
import type { DslFrontEnd, Registry } from "../contracts/graph.js";
import type { CanvasDsl, DslSource, ValidationIssue, ValidationReport } from "../contracts/dsl.js";
import type { ComponentRegistry } from "../components/registry.js";
import { displayNames } from "../components/params.js";
import { isPipelineDsl } from "../dsl/kind.js";
import { structuralIssues } from "../dsl/structure.js";
import { checkCanvasComponents, type CanvasShape } from "../dsl/validate.js";
import { FRONTIER_POLICY } from "../engine/frontier.js";
import { compileGraph } from "../engine/graph.js";
import { jsonPointer } from "../util/values.js";

/** The id of a pipeline's entry, as RAGFlow's runner looks it up. */
export const PIPELINE_ENTRY_ID = "File";

const PIPELINE_SHAPE: CanvasShape = { kind: "pipeline", entryId: PIPELINE_ENTRY_ID, missingEntry: 'the pipeline has no start step (a File with the id "File")' };

/** The DSL with RAGFlow's renames applied (a copy; the DSL given is not changed). */
export function renamedPipeline(dsl: CanvasDsl): CanvasDsl {
  const loose = dsl as unknown as Parameters<typeof chunkerRenames.detect>[0];
  if (!chunkerRenames.detect(loose)) return dsl;
  const copy = structuredClone(loose);
  chunkerRenames.migrate(copy);
  return copy as unknown as CanvasDsl;
}

/**
 * What makes a pipeline a chain: one step after another from File, each step reading the whole
 * output of the one before. RAGFlow's runner puts both targets of a fork in its path and hands the
 * second the first's output; here a fork, a join or a loop is an error, and a step File never
 * reaches is a warning (it never runs).
 */
function chainIssues(dsl: CanvasDsl, base: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const names = displayNames(dsl);
  const at = (id: string, ...rest: string[]) => `${base}${jsonPointer("components", id, ...rest)}`;
  const named = (id: string) => ({ componentId: id, componentName: names.get(id) ?? id, componentType: dsl.components[id]?.obj?.component_name });
  const leadsHere = new Map<string, string[]>();
  for (const [id, entry] of Object.entries(dsl.components)) {
    const targets = [...new Set(entry.downstream ?? [])].filter((target) => Object.hasOwn(dsl.components, target));
    if (targets.length > 1) {
      issues.push({
        severity: "error",
        code: "pipeline-fork",
        pointer: at(id, "downstream"),
        ...named(id),
        message: `a pipeline is a chain, and ${names.get(id) ?? id} leads to ${targets.length} steps (${targets.join(", ")}): give it one next step`,
      });
    }
    for (const target of targets) leadsHere.set(target, [...(leadsHere.get(target) ?? []), id]);
  }
  for (const [id, from] of leadsHere) {
    if (id === PIPELINE_ENTRY_ID) {
      issues.push({ severity: "error", code: "pipeline-loop", pointer: at(from[0], "downstream"), ...named(from[0]), message: `${names.get(from[0]) ?? from[0]} leads back to File: a pipeline runs once through, from File to its last step` });
    } else if (from.length > 1) {
      issues.push({
        severity: "error",
        code: "pipeline-join",
        pointer: at(id),
        ...named(id),
        message: `a pipeline is a chain, and ${from.length} steps (${from.join(", ")}) lead to ${names.get(id) ?? id}: each step reads the output of the one step before it`,
      });
    }
  }
  if (!Object.hasOwn(dsl.components, PIPELINE_ENTRY_ID)) return issues;
  const reached = new Set<string>();
  for (let id: string | undefined = PIPELINE_ENTRY_ID; id !== undefined && !reached.has(id); ) {
    reached.add(id);
    id = (dsl.components[id]?.downstream ?? []).find((target) => Object.hasOwn(dsl.components, target));
  }
  for (const id of Object.keys(dsl.components)) {
    if (!reached.has(id) && !leadsHere.has(id)) {
      issues.push({ severity: "warning", code: "unreachable", pointer: at(id), ...named(id), message: `${names.get(id) ?? id} is not on the chain that starts at File: it never runs` });
    }
  }
  return issues;
}

export function validatePipeline(source: DslSource, registry: Registry): ValidationReport {
  const dsl = renamedPipeline(source.dsl);
  const base = source.envelope ? "/dsl" : "";
  const renamed: DslSource = { ...source, dsl };
  const issues: ValidationIssue[] = structuralIssues(renamed);
  if (issues.length === 0) {
    checkCanvasComponents(dsl, base, registry as ComponentRegistry, issues, PIPELINE_SHAPE);
    issues.push(...chainIssues(dsl, base));
  }
  return { ...(source.file ? { file: source.file } : {}), kind: "pipeline", valid: !issues.some((issue) => issue.severity === "error"), issues };
}

export const PIPELINE_FRONT_END: DslFrontEnd = {
  kind: "pipeline",
  recognizes: isPipelineDsl,
  validate: validatePipeline,
  compile: (document, registry) =>
    compileGraph(renamedPipeline(document as CanvasDsl), registry, FRONTIER_POLICY, {
      // A pipeline is a task: each run parses the document it is given; nothing is asked.
      entry: { label: "File", mode: "task", prologue: "", form: {}, required: [] },
      filesPerRun: 1,
    }),
};
