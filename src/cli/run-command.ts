/**
 * `canvasflow run FILE [--query TEXT] [--input NAME=VALUE]... [--inputs JSON]
 *                      [--session FILE|redis://…#KEY|postgres://…#KEY] [--durability sync|async|exit]
 *                      [--task-id ID] [--events ndjson|pretty]
 *                      [--max-steps N] [--concurrency N] [--timeout SECONDS] [--event-value-limit BYTES]
 *                      [--allow-private-network] [--trust-code] [--otlp URL]
 *                      [--config FILE] [--kb ID=DIR]... [--mock-llm] [--mock-llm-script FILE]
 *                      [--register MODULE]...`
 * (the services the last five flags make are in services.ts, the session's store in run-target.ts)
 *
 * Exit codes: 0 finished, 3 paused waiting for input, 1 the run failed, 2 invalid DSL or usage,
 * 4 the session is locked by another run, 130 / 143 cancelled (by `canvasflow cancel` or
 * SIGINT / SIGTERM).
 *
 * Every run goes through a DurableSession (`src/durable/session.ts`), which holds the rules: the
 * session's lock is taken before anything runs and held until the run's end is durable; a
 * checkpoint is written after every batch; a turn that fails or is cancelled leaves the session's
 * base as it was (its checkpoints stay logged, and the next run starts from before it); a run whose
 * process died is continued by the next run on the session. The CLI folds a turn's checkpoints into
 * a new base whenever the turn finishes or pauses, so a session file always reads as the session
 * after its last finished or paused turn.
 */
import { isDeepStrictEqual } from "node:util";
import { CanvasValidationError, readSource } from "../api.js";
import { detectKind } from "../dsl/kind.js";
import { RunResult } from "../engine/run-result.js";
import type { InputField } from "../components/types.js";
import { DslReadError } from "../dsl/source.js";
import { MAX_DSL_DEPTH, shortPointer } from "../dsl/structure.js";
import { DurableSession, DEFAULT_COMPACT_AFTER } from "../durable/session.js";
import { CheckpointReplayError } from "../engine/canvas.js";
import type { CanvasEvent } from "../engine/events.js";
import { RunStateError } from "../engine/state.js";
import { defineOwn } from "../pool/path.js";
import { FORBIDDEN_PATH_KEYS } from "../refs/grammar.js";
import { CancelSignalError, SessionLockedError, SnapshotCorruptError, SnapshotKeyError, SnapshotStoreError, MemoryStoreError, DatabaseFileError } from "../backends/errors.js";
import { checkTaskId } from "../backends/shared/cancel.js";
import type { CancelSignals, MemoryStore } from "../backends/contracts.js";
import { pathDeeperThan } from "../util/nesting.js";
import { isPlainObject } from "../util/values.js";
import { cancelOnSignals, signalExitCode, type Cancellation } from "./cancellation.js";
import { integerFlag, secondsFlag } from "./numeric-flags.js";
import { PrettyPrinter } from "./pretty.js";
import { formatReport } from "./report.js";
import { checkTracePath, writeTrace } from "./trace-file.js";
import { migrateInMemory } from "./migrate-in-memory.js";
import { UsageError, type CliIO } from "./io.js";
import { openRunTarget, parseDurability, type RunTarget } from "./run-target.js";
import { legacyReportLines, migrateLegacyMemories } from "../memories/legacy.js";
import { memoriesBesideSession, memoriesForRun } from "../backends/open-memories.js";
import { DEFAULT_MEMORY_TENANT } from "../backends/shared/memories.js";
import { isUnavailable } from "../components/unavailable.js";
import { isSetupError, openRunServices, parseKbFlag, type RunServices, type ServiceFlags } from "./services.js";
import type { PipelineIngest } from "./pipeline-kb.js";
import type { LocalKnowledgeBaseConfig } from "../config/types.js";

import { DOCUMENTS_SERVICE, localDocuments, type PipelineFile } from "../pipelines/documents.js";
import { mkdirSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import { EXIT } from "./exit-codes.js";
import { commandRegistry } from "./register-modules.js";
import type { ComponentRegistry } from "../components/registry.js";

export { EXIT };

export interface RunArgs extends ServiceFlags {
  file: string;
  query?: string;
  input: string[];
  inputs?: string;
  session?: string;
  durability?: string;
  taskId?: string;
  events?: string;
  maxSteps?: string;
  concurrency?: string;
  timeout?: string;
  eventValueLimit?: string;
  allowPrivateNetwork: boolean;
  /** `--trust-code`: CodeExec runs Python without the sandbox (your own canvases only). */
  trustCode?: boolean;
  /** `--trace FILE.html`: the run's trace page. */
  trace?: string;
  /** `--file DOC`: documents for an ingestion pipeline, each parsed in a run of its own, in order. */
  files?: string[];
  /** `--register MODULE`: modules that add component types (a compiled StateGraph's). */
  register?: readonly string[];
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

/** A form in one line: `query (text-input, required), blocking (number)`. */
function describeForm(form: Record<string, InputField>): string {
  const fields = Object.entries(form).map(([name, field]) => `${name} (${field.type ?? "text"}${field.optional === false ? ", required" : ""})`);
  return fields.length > 0 ? fields.join(", ") : "no inputs";
}

/** `--task-id ID`: the task id of a new session (a server can make it the session id). */
export function parseTaskId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return checkTaskId(value);
  } catch (error) {
    if (error instanceof CancelSignalError) throw new UsageError(`--task-id: ${error.message}`);
    throw error;
  }
}

export async function runCommand(args: RunArgs, io: CliIO): Promise<number> {
  const format = args.events ?? (io.isTTY ? "pretty" : "ndjson");
  if (format !== "ndjson" && format !== "pretty") throw new UsageError(`--events must be ndjson or pretty, got "${format}"`);
  const settings = parseRunSettings(args);
  const inputs = parseInputs(args.inputs, args.input);
  const taskId = parseTaskId(args.taskId);
  checkTracePath(args.trace);
  // Before the session is opened: a module that does not load is a usage error, and nothing ran.
  const registry = await commandRegistry(args.register ?? []);
  const target = openRunTarget(args.session, parseDurability(args.durability));
  // A pipeline run writes its documents into the knowledge base's folder: a new one is made. (An
  // agent canvas's --kb is a knowledge base it searches: that folder must exist.)
  const ingesting = (args.files?.length ?? 0) > 0 && (args.kb?.length ?? 0) > 0 && (await isPipelineFile(args.file));
  if (ingesting) for (const kb of args.kb ?? []) mkdirSync(parseKbFlag(kb, process.cwd(), { mustExist: false }).dir, { recursive: true });
  try {
    let services: RunServices;
    try {
      services = await openRunServices(args, io, { traced: true });
    } catch (error) {
      if (!isSetupError(error)) throw error;
      io.err(`${error.message}\n`);
      return EXIT.usage;
    }
    let memories: MemoryStore;
    try {
      // Memories live with the session (or where the config says), so later turns and other processes find them.
      memories = memoriesForRun(services.config.memories, args.session);
    } catch (error) {
      await services.close();
      if (!(error instanceof MemoryStoreError || error instanceof SnapshotStoreError || error instanceof DatabaseFileError)) throw error;
      io.err(`canvasflow: memories: ${error.message}\n`);
      return EXIT.usage;
    }
    // The folder beside a session file is this CLI's own: what earlier releases kept there is the tenant "default"'s.
    if (memoriesBesideSession(services.config.memories, args.session)) {
      try {
        const report = await migrateLegacyMemories(memories, { unownedTo: DEFAULT_MEMORY_TENANT });
        for (const line of legacyReportLines(report)) io.err(`canvasflow: ${line}\n`);
      } catch (error) {
        await memories.close();
        await services.close();
        if (!(error instanceof MemoryStoreError)) throw error;
        io.err(`canvasflow: memories: ${error.message}\n`);
        return EXIT.failed;
      }
    }
    const cancellation = cancelOnSignals();
    try {
      const turnServices = { ...services.services, memories, [DOCUMENTS_SERVICE]: localDocuments({ maxFileBytes: services.config.pipelines?.limits?.maxFileBytes }) };
      const documents = args.files ?? [];
      if (documents.length === 0) return await runTurn({ args, io, format, settings, inputs, taskId, target, registry, services: turnServices, cancellation });
      // An ingestion pipeline parses one document a run, as RAGFlow runs one task per document;
      // a document that fails does not stop the others, and the exit code says one failed.
      let ingest: PipelineIngest | undefined;
      try {
        ingest = ingesting ? await pipelineIngest(args, services) : undefined;
      } catch (error) {
        if (!(error instanceof Error && error.name === "PipelineChunkerError")) throw error;
        io.err(`canvasflow: ${error.message}\n`);
        return EXIT.usage;
      }
      let worst: number = EXIT.finished;
      for (const [index, path] of documents.entries()) {
        if (cancellation.by !== undefined) break;
        if (format === "pretty") io.err(`canvasflow: document ${path}\n`);
        let outputs: Record<string, unknown> | undefined;
        const code = await runTurn({
          args: documents.length > 1 && args.trace !== undefined ? { ...args, trace: documentTracePath(args.trace, index, path) } : args,
          io,
          format,
          settings,
          inputs,
          taskId,
          target,
          registry,
          services: turnServices,
          cancellation,
          files: [{ name: basename(path), path }],
          onFinished: (finished) => (outputs = finished),
        });
        if (code !== EXIT.finished && code !== EXIT.failed) return code;
        if (code === EXIT.failed) worst = EXIT.failed;
        if (code === EXIT.finished && ingest && outputs) {
          const refused = await ingest.add(path, outputs);
          if (refused !== undefined) {
            io.err(`canvasflow: ${refused}\n`);
            worst = EXIT.failed;
          }
        }
      }
      if (ingest && cancellation.by === undefined && (await indexIngested(ingest, io, cancellation.signal)) === EXIT.failed) worst = EXIT.failed;
      return cancellation.by !== undefined ? signalExitCode(cancellation.by) : worst;
    } finally {
      cancellation.dispose();
      await memories.close();
      // The in-process mock LLM would keep the process alive.
      await services.close();
    }
  } finally {
    // So would a Redis or PostgreSQL connection left open.
    await target.store.close();
  }
}

interface Turn {
  args: RunArgs;
  io: CliIO;
  format: "ndjson" | "pretty";
  settings: RunSettings;
  inputs: Record<string, unknown> | undefined;
  taskId: string | undefined;
  target: RunTarget;
  registry: ComponentRegistry;
  services: RunServices["services"];
  cancellation: Cancellation;
  /** The run's documents (`sys.files`), for an ingestion pipeline. */
  files?: PipelineFile[];
  /** The outputs of a run that finished without an error. */
  onFinished?: (outputs: Record<string, unknown>) => void;
}

/** With several documents, each one's trace beside the others: report.html → report.2-guide.md.html. */
function documentTracePath(trace: string, index: number, document: string): string {
  const extension = extname(trace);
  return `${trace.slice(0, trace.length - extension.length)}.${index + 1}-${basename(document)}${extension}`;
}

/** Whether a DSL file is an ingestion pipeline (false for one that cannot be read: the run says why). */
async function isPipelineFile(file: string): Promise<boolean> {
  try {
    return detectKind(await readSource(file)).kind === "pipeline";
  } catch {
    return false;
  }
}

/** `--kb ID=DIR` on a pipeline run: the knowledge base its documents go into (its pipeline opened first, so a bad one fails before any run). */
async function pipelineIngest(args: RunArgs, services: RunServices): Promise<PipelineIngest | undefined> {
  const kb = args.kb ?? [];
  if (kb.length === 0) return undefined;
  if (kb.length > 1) throw new UsageError(`a pipeline run writes its documents into one knowledge base: give one --kb ID=DIR, got ${kb.length}`);
  const { id, dir } = parseKbFlag(kb[0], process.cwd());
  const tools = services.services.tools!;
  const config = tools.knowledgeBases[id] as LocalKnowledgeBaseConfig;
  const { PipelineIngest } = await import("./pipeline-kb.js");
  await tools.pipelineChunker!(resolve(args.file));
  return new PipelineIngest({ id, dir, indexDir: config.indexDir, embedding: tools.knowledgeModels?.embeddingFor(config, id) }, args.file, tools.pipelineChunker!);
}

/** Brings the knowledge base of a pipeline run up to date, saying what it holds (on stderr: stdout has the events). */
async function indexIngested(ingest: PipelineIngest, io: CliIO, signal: AbortSignal): Promise<number> {
  const { id, dir } = ingest.target;
  try {
    const report = await ingest.index(signal);
    io.err(`canvasflow: knowledge base ${id} (${dir}): ${report.files} documents, ${report.chunks} chunks (${report.chunkedFiles} chunked now, ${report.reusedFiles} unchanged; ${report.embeddedChunks} embedded)\n`);
    for (const skip of report.skipped) io.err(`canvasflow: knowledge base ${id}: skipped ${skip.path}: ${skip.reason}\n`);
    for (const note of report.notes) io.err(`canvasflow: knowledge base ${id}: ${note}\n`);
    return report.skipped.length > 0 ? EXIT.failed : EXIT.finished;
  } catch (error) {
    if (!isUnavailable(error) && !(error instanceof Error && error.name === "PipelineChunkerError")) throw error;
    io.err(`canvasflow: knowledge base ${id} (${dir}): ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}

/** Open the session (its lock, its state), run the turn, and close it. */
async function runTurn(turn: Turn): Promise<number> {
  const { args, io, target } = turn;
  let fileDsl: object;
  try {
    // An old DSL (RAGFlow v0.19, graph-only…) runs as its migrated form.
    fileDsl = migrateInMemory(await readSource(args.file), args.file, io).dsl;
  } catch (error) {
    if (!(error instanceof DslReadError)) throw error;
    io.err(`${error.message}\n`);
    return EXIT.usage;
  }
  let cancel: CancelSignals | undefined;
  let session: DurableSession | undefined;
  try {
    cancel = target.openCancel();
    session = await DurableSession.open({
      store: target.store,
      key: target.key,
      dsl: fileDsl,
      registry: turn.registry,
      canvas: { ...turn.settings, services: { ...turn.services }, ...(turn.taskId !== undefined ? { taskId: turn.taskId } : {}) },
      durability: target.durability,
      cancel,
      // A turn that finishes or pauses becomes the session's base, so a session file always reads
      // as the session after its last finished or paused turn (in `exit` mode it already is).
      compactAfter: target.durability === "exit" ? DEFAULT_COMPACT_AFTER : 1,
    });
    return await runOpened(turn, session, fileDsl);
  } catch (error) {
    const code = storeFailure(error, io, target.location ?? args.file);
    if (code === undefined) throw error;
    return code;
  } finally {
    await session?.close();
    await cancel?.close();
  }
}

/** The exit code and message of a failure of the session's store, its cancel signals or its stored state; undefined for anything else. */
function storeFailure(error: unknown, io: CliIO, where: string): number | undefined {
  if (error instanceof CanvasValidationError) {
    io.err(`${formatReport(error.report, error.report.file ?? where)}\n`);
    return EXIT.usage;
  }
  if (error instanceof SessionLockedError) {
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.locked;
  }
  if (error instanceof SnapshotKeyError || error instanceof SnapshotCorruptError || error instanceof DslReadError) {
    io.err(`${error.message}\n`);
    return EXIT.usage;
  }
  // A session whose stored run state or checkpoints cannot be read.
  if (error instanceof RunStateError || error instanceof CheckpointReplayError) {
    io.err(`${where}: ${error.message}; nothing was changed\n`);
    return EXIT.usage;
  }
  if (error instanceof SnapshotStoreError || error instanceof CancelSignalError) {
    io.err(`canvasflow: ${error.message}\n`);
    return EXIT.failed;
  }
  return undefined;
}

async function runOpened(turn: Turn, session: DurableSession, fileDsl: object): Promise<number> {
  const { args, io, format, inputs, target, cancellation } = turn;
  const canvas = session.canvas;
  const where = target.location;
  if (turn.taskId !== undefined && session.openedAs !== "new" && session.taskId !== turn.taskId) {
    throw new UsageError(`--task-id ${turn.taskId}: the session ${where} already has the task id ${session.taskId} (--task-id names the task of a new session)`);
  }
  // Warnings are about the canvas, so they are shown once, when a session starts.
  if (session.openedAs === "new") {
    for (const warning of canvas.warnings) io.err(`warning: ${args.file}: ${warning.componentId ? `${warning.componentId}: ` : ""}${warning.message}\n`);
  } else if (!isDeepStrictEqual(canvas.toJSON().components, (fileDsl as { components?: unknown }).components)) {
    io.err(`warning: ${where} was saved from a different version of ${args.file}; continuing the saved session\n`);
  }

  const crashed = session.openedAs === "crashed";
  const resuming = canvas.status === "paused";
  if (crashed) {
    if (args.query !== undefined || inputs !== undefined) {
      io.err("canvasflow: note: --query and --input are ignored: the unfinished run continues with the inputs it started with\n");
    }
  } else if (resuming) {
    const pending = canvas.pending!;
    checkInputNames(inputs, pending.inputs, `the paused ${pending.components.join(", ")}`);
    if (!inputs) {
      const fields = Object.keys(pending.inputs).join(", ");
      throw new UsageError(`the session is waiting for input (${fields}): pass it with --input NAME=VALUE`);
    }
  } else {
    checkInputNames(inputs, canvas.inputForm, canvas.entryLabel);
    // An entry that refuses a run without its required inputs (Dify's Start) is told so before anything runs.
    const missing = canvas.missingInputs(inputs);
    if (missing.length > 0) {
      throw new UsageError(
        `missing required input${missing.length === 1 ? "" : "s"} ${missing.join(", ")} for ${canvas.entryLabel}; it asks for: ${describeForm(canvas.inputForm)} (pass them with --inputs JSON or --input NAME=VALUE)`,
      );
    }
  }

  // A signal before the run started: nothing runs, and a crashed run stays to be continued.
  if (cancellation.by !== undefined) {
    io.err(`canvasflow: cancelled by ${cancellation.by} before the run started${where ? `: ${untouched(where)}` : ""}\n`);
    return signalExitCode(cancellation.by);
  }
  const printer = format === "pretty"
    ? new PrettyPrinter(io.stdout, { color: io.color ?? false, resumeHint: resumeHint(args) })
    : undefined;
  if (printer) io.err(`canvasflow: task ${session.taskId}; to cancel it from another terminal: canvasflow cancel ${session.taskId}${target.cancelFlags}\n`);
  if (printer && !resuming && !crashed && Number(canvas.globals["sys.conversation_turns"] ?? 0) === 0 && canvas.mode === "conversational") {
    printer.prologue(canvas.prologue);
  }

  let last: CanvasEvent | undefined;
  const traced: CanvasEvent[] | undefined = args.trace !== undefined ? [] : undefined;
  const request = crashed ? { signal: cancellation.signal } : { query: args.query, inputs, signal: cancellation.signal, ...(turn.files ? { files: turn.files } : {}) };
  const result = new RunResult();
  for await (const event of session.run(request)) {
    last = event;
    result.see(event);
    traced?.push(event);
    if (event.event === "workflow_resumed") {
      const again = event.data.in_flight.length > 0 ? `running again what was in flight: ${event.data.in_flight.join(", ")}` : "nothing was in flight";
      io.err(`canvasflow: the last run of session ${where} stopped before it finished; continuing it from its last checkpoint, ${again}\n`);
    }
    if (printer) printer.print(event);
    else io.stdout.write(`${JSON.stringify(event)}\n`);
  }
  if (traced && args.trace !== undefined) await writeTrace(args.trace, traced, canvas, args.file, io);
  // The last component's whole outputs (workflow_finished shows them bounded).
  if (last?.event === "workflow_finished" && !last.data.error && session.lastRunSaved) turn.onFinished?.({ ...result.outputs(canvas) });

  if (canvas.status === "cancelled") {
    const by = cancellation.by;
    const cause = by === undefined ? `cancelled by a request for task ${session.taskId}` : `cancelled by ${by}`;
    io.err(`canvasflow: ${cause}${where ? `: ${untouched(where)}` : ""}\n`);
    return by === undefined ? EXIT.cancelled : signalExitCode(by);
  }
  const error = last?.event === "workflow_finished" ? last.data.error : undefined;
  if (!session.lastRunSaved) {
    // Its end is not durable: the session goes on from its last durable checkpoint.
    io.err(`canvasflow: ${error ?? "the run's end could not be saved"}\n`);
    return EXIT.failed;
  }
  if (canvas.status === "failed") {
    if (where) io.err(`canvasflow: the run failed: ${untouched(where)}\n`);
    return EXIT.failed;
  }
  if (last?.event === "user_inputs") return EXIT.paused;
  if (last?.event === "workflow_finished") return error ? EXIT.failed : EXIT.finished;
  io.err(`canvasflow: the run ended without workflow_finished or user_inputs (last event: ${last?.event ?? "none"})\n`);
  return EXIT.failed;
}

function untouched(location: string): string {
  return `the session ${location} was left as it was before this turn`;
}

function resumeHint(args: RunArgs): string | undefined {
  if (!args.session) return undefined;
  // The modules the canvas's components come from: without them the session cannot be loaded.
  const modules = (args.register ?? []).map((module) => ` --register ${module}`).join("");
  return `canvasflow run ${args.file}${modules} --session ${args.session}`;
}
