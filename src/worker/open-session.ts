/**
 * Open a queued run's session, waiting while another holder has its lease: the run before it in
 * the session (on this worker or another) is ending, or a worker that died still holds it until
 * its lease runs out (at once when it died on this host).
 */
import { DurableSession, type DurableSessionOptions } from "../durable/session.js";
import { SessionLockedError } from "../backends/errors.js";

export async function openWhenFree(options: DurableSessionOptions, waitMs: number): Promise<DurableSession> {
  const deadline = Date.now() + waitMs;
  for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
    try {
      return await DurableSession.open(options);
    } catch (error) {
      if (!(error instanceof SessionLockedError) || Date.now() + delay > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
