/**
 * Parser (research/ragflow-pipelines.md §4.2): picks the setup whose suffixes hold the
 * document's extension, decides how its parse method runs here (a parser of this process, a
 * vision model, or a refusal naming what does run), and hands the next step the payload its
 * setup's output format names, plus the outline of a PDF or DOCX.
 */
import type { ComponentDefinition } from "../../contracts/component.js";
import { componentSchema } from "../../dsl/schemas.js";
import { documentOpenerOf, type PipelineFile } from "../documents.js";
import type { FormatParseResult } from "../parsing/contract.js";
import { formatParser } from "../parsing/formats.js";
import { parseRoute } from "../parsing/methods.js";
import { readParserSetups, setupForDocument } from "../parsing/setups.js";
import { parseLimitsOf } from "../payload.js";
import { runStep } from "./step.js";
import { speechModelFor, visionModelFor } from "./vision.js";

/** RAGFlow's first progress message per file type. */
const START_MESSAGES: Readonly<Record<string, string>> = {
  pdf: "Start to work on a PDF.",
  spreadsheet: "Start to work on a Spreadsheet.",
  doc: "Start to work on a DOC document",
  docx: "Start to work on a DOCX document",
  slides: "Start to work on a PowerPoint Document",
  markdown: "Start to work on a markdown.",
  "text&code": "Start to work on a text or code file.",
  html: "Start to work on an HTML document.",
  image: "Start to work on an image.",
  audio: "Start to work on an audio.",
  video: "Start to work on an video.",
  email: "Start to work on an email.",
  epub: "Start to work on an EPUB.",
  json: "Start to work on a JSON file.",
};

export const ParserStep: ComponentDefinition = {
  name: "Parser",
  paramsSchema: componentSchema("Parser"),
  capabilities: { pipeline: true, reportsProgress: true },
  thoughts: () => "",
  check: (params) => readParserSetups(params).problems,
  // What the run would refuse first: no setup for the extension, or a method that cannot run here.
  documentProblem(params, name) {
    const chosen = setupForDocument(readParserSetups(params).setups, name);
    if ("error" in chosen) return chosen.error;
    const route = parseRoute(chosen.type, chosen.setup);
    return route.kind === "refused" ? route.message : undefined;
  },
  async invoke(ctx) {
    await runStep(ctx, async (upstream, trace) => {
      const name = upstream.name;
      if (typeof name !== "string" || name === "") throw new Error("Input error: the Parser needs the document's name from the step before it (a File)");
      const file = (upstream.file ?? { name }) as PipelineFile;
      const chosen = setupForDocument(readParserSetups(ctx.params).setups, name);
      if ("error" in chosen) throw new Error(chosen.error);
      const { type, setup } = chosen;
      trace.note(0.01 + ctx.random() * 0.04, START_MESSAGES[type] ?? `Start to work on ${type}.`);
      const route = parseRoute(type, setup);
      if (route.kind === "refused") throw new Error(route.message);
      const parse = await formatParser(type, route);
      // No default: which files a run may read is the caller's to say (the server reads only its uploads).
      const opener = documentOpenerOf(ctx.services);
      if (!opener) throw new Error(`this run has no documents service to read ${name} with: the CLI gives one; in the library pass services: { documents: localDocuments() }`);
      const source = await opener.open(file, ctx.signal);
      const result: FormatParseResult = await parse({
        source,
        setup,
        limits: parseLimitsOf(ctx.services),
        progress: trace.sink,
        warn: (message) => trace.warn(message),
        signal: ctx.signal,
        ...(route.kind === "vision" ? { vision: visionModelFor(ctx, route.model) } : {}),
        ...(route.kind === "speech" ? { speech: speechModelFor(ctx, route.model) } : {}),
      });
      ctx.setOutput("output_format", result.output_format);
      // RAGFlow's Parser always exposes its four payloads; the one named by output_format is set.
      for (const key of ["json", "markdown", "text", "html"] as const) ctx.setOutput(key, result[key] ?? (key === "json" ? [] : ""));
      if (result.outlines) ctx.setOutput("file", { ...file, outlines: result.outlines });
    });
  },
};
