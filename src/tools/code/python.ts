/**
 * Runs a CodeExec Python script as a `python3` subprocess (isolated mode: no user site-packages,
 * no PYTHON* variables) in its own process group, which is killed when the time limit passes, the
 * run is cancelled or the script has answered. The runner limits the script's memory to
 * `memoryMb` (RLIMIT_DATA, see python-runner.ts); a script that outgrows it fails with a "ran
 * out of memory" error, as in JavaScript. The process gets only the environment it needs to
 * start (PATH, HOME, locale, pyenv), not this process's API keys. There is no other sandbox: the script can read
 * and write files and open connections like any program of this user.
 */
import { execFile, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { UnavailableError } from "../../components/unavailable.js";
import { PYTHON_RUNNER } from "./python-runner.js";
import { seconds, type SandboxLimits } from "./options.js";

type RunnerReply = { ok: true; json: string } | { ok: false; error: string; outOfMemory?: undefined } | { ok: false; outOfMemory: true; where: string };

const KEPT_ENV = /^(PATH|HOME|LANG|LC_[A-Z]+|TMPDIR|TEMP|TMP|SYSTEMROOT|PYENV_[A-Z_]+)$/;
/** Enough of stderr to explain a crash. */
const STDERR_KEEP = 4000;
/** What an interpreter or a native library prints when an allocation fails and it gives up. */
const OUT_OF_MEMORY_STDERR = /MemoryError|Cannot allocate memory|out of memory|memory allocation .*failed/i;

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PYTHONIOENCODING: "utf-8" };
  for (const [key, value] of Object.entries(process.env)) if (KEPT_ENV.test(key)) env[key] = value;
  return env;
}

const interpreters = new Map<string, Promise<string>>();

/**
 * The interpreter's own path, asked once per name: a launcher such as a pyenv shim (a shell
 * script) can take longer to start than the script takes to run.
 */
function interpreterPath(python: string): Promise<string> {
  let resolved = interpreters.get(python);
  if (!resolved) {
    resolved = new Promise<string>((resolve, reject) => {
      execFile(python, ["-I", "-c", "import sys; print(sys.executable)"], { env: childEnv(), timeout: 30_000 }, (error, stdout) => {
        if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") reject(new UnavailableError(`${python} was not found: install Python 3, or set the codeExec service's python option`));
        else resolve(!error && stdout.trim() !== "" ? stdout.trim() : python);
      });
    });
    interpreters.set(python, resolved);
    resolved.catch(() => interpreters.delete(python));
  }
  return resolved;
}

/** The JSON value main returned. Rejects with a message saying what went wrong in the script. */
export async function runPython(script: string, args: Record<string, unknown>, limits: Pick<SandboxLimits, "timeoutMs" | "memoryMb" | "python">, signal?: AbortSignal): Promise<unknown> {
  const python = await interpreterPath(limits.python);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
      return;
    }
    const child = spawn(python, ["-I", "-B", "-c", PYTHON_RUNNER], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      env: childEnv(),
    });
    let settled = false;
    let reply = "";
    let stderr = "";
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      killGroup();
      outcome();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`Python main did not finish within ${seconds(limits.timeoutMs)}: the process was killed`))), limits.timeoutMs);
    const onAbort = () => finish(() => reject(signal?.reason instanceof Error ? signal.reason : new Error("cancelled")));
    signal?.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error: NodeJS.ErrnoException) =>
      finish(() => reject(new UnavailableError(error.code === "ENOENT" ? `${limits.python} was not found: install Python 3, or set the codeExec service's python option` : `cannot start ${limits.python}: ${error.message}`))),
    );
    // What the script prints is not its result; it is read so the pipe never fills up.
    child.stdout?.resume();
    child.stderr?.setEncoding("utf8").on("data", (data: string) => {
      stderr = (stderr + data).slice(-STDERR_KEEP);
    });
    const outOfMemory = (detail: string) => new Error(`Python ran out of memory (limit ${limits.memoryMb} MB): the script was stopped${detail}`);
    const answer = () => {
      let parsed: RunnerReply;
      try {
        parsed = JSON.parse(reply) as RunnerReply;
      } catch {
        reject(new Error(`the Python runner's reply is not JSON (did the script write to file descriptor 3?): ${reply.slice(0, 200)}`));
        return;
      }
      if (parsed.ok) resolve(JSON.parse(parsed.json));
      else if (parsed.outOfMemory) reject(outOfMemory(parsed.where));
      else reject(new Error(`Python error: ${parsed.error}`));
    };
    // The runner closes its reply pipe once it has answered: that is the answer, even while a
    // program the script started keeps stdout open (it is killed with the group).
    const replies = child.stdio[3] as Readable | null;
    replies?.setEncoding("utf8").on("data", (data: string) => {
      reply += data;
    });
    replies?.on("end", () => {
      if (reply !== "") finish(answer);
    });
    child.on("close", (code, killedBy) =>
      finish(() => {
        if (reply !== "") return answer();
        const said = stderr.trim() !== "" ? `: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : "";
        // An allocation failed where Python could not raise MemoryError (in C code, or a native library).
        if (OUT_OF_MEMORY_STDERR.test(stderr)) return reject(outOfMemory(said));
        const why = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
        reject(new Error(`Python ${why} before main returned${said}`));
      }),
    );
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(JSON.stringify({ script, args, memoryMb: limits.memoryMb }));
  });
}
