/**
 * BullMQ, an optional dependency, loaded when the first queue, worker or queue-event listener is
 * made rather than when `canvasflow/worker` (or the server, which can enqueue) is imported. All
 * of canvasflow takes it from here, so the errors it throws (DelayedError, WaitingError…) are the
 * classes its Worker checks for.
 */
import type * as BullMQ from "bullmq";
import { requirePackage } from "../util/optional-package.js";

export const QUEUE_FEATURE = "The run queue (canvasflow/worker, canvasflow worker, serve --queue)";

let loaded: typeof BullMQ | undefined;

export function bullmq(): typeof BullMQ {
  return (loaded ??= requirePackage<typeof BullMQ>("bullmq", QUEUE_FEATURE));
}
