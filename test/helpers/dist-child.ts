/**
 * A real second Node process running a snippet against the built library (`dist/`), for what
 * needs another process: a lock held by a process that is then killed, a cancel sent from
 * elsewhere. `npm test` builds dist first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const DIST_INDEX = resolve("dist/src/index.js");
/** The package's entries a child may use, merged into one `lib`. */
const DIST_ENTRIES = ["index.js", "backends/redis/index.js", "backends/postgres/index.js", "backends/sqlite/index.js", "server/index.js", "worker/index.js"].map((entry) => pathToFileURL(resolve("dist/src", entry)).href);

export interface DistChild {
  child: ChildProcess;
  /** The next line the child writes to stdout (fails if it exits first). */
  line(): Promise<string>;
  /** Write a line to the child's stdin. */
  send(line: string): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Run an ES module snippet in a new Node process; `lib` is in scope as the library's exports
 * (`const { RedisSnapshotStore } = lib`: every entry's exports), and `lines` yields what is written to its stdin.
 */
export function spawnDistChild(code: string): DistChild {
  if (!existsSync(DIST_INDEX)) throw new Error(`${DIST_INDEX} is missing: run "npm run build" first (npm test does)`);
  const source =
    `const lib = Object.assign({}, ...(await Promise.all(${JSON.stringify(DIST_ENTRIES)}.map((entry) => import(entry)))));\n` +
    `const lines = (await import("node:readline")).createInterface({ input: process.stdin })[Symbol.asyncIterator]();\n` +
    code;
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  const deliver = () => {
    let newline: number;
    while (waiting.length > 0 && (newline = out.indexOf("\n")) >= 0) {
      const line = out.slice(0, newline);
      out = out.slice(newline + 1);
      waiting.shift()!.resolve(line);
    }
  };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    deliver();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on("close", (code, signal) => {
      for (const w of waiting.splice(0)) w.reject(new Error(`the child process exited (${signal ?? code}) before writing a line; stderr: ${err}`));
      done({ code, signal });
    });
  });
  return {
    child,
    line: () =>
      new Promise<string>((resolveLine, reject) => {
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`the child process has exited; stderr: ${err}`));
        waiting.push({ resolve: resolveLine, reject });
        deliver();
      }),
    send: (line) => child.stdin!.write(`${line}\n`),
    exited,
  };
}
