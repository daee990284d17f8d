/**
 * `canvasflow run … --trace FILE.html`: the run's events, rendered by renderTrace with the
 * canvas's diagram (a Dify app's drawn as `canvasflow graph` draws it), written once the turn ends (finished, failed, paused or cancelled).
 */
import { existsSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import type { Canvas } from "../engine/canvas.js";
import type { CanvasEvent } from "../engine/events.js";
import { defaultRegistry } from "../api.js";
import { isDifyDocument } from "../dify/document.js";
import { readDifyGraph } from "../dify/graph.js";
import type { GraphModel } from "../render/index.js";
import { UsageError, type CliIO } from "./io.js";
import { describeWriteError } from "./write-errors.js";

/** Checked before the run starts, so a long run does not end with nowhere to write its trace. */
export function checkTracePath(file: string | undefined): void {
  if (file === undefined) return;
  if (file === "") throw new UsageError("--trace expects a file name, got an empty one");
  const folder = dirname(resolve(file));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`--trace ${file}: the folder ${folder} does not exist`);
  if (existsSync(file) && statSync(file).isDirectory()) throw new UsageError(`--trace ${file}: it is a folder`);
}

/** The diagram of a canvas: a Dify app's through its own adapter (labelled handles, unsupported nodes marked). */
async function diagramOf(canvas: Canvas): Promise<GraphModel> {
  const { canvasGraphModel, difyGraphModel } = await import("../render/index.js");
  const document = canvas.toJSON() as unknown as Record<string, unknown>;
  return isDifyDocument(document) ? difyGraphModel(readDifyGraph(document), defaultRegistry) : canvasGraphModel(canvas);
}

/** Writes the trace; a failure is reported on stderr and leaves the run's exit code alone. */
export async function writeTrace(file: string, events: readonly CanvasEvent[], canvas: Canvas, dslFile: string, io: CliIO): Promise<void> {
  try {
    // The renderer is loaded only when a trace is asked for.
    const { renderTrace } = await import("../render/trace-html.js");
    const html = await renderTrace(events, { graph: await diagramOf(canvas), title: basename(dslFile), pausedAt: canvas.pending?.components ?? [] });
    await writeFile(file, html, "utf8");
    io.err(`canvasflow: trace written to ${file}\n`);
  } catch (error) {
    io.err(`canvasflow: cannot write the trace ${file}: ${describeWriteError(error as NodeJS.ErrnoException)}\n`);
  }
}
