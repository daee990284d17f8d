/**
 * `canvasflow run FILE [--query TEXT] [--input NAME=VALUE]... [--inputs JSON]
 *                      [--session FILE|redis://HOST:PORT[/DB]#KEY] [--events ndjson|pretty] [--max-steps N]
 *                      [--config FILE] [--kb ID=DIR]... [--mock-llm] [--mock-llm-script FILE]`
 * (the services those last flags make are in services.ts)
 *
 * Exit codes: 0 finished, 3 paused waiting for input, 1 the run failed, 2 invalid DSL or usage.
 */
import { isDeepStrictEqual } from "node:util";
import { canvasFromSource, defaultRegistry, readSource } from "../api.js";
import type { InputField } from "../components/types.js";
import { DslReadError, unwrapDsl } from "../dsl/source.js";
import { validateSource } from "../dsl/validate.js";
import type { Canvas } from "../engine/canvas.js";
import type { CanvasEvent } from "../engine/events.js";
import { openSnapshotStore, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError, type OpenedSnapshotStore } from "../stores/index.js";
import { isPlainObject } from "../util/values.js";
import { PrettyPrinter } from "./pretty.js";
import { formatReport } from "./report.js";
import { migrateInMemory } from "./migrate-in-memory.js";
import { UsageError, type CliIO } from "./io.js";
import { isSetupError, openRunServices, type RunServices, type ServiceFlags } from "./services.js";

export const EXIT = { finished: 0, failed: 1, usage: 2, paused: 3 } as const;

export interface RunArgs extends ServiceFlags {
  file: string;
  query?: string;
  input: string[];
  inputs?: string;
  session?: string;
  events?: string;
  maxSteps?: string;
  concurrency?: string;
  timeout?: string;
  allowPrivateNetwork: boolean;
}

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number of seconds, got "${value}"`);
  return n;
}

/** `--inputs JSON` then each `--input NAME=VALUE` (later wins). */
export function parseInputs(inputsJson: string | undefined, pairs: readonly string[]): Record<string, unknown> | undefined {
  let inputs: Record<string, unknown> | undefined;
  if (inputsJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(inputsJson);
    } catch (error) {
      throw new UsageError(`--inputs is not valid JSON: ${(error as Error).message}`);
    }
    if (!isPlainObject(parsed)) throw new UsageError("--inputs must be a JSON object");
    inputs = { ...parsed };
  }
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--input expects NAME=VALUE, got "${pair}"`);
    (inputs ??= {})[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return inputs;
}

/** Every submitted name must be a field of the form that is asking. */
function checkInputNames(inputs: Record<string, unknown> | undefined, form: Record<string, InputField>, who: string): void {
  if (!inputs) return;
  const known = Object.keys(form);
  for (const name of Object.keys(inputs)) {
    if (!Object.hasOwn(form, name)) {
      const hint = known.length > 0 ? `it asks for: ${known.join(", ")}` : "it has no input fields";
      throw new UsageError(`unknown input "${name}" for ${who}: ${hint}`);
    }
  }
}

/** The canvas to run, and the version of the session it continues (`null`: a new session). */
interface Loaded {
  canvas: Canvas;
  sessionVersion: string | null;
}

async function loadForRun(args: RunArgs, io: CliIO, session: OpenedSnapshotStore | undefined, services: RunServices["services"]): Promise<Loaded> {
  // An old DSL (RAGFlow v0.19, graph-only…) runs as its migrated form.
  const fileSource = migrateInMemory(await readSource(args.file), args.file, io);
  let source = fileSource;
  let sessionVersion: string | null = null;
  const stored = session ? await session.store.load(session.key) : undefined;
  if (session && stored) {
    source = unwrapDsl(stored.snapshot, session.location);
    sessionVersion = stored.version;
    if (!isDeepStrictEqual(source.dsl.components, fileSource.dsl.components)) {
      io.err(`warning: ${session.location} was saved from a different version of ${args.file}; continuing the saved session\n`);
    }
  }
  const report = validateSource(source, { registry: defaultRegistry });
  if (!report.valid) {
    io.err(`${formatReport(report, source.file)}\n`);
    throw new InvalidCanvas();
  }
  // Warnings are about the canvas, so they are shown once, when a session starts.
  if (sessionVersion === null) {
    for (const warning of report.issues) io.err(`warning: ${args.file}: ${warning.componentId ? `${warning.componentId}: ` : ""}${warning.message}\n`);
  }
  const maxSteps = positiveInteger("--max-steps", args.maxSteps);
  const concurrency = positiveInteger("--concurrency", args.concurrency);
  const timeout = positiveNumber("--timeout", args.timeout);
  const canvas = canvasFromSource(source, defaultRegistry, {
    ...(maxSteps ? { maxSteps } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(timeout ? { timeoutMs: timeout * 1000 } : {}),
    services: { ...services },
  }, report);
  return { canvas, sessionVersion };
}

class InvalidCanvas extends Error {}

export async function runCommand(args: RunArgs, io: CliIO): Promise<number> {
  const format = args.events ?? (io.isTTY ? "pretty" : "ndjson");
  if (format !== "ndjson" && format !== "pretty") throw new UsageError(`--events must be ndjson or pretty, got "${format}"`);
  const inputs = parseInputs(args.inputs, args.input);
  let services: RunServices;
  try {
    services = await openRunServices(args, io);
  } catch (error) {
    if (!isSetupError(error)) throw error;
    io.err(`${error.message}\n`);
    return EXIT.usage;
  }
  try {
    const session = args.session === undefined ? undefined : openSession(args.session);
    try {
      return await runTurn(args, io, format, inputs, session, services.services);
    } finally {
      // A Redis connection left open would keep the process alive.
      await session?.store.close();
    }
  } finally {
    // So would the in-process mock LLM.
    await services.close();
  }
}

function openSession(location: string): OpenedSnapshotStore {
  try {
    return openSnapshotStore(location);
  } catch (error) {
    if (error instanceof SnapshotStoreError) throw new UsageError(`--session: ${error.message}`);
    throw error;
  }
}

async function runTurn(
  args: RunArgs,
  io: CliIO,
  format: "ndjson" | "pretty",
  inputs: Record<string, unknown> | undefined,
  session: OpenedSnapshotStore | undefined,
  services: RunServices["services"],
): Promise<number> {
  let canvas: Canvas;
  let sessionVersion: string | null;
  try {
    ({ canvas, sessionVersion } = await loadForRun(args, io, session, services));
  } catch (error) {
    if (error instanceof InvalidCanvas) return EXIT.usage;
    if (error instanceof DslReadError || error instanceof SnapshotCorruptError || error instanceof SnapshotKeyError) {
      io.err(`${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof SnapshotStoreError) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }

  const resuming = canvas.status === "paused";
  if (resuming) {
    const pending = canvas.pending!;
    checkInputNames(inputs, pending.inputs, `the paused ${pending.components.join(", ")}`);
    if (!inputs) {
      const fields = Object.keys(pending.inputs).join(", ");
      throw new UsageError(`the session is waiting for input (${fields}): pass it with --input NAME=VALUE`);
    }
  } else {
    checkInputNames(inputs, canvas.inputForm, "Begin");
  }

  const printer = format === "pretty"
    ? new PrettyPrinter(io.stdout, { color: io.color ?? false, resumeHint: resumeHint(args) })
    : undefined;
  if (printer && !resuming && Number(canvas.globals["sys.conversation_turns"] ?? 0) === 0 && canvas.mode === "conversational") {
    printer.prologue(canvas.prologue);
  }

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  let last: CanvasEvent | undefined;
  try {
    for await (const event of canvas.run({ query: args.query, inputs, signal: controller.signal })) {
      last = event;
      if (printer) printer.print(event);
      else io.stdout.write(`${JSON.stringify(event)}\n`);
    }
  } finally {
    process.removeListener("SIGINT", onSignal);
  }

  if (session) {
    try {
      // Only over the state this turn started from: a session another run saved meanwhile is
      // reported, not overwritten.
      await session.store.save(session.key, canvas.toJSON(), { expectedVersion: sessionVersion });
    } catch (error) {
      if (!(error instanceof SnapshotStoreError)) throw error;
      io.err(`canvasflow: ${error.message}; this turn was not saved\n`);
      return EXIT.failed;
    }
  }
  if (last?.event === "user_inputs") return EXIT.paused;
  if (last?.event === "workflow_finished") return last.data.error ? EXIT.failed : EXIT.finished;
  io.err(`canvasflow: the run ended without workflow_finished or user_inputs (last event: ${last?.event ?? "none"})\n`);
  return EXIT.failed;
}

function resumeHint(args: RunArgs): string | undefined {
  if (!args.session) return undefined;
  return `canvasflow run ${args.file} --session ${args.session} --input`;
}
