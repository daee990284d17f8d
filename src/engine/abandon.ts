/**
 * Ending a run from outside, without running anything: a queued turn cancelled before it started,
 * or a run given up after it kept killing the processes that ran it. The session gets the
 * run's last event, a workflow_finished with the reason, and a checkpoint, through the same sinks
 * a run uses, so a reader of the session's event log sees the run end instead of waiting for it.
 *
 * The run under way (status `running`, its process gone) ends as failed or cancelled, so the next
 * turn starts from the last stable point before it, unless `messageId` names another run: that one
 * never started (a queued turn behind it), and only its end is logged. Otherwise the session
 * stays as it was (paused, idle, or with the other run under way): only the epoch grows, as it
 * does for every run, so the event ids keep growing.
 */
import { nanoid } from "nanoid";
import { RunRecorder, type CheckpointSink } from "./checkpoint.js";
import { eventRecord } from "./event-values.js";
import { EventFactory, type CanvasEvent } from "./events.js";
import type { CanvasSession } from "./session.js";

export interface AbandonRequest {
  /** Why the run ends: the `error` of its workflow_finished. */
  reason: string;
  /** How a run under way ends (default `failed`). */
  as?: "failed" | "cancelled";
  /** Receives the one checkpoint (awaited when it returns a promise). */
  checkpoint?: CheckpointSink;
  /** Sees the event as it is made. */
  onEvent?: (event: CanvasEvent) => void;
  /** The run to end (default: the one under way). */
  messageId?: string;
}

export async function abandonRun(session: CanvasSession, request: AbandonRequest, eventValueLimit: number): Promise<CanvasEvent> {
  if (session.running) throw new Error("a run is in progress on this canvas: it ends by itself (cancel it instead)");
  session.running = true;
  const recorder = request.checkpoint ? new RunRecorder(session) : undefined;
  try {
    const underWay = session.status === "running" ? session.run : undefined;
    const ending = underWay && (request.messageId === undefined || request.messageId === underWay.message_id) ? underWay : undefined;
    const events = new EventFactory(ending?.message_id ?? request.messageId ?? nanoid(), session.taskId, ending?.created_at ?? Math.floor(Date.now() / 1000), request.onEvent);
    session.epoch += 1;
    if (ending) {
      session.status = request.as ?? "failed";
      session.error = request.reason;
      session.frontier = [];
      session.openContainers = {};
      session.schedule = undefined;
      session.unread = [];
      session.run = undefined;
    }
    const last = events.make("workflow_finished", {
      inputs: eventRecord(ending?.inputs ?? {}, eventValueLimit),
      outputs: {},
      elapsed_time: 0,
      created_at: events.createdAt,
      usage: { ...session.usage },
      error: request.reason,
    });
    if (recorder) await request.checkpoint!(recorder.take());
    return last;
  } finally {
    recorder?.detach();
    session.running = false;
  }
}
