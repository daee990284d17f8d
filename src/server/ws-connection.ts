/**
 * One WebSocket connection to an agent (`/api/v1/agents/{agent_id}/ws`): the same turns as the
 * native completions (through `openTurn`: run here, or on queue workers), over JSON text frames.
 *
 * Client frames:
 * - `{"type":"run", "query"|"question", "session_id"?, "inputs"?, "files"?, "user_id"?, "name"?,
 *   "return_trace"?}`: a turn, with the native completion body's fields (without session_id, a
 *   new session). One turn at a time per connection.
 * - `{"type":"cancel"}`: stop this connection's turn; answered `{"code":0,"message":"success","data":true}`.
 *
 * Server frames:
 * - each event of the turn, the native event object with `session_id`;
 * - `{"type":"done","session_id":…}` once per run frame, after its last event (a refused run
 *   frame gets its error, then `done` without a session id);
 * - errors as RAGFlow's envelope `{code, message, data}` (a failure mid-run: code 500, as on the
 *   native stream).
 *
 * A frame that cannot be read is answered with an error; more than `limits.wsBadFrames` such
 * frames within `limits.wsBadFramesMs` close the connection with 1008. What is queued for a client
 * that does not read is bounded (ws-flow.ts). Closing the connection stops its turn unless the
 * server keeps runs going on disconnect; the turn's events are still read to the end, so the run
 * and its bookkeeping finish.
 */
import type { Socket } from "node:net";
import type { RawData, WebSocket } from "ws";
import { SlidingWindowLimit } from "../util/sliding-window.js";
import type { ServerContext } from "./context.js";
import { ApiError, argumentError, operatingError, RET, success, type Envelope } from "./envelope.js";
import { nativeStreamError } from "./formats/native.js";
import { nativeTurnInput, type CompletionBody, type TurnCaller } from "./routes/completions.js";
import { shuttingDown } from "./shutdown.js";
import { openTurn } from "./open-turn.js";
import type { Turn } from "./turn.js";
import { bodyCheck } from "./validation.js";
import { WsOutgoing } from "./ws-flow.js";

const CLIENT_GONE = "the client closed the connection";
/** Close code 1001: the server is going away. */
const GOING_AWAY = 1001;

let checkRun: ((value: unknown) => ApiError | undefined) | undefined;

/** A frame's JSON, refusing keys that could reach a prototype (as the HTTP body parser does). */
function parseFrame(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (key === "__proto__" || (key === "constructor" && value !== null && typeof value === "object" && Object.hasOwn(value, "prototype"))) {
      throw new SyntaxError("it sets __proto__ or constructor.prototype, which is not allowed");
    }
    return value;
  });
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  return Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data).toString("utf8");
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

export class WsConnection {
  /** A run frame is being served (from the moment it is read: a second one is refused). */
  private busy = false;
  private turn: Turn | undefined;
  private cancelAsked = false;
  private closed = false;
  private idle: Promise<void> = Promise.resolve();
  private readonly forgetShutdown: () => void;
  private readonly out: WsOutgoing;
  private readonly badFrames: SlidingWindowLimit;

  /** `transport` is the upgraded request's TCP socket. */
  constructor(
    private readonly ctx: ServerContext,
    socket: WebSocket,
    transport: Socket,
    private readonly who: TurnCaller,
    private readonly agentId: string,
  ) {
    const limits = ctx.limits;
    this.out = new WsOutgoing(socket, transport, limits, (reason) => (who.log ?? ctx.log).info({ reason }, "a WebSocket connection was closed (1008)"));
    this.badFrames = new SlidingWindowLimit(limits.wsBadFrames, limits.wsBadFramesMs, ctx.now);
    socket.on("message", (data, isBinary) => this.receive(data, isBinary));
    socket.on("close", () => this.onClose());
    // The server closes once runs are over: the turn's last frames go out first.
    this.forgetShutdown = ctx.shutdown.onClose(async () => {
      await this.idle;
      // One already closing (a limit closed it: its client is not read any more) is cut.
      if (socket.readyState === socket.OPEN) socket.close(GOING_AWAY, "the server is shutting down");
      else socket.terminate();
    });
  }

  private receive(data: RawData, isBinary: boolean): void {
    // Frames read after a limit closed the connection (the rest of what the socket had) are dropped.
    if (!this.out.open) return;
    if (isBinary) return this.refuse(argumentError("Frames must be JSON text; got a binary frame.", null).envelope());
    let frame: unknown;
    try {
      frame = parseFrame(textOf(data));
    } catch (error) {
      return this.refuse(argumentError(`The frame is not valid JSON: ${(error as Error).message}`, null).envelope());
    }
    if (frame === null || typeof frame !== "object" || Array.isArray(frame)) {
      return this.refuse(argumentError(`A frame must be a JSON object with a \`type\` ("run" or "cancel"), got ${describe(frame)}`, null).envelope());
    }
    const type = (frame as { type?: unknown }).type;
    if (type === "run") {
      const served = this.run(frame as Record<string, unknown>);
      if (served) this.idle = served;
    } else if (type === "cancel") this.cancel();
    else this.refuse(argumentError(`Field \`type\` must be "run" or "cancel", got ${describe(type)}`, null).envelope());
  }

  /**
   * Answer a frame with an error (and a run frame's `done`), or close the connection when it is
   * one bad frame too many.
   */
  private refuse(error: Envelope, ...then: object[]): void {
    if (!this.badFrames.take()) {
      const { wsBadFrames, wsBadFramesMs } = this.ctx.limits;
      return this.out.closeForPolicy(`too many bad frames: over ${wsBadFrames} in ${wsBadFramesMs} ms (server.limits.wsBadFrames)`);
    }
    this.out.send(JSON.stringify(error));
    for (const frame of then) this.out.send(JSON.stringify(frame));
  }

  /** Serve a run frame; resolves when its `done` frame went out (undefined when refused at once). */
  private run(frame: Record<string, unknown>): Promise<void> | undefined {
    const refusal = this.refusal(frame);
    if (refusal) {
      this.refuse(refusal.envelope(), { type: "done" });
      return undefined;
    }
    this.busy = true;
    this.cancelAsked = false;
    return this.serve(frame as CompletionBody)
      // Nothing a connection does may crash the process.
      .catch((error: unknown) => this.ctx.log.error({ err: error }, "a WebSocket turn failed"))
      .finally(() => {
        this.busy = false;
        this.turn = undefined;
      });
  }

  /** Why a run frame cannot start now, if it cannot. */
  private refusal(frame: Record<string, unknown>): ApiError | undefined {
    if (this.ctx.shutdown.draining) return shuttingDown();
    if (this.busy) return operatingError('a run is already in progress on this connection: wait for its "done" frame, or send {"type":"cancel"}', null);
    checkRun ??= bodyCheck("completion.schema.json");
    const invalid = checkRun(frame);
    if (invalid) return invalid;
    if (frame["openai-compatible"] === true) return argumentError("Field `openai-compatible` cannot be true here: a WebSocket sends the native events (use the agents_openai route for OpenAI's format)", null);
    if (typeof frame.agent_id === "string" && frame.agent_id !== "" && frame.agent_id !== this.agentId) {
      return argumentError(`Field \`agent_id\` must be left out or be the agent of the connection's path (${this.agentId})`, null);
    }
    return undefined;
  }

  private async serve(body: CompletionBody): Promise<void> {
    let turn: Turn;
    try {
      turn = await openTurn(this.ctx, nativeTurnInput(this.who, this.agentId, body));
    } catch (error) {
      this.refuse(this.errorEnvelope(error), { type: "done" });
      return;
    }
    this.turn = turn;
    // A cancel, or the client leaving, while the turn was starting.
    if (this.cancelAsked) turn.stop("cancelled");
    if (this.closed && !this.ctx.keepRunningOnDisconnect) turn.stop(CLIENT_GONE);
    try {
      for await (const event of turn.events) await this.send(event);
    } catch (error) {
      this.ctx.log.error({ err: error, session: turn.sessionId }, "a run's WebSocket stream failed");
      await this.send(nativeStreamError(error instanceof Error ? error.message : String(error)));
    }
    await this.send({ type: "done", session_id: turn.sessionId });
  }

  private cancel(): void {
    if (!this.busy) return this.refuse(operatingError("nothing is running on this connection", null).envelope());
    this.cancelAsked = true;
    this.turn?.stop("cancelled");
    this.out.send(JSON.stringify(success(true)));
  }

  private onClose(): void {
    this.closed = true;
    if (!this.ctx.keepRunningOnDisconnect) this.turn?.stop(CLIENT_GONE);
    // Forgotten once the turn (if any) is over.
    void this.idle.then(() => this.forgetShutdown());
  }

  private errorEnvelope(error: unknown): Envelope {
    if (error instanceof ApiError) return error.envelope();
    this.ctx.log.error({ err: error }, "a WebSocket run could not start");
    return { code: RET.exception, message: error instanceof Error ? error.message : String(error), data: null };
  }

  /** One JSON text frame of the turn, once the client has taken what was queued (ws-flow.ts). Nothing is sent once it closed. */
  private async send(value: unknown): Promise<void> {
    await this.out.ready();
    this.out.send(JSON.stringify(value));
  }
}
