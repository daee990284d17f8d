/**
 * Ctrl+C (SIGINT) and SIGTERM cancel the turn instead of ending the process, so the CLI can end
 * the run cleanly and say what became of the session. A second signal ends the process at once
 * (the listeners are gone by then), which saves nothing either.
 */
import { constants } from "node:os";

type CancelSignal = "SIGINT" | "SIGTERM";

export interface Cancellation {
  /** Aborts when a signal arrives. */
  readonly signal: AbortSignal;
  /** The signal that cancelled the turn, if one did. */
  readonly by: CancelSignal | undefined;
  /** Stop listening (the process's default handling comes back). */
  dispose(): void;
}

export function cancelOnSignals(): Cancellation {
  const controller = new AbortController();
  let by: CancelSignal | undefined;
  const listeners = new Map<CancelSignal, () => void>();
  const dispose = () => {
    for (const [name, listener] of listeners) process.removeListener(name, listener);
    listeners.clear();
  };
  for (const name of ["SIGINT", "SIGTERM"] as const) {
    const listener = () => {
      by = name;
      dispose();
      controller.abort(new Error(`cancelled by ${name}`));
    };
    listeners.set(name, listener);
    process.once(name, listener);
  }
  return {
    signal: controller.signal,
    get by() {
      return by;
    },
    dispose,
  };
}

/** 128 + the signal's number, as shells report a process a signal ended: 130 for SIGINT, 143 for SIGTERM. */
export function signalExitCode(signal: CancelSignal): number {
  return 128 + constants.signals[signal];
}
