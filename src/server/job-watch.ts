/**
 * Whether a queued run may still log events, for a server following it (`followEvents`'s
 * `running`): its job is waiting, delayed or with a worker. A job that ended without its run's
 * end in the log (it failed before the run could be opened, or its end could not be logged) must
 * not keep the client waiting: the follower then makes the end itself (`endOf`).
 *
 * The job's state is read at most every `everyMs` (a follower looks at the log every 50 ms). A
 * failed job's worker logs the run's end just after failing it, and a removed job (cancelled while
 * waiting) has its end logged just after its removal: both get a while to show up in the log.
 */
import type { RunQueue } from "../worker/run-queue.js";

/** How long a failed job's run end gets to appear in the log. */
const FAILED_GRACE_MS = 5_000;
/** How long a job that is gone (removed, or dropped from the kept jobs) may stay so before the follower ends. */
const GONE_GRACE_MS = 30_000;

export class JobWatch {
  private lookedAt = 0;
  private endedAt: number | undefined;
  private state = "waiting";
  private reason: string | undefined;

  constructor(
    private readonly queue: RunQueue,
    private readonly jobId: string,
    private readonly everyMs = 1_000,
  ) {}

  /** False once the job has ended (and its grace passed): one more look at the log, then the follower stops. */
  async running(): Promise<boolean> {
    const now = Date.now();
    if (now - this.lookedAt >= this.everyMs) {
      this.lookedAt = now;
      await this.look();
    }
    if (this.endedAt === undefined) return true;
    const grace = this.state === "failed" ? FAILED_GRACE_MS : this.state === "unknown" ? GONE_GRACE_MS : 0;
    return now - this.endedAt < grace;
  }

  /** Why the run ended without its end in the log, for the error the client gets. */
  endOf(): string {
    if (this.state === "failed") return `the run could not be completed: its job failed: ${this.reason ?? "no reason given"}`;
    if (this.state === "unknown") return "the run's job is gone from the queue (removed) and the run's end was never logged";
    return `the run's job ended (${this.state}) but the run's end is missing from the session's event log`;
  }

  private async look(): Promise<void> {
    const job = await this.queue.queue.getJob(this.jobId);
    const state = job ? await job.getState() : "unknown";
    const ended = state === "completed" || state === "failed" || state === "unknown";
    if (!ended) {
      this.endedAt = undefined;
      this.state = state;
      return;
    }
    if (this.endedAt === undefined || this.state !== state) this.endedAt = Date.now();
    this.state = state;
    if (job && state === "failed") this.reason = job.failedReason;
  }
}
