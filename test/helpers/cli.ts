/** The CLI run in this process through main(), with what it writes captured. */
import { Writable } from "node:stream";
import { main } from "../../src/cli/main.js";
import type { CliIO } from "../../src/cli/io.js";
import type { CanvasEvent } from "../../src/engine/events.js";

export interface LiveCli {
  io: CliIO;
  /** What the command has written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Fires io.shutdown, which ends a long-running command (mock-llm). */
  stop(): void;
}

/** An IO whose output can be read while the command still runs. */
export function liveIO(isTTY = false): LiveCli {
  let out = "";
  let err = "";
  const shutdown = new AbortController();
  const stdout = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  return { io: { stdout, err: (t) => (err += t), isTTY, shutdown: shutdown.signal }, stdout: () => out, stderr: () => err, stop: () => shutdown.abort() };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout read as ndjson events (read when asked: not every command prints events). */
  readonly events: CanvasEvent[];
}

/** Runs `canvasflow <args>` to its exit code. */
export async function cli(args: string[], isTTY = false): Promise<CliRun> {
  const live = liveIO(isTTY);
  const code = await main(args, live.io);
  const stdout = live.stdout();
  const run = { code, stdout, stderr: live.stderr() };
  // Not enumerable: printing or matching a run never parses a stdout that is not ndjson.
  return Object.defineProperty(run, "events", { get: () => events(stdout), enumerable: false }) as CliRun;
}

/** The events of an `--events ndjson` stdout, one JSON object a line. */
export function events(stdout: string): CanvasEvent[] {
  return stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CanvasEvent);
}
