/**
 * Server-Sent Events written by hand, byte for byte as RAGFlow frames them (research/ragflow-api.md
 * §1): the native agent stream is `data:{json}\n\n` (no space) ending with `data:[DONE]\n\n`; the
 * OpenAI-compatible stream is `data: {json}\n\n` ending with `data: [DONE]\n\n`. No `event:`,
 * `id:` or `retry:` lines on those. The re-attach stream (ours, not RAGFlow's) adds an `id:<event
 * id>` line before each event's `data:` line, so an EventSource reconnects where it left off. SSE
 * plugins add fields and spacing of their own, hence this module.
 */
import type { FastifyReply } from "fastify";

export type SseFraming = "native" | "openai";

/** RAGFlow's `_build_sse_response` headers. */
const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

export class SseStream {
  private gone = false;
  private readonly prefix: string;
  private readonly goneListeners: Array<() => void> = [];

  /** Takes the response over from Fastify and sends the headers (with the ones hooks set, e.g. CORS). */
  constructor(
    private readonly reply: FastifyReply,
    framing: SseFraming,
  ) {
    this.prefix = framing === "native" ? "data:" : "data: ";
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
    // A response that closes before we ended it: the client went away.
    raw.on("close", () => {
      if (raw.writableEnded) return;
      this.gone = true;
      for (const listener of this.goneListeners.splice(0)) listener();
    });
  }

  /** Whether the client has gone away (writes are dropped from then on). */
  get clientGone(): boolean {
    return this.gone;
  }

  /** Called once if the client goes away before the stream ends. */
  onClientGone(listener: () => void): void {
    if (this.gone) listener();
    else this.goneListeners.push(listener);
  }

  /** One frame; resolves once the socket can take more (backpressure), or at once when the client is gone. */
  send(value: unknown): Promise<void> {
    return this.write(`${this.prefix}${JSON.stringify(value)}\n\n`);
  }

  /** One frame with its event id (`id:<id>` then `data:{json}`), for the re-attach stream. */
  sendWithId(id: string, value: unknown): Promise<void> {
    return this.write(`id:${id}\n${this.prefix}${JSON.stringify(value)}\n\n`);
  }

  /** A keep-alive frame of Dify's streams (`event: ping`), which its clients skip. */
  ping(): Promise<void> {
    return this.write("event: ping\n\n");
  }

  /** End the response without `[DONE]`: the stream was cut short, and a client should reconnect. */
  end(): void {
    if (!this.gone && !this.reply.raw.writableEnded) this.reply.raw.end();
  }

  /** The `[DONE]` frame, then the end of the response. */
  async done(): Promise<void> {
    await this.write(`${this.prefix}[DONE]\n\n`);
    if (!this.gone && !this.reply.raw.writableEnded) this.reply.raw.end();
  }

  private write(frame: string): Promise<void> {
    const raw = this.reply.raw;
    if (this.gone || raw.writableEnded) return Promise.resolve();
    if (raw.write(frame)) return Promise.resolve();
    return new Promise((resolve) => {
      const settle = () => {
        raw.off("drain", settle);
        raw.off("close", settle);
        resolve();
      };
      raw.on("drain", settle);
      raw.on("close", settle);
    });
  }
}
