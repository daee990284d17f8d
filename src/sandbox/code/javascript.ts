/**
 * Runs a CodeExec JavaScript script — `main(args)`, which may be async — in QuickJS
 * (quickjs-worker-source.ts), on a small pool of worker threads kept for this process: a script
 * never runs in Node's own engine, and a long one never holds the event loop. At most
 * `javascriptWorkers` scripts run at once; the others wait their turn in arrival order (p-queue).
 *
 * QuickJS stops a script at its deadline, when its heap outgrows the memory limit (each worker
 * has one; a run takes an idle worker of its limit, or starts one), or when the run is cancelled. Should a worker not answer a little after the deadline anyway, it is terminated
 * and replaced. Workers that sit idle end after a while and do not keep the process alive.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import PQueue from "p-queue";
import { byteSize, seconds, type CodeSandboxSettings } from "./options.js";
import { QUICKJS_WORKER_SOURCE } from "./quickjs-worker-source.js";
import { SandboxUnavailableError } from "./unavailable.js";

type Failure = "script" | "timeout" | "memory" | "cancelled" | "output" | "broken";
type WorkerReply = ({ id: number; ok: true; json: string } | { id: number; ok: false; kind: Failure; error: string }) & { retire?: boolean };

/** QuickJS's own stack (the script's recursion depth); the worker thread's stack is larger, so QuickJS's check comes first. */
const QUICKJS_STACK_BYTES = 1024 * 1024;
const WORKER_STACK_MB = 32;
/** How long after the deadline a worker that has not answered is terminated. */
const GRACE_MS = 2_000;
/** An idle worker ends after this long. */
const IDLE_MS = 30_000;

/** Node has WebAssembly; @types/node does not declare it (it comes with the DOM's types). */
const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } };

interface QuickJsModule {
  core: string;
  variant: string;
  /** Compiled once in this thread and handed to every worker, which then only instantiates it. */
  wasm: object;
}

let quickjs: Promise<QuickJsModule> | undefined;

function quickjsModule(): Promise<QuickJsModule> {
  if (!quickjs) {
    quickjs = (async () => {
      const require = createRequire(import.meta.url);
      const variant = require.resolve("@jitl/quickjs-wasmfile-release-sync");
      const wasm = await wasmApi.compile(await readFile(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")));
      return { core: require.resolve("quickjs-emscripten-core"), variant, wasm };
    })();
    quickjs.catch(() => {
      quickjs = undefined;
    });
  }
  return quickjs;
}

/** One worker thread with QuickJS loaded, running one script at a time, with one memory limit. */
class QuickJsWorker {
  private readonly worker: Worker;
  readonly ready: Promise<void>;
  private pending: ((reply: WorkerReply) => void) | undefined;
  private ended = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    module: QuickJsModule,
    readonly memoryBytes: number,
    private readonly onEnd: (worker: QuickJsWorker) => void,
  ) {
    this.worker = new Worker(QUICKJS_WORKER_SOURCE, {
      eval: true,
      workerData: { ...module, memoryBytes },
      // The worker sees no environment variables (API keys) of this process.
      env: {},
      resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.once("message", (message: { ready: boolean; error?: string }) => {
        if (message.ready) resolve();
        else reject(new SandboxUnavailableError(`QuickJS could not start: ${message.error}`));
      });
      this.worker.once("error", (error) => reject(new SandboxUnavailableError(`QuickJS could not start: ${error.message}`)));
    });
    this.ready.catch(() => this.end());
    this.worker.on("error", () => this.end());
    this.worker.on("exit", () => this.end());
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  run(job: Record<string, unknown> & { id: number }): Promise<WorkerReply> {
    clearTimeout(this.idleTimer);
    return new Promise((resolve) => {
      this.pending = resolve;
      const listener = (reply: WorkerReply) => {
        if (reply.id !== job.id) return;
        this.worker.off("message", listener);
        this.settle(reply);
      };
      this.worker.on("message", listener);
      this.worker.postMessage(job);
    });
  }

  private settle(reply: WorkerReply): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.(reply);
    if (!this.ended) this.idleTimer = setTimeout(() => this.stop(), IDLE_MS).unref();
  }

  /** Terminate the thread, answering a run under way with `reply`. */
  stop(reply?: WorkerReply): void {
    if (reply) this.settle(reply);
    this.end();
    void this.worker.terminate();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    // A run under way when the thread died answers as broken.
    this.pending?.({ id: -1, ok: false, kind: "broken", error: "the worker thread ended" });
    this.pending = undefined;
    this.onEnd(this);
  }

  get alive(): boolean {
    return !this.ended;
  }
}

class QuickJsPool {
  private readonly idle: QuickJsWorker[] = [];
  private queue: PQueue;
  private concurrency: number;
  private nextId = 1;

  constructor(concurrency: number) {
    this.concurrency = concurrency;
    this.queue = new PQueue({ concurrency });
  }

  setConcurrency(concurrency: number): void {
    if (concurrency === this.concurrency) return;
    this.concurrency = concurrency;
    this.queue.concurrency = concurrency;
  }

  private async worker(memoryBytes: number): Promise<QuickJsWorker> {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const found = this.idle[i];
      if (!found.alive || found.memoryBytes !== memoryBytes) continue;
      this.idle.splice(i, 1);
      return found;
    }
    let module: QuickJsModule;
    try {
      module = await quickjsModule();
    } catch (error) {
      throw new SandboxUnavailableError(`QuickJS could not be loaded: ${(error as Error).message}`);
    }
    const created = new QuickJsWorker(module, memoryBytes, (ended) => {
      const at = this.idle.indexOf(ended);
      if (at >= 0) this.idle.splice(at, 1);
    });
    await created.ready;
    return created;
  }

  run(job: { script: string; argsJson: string; memoryBytes: number; outputBytes: number; timeoutMs: number }, signal?: AbortSignal): Promise<WorkerReply> {
    return this.queue.add(async () => {
      const id = this.nextId++;
      const cancel = new Int32Array(new SharedArrayBuffer(4));
      const onAbort = () => Atomics.store(cancel, 0, 1);
      signal?.addEventListener("abort", onAbort, { once: true });
      let watchdog: NodeJS.Timeout | undefined;
      try {
        if (signal?.aborted) return { id, ok: false, kind: "cancelled", error: "" } as WorkerReply;
        const worker = await this.worker(job.memoryBytes);
        // The deadline counts from when the script starts, not from when it was queued.
        const deadline = Date.now() + job.timeoutMs;
        watchdog = setTimeout(() => worker.stop({ id, ok: false, kind: "timeout", error: "" }), job.timeoutMs + GRACE_MS);
        const reply = await worker.run({ id, script: job.script, argsJson: job.argsJson, stackBytes: QUICKJS_STACK_BYTES, deadline, outputBytes: job.outputBytes, cancel });
        // A worker that ends itself to give its memory back is not used again.
        if (reply.retire) worker.stop();
        else if (worker.alive && !worker.busy) this.idle.push(worker);
        return reply;
      } finally {
        clearTimeout(watchdog);
        signal?.removeEventListener("abort", onAbort);
      }
    }) as Promise<WorkerReply>;
  }
}

let pool: QuickJsPool | undefined;

function sharedPool(concurrency: number): QuickJsPool {
  if (!pool) pool = new QuickJsPool(concurrency);
  else pool.setConcurrency(concurrency);
  return pool;
}

/** The JSON value main returned. Rejects with a message saying what went wrong in the script. */
export async function runJavaScript(script: string, args: Record<string, unknown>, settings: Pick<CodeSandboxSettings, "timeoutMs" | "memoryMb" | "outputBytes" | "javascriptWorkers">, signal?: AbortSignal): Promise<unknown> {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("cancelled");
  const reply = await sharedPool(settings.javascriptWorkers).run(
    { script, argsJson: JSON.stringify(args), memoryBytes: settings.memoryMb * 1024 * 1024, outputBytes: settings.outputBytes, timeoutMs: settings.timeoutMs },
    signal,
  );
  if (reply.ok) return JSON.parse(reply.json);
  switch (reply.kind) {
    case "timeout":
      throw new Error(`JavaScript main did not finish within ${seconds(settings.timeoutMs)}: the script was stopped`);
    case "memory":
      throw new Error(`JavaScript ran out of memory (limit ${settings.memoryMb} MB): the script was stopped`);
    case "cancelled":
      throw signal?.reason instanceof Error ? signal.reason : new Error("cancelled");
    case "output":
      throw new Error(`main's result is larger than ${byteSize(settings.outputBytes)}: the script was stopped`);
    case "broken":
      throw new Error(`the JavaScript sandbox failed while running the script (${reply.error}); it was stopped`);
    default:
      throw new Error(`JavaScript error: ${reply.error}`);
  }
}
