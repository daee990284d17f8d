/**
 * Runs a CodeExec JavaScript script: `main(args)` (may be async) in a worker thread with a `vm`
 * context. The worker is terminated when the time limit passes or the run is cancelled, and V8
 * stops it when its heap outgrows the memory limit.
 */
import { Worker } from "node:worker_threads";
import { JS_WORKER_SOURCE } from "./js-worker-source.js";
import { seconds, type SandboxLimits } from "./options.js";

type WorkerReply = { ok: true; json: string } | { ok: false; error: string };

/** The JSON value main returned. Rejects with a message saying what went wrong in the script. */
export function runJavaScript(script: string, args: Record<string, unknown>, limits: Pick<SandboxLimits, "timeoutMs" | "memoryMb">, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
      return;
    }
    const worker = new Worker(JS_WORKER_SOURCE, {
      eval: true,
      workerData: { script, argsJson: JSON.stringify(args) },
      // The script's worker sees no environment variables (API keys) of this process.
      env: {},
      resourceLimits: {
        maxOldGenerationSizeMb: limits.memoryMb,
        maxYoungGenerationSizeMb: Math.max(1, Math.min(16, Math.floor(limits.memoryMb / 8))),
        stackSizeMb: 4,
      },
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`JavaScript main did not finish within ${seconds(limits.timeoutMs)}: the script was stopped`))), limits.timeoutMs);
    const onAbort = () => finish(() => reject(signal?.reason instanceof Error ? signal.reason : new Error("cancelled")));
    signal?.addEventListener("abort", onAbort, { once: true });

    worker.once("message", (reply: WorkerReply) =>
      finish(() => {
        if (reply.ok) resolve(JSON.parse(reply.json));
        else reject(new Error(`JavaScript error: ${reply.error}`));
      }),
    );
    worker.once("error", (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new Error(`JavaScript ran out of memory (limit ${limits.memoryMb} MB): the script was stopped`)
            : new Error(`JavaScript sandbox failed: ${error.message}`),
        ),
      ),
    );
    worker.once("exit", (code) => finish(() => reject(new Error(code === 0 ? "JavaScript main returned a promise that never settled" : `the JavaScript worker stopped with exit code ${code}`))));
  });
}
