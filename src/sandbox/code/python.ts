/**
 * Runs a CodeExec Python script: in the bubblewrap sandbox (bubblewrap.ts), or, when the settings
 * say the code is trusted, as a plain child process of this one. Either way the interpreter runs
 * in isolated mode (no user site-packages, no PYTHON* variables) in its own process group, which
 * is killed when the time limit passes, the run is cancelled, the script prints more than
 * outputBytes, or the script has answered. The runner (python-runner.ts) sets the limits and
 * answers on file descriptor 3, so what the script prints is never taken for its result.
 */
import { spawn, type StdioOptions } from "node:child_process";
import { randomInt } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { bwrapArguments, PROXY_SOCKET_INSIDE } from "./bubblewrap.js";
import { findProgram, hostLayout, pythonInstallation, type PythonInstallation } from "./host.js";
import { byteSize, seconds, type CodeSandboxSettings } from "./options.js";
import { PYTHON_RUNNER } from "./python-runner.js";
import { hostSeccompArch, seccompFilterBytes } from "./seccomp.js";
import { SandboxUnavailableError } from "./unavailable.js";

type RunnerReply = { ok: true; json: string } | { ok: false; error: string; outOfMemory?: undefined } | { ok: false; outOfMemory: true; where: string };

/** What the interpreter gets of this process's environment when it runs trusted (never API keys). */
const KEPT_ENV = /^(PATH|HOME|LANG|LC_[A-Z]+|TMPDIR|TEMP|TMP|SYSTEMROOT|PYENV_[A-Z_]+)$/;
/** Enough of stderr to explain a crash. */
const STDERR_KEEP = 4000;
/** What an interpreter or a native library prints when an allocation fails and it gives up. */
const OUT_OF_MEMORY_STDERR = /MemoryError|Cannot allocate memory|out of memory|memory allocation .*failed/i;
/**
 * The user ids a script runs as when the server is root: one drawn at random per run from a
 * block far above the ids of real accounts, so that concurrent runs, of this process or another,
 * almost never share an id (and with it RLIMIT_NPROC's count).
 */
const SANDBOX_UID_BASE = 1_900_000_000;
const SANDBOX_UID_COUNT = 1 << 20;
/** File descriptors of the sandbox's pipes: the runner's reply, the seccomp filter, bwrap's status. */
const REPLY_FD = 3;
const SECCOMP_FD = 4;
const STATUS_FD = 5;

interface PythonRunOptions {
  /** The egress proxy's unix socket, when the script may use the network. */
  proxySocket?: string;
}

function hostEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PYTHONIOENCODING: "utf-8" };
  for (const [key, value] of Object.entries(process.env)) if (KEPT_ENV.test(key)) env[key] = value;
  return env;
}

const SANDBOX_ENV: Readonly<Record<string, string>> = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/tmp",
  TMPDIR: "/tmp",
  LANG: "C.UTF-8",
  PYTHONIOENCODING: "utf-8",
};

function notFound(python: string): SandboxUnavailableError {
  return new SandboxUnavailableError(`${python} was not found: install Python 3, or set the codeExec service's python option`);
}

async function installation(python: string): Promise<PythonInstallation> {
  try {
    return await pythonInstallation(python, hostEnv());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw notFound(python);
    throw new SandboxUnavailableError(`cannot start ${python}: ${(error as Error).message}`);
  }
}

/** What the runner is started as: bwrap's command line, or the interpreter's own. */
interface Launch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  stdio: StdioOptions;
  sandboxed: boolean;
}

const UNSANDBOXABLE = "CodeExec runs Python only inside the bubblewrap sandbox: install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap) on a Linux kernel that allows user namespaces, or, for your own canvases in canvasflow run only, pass --trust-code";

function sandboxLaunch(python: PythonInstallation, settings: CodeSandboxSettings, options: PythonRunOptions): Launch {
  const bwrap = findProgram(settings.bwrap);
  if (!bwrap) throw new SandboxUnavailableError(`the code sandbox cannot start on this machine: ${settings.bwrap} was not found. ${UNSANDBOXABLE}`);
  const arch = hostSeccompArch();
  if (!arch) throw new SandboxUnavailableError(`the code sandbox has no seccomp filter for this machine's architecture (${process.arch}). ${UNSANDBOXABLE}`);
  const root = process.getuid?.() === 0;
  let privileged;
  if (root) {
    const setpriv = findProgram("setpriv", "/usr/bin:/bin");
    if (!setpriv || !setpriv.startsWith("/usr/")) throw new SandboxUnavailableError(`the code sandbox cannot start as root without /usr/bin/setpriv (util-linux), which drops the script to an unprivileged user. ${UNSANDBOXABLE}`);
    privileged = { uid: SANDBOX_UID_BASE + randomInt(SANDBOX_UID_COUNT), setpriv };
  }
  const command = [python.executable, "-I", "-B", "-c", PYTHON_RUNNER];
  return {
    command: bwrap,
    args: bwrapArguments({
      layout: hostLayout(),
      readOnly: python.folders,
      tmpBytes: settings.tmpMb * 1024 * 1024,
      privileged,
      seccompFd: SECCOMP_FD,
      statusFd: STATUS_FD,
      ...(options.proxySocket !== undefined ? { proxySocket: options.proxySocket } : {}),
      env: SANDBOX_ENV,
      command,
    }),
    env: {},
    stdio: ["pipe", "pipe", "pipe", "pipe", "pipe", "pipe"],
    sandboxed: true,
  };
}

function trustedLaunch(python: PythonInstallation): Launch {
  return { command: python.executable, args: ["-I", "-B", "-c", PYTHON_RUNNER], env: hostEnv(), stdio: ["pipe", "pipe", "pipe", "pipe"], sandboxed: false };
}

/** The runner's limits: in the sandbox every one of them; trusted, the process count stays the user's own. */
function runnerLimits(settings: CodeSandboxSettings, sandboxed: boolean): Record<string, number> {
  const limits: Record<string, number> = {
    openFiles: settings.openFiles,
    cpuSeconds: Math.ceil(settings.timeoutMs / 1000) + 1,
    fileBytes: settings.tmpMb * 1024 * 1024,
  };
  if (sandboxed) limits.processes = settings.processes;
  return limits;
}

/** The JSON value main returned. Rejects with a message saying what went wrong in the script. */
export async function runPython(script: string, args: Record<string, unknown>, settings: CodeSandboxSettings, signal?: AbortSignal, options: PythonRunOptions = {}): Promise<unknown> {
  const python = await installation(settings.python);
  const launch = settings.trustCode ? trustedLaunch(python) : sandboxLaunch(python, settings, options);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
      return;
    }
    const child = spawn(launch.command, launch.args, { detached: true, stdio: launch.stdio, env: launch.env });
    let settled = false;
    let reply = "";
    let stderr = "";
    let printed = 0;
    let status = "";
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
    const timer = setTimeout(() => finish(() => reject(new Error(`Python main did not finish within ${seconds(settings.timeoutMs)}: the process was killed`))), settings.timeoutMs);
    const onAbort = () => finish(() => reject(signal?.reason instanceof Error ? signal.reason : new Error("cancelled")));
    signal?.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error: NodeJS.ErrnoException) =>
      finish(() => reject(error.code === "ENOENT" ? (launch.sandboxed ? new SandboxUnavailableError(`the code sandbox cannot start: ${launch.command} was not found. ${UNSANDBOXABLE}`) : notFound(settings.python)) : new SandboxUnavailableError(`cannot start ${launch.command}: ${error.message}`))),
    );
    const countPrinted = (bytes: number) => {
      printed += bytes;
      if (printed > settings.outputBytes) finish(() => reject(new Error(`the Python script printed more than ${byteSize(settings.outputBytes)} (stdout and stderr): the process was killed`)));
    };
    // What the script prints is not its result; it is read so the pipe never fills up, and counted.
    child.stdout?.on("data", (data: Buffer) => countPrinted(data.length));
    child.stderr?.on("data", (data: Buffer) => {
      countPrinted(data.length);
      stderr = (stderr + data.toString("utf8")).slice(-STDERR_KEEP);
    });
    const outOfMemory = (detail: string) => new Error(`Python ran out of memory (limit ${settings.memoryMb} MB): the script was stopped${detail}`);
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
    const replies = child.stdio[REPLY_FD] as Readable | null;
    replies?.setEncoding("utf8").on("data", (data: string) => {
      reply += data;
      // JSON text of the result, a little more than the result itself.
      if (Buffer.byteLength(reply) > settings.outputBytes + 1024) finish(() => reject(new Error(`main's result is larger than ${byteSize(settings.outputBytes)}: the process was killed`)));
    });
    replies?.on("end", () => {
      if (reply !== "") finish(answer);
    });
    if (launch.sandboxed) {
      const filter = child.stdio[SECCOMP_FD] as Writable | null;
      filter?.on("error", () => undefined);
      filter?.end(seccompFilterBytes(hostSeccompArch()!));
      (child.stdio[STATUS_FD as 3] as Readable | null)?.setEncoding("utf8").on("data", (data: string) => {
        status += data;
      });
    }
    child.on("close", (code, killedBy) =>
      finish(() => {
        if (reply !== "") return answer();
        const said = stderr.trim() !== "" ? `: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : "";
        // bwrap reports the sandbox's start on its status pipe: without that, the sandbox itself failed.
        if (launch.sandboxed && !status.includes('"child-pid"')) return reject(new SandboxUnavailableError(`the code sandbox could not start on this machine${said}. ${UNSANDBOXABLE}`));
        // An allocation failed where Python could not raise MemoryError (in C code, or a native library).
        if (OUT_OF_MEMORY_STDERR.test(stderr)) return reject(outOfMemory(said));
        const why = killedBy ? `was killed by ${killedBy}` : code === 137 || code === 152 ? `was killed (${code === 152 ? "CPU time limit" : "SIGKILL"})` : `exited with code ${code}`;
        reject(new Error(`Python ${why} before main returned${said}`));
      }),
    );
    child.stdin?.on("error", () => undefined);
    const payload = { script, args, memoryMb: settings.memoryMb, limits: runnerLimits(settings, launch.sandboxed), ...(options.proxySocket !== undefined && launch.sandboxed ? { proxy: PROXY_SOCKET_INSIDE } : {}) };
    child.stdin?.end(JSON.stringify(payload));
  });
}
