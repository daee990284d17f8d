/**
 * The graceful close installed on the server (the steps are listed in shutdown.ts): new requests
 * refused, running runs given their grace, then cancelled, long-lived streams ended.
 */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "./context.js";
import { shuttingDown } from "./shutdown.js";

/** How long cancelled runs get to write their last checkpoint and end their streams. */
const CANCEL_WAIT_MS = 10_000;
/** How often connections that fell idle are closed while the server waits for the last one. */
const IDLE_SWEEP_MS = 100;

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
