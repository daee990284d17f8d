/**
 * Re-attach to a session's run from its durable event log: replay the events after a given id,
 * then keep reading as the run (in this process or any other) logs more, until its last event
 * (workflow_finished or user_inputs). This is what a server needs for SSE `Last-Event-ID`.
 *
 * The log is read, never the run itself, so a reader in another process sees exactly what a
 * reader next to the run sees; events appear in the log with the checkpoint of their batch, or as
 * they happen when the run logs them live (`liveEvents`).
 */
import type { CheckpointStore, StoredEvent } from "../backends/contracts.js";

export interface FollowOptions {
  /** Only events after this id (`Last-Event-ID`); left out, from the oldest kept. */
  after?: string;
  /** Stops following (the reader went away). */
  signal?: AbortSignal;
  /** How often to look for new events while a run goes on (default 50 ms). */
  pollMs?: number;
  /**
   * Stop at the first last event after `after` (default true). With false, go on into later
   * runs until the signal stops it.
   */
  untilRunEnds?: boolean;
  /** Without `after`: start at the session's latest run instead of the oldest event kept. */
  latestRun?: boolean;
  /**
   * Asked each time a look finds nothing new: whether a run may still log events. `last` is the
   * log's last event as far as the reader knows (undefined when the log is empty). With false,
   * one more look is made and following ends, so a session with no run going never keeps a
   * reader waiting. Left out, the reader waits for the run's last event however long it takes.
   */
  running?: (last: StoredEvent | undefined) => boolean | Promise<boolean>;
  /**
   * Only the events of the run with this message id (a queued run's job id), up to its last
   * event: the runs of other turns that the log holds in between are skipped.
   */
  messageId?: string;
  /**
   * Waits between two looks (default: `pollMs`, ended early by the signal). A reader that hears
   * of new events some other way (a queued run's job ending) may end the wait early.
   */
  wait?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

const TERMINAL = new Set(["workflow_finished", "user_inputs"]);

/** Whether a logged event ends its run. */
export function endsRun(event: Record<string, unknown>): boolean {
  return typeof event.event === "string" && TERMINAL.has(event.event);
}

export async function* followEvents(store: CheckpointStore, key: string, options: FollowOptions = {}): AsyncGenerator<StoredEvent, void, undefined> {
  const pollMs = options.pollMs ?? 50;
  const untilRunEnds = options.untilRunEnds ?? true;
  let after = options.after ?? (options.latestRun ? await beforeLatestRun(store, key) : undefined);
  // The log's last event as far as this reader knows; read once when it has read nothing yet.
  let last: StoredEvent | undefined;
  let lastKnown = false;
  let finalLook = false;
  for (;;) {
    if (options.signal?.aborted) return;
    const batch = await store.events(key, after === undefined ? {} : { after });
    for (const logged of batch) {
      after = logged.id;
      last = logged;
      lastKnown = true;
      if (options.messageId !== undefined && logged.event.message_id !== options.messageId) continue;
      yield logged;
      if (untilRunEnds && endsRun(logged.event)) return;
    }
    if (batch.length > 0) continue;
    if (finalLook) return;
    if (options.running) {
      if (!lastKnown) {
        last = (await store.events(key)).at(-1);
        lastKnown = true;
      } else if (last !== undefined && last.id !== after) {
        // `after` is past the log's end: the log grows below it, unseen by the look above.
        last = (await store.events(key, { after: last.id })).at(-1) ?? last;
      }
      // Nothing is running: one more look for what was logged meanwhile, then stop.
      if (!(await options.running(last))) {
        finalLook = true;
        continue;
      }
    }
    await (options.wait ?? pause)(pollMs, options.signal);
  }
}

/** The id just before the first event of the session's latest run (`<run>-0`), if it logged any. */
async function beforeLatestRun(store: CheckpointStore, key: string): Promise<string | undefined> {
  let latest = -1;
  for (const { id } of await store.events(key)) latest = Math.max(latest, Number(id.slice(0, id.indexOf("-"))));
  return latest < 0 ? undefined : `${latest}-0`;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
