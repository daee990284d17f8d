/**
 * File: the entry of an ingestion pipeline (research/ragflow-pipelines.md §4.1). A run parses one
 * document, given in `sys.files` (the CLI's `--file`, the library's `run({ files })`, the
 * server's upload); File opens it through the run's documents service and hands the next step
 * its `name` and `file`.
 */
import type { ComponentDefinition } from "../../contracts/component.js";
import { componentSchema } from "../../dsl/schemas.js";
import { pipelineFile } from "../documents.js";
import { runStep } from "./step.js";

export const FileStep: ComponentDefinition = {
  name: "File",
  paramsSchema: componentSchema("File"),
  capabilities: { entry: true, pipeline: true, reportsProgress: true },
  thoughts: () => "",
  async invoke(ctx) {
    await runStep(ctx, async (_upstream, trace) => {
      const files = ctx.peek("sys.files");
      const list = Array.isArray(files) ? files : [];
      if (list.length === 0) {
        throw new Error("the pipeline was given no document: a run parses one (canvasflow run PIPELINE --file DOC; run({ files: [path] }) in the library; an upload on the server)");
      }
      if (list.length > 1) {
        throw new Error(`the pipeline was given ${list.length} documents in one run: a run parses one; give each its own run (the CLI and the library do that for several files)`);
      }
      const file = pipelineFile(list[0], 0);
      ctx.setInput("file", file.name);
      ctx.setOutput("name", file.name);
      ctx.setOutput("file", file);
      trace.note(1, "File fetched.");
    });
  },
};
