/**
 * Delivering a started turn over HTTP: as an SSE stream (native or OpenAI framing) or as one JSON
 * answer. Whatever happens, the turn's events are read to the end, so the run and its bookkeeping
 * always finish; a client that goes away stops the run, unless the server keeps runs going.
 */
import type { FastifyReply } from "fastify";
import type { ServerContext } from "./context.js";
import type { Envelope } from "./envelope.js";
import { nativeAnswer, nativeStreamError } from "./formats/native.js";
import { OpenAiChunks, openAiCompletion, openAiUsage } from "./formats/openai.js";
import { SseStream, type SseFraming } from "./sse.js";
import type { Turn } from "./turn.js";

const CLIENT_GONE = "the client closed the connection";

/** Stop the turn when the response's connection closes before the answer was sent. */
function stopWhenClientLeaves(ctx: ServerContext, reply: FastifyReply, turn: Turn): void {
  if (ctx.keepRunningOnDisconnect) return;
  reply.raw.on("close", () => {
    if (!reply.raw.writableEnded) turn.stop(CLIENT_GONE);
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Take the response over for a stream (counted as open until it closes); if that fails, the turn is given up (its session let go). */
async function openStream(ctx: ServerContext, reply: FastifyReply, turn: Turn, framing: SseFraming): Promise<SseStream> {
  try {
    const stream = new SseStream(reply, framing);
    ctx.metrics.trackStream(reply.raw);
    return stream;
  } catch (error) {
    await turn.abandon();
    throw error;
  }
}

/** The native stream: every event as `data:{json}`, then `data:[DONE]`. */
export async function streamNative(ctx: ServerContext, reply: FastifyReply, turn: Turn): Promise<void> {
  const sse = await openStream(ctx, reply, turn, "native");
  stopWhenClientLeaves(ctx, reply, turn);
  try {
    for await (const event of turn.events) await sse.send(event);
  } catch (error) {
    ctx.log.error({ err: error, session: turn.sessionId }, "a run's stream failed");
    await sse.send(nativeStreamError(describe(error)));
  }
  await sse.done();
}

/** The native non-stream answer. */
export async function answerNative(ctx: ServerContext, reply: FastifyReply, turn: Turn, returnTrace: boolean): Promise<Envelope> {
  stopWhenClientLeaves(ctx, reply, turn);
  for await (const _event of turn.events);
  return nativeAnswer(turn.sessionId, turn.transcript, returnTrace);
}

/** The OpenAI stream: a chunk per message and message_end, a finishing chunk with the usage, then `data: [DONE]`. */
export async function streamOpenAi(ctx: ServerContext, reply: FastifyReply, turn: Turn, question: string): Promise<void> {
  const sse = await openStream(ctx, reply, turn, "openai");
  stopWhenClientLeaves(ctx, reply, turn);
  let chunks: OpenAiChunks | undefined;
  const chunker = (created: number) => (chunks ??= new OpenAiChunks(turn.sessionId, turn.agent.id, created));
  try {
    for await (const event of turn.events) {
      const chunk = chunker(event.created_at).of(event);
      if (chunk) await sse.send(chunk);
    }
    const transcript = turn.transcript;
    const usage = openAiUsage(transcript.usage, question, transcript.content);
    const last = chunker(Math.floor(Date.now() / 1000));
    await sse.send(transcript.error === undefined ? last.finish(usage) : last.error(transcript.error, usage));
  } catch (error) {
    ctx.log.error({ err: error, session: turn.sessionId }, "a run's stream failed");
    const transcript = turn.transcript;
    await sse.send(chunker(Math.floor(Date.now() / 1000)).error(describe(error), openAiUsage(transcript.usage, question, transcript.content)));
  }
  await sse.done();
}

/** The OpenAI non-stream answer. */
export async function answerOpenAi(ctx: ServerContext, reply: FastifyReply, turn: Turn, question: string): Promise<Record<string, unknown>> {
  stopWhenClientLeaves(ctx, reply, turn);
  let created: number | undefined;
  for await (const event of turn.events) created ??= event.created_at;
  return openAiCompletion(turn.sessionId, turn.agent.id, question, turn.transcript, created ?? Math.floor(Date.now() / 1000));
}
