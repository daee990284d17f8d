/**
 * The built CLI (`dist/src/cli/bin.js`) as a child process, for the queue benchmarks: servers and
 * workers run as users run them. `start` resolves once the process's stderr matches `ready`.
 *
 * Each child is started in a session of its own (detached: setsid), as a service manager starts
 * each service: with Linux's autogroup scheduling, processes of one session share one CPU share,
 * so on a machine busy with other work N workers started from the bench's session would split one
 * share between them instead of getting one each, as separate services (or machines) do.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../dist/src/cli/bin.js", import.meta.url));

export async function startCli(args, ready, { timeoutMs = 60_000, execArgv = [] } = {}) {
  const child = spawn(process.execPath, [...execArgv, BIN, ...args], { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const match = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`canvasflow ${args[0]} did not start in ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      // Only the banner is kept: a busy worker's one line per run would grow it without end.
      if (stderr.length < 64 * 1024) stderr += chunk;
      const found = ready.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.on("exit", (code) => reject(new Error(`canvasflow ${args[0]} exited (${code}): ${stderr}`)));
  });
  return {
    match,
    pid: child.pid,
    /** SIGTERM, then SIGKILL after 20 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
