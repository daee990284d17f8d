/**
 * `canvasflow graph FILE [--format mermaid|svg|html] [-o OUT] [--register MODULE]...`: a diagram
 * of a canvas or a Dify app (YAML), knowing the components of the `--register` modules. Old DSLs are migrated in memory first, as `run` does. A canvas whose params do not validate is still
 * drawn (with a warning): a picture helps to find what is wrong. One whose structure cannot be
 * compiled (no Begin, unknown component types, a field of the wrong type or missing, such as a
 * component without `obj`) gets its validation report instead.
 */
import { writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { defaultRegistry, readSource } from "../api.js";
import { DslReadError } from "../dsl/source.js";
import type { CanvasDsl } from "../dsl/types.js";
import { validateSource } from "../dsl/validate.js";
import { compileCanvasGraph } from "../engine/canvas.js";
import { readDifyGraph } from "../dify/graph.js";
import { graphModelOf } from "../render/canvas-model.js";
import { difyGraphModel } from "../render/dify-model.js";
import type { GraphModel } from "../render/graph-model.js";
import { renderGraphHtml } from "../render/graph-html.js";
import { renderGraphSvg } from "../render/index.js";
import { toMermaid } from "../render/mermaid.js";
import { UsageError, type CliIO } from "./io.js";
import { migrateInMemory } from "./migrate-in-memory.js";
import { formatReport } from "./report.js";
import { describeWriteError } from "./write-errors.js";
import { commandRegistry } from "./register-modules.js";
import type { ComponentRegistry } from "../components/registry.js";

export const GRAPH_FORMATS = ["mermaid", "svg", "html"] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

export interface GraphArgs {
  file: string;
  format: string | undefined;
  output: string | undefined;
  /** `--register MODULE`: modules whose component types the canvas uses. */
  register?: readonly string[];
}

/** Problems that leave nothing to draw: the graph cannot be compiled. */
const UNDRAWABLE = new Set(["missing-begin", "extra-begin", "unknown-component", "schema", "too-deep"]);

export async function graphCommand(args: GraphArgs, io: CliIO): Promise<number> {
  const format = args.format ?? "mermaid";
  if (!(GRAPH_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be mermaid, svg or html, got ${JSON.stringify(format)}`);
  const registry = await commandRegistry(args.register ?? []);
  let loaded: { model: GraphModel; title: string } | undefined;
  try {
    loaded = await loadGraphModel(args.file, io, registry);
    if (!loaded) return 2;
  } catch (error) {
    if (!(error instanceof DslReadError)) throw error;
    io.err(`${error.message}\n`);
    return 2;
  }
  const text = await draw(loaded.model, format as GraphFormat, loaded.title);
  if (args.output === undefined) {
    io.stdout.write(text);
    return 0;
  }
  try {
    await writeFile(args.output, text, "utf8");
  } catch (error) {
    io.err(`canvasflow: cannot write ${args.output}: ${describeWriteError(error as NodeJS.ErrnoException)}\n`);
    return 1;
  }
  io.err(`canvasflow: wrote ${args.output} (${format}, ${loaded.model.nodes.length} components, ${loaded.model.edges.length} edges)\n`);
  return 0;
}

function draw(model: GraphModel, format: GraphFormat, title: string): Promise<string> | string {
  if (format === "svg") return renderGraphSvg(model);
  if (format === "html") return renderGraphHtml(model, { title });
  return toMermaid(model);
}

/** The graph model of FILE, or undefined when it cannot be drawn (its report was printed). */
export async function loadGraphModel(file: string, io: CliIO, registry: ComponentRegistry = defaultRegistry): Promise<{ model: GraphModel; title: string } | undefined> {
  const source = migrateInMemory(await readSource(file), file, io);
  const report = validateSource(source, { registry });
  const errors = report.issues.filter((i) => i.severity === "error");
  if (report.kind === "dify") {
    // Dify's reader never throws: what it could read is drawn, unless that is nothing.
    const graph = readDifyGraph(source.dsl as Record<string, unknown>);
    if (graph.nodes.length === 0) {
      io.err(`${formatReport(report, file)}\n`);
      return undefined;
    }
    warnInvalid(file, errors.length, io);
    return { model: difyGraphModel(graph, registry), title: graph.name || basename(file) };
  }
  if ((report.kind !== "agent" && report.kind !== "pipeline") || errors.some((i) => UNDRAWABLE.has(i.code))) {
    io.err(`${formatReport(report, file)}\n`);
    return undefined;
  }
  warnInvalid(file, errors.length, io);
  // A pipeline compiles through its own front end (its legacy step names renamed), an agent canvas as RAGFlow's.
  const model = graphModelOf(compileCanvasGraph(source.dsl as CanvasDsl, registry));
  return { model, title: titleOf(source.envelope?.title) ?? basename(file) };
}

function warnInvalid(file: string, errors: number, io: CliIO): void {
  if (errors === 0) return;
  io.err(`warning: ${file}: drawn although it does not validate (${errors} error${errors === 1 ? "" : "s"}; canvasflow validate ${file} lists them)\n`);
}

/** A template's title: text, or `{en: …}` in RAGFlow's translated templates. */
function titleOf(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "object" && value !== null && typeof (value as { en?: unknown }).en === "string") return (value as { en: string }).en;
  return undefined;
}
