/**
 * RAGFlow's native non-stream answer (research/ragflow-api.md §2.3): the turn's last message_end
 * (or, on a pause, its user_inputs event) with `data` carrying the whole reply, the merged
 * references and the usage. A run that failed or was cancelled answers code 100 with the same
 * shape and `data.data.error` (RAGFlow answers code 0 with a string the SDK cannot read).
 */
import { RET, type Envelope } from "../envelope.js";
import type { TurnTranscript } from "../transcript.js";

export function nativeAnswer(sessionId: string, transcript: TurnTranscript, returnTrace: boolean): Envelope {
  const base = transcript.paused ?? transcript.lastMessageEnd ?? transcript.last;
  if (!base) return { code: RET.success, data: { session_id: sessionId } };
  const data: Record<string, unknown> = { ...base.data, content: transcript.content, reference: transcript.reference, usage: transcript.usage };
  if (Object.keys(transcript.structured).length > 0) data.structured = transcript.structured;
  if (returnTrace) data.trace = transcript.trace;
  const error = transcript.error;
  if (error !== undefined) {
    data.error = error;
    return { code: RET.exception, message: error, data: { ...base, data } };
  }
  return { code: RET.success, data: { ...base, data } };
}

/** A failure outside the run (a store that went away): the frame RAGFlow sends mid-stream. */
export function nativeStreamError(message: string): Envelope {
  return { code: RET.serverError, message, data: false };
}
