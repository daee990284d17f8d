/**
 * The process must never end quietly with exit code 0 while a command is still unfinished.
 * When Node's event loop runs dry (nothing left that could ever settle the command's promise,
 * e.g. a component awaiting something that will never happen without a timer), `beforeExit`
 * fires: report it and exit 1 instead of 0.
 */
export function exitWhenSettled(
  command: Promise<number>,
  stderr: { write(text: string): unknown },
  failedCode: number,
  describeError: (error: unknown) => string = (error) => `canvasflow: ${String(error)}\n`,
): void {
  let settled = false;
  const onBeforeExit = () => {
    if (settled) return;
    stderr.write("canvasflow: the command stopped before it finished: nothing was left running that could complete it (no terminal event was produced)\n");
    process.exitCode = failedCode;
    process.removeListener("beforeExit", onBeforeExit);
  };
  process.on("beforeExit", onBeforeExit);
  command.then(
    (code) => {
      settled = true;
      process.removeListener("beforeExit", onBeforeExit);
      process.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      process.removeListener("beforeExit", onBeforeExit);
      stderr.write(describeError(error));
      process.exitCode = failedCode;
    },
  );
}
