/** Scaling out on BullMQ: enqueue runs from any process, run them on workers (see docs/workers.md). */
export { createWorker, type CreateWorkerOptions, type RunWorker } from "./worker.js";
export { enqueueRun, type EnqueuedRun, type EnqueueOptions, type QueuedRunRequest } from "./enqueue.js";
export { cancelQueuedRun, type CancelledRun, type CancelQueuedRunOptions } from "./cancel.js";
export { queueMetrics, type QueueMetrics } from "./metrics.js";
export { RunQueue, RunQueueError, RunQueueConnectionError, DEFAULT_QUEUE_NAME, DEFAULT_QUEUE_PREFIX, type RunQueueOptions } from "./run-queue.js";
export { readRunJob, RunJobError, RUN_JOB_FORMAT, RUN_JOB_NAME, RUN_JOB_LIMITS, type RunJobData } from "./job.js";
export { loggedRunEnd, type RunJobResult } from "./run-end.js";
