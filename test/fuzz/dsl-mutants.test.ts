/**
 * Fuzzing (fast-check, fixed seed): mutants of the corpus DSLs, the fixtures and snapshots of
 * them — keys deleted, types swapped, components dropped, edges duplicated, self-edges, strings
 * for lists, deep nesting, huge strings, up to four at once. For every mutant:
 * - validateDsl returns a report and never throws;
 * - loadCanvas returns a canvas exactly when the report is valid, and otherwise throws only
 *   CanvasValidationError;
 * - a run under the mock LLM ends with exactly one terminal event (workflow_finished or
 *   user_inputs), last, within RUN_BOUND_MS, and its snapshot loads again;
 * - `canvasflow validate` and `canvasflow run --mock-llm` (through main(), in this process) print
 *   no stack trace, and a run the CLI starts prints exactly one terminal event, last.
 * A few mutants also go through the built CLI in a child process.
 *
 * Nothing reaches the network: the LLM is the mock on loopback, the web tools' endpoints are a
 * closed loopback port, and name lookups fail (offline-dns.mjs), in this process and the children.
 *
 * CANVASFLOW_FUZZ_RUNS sets the number of mutants (default sized for CI), CANVASFLOW_FUZZ_SEED
 * the seed. The time bound only detects hangs: a healthy mutant takes milliseconds.
 */
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { CanvasValidationError, loadCanvas, validateDsl } from "../../src/api.js";
import { TOOL_COMPONENTS } from "../../src/tools/index.js";
import type { Canvas, CanvasRuntimeOptions } from "../../src/engine/canvas.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { cli, events as ndjsonEvents, type CliRun } from "../helpers/cli.js";
import { closedPort } from "../helpers/http.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { scratchDir } from "../helpers/scratch.js";
import { mutantArbitrary, mutate, type Mutant, type MutantSpec } from "./mutations.js";
// Installed on import: from here on no name lookup leaves this process.
import "./offline-dns.mjs";
import { fileSeeds, snapshotSeeds, type Seed } from "./seeds.js";

function envCount(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return Number(raw);
}

/** About 20 ms a mutant here: the file stays well under a minute in CI. */
const RUNS = envCount("CANVASFLOW_FUZZ_RUNS", 1_000);
const SEED = envCount("CANVASFLOW_FUZZ_SEED", 20_240_808);
/** Mutants that also go through the built CLI in a child process. */
const CHILD_RUNS = 6;
/**
 * A run (in process or through the CLI) that has not ended by then hangs. Generous: a mutant of a
 * Python CodeExec canvas takes 9 s through the CLI at load 11 (services, the mock LLM, python3
 * importing its modules), and more on a busier machine; a hang never ends at all.
 */
const RUN_BOUND_MS = 60_000;
/** Validation that has not returned by then hangs (it takes milliseconds, even on megabytes). */
const SYNC_BOUND_MS = 5_000;
/** Small, so that a canvas a mutation turned into a loop stops soon (self-edges do that). */
const MAX_STEPS = 30;
const COMPONENT_TIMEOUT_S = 2;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;
const TERMINAL = new Set(["workflow_finished", "user_inputs"]);

const { write } = scratchDir("canvasflow-fuzz-");

interface Harness {
  seeds: Seed[];
  runtime: CanvasRuntimeOptions;
  cliArgs: string[];
}

/** A mutant that broke a property: what it is, so the report names it without decoding the spec. */
class FuzzFailure extends Error {
  constructor(mutant: Mutant, seed: Seed, problem: string) {
    super(`${problem}\n  seed: ${seed.name}\n  mutations:\n${mutant.description.map((d) => `    - ${d}`).join("\n")}`);
    this.name = "FuzzFailure";
  }
}

/** Something that did not end within its time bound. */
class Hang extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Hang";
  }
}

/** `promise`, or a Hang naming `what` once RUN_BOUND_MS has passed. */
async function bounded<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Hang(`${what} did not end within ${RUN_BOUND_MS / 1000} s (a hang: no terminal event)`)), RUN_BOUND_MS);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `fn()`, interrupted after SYNC_BOUND_MS: a synchronous hang (a regex that backtracks without
 * end) blocks the event loop, so no timer could end it; the vm module's timeout can.
 */
function boundedSync<T>(what: string, fn: () => T): T {
  try {
    return runInNewContext("run()", { run: fn }, { timeout: SYNC_BOUND_MS }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new Hang(`${what} did not return within ${SYNC_BOUND_MS / 1000} s (a synchronous hang)`);
    }
    throw error;
  }
}

/** A hang by its message; anything else with its stack, to find where it came from. */
function describeError(error: unknown): string {
  if (error instanceof Hang) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
}

/** Exactly one terminal event, and it is the last one. */
function terminalProblem(events: readonly Pick<CanvasEvent, "event">[]): string | undefined {
  const terminal = events.filter((e) => TERMINAL.has(e.event)).length;
  if (terminal !== 1) return `${terminal} terminal events (${events.map((e) => e.event).slice(-5).join(", ")})`;
  if (!TERMINAL.has(events.at(-1)!.event)) return `the terminal event is not the last one (last: ${events.at(-1)!.event})`;
  return undefined;
}

async function checkInProcess(mutant: Mutant, seed: Seed, runtime: CanvasRuntimeOptions): Promise<void> {
  const fail = (problem: string) => new FuzzFailure(mutant, seed, problem);
  let valid: boolean;
  try {
    const report = boundedSync("validateDsl", () => validateDsl(JSON.parse(mutant.text) as object));
    valid = report.valid;
    for (const issue of report.issues) {
      if (!issue.pointer.startsWith("/") || issue.message.length === 0) throw fail(`a malformed issue: ${JSON.stringify(issue).slice(0, 300)}`);
    }
  } catch (error) {
    if (error instanceof FuzzFailure) throw error;
    throw fail(error instanceof Hang ? error.message : `validateDsl threw ${describeError(error)}`);
  }

  let canvas: Canvas | undefined;
  try {
    canvas = await loadCanvas(mutant.text, runtime);
  } catch (error) {
    if (!(error instanceof CanvasValidationError)) throw fail(`loadCanvas threw ${describeError(error)}`);
  }
  if ((canvas !== undefined) !== valid) throw fail(`validateDsl said valid=${valid} but loadCanvas ${canvas ? "loaded it" : "refused it"}`);
  if (!canvas) return;

  let events: CanvasEvent[];
  try {
    events = await bounded("the in-process run", canvas.runToEnd({ query: "fuzz" }));
  } catch (error) {
    throw fail(describeError(error));
  }
  const problem = terminalProblem(events);
  if (problem) throw fail(`the in-process run ended with ${problem}`);

  try {
    await loadCanvas(JSON.stringify(canvas.toJSON()), runtime);
  } catch (error) {
    throw fail(`the snapshot after the run does not load: ${describeError(error)}`);
  }
}

async function checkCli(mutant: Mutant, seed: Seed, file: string, cliArgs: readonly string[]): Promise<void> {
  const fail = (problem: string) => new FuzzFailure(mutant, seed, problem);
  const noStack = (what: string, r: Pick<CliRun, "stdout" | "stderr">) => {
    if (STACK_TRACE.test(r.stderr) || STACK_TRACE.test(r.stdout)) throw fail(`${what} printed a stack trace:\n${r.stderr.slice(0, 2_000)}`);
  };
  const cliBounded = async (what: string, args: string[]) => {
    try {
      return await bounded(what, cli(args));
    } catch (error) {
      throw fail(describeError(error));
    }
  };

  const validate = await cliBounded("canvasflow validate", ["validate", file]);
  noStack("canvasflow validate", validate);
  if (validate.code !== 0 && validate.code !== 1) throw fail(`canvasflow validate exited ${validate.code}`);

  const run = await cliBounded("canvasflow run", ["run", file, ...cliArgs]);
  checkCliRun(run, fail);
  noStack("canvasflow run", run);
}

/** Exit 2 (invalid DSL) prints no events; any other exit follows a run that ended with one terminal event. */
function checkCliRun(run: Pick<CliRun, "code" | "stdout" | "stderr">, fail: (problem: string) => Error): void {
  if (![0, 1, 2, 3].includes(run.code)) throw fail(`canvasflow run exited ${run.code}`);
  if (run.code === 2) {
    if (run.stdout !== "") throw fail(`canvasflow run exited 2 (invalid DSL) after printing:\n${run.stdout.slice(0, 500)}`);
    return;
  }
  let events: CanvasEvent[];
  try {
    events = ndjsonEvents(run.stdout);
  } catch (error) {
    throw fail(`canvasflow run printed something that is not ndjson (${(error as Error).message}):\n${run.stdout.slice(0, 500)}\n${run.stderr.slice(0, 500)}`);
  }
  const problem = events.length === 0 ? "no events" : terminalProblem(events);
  if (problem) throw fail(`canvasflow run exited ${run.code} with ${problem}:\n${run.stderr.slice(0, 1_000)}`);
}

describe(`fuzzed DSLs (seed ${SEED}, ${RUNS} mutants)`, () => {
  const harness = {} as Harness;

  beforeAll(async () => {
    const port = await closedPort();
    const endpoints = Object.fromEntries(TOOL_COMPONENTS.map((t) => [t.name, { baseURL: `http://127.0.0.1:${port}` }]));
    const services = { tools: { knowledgeBases: {}, endpoints, env: {} } };
    const runtime: CanvasRuntimeOptions = { services, maxSteps: MAX_STEPS, timeoutMs: COMPONENT_TIMEOUT_S * 1000 };
    const config = write("canvasflow.config.json", { tools: endpoints });
    harness.seeds = [...fileSeeds(), ...(await snapshotSeeds(runtime))];
    harness.runtime = runtime;
    harness.cliArgs = ["--query", "fuzz", "--events", "ndjson", "--mock-llm", "--config", config, "--max-steps", String(MAX_STEPS), "--timeout", String(COMPONENT_TIMEOUT_S)];
  });

  it("never crash validation, loading or the CLI; every run ends with exactly one terminal event", async () => {
    const mock = await startMockLlm();
    const runtime = { ...harness.runtime, services: { ...harness.runtime.services, llm: mock.provider } };
    const file = write("mutant.json", "{}");
    await fc.assert(
      fc.asyncProperty(mutantArbitrary(harness.seeds.length), async (spec: MutantSpec) => {
        const seed = harness.seeds[spec.seed];
        const mutant = mutate(seed.doc, spec.mutations);
        await checkInProcess(mutant, seed, runtime);
        write("mutant.json", mutant.text);
        await checkCli(mutant, seed, file, harness.cliArgs);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000 + RUNS * 1_000);

  it(`print no stack trace from the built CLI in a child process (${CHILD_RUNS} mutants)`, async () => {
    const specs = fc.sample(mutantArbitrary(harness.seeds.length), { seed: SEED + 1, numRuns: CHILD_RUNS });
    for (const [i, spec] of specs.entries()) {
      const seed = harness.seeds[spec.seed];
      const mutant = mutate(seed.doc, spec.mutations);
      const file = write(`child-${i}.json`, mutant.text);
      const run = await childCli(["run", file, ...harness.cliArgs]);
      checkCliRun(run, (problem) => new FuzzFailure(mutant, seed, `child process: ${problem}`));
      if (STACK_TRACE.test(run.stderr)) throw new FuzzFailure(mutant, seed, `the child CLI printed a stack trace:\n${run.stderr.slice(0, 2_000)}`);
    }
  }, 120_000);
});

/** The built CLI (dist/, which `npm test` builds first) with name lookups off, to its exit. */
function childCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const guard = join(root, "test/fuzz/offline-dns.mjs");
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--import", guard, join(root, "dist/src/cli/bin.js"), ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the child CLI did not exit within ${RUN_BOUND_MS / 1000} s: canvasflow ${args.join(" ")}`));
    }, RUN_BOUND_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
  });
}
