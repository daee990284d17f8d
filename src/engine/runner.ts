/**
 * The runner: executes one batch of components concurrently (p-queue), each under a timeout,
 * with retries and the run's AbortSignal. It never decides where the path goes.
 */
import PQueue from "p-queue";
import { setTimeout as sleep } from "node:timers/promises";
import type { InvokeControl } from "../components/types.js";
import { isUnavailable } from "../components/unavailable.js";
import { finiteNumber } from "../util/values.js";
import type { ComponentNode } from "./graph.js";
import type { InvocationContext } from "./context.js";
import { CancelledError, ComponentTimeoutError, deadlineAfter, within } from "./waits.js";
import { InterruptSignal, type InterruptInfo } from "./interrupt.js";

export { CancelledError, ComponentTimeoutError };

export const DEFAULT_CONCURRENCY = 5;
/** RAGFlow's COMPONENT_EXEC_TIMEOUT default (600 s). */
export const DEFAULT_COMPONENT_TIMEOUT_MS = 600_000;

export interface RunnerOptions {
  concurrency: number;
  defaultTimeoutMs: number;
  /** Per-component-id overrides, in ms. */
  componentTimeouts: Readonly<Record<string, number>>;
}

export interface NodeResult {
  readonly node: ComponentNode;
  readonly ctx: InvocationContext;
  readonly control: InvokeControl | void;
  readonly error: string | undefined;
  /** The kind of error (its class name), for error routes that report it. */
  readonly errorType?: string;
  /** The error is an UnavailableError: recorded, but the run goes on. */
  readonly unavailable?: boolean;
  /** Epoch seconds. */
  readonly createdAt: number;
  /** Seconds. */
  readonly elapsed: number;
  /** `performance.now()` when it started: its timeout also bounds the reading of its streams. */
  readonly startedMs: number;
  /** It paused from inside (ctx.interrupt): not finished, not failed; it runs again on resume. */
  readonly interrupt?: InterruptInfo;
}

export interface RunnerHooks {
  /** Work a component depends on that must finish first (e.g. draining an upstream stream). */
  beforeInvoke(node: ComponentNode): Promise<void> | undefined;
  /** Called before a failed component is retried (its partial outputs are cleared). */
  beforeRetry(node: ComponentNode, ctx: InvocationContext): void;
}

/** The timeout of one component: `exec_timeout` param (s), then run options, then its type's default. */
export function timeoutFor(node: ComponentNode, options: RunnerOptions): number {
  const param = node.params.exec_timeout;
  if (typeof param === "number" && param > 0) return param * 1000;
  const override = options.componentTimeouts[node.id];
  if (typeof override === "number" && override > 0) return override;
  const declared = node.def.timeoutMs;
  const typed = typeof declared === "function" ? declared(node.params) : declared;
  return typeof typed === "number" && typed > 0 ? typed : options.defaultTimeoutMs;
}

/**
 * The compiled retry policy, else max_retries and delay_after_error (s), read as numbers or
 * numeric text; anything else means none.
 */
function retryPolicy(node: ComponentNode): { attempts: number; delayMs: number } {
  if (node.def.capabilities?.retriesInternally) return { attempts: 1, delayMs: 0 };
  if (node.retry) return node.retry;
  const retries = finiteNumber(node.params.max_retries ?? 0) ?? 0;
  const delay = finiteNumber(node.params.delay_after_error ?? 2) ?? 0;
  return {
    attempts: 1 + (retries > 0 ? Math.floor(retries) : 0),
    delayMs: delay > 0 ? delay * 1000 : 0,
  };
}

/** The class name of an error ("Error" for anything that is not one). */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name || error.constructor.name || "Error" : "Error";
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export class BatchRunner {
  private readonly queue: PQueue;

  constructor(private readonly options: RunnerOptions) {
    this.queue = new PQueue({ concurrency: Math.max(1, Math.floor(options.concurrency)) });
  }

  /**
   * Run every prepared invocation; results come back in the given order. A lone component whose
   * invoke returns synchronously and succeeds is answered without a promise: most steps of a
   * long chain or loop are like that, and the event loop hop would be their main cost.
   */
  runBatch(
    contexts: readonly InvocationContext[],
    nodes: readonly ComponentNode[],
    hooks: RunnerHooks,
    signal: AbortSignal,
  ): NodeResult[] | Promise<NodeResult[]> {
    if (nodes.length === 1) {
      const result = this.start(nodes[0], contexts[0], hooks, signal);
      return result instanceof Promise ? result.then((r) => [r]) : [result];
    }
    return Promise.all(
      nodes.map((node, i) => this.queue.add(() => this.start(node, contexts[i], hooks, signal)) as Promise<NodeResult>),
    );
  }

  /** The first attempt, synchronously when possible; anything that must wait continues in `finish`. */
  private start(node: ComponentNode, ctx: InvocationContext, hooks: RunnerHooks, signal: AbortSignal): NodeResult | Promise<NodeResult> {
    const clock = { createdAt: Date.now() / 1000, started: performance.now() };
    let pending: Promise<void> | undefined;
    try {
      pending = hooks.beforeInvoke(node);
    } catch (caught) {
      return this.finish(node, ctx, hooks, signal, clock, { error: caught });
    }
    if (pending || signal.aborted) return this.finish(node, ctx, hooks, signal, clock, { pending });
    let first: InvokeControl | void | Promise<InvokeControl | void>;
    try {
      first = invoke(node, ctx);
    } catch (caught) {
      return this.finish(node, ctx, hooks, signal, clock, { error: caught });
    }
    if (first instanceof Promise) return this.finish(node, ctx, hooks, signal, clock, { running: this.guard(node, ctx, signal, first) as Promise<InvokeControl | void> });
    return { node, ctx, control: first, error: undefined, createdAt: clock.createdAt, elapsed: (performance.now() - clock.started) / 1000, startedMs: clock.started };
  }

  /** Everything after a first attempt that could not finish synchronously: waits, timeouts, retries. */
  private async finish(
    node: ComponentNode,
    ctx: InvocationContext,
    hooks: RunnerHooks,
    signal: AbortSignal,
    clock: { createdAt: number; started: number },
    first: { pending?: Promise<void>; running?: Promise<InvokeControl | void>; error?: unknown },
  ): Promise<NodeResult> {
    const { attempts, delayMs } = retryPolicy(node);
    let control: InvokeControl | void = undefined;
    let error: string | undefined;
    let errorType: string | undefined;
    let unavailable = false;
    let interrupt: InterruptInfo | undefined;
    try {
      // Draining an upstream stream counts against this component's own timeout.
      if (first.pending) await within(first.pending, signal, deadlineAfter(clock.started, timeoutFor(node, this.options)));
      let attemptStarted = clock.started;
      for (let attempt = 1; ; attempt++) {
        if (attempt > 1) attemptStarted = performance.now();
        try {
          if (attempt === 1 && "error" in first) throw first.error;
          control = attempt === 1 && first.running ? await first.running : await this.attempt(node, ctx, signal);
          error = undefined;
          break;
        } catch (caught) {
          if (caught instanceof InterruptSignal) {
            // A pause, not a failure: no retry, no error.
            interrupt = caught.info;
            error = undefined;
            break;
          }
          error = errorMessage(caught);
          errorType = errorName(caught);
          unavailable = isUnavailable(caught);
          // Retrying cannot bring a missing key or network back.
          if (signal.aborted || unavailable || attempt >= attempts) break;
          const now = performance.now();
          (ctx.failedAttempts ??= []).push({ error, elapsed_time: (now - attemptStarted) / 1000, finished_at: Date.now() / 1000 });
          await sleep(delayMs, undefined, { signal }).catch(() => undefined);
          if (signal.aborted) break;
          hooks.beforeRetry(node, ctx);
          ctx.beginAttempt();
        }
      }
    } catch (caught) {
      error = errorMessage(caught);
      errorType = errorName(caught);
    }
    if (signal.aborted && error !== undefined) {
      error = "cancelled";
      errorType = "CancelledError";
      unavailable = false;
    }
    return {
      node,
      ctx,
      control,
      error,
      ...(error !== undefined && errorType !== undefined ? { errorType } : {}),
      ...(unavailable && error !== undefined ? { unavailable } : {}),
      ...(interrupt && error === undefined ? { interrupt } : {}),
      createdAt: clock.createdAt,
      elapsed: (performance.now() - clock.started) / 1000,
      startedMs: clock.started,
    };
  }

  // One attempt. A synchronous result needs no timer: only a pending promise can time out.
  private attempt(node: ComponentNode, ctx: InvocationContext, signal: AbortSignal): InvokeControl | void | Promise<InvokeControl | void> {
    if (signal.aborted) throw new CancelledError();
    return this.guard(node, ctx, signal, invoke(node, ctx));
  }

  /** A pending result races the component's timeout and the run's cancellation. */
  private guard(
    node: ComponentNode,
    ctx: InvocationContext,
    signal: AbortSignal,
    result: InvokeControl | void | Promise<InvokeControl | void>,
  ): InvokeControl | void | Promise<InvokeControl | void> {
    if (!(result instanceof Promise)) return result;
    // On timeout the component's own signal is aborted, so its I/O stops too.
    return within(result, signal, deadlineAfter(performance.now(), timeoutFor(node, this.options)), (timeout) => ctx.abort(timeout));
  }
}

/** A component's code, run with its span active when the run is traced. */
function invoke(node: ComponentNode, ctx: InvocationContext): InvokeControl | void | Promise<InvokeControl | void> {
  const trace = ctx.trace;
  return trace ? trace.within(() => node.def.invoke(ctx)) : node.def.invoke(ctx);
}
