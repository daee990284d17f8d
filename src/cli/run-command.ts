/**
 * `canvasflow run FILE [--query TEXT] [--input NAME=VALUE]... [--inputs JSON]
 *                      [--session FILE|redis://HOST:PORT[/DB]#KEY] [--events ndjson|pretty]
 *                      [--max-steps N] [--concurrency N] [--timeout SECONDS] [--event-value-limit BYTES]
 *                      [--allow-private-network]
 *                      [--config FILE] [--kb ID=DIR]... [--mock-llm] [--mock-llm-script FILE]`
 * (the services the last five flags make are in services.ts)
 *
 * Exit codes: 0 finished, 3 paused waiting for input, 1 the run failed, 2 invalid DSL or usage,
 * 4 the session is locked by another run, 130 / 143 cancelled by SIGINT / SIGTERM.
 *
 * A session changes only when a turn finishes or pauses. The session's lock is taken before
 * anything runs and held until the turn is saved, so two runs of one session never overlap. A
 * turn that fails or is cancelled is not saved: the session stays as it was before the turn, as
 * after kill -9, and never carries a half-done turn's writes into the next one.
 */
import { isDeepStrictEqual } from "node:util";
import { canvasFromSource, defaultRegistry, readSource } from "../api.js";
import type { InputField } from "../components/types.js";
import { DslReadError, unwrapDsl } from "../dsl/source.js";
import { MAX_DSL_DEPTH, shortPointer } from "../dsl/structure.js";
import { validateSource } from "../dsl/validate.js";
import type { Canvas } from "../engine/canvas.js";
import type { CanvasEvent } from "../engine/events.js";
import { RunStateError } from "../engine/state.js";
import { defineOwn } from "../pool/path.js";
import { FORBIDDEN_PATH_KEYS } from "../refs/grammar.js";
import {
  openSnapshotStore,
  SessionLockedError,
  SnapshotCorruptError,
  SnapshotKeyError,
  SnapshotStoreError,
  type OpenedSnapshotStore,
  type SessionLock,
} from "../stores/index.js";
import { pathDeeperThan } from "../util/nesting.js";
import { isPlainObject } from "../util/values.js";
import { cancelOnSignals, signalExitCode, type Cancellation } from "./cancellation.js";
import { integerFlag, secondsFlag } from "./numeric-flags.js";
import { PrettyPrinter } from "./pretty.js";
import { formatReport } from "./report.js";
import { migrateInMemory } from "./migrate-in-memory.js";
import { UsageError, type CliIO } from "./io.js";
import { isSetupError, openRunServices, type RunServices, type ServiceFlags } from "./services.js";

export const EXIT = { finished: 0, failed: 1, usage: 2, paused: 3, locked: 4, cancelled: 130 } as const;

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
  eventValueLimit?: string;
  allowPrivateNetwork: boolean;
}

/** The ranges of the numeric flags. */
export const RUN_LIMITS = {
  maxSteps: { min: 1, max: 1_000_000_000 },
  concurrency: { min: 1, max: 1_000 },
  // Node's timers hold at most 2^31-1 ms; a longer one would fire at once.
  timeoutSeconds: { min: 0.001, max: 2_147_483 },
  eventValueLimit: { min: 64, max: 1_000_000_000 },
} as const;

/** The engine settings from `--max-steps`, `--concurrency`, `--timeout` and `--event-value-limit`. */
export interface RunSettings {
  maxSteps?: number;
  concurrency?: number;
  timeoutMs?: number;
  eventValueLimit?: number;
}

export function parseRunSettings(args: Pick<RunArgs, "maxSteps" | "concurrency" | "timeout" | "eventValueLimit">): RunSettings {
  return {
    ...(args.maxSteps !== undefined ? { maxSteps: integerFlag("--max-steps", args.maxSteps, RUN_LIMITS.maxSteps) } : {}),
    ...(args.concurrency !== undefined ? { concurrency: integerFlag("--concurrency", args.concurrency, RUN_LIMITS.concurrency) } : {}),
    ...(args.timeout !== undefined ? { timeoutMs: Math.round(secondsFlag("--timeout", args.timeout, RUN_LIMITS.timeoutSeconds) * 1000) } : {}),
    ...(args.eventValueLimit !== undefined ? { eventValueLimit: integerFlag("--event-value-limit", args.eventValueLimit, RUN_LIMITS.eventValueLimit) } : {}),
  };
}

/** Names that would reach an object's prototype: never input names. */
function checkInputName(name: string, flag: string): void {
  if (FORBIDDEN_PATH_KEYS.has(name)) {
    throw new UsageError(`${flag}: "${name}" cannot be an input name (__proto__, constructor and prototype are reserved)`);
  }
}

/**
 * `--inputs JSON` then each `--input NAME=VALUE` (later wins). Every name becomes an own property
 * (none is lost to, or changes, the object's prototype).
 */
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
    // The values land in events and the saved session, which are walked recursively.
    const tooDeep = pathDeeperThan(parsed, MAX_DSL_DEPTH);
    if (tooDeep) throw new UsageError(`--inputs is nested deeper than ${MAX_DSL_DEPTH} levels at ${shortPointer(tooDeep)}`);
    inputs = {};
    for (const [name, value] of Object.entries(parsed)) {
      checkInputName(name, "--inputs");
      defineOwn(inputs, name, value);
    }
  }
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--input expects NAME=VALUE, got "${pair}"`);
    const name = pair.slice(0, eq);
    checkInputName(name, "--input");
    defineOwn((inputs ??= {}), name, pair.slice(eq + 1));
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

async function loadForRun(
  args: RunArgs,
  settings: RunSettings,
  io: CliIO,
  session: OpenedSnapshotStore | undefined,
  services: RunServices["services"],
): Promise<Loaded> {
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
  let canvas: Canvas;
  try {
    canvas = canvasFromSource(source, defaultRegistry, { ...settings, services: { ...services } }, report);
  } catch (error) {
    // A session whose run state cannot be read.
    if (error instanceof RunStateError) throw new SnapshotCorruptError(`${session?.location ?? args.file}: ${error.message}`, session?.key ?? args.file);
    throw error;
  }
  return { canvas, sessionVersion };
}

class InvalidCanvas extends Error {}

export async function runCommand(args: RunArgs, io: CliIO): Promise<number> {
  const format = args.events ?? (io.isTTY ? "pretty" : "ndjson");
  if (format !== "ndjson" && format !== "pretty") throw new UsageError(`--events must be ndjson or pretty, got "${format}"`);
  const settings = parseRunSettings(args);
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
    const cancellation = cancelOnSignals();
    try {
      return await runTurn({ args, io, format, settings, inputs, session, services: services.services, cancellation });
    } finally {
      cancellation.dispose();
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

interface Turn {
  args: RunArgs;
  io: CliIO;
  format: "ndjson" | "pretty";
  settings: RunSettings;
  inputs: Record<string, unknown> | undefined;
  session: OpenedSnapshotStore | undefined;
  services: RunServices["services"];
  cancellation: Cancellation;
}

/** Lock the session, run the turn under the lock, then save it or leave the session alone. */
async function runTurn(turn: Turn): Promise<number> {
  const { io, session } = turn;
  let lock: SessionLock | undefined;
  if (session) {
    try {
      lock = await session.store.lock(session.key);
    } catch (error) {
      if (error instanceof SessionLockedError) {
        io.err(`canvasflow: ${error.message}\n`);
        return EXIT.locked;
      }
      if (error instanceof SnapshotKeyError) {
        io.err(`${error.message}\n`);
        return EXIT.usage;
      }
      if (error instanceof SnapshotStoreError) {
        io.err(`canvasflow: ${error.message}\n`);
        return EXIT.failed;
      }
      throw error;
    }
  }
  try {
    return await runLocked(turn, lock);
  } finally {
    await lock?.release();
  }
}

async function runLocked(turn: Turn, lock: SessionLock | undefined): Promise<number> {
  const { args, io, format, inputs, session, cancellation } = turn;
  let canvas: Canvas;
  let sessionVersion: string | null;
  try {
    ({ canvas, sessionVersion } = await loadForRun(args, turn.settings, io, session, turn.services));
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

  let last: CanvasEvent | undefined;
  if (!cancellation.signal.aborted) {
    for await (const event of canvas.run({ query: args.query, inputs, signal: cancellation.signal })) {
      last = event;
      if (printer) printer.print(event);
      else io.stdout.write(`${JSON.stringify(event)}\n`);
    }
  }

  // A signal that came before the save cancels the turn, even one that came after the run ended.
  if (cancellation.by !== undefined || canvas.status === "cancelled") {
    const cause = cancellation.by === undefined ? "the run was cancelled" : `cancelled by ${cancellation.by}`;
    io.err(`canvasflow: ${cause}${session ? `: ${untouched(session)}` : ""}\n`);
    return cancellation.by === undefined ? EXIT.cancelled : signalExitCode(cancellation.by);
  }
  if (canvas.status === "failed") {
    if (session) io.err(`canvasflow: the run failed: ${untouched(session)}\n`);
    return EXIT.failed;
  }

  if (session) {
    try {
      // Under the lock, and only over the state this turn started from: a session changed by
      // hand (or by a writer that ignored the lock) meanwhile is reported, not overwritten.
      await session.store.save(session.key, canvas.toJSON(), { expectedVersion: sessionVersion, lock });
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

function untouched(session: OpenedSnapshotStore): string {
  return `the session ${session.location} was left as it was before this turn`;
}

function resumeHint(args: RunArgs): string | undefined {
  if (!args.session) return undefined;
  return `canvasflow run ${args.file} --session ${args.session} --input`;
}
