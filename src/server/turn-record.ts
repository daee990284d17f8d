/**
 * A turn's line in its session's message list (the user's question and the reply), kept whole
 * across a crash of the process running it:
 *
 * - A turn that finishes or pauses keeps its messages in the run's last checkpoint (its `note`),
 *   in the same store write as the run's end, on every store; they are then added to the session's
 *   record before the run's last events (message_end, workflow_finished, user_inputs) go out. A
 *   process that dies between the two leaves the note, and the session's next turn adds it first.
 * - A turn whose process died mid-run is recorded under its own question with the reply it had
 *   produced (what its checkpoints hold), its reply marked `interrupted: true`, and ended as
 *   failed; the next turn then runs its own question from the last stable point. One question is
 *   never answered with another's answer.
 */
import type { DurableSession } from "../durable/session.js";
import type { RunEndRecord } from "../durable/writer.js";
import type { ServerContext } from "./context.js";
import type { SessionMessage, SessionRecord } from "../backends/contracts.js";
import type { TurnTranscript } from "./transcript.js";

/** workflow_finished's error of a run ended because its process died mid-run. */
export const INTERRUPTED_TURN = "interrupted: the server running this turn stopped before it finished; a new turn was asked on the session";

/** What a turn's last checkpoint keeps of it (DurableRunRequest.end's note). */
interface TurnNote {
  messages: SessionMessage[];
}

/** The turn's user message and reply, as the session's record lists them. */
export function turnMessages(query: string, transcript: TurnTranscript): SessionMessage[] {
  const id = transcript.messageId;
  const reply: SessionMessage = { role: "assistant", content: transcript.content, ...(id ? { id } : {}) };
  const reference = transcript.reference;
  if ("chunks" in reference) reply.reference = reference;
  return [{ role: "user", content: query, ...(id ? { id } : {}) }, reply];
}

/** How a turn's recording went: the record after it, or undefined when the record was gone (its agent was deleted). */
interface TurnKept {
  record: SessionRecord | undefined;
}

/**
 * The run's end record of a turn: its messages go into its last checkpoint, then into the
 * session's record (a failure is logged: the note stays for the next turn). `onKept` hears how it went.
 */
export function keepTurn(ctx: ServerContext, record: SessionRecord, query: string, transcript: TurnTranscript, onKept: (kept: TurnKept) => void): RunEndRecord {
  let messages: SessionMessage[] = [];
  return {
    note: (): TurnNote => {
      messages = turnMessages(query, transcript);
      return { messages };
    },
    kept: async () => {
      try {
        const updated = await addToRecord(ctx, record, messages);
        onKept({ record: updated });
        return true;
      } catch (error) {
        // The turn itself is saved, with its messages in its last checkpoint: the next turn adds them.
        ctx.log.error({ err: error, session: record.id }, "could not add the turn to the session's messages");
        return false;
      }
    },
  };
}

/**
 * Before a new turn runs on a session just opened (its lease held): add what the previous turn
 * left unrecorded. A finished turn's note is added if its messages are missing; a run whose
 * process died is recorded as interrupted and ended (`reopen`: the session must be opened again,
 * which goes on from the last stable point before it). Resolves to the record as it now is.
 */
export async function settlePreviousTurn(ctx: ServerContext, record: SessionRecord, session: DurableSession): Promise<{ record: SessionRecord; reopen: boolean }> {
  if (session.openedAs === "crashed") {
    const canvas = session.canvas;
    const id = canvas.runMessageId;
    const question = canvas.globals["sys.query"];
    const dead: SessionMessage[] = [
      { role: "user", content: typeof question === "string" ? question : "", ...(id ? { id } : {}) },
      { role: "assistant", content: canvas.replySoFar, ...(id ? { id } : {}), interrupted: true },
    ];
    // Recorded first: a process that dies before the run is ended records nothing twice (same id).
    const updated = (await addToRecord(ctx, record, dead)) ?? record;
    await session.abandon(INTERRUPTED_TURN, { as: "failed" });
    return { record: updated, reopen: true };
  }
  const note = session.endNote as Partial<TurnNote> | undefined;
  if (note && Array.isArray(note.messages)) {
    return { record: (await addToRecord(ctx, record, note.messages)) ?? record, reopen: false };
  }
  return { record, reopen: false };
}

/**
 * Append a turn's messages to the record, but those there already (the same message id and role:
 * a turn recorded twice, a question noted before its run, as an ingestion pipeline's are);
 * undefined when the record is gone.
 */
async function addToRecord(ctx: ServerContext, record: SessionRecord, messages: SessionMessage[]): Promise<SessionRecord | undefined> {
  const missing = messages.filter((message) => message.id === undefined || !record.message.some((m) => m.id === message.id && m.role === message.role));
  if (missing.length === 0) return record;
  return ctx.store.sessions.update(record.tenant, record.id, { message: [...record.message, ...missing] }, ctx.now(), record);
}
