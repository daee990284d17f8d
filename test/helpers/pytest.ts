/**
 * A pytest file run from vitest, each of its cases reported as a vitest test of its own, so
 * every case counts in the suite's totals: `collectPytestCases` lists them when the test file
 * loads (before any server is up), `runPytest` runs the file once with `--junitxml` and reads
 * each case's outcome from the report.
 *
 * pytest runs with the machine's plugins off (PYTEST_DISABLE_PLUGIN_AUTOLOAD) and without its
 * cache or bytecode files, so it writes nothing into the project.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseJunitXml, type JunitCase } from "./junit.js";

const PYTEST_ARGS = ["-m", "pytest", "-p", "no:cacheprovider", "-o", "junit_family=xunit2"];

function pythonEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1", PYTHONDONTWRITEBYTECODE: "1", ...extra };
}

/** The case names of a pytest file (the part of each node id after `file::`), in order. */
/** `file` is relative to `cwd`, where pytest runs. */
export function collectPytestCases(cwd: string, file: string, env: Record<string, string>): string[] {
  const result = spawnSync("python3", [...PYTEST_ARGS, "--collect-only", "-q", file], { cwd, env: pythonEnv(env), encoding: "utf8", timeout: 60_000 });
  if (result.error) throw new Error(`cannot run python3 -m pytest to list the cases of ${file}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`pytest could not collect ${file} (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  const names = result.stdout
    .split("\n")
    .filter((line) => line.startsWith(`${file}::`))
    .map((line) => line.slice(file.length + 2));
  if (names.length === 0) throw new Error(`pytest found no cases in ${file}:\n${result.stdout}`);
  if (new Set(names).size !== names.length) throw new Error(`pytest case names in ${file} are not unique: ${names.join(", ")}`);
  return names;
}

export interface PytestRun {
  exitCode: number | null;
  output: string;
  /** By case name (a class's cases as `Class::name`). */
  cases: Map<string, JunitCase>;
}

export interface RunningPytest {
  finished: Promise<PytestRun>;
  /** Ends the run if it is still going. */
  kill(): void;
}

/**
 * Run the file (asynchronously: the server under test may live in this process) and read the
 * report it writes to `junitPath`.
 */
export function runPytest(cwd: string, file: string, env: Record<string, string>, junitPath: string): RunningPytest {
  const child = spawn("python3", [...PYTEST_ARGS, "-q", "-rA", `--junitxml=${junitPath}`, file], { cwd, env: pythonEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const finished = new Promise<PytestRun>((resolve, reject) => {
    child.on("error", (error) => reject(new Error(`cannot run python3 -m pytest ${file}: ${error.message}`)));
    child.on("close", (exitCode) => {
      let report: string;
      try {
        report = readFileSync(junitPath, "utf8");
      } catch (error) {
        reject(new Error(`pytest wrote no report (exit ${exitCode}): ${(error as Error).message}\n${output}`));
        return;
      }
      const cases = new Map<string, JunitCase>();
      for (const found of parseJunitXml(report)) {
        // Cases of a class: classname ends with the class's name.
        const inClass = /\.([A-Z]\w*)$/.exec(found.classname);
        cases.set(inClass ? `${inClass[1]}::${found.name}` : found.name, found);
      }
      resolve({ exitCode, output, cases });
    });
  });
  return { finished, kill: () => child.exitCode === null && child.kill("SIGKILL") };
}

/** Throws, with pytest's own report of it, unless the case passed. */
export function expectPytestCasePassed(run: PytestRun, name: string): void {
  const found = run.cases.get(name);
  if (!found) throw new Error(`pytest's report has no case ${name} (exit ${run.exitCode}):\n${run.output}`);
  if (found.outcome === "passed") return;
  const error = new Error(`pytest case ${name} ${found.outcome === "skipped" ? "was skipped (a skipped case proves nothing)" : found.outcome}: ${found.message ?? ""}\n\n${found.details ?? ""}`);
  error.stack = error.message;
  throw error;
}
