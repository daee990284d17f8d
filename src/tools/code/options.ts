/**
 * Limits of CodeExec's sandboxes. An embedding application sets them as the runtime service
 * `codeExec` (`services: { codeExec: { timeoutMs: 5000 } }`); the component's own timeout and a
 * cancelled run stop a script earlier.
 */
import { finiteNumber, isPlainObject } from "../../util/values.js";

export interface CodeSandboxOptions {
  /** Wall-clock limit of one script run (default 60 s). */
  timeoutMs?: number;
  /**
   * Memory limit in MB (default 256): JavaScript's heap, and what a Python script may map on top
   * of the interpreter's own memory (RLIMIT_DATA, enforced on Linux).
   */
  memoryMb?: number;
  /** The Python interpreter (default "python3" on the PATH). */
  python?: string;
}

export interface SandboxLimits {
  timeoutMs: number;
  memoryMb: number;
  python: string;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeoutMs: 60_000, memoryMb: 256, python: "python3" };

/** The limits from the `codeExec` service, defaults for anything missing or invalid. */
export function sandboxLimits(service: unknown): SandboxLimits {
  const options = isPlainObject(service) ? (service as CodeSandboxOptions) : {};
  const timeoutMs = finiteNumber(options.timeoutMs);
  const memoryMb = finiteNumber(options.memoryMb);
  return {
    timeoutMs: timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : DEFAULT_SANDBOX_LIMITS.timeoutMs,
    memoryMb: memoryMb !== undefined && memoryMb >= 8 ? memoryMb : DEFAULT_SANDBOX_LIMITS.memoryMb,
    python: typeof options.python === "string" && options.python.trim() !== "" ? options.python : DEFAULT_SANDBOX_LIMITS.python,
  };
}

/** Seconds for messages: "2 s", "0.5 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
