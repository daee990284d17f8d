/**
 * Closing the server gracefully (`app.close()`, and `canvasflow serve` on SIGTERM):
 *
 * 1. No new requests: the listening socket is closed, and a request that still arrives on an open
 *    connection is answered 503 (`/livez` excepted: the process is alive).
 * 2. The runs going on get up to `graceMs` to finish.
 * 3. The rest are cancelled: each ends with a cancelled workflow_finished (and `[DONE]` on its
 *    stream), its turn's state rolled back, so its session stays resumable on any server.
 * 4. The long-lived streams that are not runs end: re-attach readers (without `[DONE]`, so an
 *    EventSource reconnects elsewhere with its Last-Event-ID) and WebSocket connections (close
 *    code 1001, "going away").
 * 5. Fastify then closes; connections are closed as they fall idle.
 */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "./context.js";
import { ApiError } from "./envelope.js";

/** How long cancelled runs get to write their last checkpoint and end their streams. */
const CANCEL_WAIT_MS = 10_000;
/** How often connections that fell idle are closed while the server waits for the last one. */
const IDLE_SWEEP_MS = 100;

export const SHUTTING_DOWN = "The server is shutting down: send the request to another instance, or retry once it is back.";

export function shuttingDown(): ApiError {
  return new ApiError(503, SHUTTING_DOWN, null, 503);
}

/** Whether the server is closing, and what ends the long-lived streams when it does. */
export class Shutdown {
  private closingStarted = false;
  private readonly closers = new Set<() => Promise<void>>();

  /** True from the moment the server starts closing: nothing new is taken on. */
  get draining(): boolean {
    return this.closingStarted;
  }

  start(): void {
    this.closingStarted = true;
  }

  /**
   * `close` ends a long-lived stream once the runs are over (called at most once); the returned
   * function forgets it (the stream ended on its own).
   */
  onClose(close: () => Promise<void>): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** End every registered stream. */
  async closeStreams(): Promise<void> {
    const closing = [...this.closers];
    this.closers.clear();
    await Promise.all(closing.map((close) => close().catch(() => undefined)));
  }
}

/** The longest grace a timer can wait (about 24 days). */
const MAX_GRACE_MS = 2 ** 31 - 1;

/** Install the graceful close on the server; `graceMs` is how long running runs get to finish. */
export function installGracefulClose(app: FastifyInstance, ctx: ServerContext, graceMs: number): void {
  if (typeof graceMs !== "number" || !Number.isFinite(graceMs) || graceMs < 0 || graceMs > MAX_GRACE_MS) {
    throw new RangeError(`createServer: shutdownGraceMs must be a number of milliseconds from 0 to ${MAX_GRACE_MS}, got ${String(graceMs)}`);
  }
  app.addHook("onRequest", async (request) => {
    if (ctx.shutdown.draining && request.url !== "/livez") throw shuttingDown();
  });
  app.addHook("preClose", async () => {
    ctx.shutdown.start();
    const server = app.server;
    const closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined;
    if (graceMs > 0 && !(await ctx.runs.idle(graceMs))) ctx.log.warn({ runs: ctx.runs.size, graceMs }, "runs still going after the grace period are cancelled");
    ctx.runs.abortAll("the server is shutting down");
    if (!(await ctx.runs.idle(CANCEL_WAIT_MS))) ctx.log.error({ runs: ctx.runs.size }, "cancelled runs did not end in time");
    await ctx.shutdown.closeStreams();
    if (!closed) return;
    // Every answer has been sent: the connections clients keep alive are closed as they fall idle.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    server.closeIdleConnections();
    try {
      await closed;
    } finally {
      clearInterval(sweep);
    }
  });
}
