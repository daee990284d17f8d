/**
 * Group commit: the writes a process asks of one database while its event loop turns go out in
 * one transaction, each in a savepoint of its own. A commit to a WAL file costs tens of
 * microseconds of the event loop (better-sqlite3 is synchronous), whatever it holds; 500 streams
 * each logging its tokens as they come would pay that 10 000 times a second, one transaction
 * per write, and every other stream's tokens would wait behind them. Gathered, they pay it once
 * per turn of the loop.
 *
 * What a caller sees does not change: its promise settles after the commit that holds its write
 * (so a write that resolved is on disk as before), a write that throws rolls back to its
 * savepoint and rejects alone, and writes run in the order they were asked.
 */
import type { SqliteDatabase } from "./database.js";
import { describeSqliteFailure } from "./database.js";

/** Writes in one transaction at most: a burst larger than this commits in several, so none waits long. */
const MAX_WRITES_PER_COMMIT = 512;

interface PendingWrite {
  readonly doing: string;
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface Outcome {
  ok: boolean;
  value: unknown;
}

export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;
  /** One transaction over a batch; each write in it a nested transaction, which better-sqlite3 makes a savepoint. */
  private readonly commitBatch: { immediate(batch: readonly PendingWrite[]): Outcome[] };
  private readonly inSavepoint: (work: () => unknown) => unknown;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly busyTimeoutMs: number,
  ) {
    this.inSavepoint = db.transaction((work: () => unknown) => work());
    this.commitBatch = db.transaction((batch: readonly PendingWrite[]) => batch.map((write) => this.runOne(write)));
  }

  /** `work` in the next group's transaction, in a savepoint: its result once that transaction committed. */
  write<T>(doing: string, work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ doing, work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O callbacks of this turn of the loop: the other writes they ask for join.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commit what is waiting now (a store that closes calls this before closing the database). */
  flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_WRITES_PER_COMMIT);
      this.commit(batch);
    }
  }

  private commit(batch: PendingWrite[]): void {
    let outcomes: Outcome[];
    try {
      outcomes = this.commitBatch.immediate(batch);
    } catch (error) {
      // BEGIN or COMMIT failed (another process held the lock past the timeout, the disk is
      // full): nothing of the batch was kept, and every write in it says why.
      const doing = batch.length === 1 ? batch[0].doing : `${batch[0].doing} (with ${batch.length - 1} other writes committed together)`;
      const failure = describeSqliteFailure(error, this.file, doing, this.busyTimeoutMs) ?? error;
      for (const write of batch) write.reject(failure);
      return;
    }
    batch.forEach((write, i) => (outcomes[i].ok ? write.resolve(outcomes[i].value) : write.reject(outcomes[i].value)));
  }

  private runOne(write: PendingWrite): Outcome {
    try {
      return { ok: true, value: this.inSavepoint(write.work) };
    } catch (error) {
      const failure = describeSqliteFailure(error, this.file, write.doing, this.busyTimeoutMs);
      // SQLite rolls a whole transaction back on some failures (a full disk, I/O): then the
      // batch cannot commit, and throwing ends it so that every write in it fails together.
      if (!this.db.inTransaction) throw error;
      return { ok: false, value: failure ?? error };
    }
  }
}

const groups = new WeakMap<SqliteDatabase, GroupCommit>();

/** The one group commit of a database connection, shared by every store that writes through it. */
export function groupCommitOf(db: SqliteDatabase, file: string, busyTimeoutMs: number): GroupCommit {
  let group = groups.get(db);
  if (!group) {
    group = new GroupCommit(db, file, busyTimeoutMs);
    groups.set(db, group);
  }
  return group;
}
