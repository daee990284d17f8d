/**
 * The built CLI (`dist/src/cli/bin.js`) as a real child process, for what needs one: signals,
 * kill -9, locks held by another process. `npm test` builds dist first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export const CLI_BIN = resolve("dist/bundle/cli/bin.js");

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /**
   * Call `listener` with each complete stdout line as it arrives, and the time it arrived
   * (`performance.timeOrigin + performance.now()`, comparable with another process's clock).
   */
  onLine(listener: (line: string, at: number) => void): void;
  /** Resolves when the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliProcess {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run "npm run build" first (npm test does)`);
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let partial = "";
  const listeners: Array<(line: string, at: number) => void> = [];
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const at = performance.timeOrigin + performance.now();
    out += chunk;
    partial += chunk;
    let newline: number;
    while ((newline = partial.indexOf("\n")) >= 0) {
      const line = partial.slice(0, newline);
      partial = partial.slice(newline + 1);
      for (const listener of listeners) listener(line, at);
    }
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on("close", (code, signal) => done({ code, signal }));
  });
  return { child, stdout: () => out, stderr: () => err, onLine: (listener) => listeners.push(listener), exited };
}
