/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that
 * crosses its threshold: that commit copies the whole WAL back into the database and waits for
 * the disk, 100–300 ms here for 10 000 pages, and better-sqlite3 runs it on the event loop, so
 * every stream of the process stalls that long (it was the p99 of `server-streams` on SQLite).
 *
 * Instead, a process's connections to a file turn the automatic checkpoint off, and a worker
 * thread with a connection of its own runs `PRAGMA wal_checkpoint(PASSIVE)` when the WAL file has
 * grown past CHECKPOINT_AFTER_BYTES. A passive checkpoint takes no write lock: the event loop's
 * commits go on appending to the WAL meanwhile, and the next commit after a complete one starts
 * the WAL over. The WAL stays bounded as before; the worker starts only once a WAL has grown (a
 * short CLI run never pays for it), and if it cannot start, the connections go back to SQLite's
 * automatic checkpoint.
 */
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";

/** A connection (database.ts's SqliteDatabase; named from the driver here, since database.ts imports this module). */
type SqliteDatabase = BetterSqlite3.Database;

/** The automatic checkpoint's threshold, in pages, where the worker is not available. */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** The WAL's size that asks for a checkpoint (SQLite's own default is 1 000 pages, about 4 MB). */
export const CHECKPOINT_AFTER_BYTES = 4 * 1024 * 1024;
/** How often the WAL's size is looked at: one stat of one file. */
const WATCH_INTERVAL_MS = 250;

/**
 * The worker's whole program: plain JavaScript, evaluated as CommonJS, so it runs the same from
 * the sources under test and from dist/. It checkpoints when asked and says how it went.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
parentPort.on("message", (message) => {
  if (message === "close") {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ ok: true, busy: result.busy, log: result.log, checkpointed: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message) });
  }
});
parentPort.postMessage({ ready: true });
`;

/** How a checkpoint went, as SQLite reports it (pages in the WAL, pages copied back). */
export interface CheckpointOutcome {
  readonly ok: boolean;
  readonly busy?: number;
  readonly log?: number;
  readonly checkpointed?: number;
  readonly message?: string;
}

interface FileCheckpointer {
  readonly file: string;
  readonly busyTimeoutMs: number;
  readonly connections: Set<SqliteDatabase>;
  readonly watch: NodeJS.Timeout;
  worker?: Worker;
  /** The worker failed: its connections went back to the automatic checkpoint. */
  failed: boolean;
  inFlight: boolean;
  readonly outcomes: Array<(outcome: CheckpointOutcome) => void>;
}

const checkpointers = new Map<string, FileCheckpointer>();

function walSize(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

function fallBack(checkpointer: FileCheckpointer): void {
  if (checkpointer.failed) return;
  checkpointer.failed = true;
  for (const db of checkpointer.connections) {
    try {
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // closed meanwhile
    }
  }
  void checkpointer.worker?.terminate();
  checkpointer.worker = undefined;
}

function startWorker(checkpointer: FileCheckpointer): Worker {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: checkpointer.file, busyTimeoutMs: checkpointer.busyTimeoutMs } });
  // A process that has nothing else to do must not stay up for its checkpointer.
  worker.unref();
  worker.on("message", (message: CheckpointOutcome & { ready?: boolean }) => {
    if (message.ready) return;
    checkpointer.inFlight = false;
    for (const tell of checkpointer.outcomes.splice(0)) tell(message);
  });
  worker.on("error", () => {
    checkpointer.inFlight = false;
    for (const tell of checkpointer.outcomes.splice(0)) tell({ ok: false, message: "the checkpoint worker failed" });
    fallBack(checkpointer);
  });
  return worker;
}

/** Ask the worker for a checkpoint now, unless one is running; `tell` hears how it went. */
function requestCheckpoint(checkpointer: FileCheckpointer, tell?: (outcome: CheckpointOutcome) => void): void {
  if (checkpointer.failed) {
    tell?.({ ok: false, message: "no checkpoint worker: SQLite's automatic checkpoint is on" });
    return;
  }
  if (tell) checkpointer.outcomes.push(tell);
  if (checkpointer.inFlight) return;
  try {
    checkpointer.worker ??= startWorker(checkpointer);
  } catch {
    fallBack(checkpointer);
    for (const told of checkpointer.outcomes.splice(0)) told({ ok: false, message: "the checkpoint worker could not start" });
    return;
  }
  checkpointer.inFlight = true;
  checkpointer.worker.postMessage("checkpoint");
}

/**
 * Hand the checkpoints of `db` (a connection to the database at the absolute path `file`) to the
 * file's checkpoint worker, for as long as the connection is open.
 */
export function checkpointOffTheEventLoop(db: SqliteDatabase, file: string, busyTimeoutMs: number): void {
  let checkpointer = checkpointers.get(file);
  if (!checkpointer) {
    const watch = setInterval(() => {
      const current = checkpointers.get(file);
      if (current && !current.inFlight && walSize(file) > CHECKPOINT_AFTER_BYTES) requestCheckpoint(current);
    }, WATCH_INTERVAL_MS);
    watch.unref();
    checkpointer = { file, busyTimeoutMs, connections: new Set(), watch, failed: false, inFlight: false, outcomes: [] };
    checkpointers.set(file, checkpointer);
  }
  checkpointer.connections.add(db);
  db.pragma(`wal_autocheckpoint = ${checkpointer.failed ? WAL_AUTOCHECKPOINT_PAGES : 0}`);
  const owner = checkpointer;
  const close = db.close.bind(db);
  // The last connection to close stops the worker, whose own connection closes with it.
  db.close = () => {
    owner.connections.delete(db);
    if (owner.connections.size === 0 && checkpointers.get(file) === owner) {
      checkpointers.delete(file);
      clearInterval(owner.watch);
      owner.worker?.postMessage("close");
    }
    return close();
  };
}

/** A checkpoint of `file` now, by its worker (for tests and `db check`); undefined when no connection of this process has it open. */
export function checkpointNow(file: string): Promise<CheckpointOutcome> | undefined {
  const checkpointer = checkpointers.get(file);
  if (!checkpointer) return undefined;
  return new Promise((resolve) => requestCheckpoint(checkpointer, resolve));
}
