/**
 * The outgoing side of one WebSocket connection, bounded (server.limits.ws…). What the server
 * queues for a client that does not read grows in the process, so:
 *
 * - past `wsHighWaterBytes` queued, the server stops reading the client's frames (the socket is
 *   paused: the client's own writes then back up, over TCP, to the client) and the run's next
 *   events wait, until the client has taken what was queued;
 * - past `wsMaxQueuedBytes` (what frames already read when the socket paused may still add), and
 *   when the queue stays past the high-water mark for `wsStallMs`, the connection is closed with
 *   1008 (policy violation).
 *
 * "Queued" is ws's `bufferedAmount`: the bytes written to the socket that the kernel has not
 * taken yet. Past the kernel's buffers, that is the client not reading.
 */
import type { Socket } from "node:net";
import type { WebSocket } from "ws";
import type { ServerLimits } from "./settings.js";

/** Close code 1008: the client broke the server's policy (here: its limits). */
export const POLICY_VIOLATION = 1008;

export type WsFlowLimits = Pick<ServerLimits, "wsHighWaterBytes" | "wsMaxQueuedBytes" | "wsStallMs">;

export class WsOutgoing {
  private paused = false;
  private closing = false;
  private stallTimer: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];

  /**
   * `transport` is the connection's TCP socket (its `drain` says the queue is empty again);
   * `closedForPolicy` is told when a limit closed the connection, and why.
   */
  constructor(
    private readonly socket: WebSocket,
    private readonly transport: Socket,
    private readonly limits: WsFlowLimits,
    private readonly closedForPolicy: (reason: string) => void,
  ) {
    transport.on("drain", () => this.drained());
    socket.on("close", () => this.release());
  }

  /** Whether the connection takes frames (it is open, and no limit closed it). */
  get open(): boolean {
    return !this.closing && this.socket.readyState === this.socket.OPEN;
  }

  /** Queue one frame, unless the queue is already past its limit (the connection is then closed). */
  send(text: string): void {
    if (!this.open) return;
    if (this.socket.bufferedAmount >= this.limits.wsMaxQueuedBytes) {
      this.closeForPolicy(`client not reading: over ${this.limits.wsMaxQueuedBytes} bytes queued (server.limits.wsMaxQueuedBytes)`);
      return;
    }
    this.socket.send(text);
    this.check();
  }

  /** Resolves once the queue is below the high-water mark (at once when it is), or the connection is over. */
  ready(): Promise<void> {
    if (!this.paused || !this.open) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Past the high-water mark: stop reading the client's frames until the queue has drained. */
  private check(): void {
    if (this.paused || !this.open || this.socket.bufferedAmount < this.limits.wsHighWaterBytes) return;
    // A queue past the mark is past the socket's own high-water mark (at most 64 KiB, the least
    // wsHighWaterBytes may be), so `drain` follows once it is empty.
    if (!this.transport.writableNeedDrain) return;
    this.paused = true;
    this.socket.pause();
    if (this.limits.wsStallMs > 0) {
      this.stallTimer = setTimeout(() => this.closeForPolicy(`client not reading: queue over ${this.limits.wsHighWaterBytes} bytes for ${this.limits.wsStallMs} ms (server.limits.wsStallMs)`), this.limits.wsStallMs);
      this.stallTimer.unref();
    }
  }

  /**
   * Close with 1008 and the reason (at most 123 bytes), and read nothing more from a client that
   * broke a limit (what it keeps sending waits in TCP, unparsed). The socket is ended after the
   * close frame, so a client that reads sees the close at once; the server's side of the socket
   * goes at ws's close timeout.
   */
  closeForPolicy(reason: string): void {
    if (!this.open) return;
    this.closing = true;
    this.socket.close(POLICY_VIOLATION, reason);
    this.socket.pause();
    this.transport.end();
    this.release();
    this.closedForPolicy(reason);
  }

  private drained(): void {
    if (!this.paused || !this.open) return;
    this.paused = false;
    clearTimeout(this.stallTimer);
    this.socket.resume();
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private release(): void {
    clearTimeout(this.stallTimer);
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
