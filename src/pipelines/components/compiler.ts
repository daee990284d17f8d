/**
 * Compiler (research/ragflow-pipelines.md §4.7): RAGFlow compiles chunks with the templates of a
 * compilation template group (RAPTOR trees, knowledge graphs, timelines), which live in RAGFlow's
 * database and write to its document store as they run. canvasflow has none of them, so the
 * group resolves to no active template, and the Compiler does what RAGFlow's does then: the
 * input becomes chunks and passes through, and the trace says why.
 */
import type { ComponentDefinition, ParamProblem } from "../../contracts/component.js";
import type { Params } from "../../contracts/values.js";
import { componentSchema } from "../../dsl/schemas.js";
import { isPlainObject } from "../../util/values.js";
import type { Chunk } from "../payload.js";
import { runStep } from "./step.js";

function groupIds(params: Params): string[] {
  const ids: string[] = [];
  if (typeof params.compilation_template_group_id === "string" && params.compilation_template_group_id.trim() !== "") ids.push(params.compilation_template_group_id.trim());
  if (Array.isArray(params.compilation_template_group_ids)) for (const id of params.compilation_template_group_ids) if (typeof id === "string" && id.trim() !== "") ids.push(id.trim());
  return ids;
}

function checkCompiler(params: Params): ParamProblem[] {
  return groupIds(params).length === 0
    ? [{ pointer: "/compilation_template_group_id", severity: "warning", message: "Compilation Template Group does not support empty value. (RAGFlow refuses the pipeline; here the chunks pass through)" }]
    : [];
}

/** The input as chunks (§4.7 step 1): chunks as they are, JSON items as chunks, a text payload as one chunk. */
export function compilerInput(upstream: Readonly<Record<string, unknown>>): Chunk[] {
  const format = upstream.output_format;
  if (format === "chunks" || (format === undefined && Array.isArray(upstream.chunks))) {
    return ((upstream.chunks as unknown[]) ?? []).filter(isPlainObject).map((chunk) => {
      const text = typeof chunk.text === "string" ? chunk.text : typeof chunk.content_with_weight === "string" ? chunk.content_with_weight : "";
      return { ...chunk, text } as Chunk;
    });
  }
  if (format === "json") return ((upstream.json as unknown[]) ?? []).filter(isPlainObject).map((item) => ({ ...item, text: typeof item.text === "string" ? item.text : "" }) as Chunk);
  const payload = typeof format === "string" ? upstream[format] : undefined;
  if (typeof payload !== "string") throw new Error(`Input error: output_format=${String(format)} needs a ${String(format)} payload from the step before the Compiler`);
  return payload.trim() === "" ? [] : [{ text: payload }];
}

export const CompilerStep: ComponentDefinition = {
  name: "Compiler",
  paramsSchema: componentSchema("Compiler"),
  defaults: { compilation_template_group_id: "", llm_id: "" },
  capabilities: { pipeline: true, reportsProgress: true },
  thoughts: () => "",
  check: checkCompiler,
  async invoke(ctx) {
    await runStep(ctx, async (upstream, trace) => {
      trace.note(0.01, "Start knowledge compilation.");
      const chunks = compilerInput(upstream);
      const groups = groupIds(ctx.params);
      trace.note(
        0,
        `No active compilation templates resolved${groups.length > 0 ? ` for ${groups.join(", ")}` : ""}: compilation templates live in RAGFlow's database, which canvasflow does not have; the ${chunks.length} chunks pass through`,
      );
      ctx.setOutput("chunks", chunks);
      ctx.setOutput("output_format", "chunks");
    });
  },
};
