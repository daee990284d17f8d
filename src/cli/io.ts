/** The CLI's view of the process, so commands can be tested without one. */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  err(text: string): void;
  isTTY: boolean;
  /** ANSI colours in pretty output (a terminal, unless NO_COLOR is set). */
  color?: boolean;
  /**
   * Ends long-running commands (`mock-llm`) when it fires. Without it they stop on SIGINT or
   * SIGTERM; tests pass their own.
   */
  shutdown?: AbortSignal;
}

/** Wrong flags or arguments: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    err: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stdout.isTTY),
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  };
}

/** Resolves when a long-running command should stop: io.shutdown, or SIGINT/SIGTERM. */
export function stopRequested(io: CliIO): Promise<void> {
  return new Promise((resolve) => {
    if (io.shutdown) {
      if (io.shutdown.aborted) resolve();
      else io.shutdown.addEventListener("abort", () => resolve(), { once: true });
      return;
    }
    const stop = () => {
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
