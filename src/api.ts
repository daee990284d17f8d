/**
 * The library API: load, validate and run canvases, and register components.
 */
import { builtinRegistry } from "./components/builtins.js";
import type { ComponentRegistry } from "./components/registry.js";
import type { ComponentDefinition, Params } from "./components/types.js";
import { DslReadError, parseDslText, readDslFile, unwrapDsl, type DslSource } from "./dsl/source.js";
import type { CanvasDsl } from "./dsl/types.js";
import { validateSource, type ValidationReport } from "./dsl/validate.js";
import { Canvas, compileCanvasGraph, type CanvasRuntimeOptions, type CompiledCanvas } from "./engine/canvas.js";
import { isYamlPath } from "./dify/document.js";
import { registerDify } from "./dify/front-end.js";
import { registerPipelines } from "./pipelines/register.js";

/**
 * The registry used when none is passed: every built-in, Dify's node components and front end,
 * RAGFlow's ingestion-pipeline steps and front end,
 * plus what `registerComponent` added.
 */
export const defaultRegistry: ComponentRegistry = registerPipelines(registerDify(builtinRegistry()));

/**
 * Add a component type. It runs through the same interface and capabilities as the built-ins.
 * Pass `{ replace: true }` to override a built-in.
 */
export function registerComponent<P extends Params>(definition: ComponentDefinition<P>, options: { replace?: boolean; registry?: ComponentRegistry } = {}): void {
  (options.registry ?? defaultRegistry).register(definition, { replace: options.replace });
}

export interface LoadOptions extends CanvasRuntimeOptions {
  registry?: ComponentRegistry;
}

/** A DSL that cannot run: the report lists every problem. */
export class CanvasValidationError extends Error {
  constructor(readonly report: ValidationReport) {
    const errors = report.issues.filter((i) => i.severity === "error");
    const where = report.file ? `${report.file}: ` : "";
    const first = errors.slice(0, 3).map((i) => (i.componentId ? `${i.componentId}: ${i.message}` : i.message));
    super(`${where}invalid canvas (${errors.length} error${errors.length === 1 ? "" : "s"}): ${first.join("; ")}${errors.length > 3 ? "; …" : ""}`);
    this.name = "CanvasValidationError";
  }
}

/**
 * Read a DSL from a path (`.json`, or Dify's `.yml`/`.yaml`), JSON text, or an object (bare,
 * template envelope, or a Dify document).
 */
export async function readSource(dslOrPath: string | object): Promise<DslSource> {
  if (typeof dslOrPath === "string") {
    if (dslOrPath.trimStart().startsWith("{")) return parseDslText(dslOrPath);
    // The YAML reader (the yaml package and PyYAML's rules) is loaded when a YAML file is read.
    if (isYamlPath(dslOrPath)) return unwrapDsl(await (await import("./dify/yaml.js")).readDifyYamlFile(dslOrPath), dslOrPath);
    return readDslFile(dslOrPath);
  }
  return unwrapDsl(dslOrPath);
}

/** Validate a DSL (path, JSON text or object) without running it. */
export async function validateCanvas(dslOrPath: string | object, options: { registry?: ComponentRegistry } = {}): Promise<ValidationReport> {
  const source = await readSource(dslOrPath);
  return validateSource(source, { registry: options.registry ?? defaultRegistry });
}

/** Validate an in-memory DSL object. Never throws: a value that is not an object gets a report saying so. */
export function validateDsl(dsl: object, options: { registry?: ComponentRegistry; file?: string } = {}): ValidationReport {
  let source: DslSource;
  try {
    source = unwrapDsl(dsl, options.file);
  } catch (error) {
    if (!(error instanceof DslReadError)) throw error;
    const issue = { severity: "error", code: "not-a-canvas", pointer: "/", message: error.reason } as const;
    return { ...(options.file ? { file: options.file } : {}), kind: "unknown", valid: false, issues: [issue] };
  }
  return validateSource(source, { registry: options.registry ?? defaultRegistry });
}

/**
 * Load a canvas from a path, JSON text, or a DSL object; Dify workflow YAML (`.yml`, `.yaml`, or
 * its parsed object) loads too. A snapshot from `canvas.toJSON()` resumes its session. Throws
 * CanvasValidationError with the full report when the DSL is invalid.
 */
export async function loadCanvas(dslOrPath: string | object, options: LoadOptions = {}): Promise<Canvas> {
  const registry = options.registry ?? defaultRegistry;
  const source = await readSource(dslOrPath);
  return canvasFromSource(source, registry, options);
}

/**
 * Validate and compile a DSL once, for many canvases (`Canvas.fromCompiled`, or a
 * DurableSession's `dsl`): the validation and graph building a new session would repeat. Throws
 * CanvasValidationError with the full report when the DSL is invalid.
 */
export function compileCanvas(source: DslSource, registry: ComponentRegistry = defaultRegistry): CompiledCanvas {
  const report = validateSource(source, { registry });
  if (!report.valid) throw new CanvasValidationError(report);
  const dsl = source.dsl as CanvasDsl;
  return Object.freeze({ dsl, graph: compileCanvasGraph(dsl, registry), warnings: report.issues.filter((i) => i.severity === "warning") });
}

/** Build a canvas from an already-read source (validates first). */
export function canvasFromSource(
  source: DslSource,
  registry: ComponentRegistry,
  options: CanvasRuntimeOptions = {},
  /** A report already made for this source (saves validating twice). */
  report: ValidationReport = validateSource(source, { registry }),
): Canvas {
  if (!report.valid) throw new CanvasValidationError(report);
  const warnings = report.issues.filter((i) => i.severity === "warning");
  return Canvas.fromValidatedDsl(source.dsl as CanvasDsl, registry, options, warnings);
}
