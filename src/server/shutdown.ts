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
import { ApiError } from "./envelope.js";

const SHUTTING_DOWN = "The server is shutting down: send the request to another instance, or retry once it is back.";

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
