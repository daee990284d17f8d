/**
 * How a queued run ended, read from the session's event log: a job delivered again (its worker
 * died after the run's end was stored, before the job was marked done) must not run its turn twice.
 */
import { endsRun } from "../durable/follow.js";
import type { CheckpointStore, StoredEvent } from "../backends/contracts.js";

/** What a run job returns (BullMQ keeps it as the job's return value). */
export interface RunJobResult {
  /** finished, paused (waiting for inputs: the next turn resumes it), failed or cancelled. */
  status: "finished" | "paused" | "failed" | "cancelled";
  /** Why it failed or was cancelled. */
  error?: string;
  /** The id of the run's last event in the session's log. */
  lastEventId?: string;
}

const PAGE = 500;

/** The last event of the run `messageId`, if the session logged it after `after`. */
export async function loggedRunEnd(store: CheckpointStore, key: string, messageId: string, after: string | undefined): Promise<StoredEvent | undefined> {
  let from = after;
  for (;;) {
    const page = await store.events(key, { ...(from === undefined ? {} : { after: from }), limit: PAGE });
    const end = page.find((logged) => logged.event.message_id === messageId && endsRun(logged.event));
    if (end || page.length < PAGE) return end;
    from = page[page.length - 1].id;
  }
}

/** A run's result from its last event. */
export function resultOf(last: { id?: string; event: { event?: unknown; data?: unknown } }): RunJobResult {
  const lastEventId = last.id === undefined || last.id === "" ? {} : { lastEventId: last.id };
  if (last.event.event === "user_inputs") return { status: "paused", ...lastEventId };
  const error = (last.event.data as { error?: unknown } | undefined)?.error;
  if (typeof error !== "string") return { status: "finished", ...lastEventId };
  return { status: error === "cancelled" ? "cancelled" : "failed", error, ...lastEventId };
}
