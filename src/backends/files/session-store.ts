/**
 * Sessions as files. With `directory`, a key is a plain name and its session lives in
 * `<directory>/<key>.json`; without it, a key is the session file's path (the CLI's `--session FILE`).
 * Beside each session file `<name>`:
 *
 * - `<name>`: the base, exactly the snapshot (what `canvas.toJSON()` returned), so it is also a
 *   DSL that `loadCanvas` and `canvasflow run` read. Replaced whole: temp file, then rename.
 * - `.<name>.log`: the checkpoint log, append-only JSONL (see file-checkpoint-log.ts): the
 *   checkpoints since the base, each on one line with the events emitted with it (one write, so
 *   a checkpoint and its events are stored together or not at all), events logged ahead of their
 *   checkpoint (`logEvents`, one line each), and events kept from before the base. It exists only once something was appended: a session that is only ever saved is
 *   one file, as before.
 * - `.<name>.lock`: the session's lock (see file-lock.ts): held by a run from before it starts
 *   until it has saved; a save takes it for a moment when no run holds it.
 *
 * **Generations.** A base line in the log (`{"base":<sha256 of the session file>,"gen":<random id>}`)
 * opens a generation, and each checkpoint line carries its generation. A session's checkpoints are
 * those of the last base line whose hash is the session file's hash. So:
 * - `save` appends the new base's line first, then renames the new session file into place: until
 *   the rename, the old content is still named by the old generation's line (the old base with its
 *   checkpoints); after it, by the new one (no checkpoints). The rename is the commit.
 * - The checkpoints of older generations stay in the log, ignored, and their events still count;
 *   `save` then compacts the log (temp file and rename) into the most recent `maxEvents` events and
 *   the new base line, once the log is more than twice that size.
 * - A run that logs many events between two bases (a long Loop is one step and one checkpoint,
 *   with thousands of events) would grow the log without a save: so once the log holds more than
 *   twice `maxEvents` events, the append that went past it compacts it the same way, keeping the
 *   current generation's base line and checkpoints (their events moved out of them). One rewrite
 *   per `maxEvents` events appended: the log stays within about twice the cap.
 * - A session file changed by hand matches no base line: it has no checkpoints, and the next
 *   append opens a generation for it.
 *
 * **Crashes.** Every step above leaves a readable session at any byte: a crash during an append
 * leaves a final line without its newline (a torn tail), which reading skips (that checkpoint was
 * never acknowledged) and the next writer under the lock cuts off before it writes, so nothing is
 * glued onto it. A complete line that is not a log line is a SnapshotCorruptError naming the log
 * and the line, never a silent fresh start. A crash during `delete` (session file removed first)
 * leaves a log without a session file; it is ignored, and removed by the next save.
 *
 * **Durability.** Writes survive a crash of the process once they resolve. With `sync: true`
 * they also survive a power loss: every append fdatasyncs the log, every save fsyncs the new file
 * before its rename and the folder after it. Without it, `flush(key)` does the same at a moment of
 * the caller's choosing (the end of a run written behind).
 *
 * A version is the SHA-256 of the session file, followed by `.<generation>.<seq>` once checkpoints
 * follow it; a save with `expectedVersion` compares it under the lock, so two processes resuming one
 * session cannot both write it.
 */
import { createHash } from "node:crypto";
import { open, readFile, stat, truncate, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { CanvasDsl } from "../../dsl/types.js";
import { baseLine, checkpointLine, compactedLog, eventLines, newGeneration, scanLog, type LogPlace } from "./checkpoint-log.js";
import { makePrivateFolder, PRIVATE_FILE_MODE } from "../../util/private-files.js";
import { inFolder, syncDirectory, syncFile, writeFileAtomic } from "./io.js";
import { acquireFileLock, DEFAULT_LOCK_TIMEOUT_MS, withFileLock, type AcquireFileLockOptions, type FileLock } from "./lock.js";
import { checkEventQuery, checkKey, checkEventsFollow, checkLoggedEvents, checkRecord, checkSaveOptions, closedError, compareEventIds, DEFAULT_MAX_EVENTS, IssuedLocks, parseSnapshot, seqConflict, serializeSnapshot } from "../shared/sessions.js";
import { SessionLockLostError, SnapshotConflictError, SnapshotKeyError, SnapshotStoreError } from "../errors.js";
import type { AppendOptions, CheckpointRecord, CheckpointStore, DeleteOptions, EventQuery, LoggedEvent, SaveOptions, SessionLock, StoredEvent, StoredSnapshot } from "../contracts.js";

export interface FileSnapshotStoreOptions {
  /** Keep each session in `<directory>/<key><extension>` (created when missing). Without it, keys are file paths. */
  directory?: string;
  /** File name ending for keys in `directory` (default `.json`). */
  extension?: string;
  /**
   * How long a save waits for another save's lock on the same session (a run's lock is reported
   * at once), and after how long an empty or unreadable lock file counts as stale (default 10 s).
   */
  lockTimeoutMs?: number;
  /**
   * fsync every write before it resolves, so it survives a power loss, not only a crash of the
   * process (default false: call `flush(key)` when it matters). Costs a disk flush per append.
   */
  sync?: boolean;
  /** Events kept per session, the most recent ones (default 10 000). */
  maxEvents?: number;
}

/** A session lock this store holds, with what its appends need. */
interface HeldLock {
  fileLock: FileLock;
  /** The writes under this lock, one after the other (appends may be issued without waiting). */
  queue: Promise<unknown>;
  /** The open log, once the first append has read it; dropped whenever the log may have changed under it. */
  writer?: LogWriter;
}

/** What an append needs to know about the log, kept between appends so that none reads it again. */
interface LogWriter {
  file: string;
  baseSha: string;
  generation: string;
  lastSeq: number;
  /** The generation's base line is not in the log yet: it goes in with the first checkpoint. */
  basePending: boolean;
  /** Bytes in the log: a write that fails is cut back to this. */
  size: number;
  /** The log file is created by the next write (in sync mode its folder is synced after it). */
  isNew: boolean;
  /** The last event id logged (events are kept across bases): the next must come after it. */
  lastEventId: string | undefined;
  /** Events in the log: past twice maxEvents, the log is compacted (`compactWhenFull`). */
  events: number;
  handle?: FileHandle;
}

export class FileSnapshotStore implements CheckpointStore {
  /**
   * `async`: checkpoints are appended behind the run and fsync'd when it ends (`flush`); a write
   * handed to the OS survives a crash of the process, so a kill loses only checkpoints still
   * queued, whose steps run again. Choose `sync` (with the store's `sync: true`) for an fsync per
   * checkpoint.
   */
  readonly defaultDurability = "async" as const;
  private readonly directory: string | undefined;
  private readonly extension: string;
  private readonly lockTimeoutMs: number;
  private readonly sync: boolean;
  private readonly maxEvents: number;
  private readonly issued = new IssuedLocks<HeldLock>();
  /** Session key → the lock this store holds on it (at most one: a second would be refused). */
  private readonly heldByKey = new Map<string, HeldLock>();
  private closed = false;

  constructor(options: FileSnapshotStoreOptions = {}) {
    if (options.directory !== undefined && (typeof options.directory !== "string" || options.directory === "")) {
      throw new SnapshotStoreError("directory must be a non-empty path");
    }
    this.directory = options.directory;
    this.extension = options.extension ?? ".json";
    if (/[/\\]/.test(this.extension)) throw new SnapshotStoreError(`extension must not contain a path separator, got "${this.extension}"`);
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    if (options.sync !== undefined && typeof options.sync !== "boolean") throw new SnapshotStoreError(`sync must be true or false, got ${JSON.stringify(options.sync)}`);
    this.sync = options.sync ?? false;
    const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    if (!Number.isInteger(maxEvents) || maxEvents < 1) throw new SnapshotStoreError(`maxEvents must be a whole number from 1, got ${String(options.maxEvents)}`);
    this.maxEvents = maxEvents;
  }

  /** The file a key is kept in. */
  pathFor(key: string): string {
    checkKey(key);
    if (this.directory === undefined) return key;
    // A key is one file name inside the directory: nothing that climbs out of it or hides among
    // the store's own dot-files (temp files, logs and locks).
    if (/[/\\]/.test(key)) throw new SnapshotKeyError(`session key "${key}" must not contain "/" or "\\" (it names a file in ${this.directory})`, key);
    if (key.startsWith(".")) throw new SnapshotKeyError(`session key "${key}" must not start with "." (it names a file in ${this.directory})`, key);
    return join(this.directory, `${key}${this.extension}`);
  }

  /** The checkpoint log of a key's session. */
  logPathFor(key: string): string {
    return logPathFor(this.pathFor(key));
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    this.checkOpen();
    const file = this.pathFor(key);
    const place = this.logPlace(key, file);
    // The log before the session file: a save that lands in between has already added its base
    // line, so what is read is the old base with its checkpoints or the new one without.
    const bytes = await readLog(place);
    const text = await readSessionFile(key, file);
    if (text === undefined) return undefined;
    const snapshot = parseSnapshot(key, text, place.session);
    const baseSha = hashOf(text);
    const scan = bytes === undefined ? undefined : scanLog(bytes, baseSha, place);
    return { snapshot, version: sessionVersion(baseSha, scan?.generation, scan?.deltas.length ?? 0), deltas: scan?.deltas ?? [] };
  }

  async save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string> {
    this.checkOpen();
    const file = this.pathFor(key);
    const { expectedVersion, ttlSeconds, lock } = checkSaveOptions(options);
    if (ttlSeconds !== undefined) {
      throw new SnapshotStoreError(`${this.describe(key, file)}: the file store cannot expire sessions, so ttlSeconds is not supported (use the Redis store)`, key);
    }
    const text = serializeSnapshot(key, snapshot);
    try {
      // Under a held lock the folder is there: the lock file is in it.
      if (this.directory !== undefined && lock === undefined) await makePrivateFolder(this.directory);
      return await this.underLock(key, file, lock, (held) => this.replaceBase(key, file, text, expectedVersion, held));
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw error;
      throw new SnapshotStoreError(`${this.describe(key, file)}: cannot write it: ${(error as Error).message}`, key);
    }
  }

  async append(key: string, record: CheckpointRecord, options: AppendOptions): Promise<string> {
    this.checkOpen();
    const file = this.pathFor(key);
    const session = this.describe(key, file);
    checkRecord(key, record);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${session}: a checkpoint is written only under the session's lock (lock(key)); nothing was written`, key);
    const held = this.issued.check(lock, key, session);
    return this.serially(held, async () => {
      await this.checkStillHeld(held, key, file);
      const writer = (held.writer ??= await this.openWriter(key, file));
      if (record.seq !== writer.lastSeq + 1) throw seqConflict(key, writer.lastSeq + 1, record.seq);
      checkEventsFollow(key, writer.lastEventId, record);
      const line = checkpointLine(session, key, writer.generation, record);
      const text = writer.basePending ? baseLine(writer.baseSha, writer.generation) + line : line;
      await this.writeToLog(held, writer, text, key, file, `checkpoint ${record.seq}`);
      writer.basePending = false;
      writer.lastSeq = record.seq;
      writer.lastEventId = record.events.at(-1)?.id ?? writer.lastEventId;
      writer.events += record.events.length;
      await this.compactWhenFull(held, writer, key, file);
      return sessionVersion(writer.baseSha, writer.generation, record.seq);
    });
  }

  async logEvents(key: string, events: LoggedEvent[], options: AppendOptions): Promise<void> {
    this.checkOpen();
    const file = this.pathFor(key);
    const session = this.describe(key, file);
    checkLoggedEvents(key, events);
    const lock = options?.lock;
    if (lock === undefined) throw new SessionLockLostError(`${session}: events are logged only under the session's lock (lock(key)); nothing was written`, key);
    const held = this.issued.check(lock, key, session);
    await this.serially(held, async () => {
      await this.checkStillHeld(held, key, file);
      const writer = (held.writer ??= await this.openWriter(key, file));
      checkEventsFollow(key, writer.lastEventId, events);
      // Event lines belong to no generation: a base line still to be written waits for the next checkpoint.
      await this.writeToLog(held, writer, eventLines(session, key, events), key, file, `events ${events[0].id}…${events.at(-1)!.id}`);
      writer.lastEventId = events.at(-1)!.id;
      writer.events += events.length;
      await this.compactWhenFull(held, writer, key, file);
    });
  }

  async lastEventId(key: string): Promise<string | undefined> {
    return (await this.allEvents(key))?.at(-1)?.id;
  }

  async events(key: string, query?: EventQuery): Promise<StoredEvent[]> {
    const { limit } = checkEventQuery(query);
    const all = await this.allEvents(key);
    if (all === undefined) return [];
    let from = Math.max(0, all.length - this.maxEvents);
    const after = query?.after;
    if (after !== undefined) {
      while (from < all.length && compareEventIds(all[from].id, after) <= 0) from++;
    }
    return all.slice(from, Number.isFinite(limit) ? from + limit : undefined);
  }

  /** Every event in the session's log (undefined when there is none). */
  private async allEvents(key: string): Promise<StoredEvent[] | undefined> {
    this.checkOpen();
    const file = this.pathFor(key);
    const place = this.logPlace(key, file);
    const bytes = await readLog(place);
    // A log without its session file is what an interrupted delete leaves: no session, no events.
    if (bytes === undefined || !(await sessionFileExists(key, file))) return undefined;
    return scanLog(bytes, undefined, place).events;
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    this.checkOpen();
    const file = this.pathFor(key);
    try {
      return await this.underLock(key, file, options?.lock, async (held) => {
        if (held) await dropWriter(held);
        // The session file first: once it is gone the session is, whatever happens to the log.
        const existed = await unlink(file).then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return false;
            throw error;
          },
        );
        await removeIfThere(logPathFor(file));
        if (this.sync) await syncDirectory(dirname(file));
        return existed;
      });
    } catch (error) {
      // ENOENT: not even its directory.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      if (error instanceof SnapshotStoreError) throw error;
      throw new SnapshotStoreError(`${this.describe(key, file)}: cannot delete it: ${(error as Error).message}`, key);
    }
  }

  async lock(key: string): Promise<SessionLock> {
    this.checkOpen();
    const file = this.pathFor(key);
    let fileLock: FileLock;
    try {
      fileLock = await inFolder(this.directory, () => acquireFileLock(lockPathFor(file), this.lockOptions(key, file, "run", 0)));
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? `the folder ${dirname(file)} does not exist` : (error as Error).message;
      throw new SnapshotStoreError(`${this.describe(key, file)}: cannot create its lock file ${lockPathFor(file)}: ${why}`, key);
    }
    const held: HeldLock = { fileLock, queue: Promise.resolve() };
    const lock: SessionLock = {
      key,
      location: fileLock.path,
      release: async () => {
        if (!this.issued.has(lock)) return;
        this.issued.remove(lock);
        if (this.heldByKey.get(key) === held) this.heldByKey.delete(key);
        await held.queue; // the writes issued before the release finish first
        await dropWriter(held);
        await fileLock.release();
      },
    };
    this.issued.add(lock, held);
    this.heldByKey.set(key, held);
    return lock;
  }

  /**
   * Make what was written to the session durable (past a power loss): the log, the session file
   * and their folder, after the writes this store has under way for it. What `sync: true` does
   * after every write; call it at the end of a run written without it.
   */
  async flush(key: string): Promise<void> {
    this.checkOpen();
    const file = this.pathFor(key);
    await this.heldByKey.get(key)?.queue;
    try {
      const logThere = await syncFile(logPathFor(file));
      const fileThere = await syncFile(file);
      if (logThere || fileThere) await syncDirectory(dirname(file));
    } catch (error) {
      throw new SnapshotStoreError(`${this.describe(key, file)}: cannot flush it to disk: ${(error as Error).message}`, key);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lock of this.issued.all()) await lock.release();
  }

  /**
   * Store a new base. Its base line goes into the log before the rename that makes it the
   * session (see the header comment); then the log is compacted when it is worth it.
   */
  private async replaceBase(key: string, file: string, text: string, expectedVersion: string | null | undefined, held: HeldLock | undefined): Promise<string> {
    const place = this.logPlace(key, file);
    if (held) await dropWriter(held); // the log is about to change under it
    const bytes = await readLog(place);
    const current = await readSessionFile(key, file);
    const scan = current !== undefined && bytes !== undefined ? scanLog(bytes, hashOf(current), place) : undefined;
    if (expectedVersion !== undefined) {
      const currentVersion = current === undefined ? undefined : sessionVersion(hashOf(current), scan?.generation, scan?.deltas.length ?? 0);
      if (expectedVersion !== (currentVersion ?? null)) throw new SnapshotConflictError(key, expectedVersion, currentVersion);
    }
    const baseSha = hashOf(text);
    const generation = newGeneration();
    const base = baseLine(baseSha, generation);
    // The log's size after this save (undefined when there is no log), and its events.
    let logSize: number | undefined;
    let logEvents = scan?.events.length ?? 0;
    if (bytes !== undefined && scan === undefined) {
      await this.logStep(place, "remove the log left by a deleted session", () => removeIfThere(place.file));
    } else if (scan !== undefined) {
      await this.logStep(place, "write the new base's line to", () => appendToLogFile(place.file, scan.completeBytes, scan.tornBytes, base, this.sync));
      logSize = scan.completeBytes + Buffer.byteLength(base);
    }
    await writeFileAtomic(file, text, { sync: this.sync });
    if (scan !== undefined && logSize !== undefined) {
      const compacted = compactedLog(scan.events, this.maxEvents, base);
      if (compacted === undefined) {
        await this.logStep(place, "remove", () => removeIfThere(place.file));
        logSize = undefined;
        logEvents = 0;
      } else if (logSize > 2 * Buffer.byteLength(compacted)) {
        await this.logStep(place, "compact", () => writeFileAtomic(place.file, compacted, { sync: this.sync }));
        logSize = Buffer.byteLength(compacted);
        logEvents = Math.min(logEvents, this.maxEvents);
      }
    }
    if (held) {
      held.writer = {
        file: place.file,
        baseSha,
        generation,
        lastSeq: 0,
        basePending: logSize === undefined,
        size: logSize ?? 0,
        isNew: logSize === undefined,
        lastEventId: scan?.events.at(-1)?.id,
        events: logEvents,
      };
    }
    return sessionVersion(baseSha, generation, 0);
  }

  /** The log as an append under `held` needs it: read once, its torn tail (if any) cut off. */
  private async openWriter(key: string, file: string): Promise<LogWriter> {
    const place = this.logPlace(key, file);
    const bytes = await readLog(place);
    const text = await readSessionFile(key, file);
    if (text === undefined) {
      const error = new SnapshotConflictError(key, null, undefined);
      error.message = `${place.session} does not exist: a checkpoint follows a base, so save the session first; nothing was written`;
      throw error;
    }
    const baseSha = hashOf(text);
    const scan = bytes === undefined ? undefined : scanLog(bytes, baseSha, place);
    if (scan !== undefined && scan.tornBytes > 0) {
      await this.logStep(place, "cut the torn last line (an interrupted write) off", () => truncate(place.file, scan.completeBytes));
    }
    return {
      file: place.file,
      baseSha,
      generation: scan?.generation ?? newGeneration(),
      lastSeq: scan?.deltas.length ?? 0,
      basePending: scan?.generation === undefined,
      size: scan?.completeBytes ?? 0,
      isNew: bytes === undefined,
      lastEventId: scan?.events.at(-1)?.id,
      events: scan?.events.length ?? 0,
    };
  }

  /**
   * Past twice `maxEvents` events, rewrite the log (temp file and rename, so a crash leaves the
   * old log or the new one) as the most recent `maxEvents` events, then the current generation's
   * base line and checkpoints without their events: the session reads back the same, with fewer
   * events. Called under the session's lock after an append, before the next one is issued.
   */
  private async compactWhenFull(held: HeldLock, writer: LogWriter, key: string, file: string): Promise<void> {
    if (writer.events <= 2 * this.maxEvents) return;
    const place = this.logPlace(key, file);
    const bytes = await readLog(place);
    if (bytes === undefined) return;
    const scan = scanLog(bytes, writer.baseSha, place);
    // The generation this writer appends to is the session's (its base line is written unless pending).
    if (!writer.basePending && scan.generation !== writer.generation) return;
    const current = writer.basePending ? undefined : { base: baseLine(writer.baseSha, writer.generation), generation: writer.generation, deltas: scan.deltas };
    const compacted = compactedLog(scan.events, this.maxEvents, current?.base ?? "", current);
    // The handle appends to the file the rename replaces: the next write opens the new one.
    await writer.handle?.close().catch(() => undefined);
    writer.handle = undefined;
    if (compacted === undefined) {
      await this.logStep(place, "remove", () => removeIfThere(place.file));
      writer.size = 0;
      writer.isNew = true;
    } else {
      await this.logStep(place, "compact", () => writeFileAtomic(place.file, compacted, { sync: this.sync }));
      writer.size = Buffer.byteLength(compacted);
    }
    writer.events = Math.min(scan.events.length, this.maxEvents);
  }

  /** Append to the open log; a write that fails is cut back out, so the log is as it was. */
  private async writeToLog(held: HeldLock, writer: LogWriter, text: string, key: string, file: string, what: string): Promise<void> {
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    try {
      writer.handle ??= await open(writer.file, "a", PRIVATE_FILE_MODE);
      while (written < bytes.length) {
        const { bytesWritten } = await writer.handle.write(bytes, written, bytes.length - written);
        if (bytesWritten <= 0) throw new Error("the write made no progress");
        written += bytesWritten;
      }
      if (this.sync) {
        await writer.handle.datasync();
        if (writer.isNew) await syncDirectory(dirname(writer.file));
      }
    } catch (error) {
      const undone = written === 0 || (writer.handle !== undefined && (await writer.handle.truncate(writer.size).then(() => true, () => false)));
      if (!undone) await dropWriter(held);
      const after = undone ? "nothing was written" : "the part written is ignored when the log is read, and cut off before the next write";
      throw new SnapshotStoreError(`${this.describe(key, file)}: cannot write ${what} to its checkpoint log ${writer.file}: ${(error as Error).message}; ${after}`, key);
    }
    writer.isNew = false;
    writer.size += bytes.length;
  }

  /** A step on the log during a save or an append; a failure names the log and the step. */
  private async logStep<T>(place: LogPlace, step: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw error;
      throw new SnapshotStoreError(`${place.session}: cannot ${step} its checkpoint log ${place.file}: ${(error as Error).message}; the session is unchanged`, place.key);
    }
  }

  /** Run a write under the caller's session lock (checked to be still held), or else under a save lock of its own. */
  private async underLock<T>(key: string, file: string, lock: SessionLock | undefined, action: (held?: HeldLock) => Promise<T>): Promise<T> {
    if (lock === undefined) return withFileLock(lockPathFor(file), this.lockOptions(key, file, "save", this.lockTimeoutMs), () => action(undefined));
    const held = this.issued.check(lock, key, this.describe(key, file));
    return this.serially(held, async () => {
      await this.checkStillHeld(held, key, file);
      return action(held);
    });
  }

  /** Writes under one lock go one after the other, in the order they were issued. */
  private serially<T>(held: HeldLock, action: () => Promise<T>): Promise<T> {
    const result = held.queue.then(action);
    held.queue = result.catch(() => undefined);
    return result;
  }

  private async checkStillHeld(held: HeldLock, key: string, file: string): Promise<void> {
    if (await held.fileLock.held()) return;
    await dropWriter(held);
    throw new SessionLockLostError(`${this.describe(key, file)}: its lock file ${held.fileLock.path} no longer holds this run's lock (deleted or taken over); nothing was written`, key);
  }

  private lockOptions(key: string, file: string, purpose: "run" | "save", waitMs: number): AcquireFileLockOptions {
    return { purpose, waitMs, staleAfterMs: this.lockTimeoutMs, session: this.describe(key, file), key };
  }

  private logPlace(key: string, file: string): LogPlace {
    return { key, session: this.describe(key, file), file: logPathFor(file) };
  }

  private describe(key: string, file: string): string {
    return this.directory === undefined ? `session file ${file}` : `session "${key}" (${file})`;
  }

  private checkOpen(): void {
    if (this.closed) throw closedError("file");
  }
}

/** The version of a session: its base's hash, and the generation and seq of its last checkpoint. */
function sessionVersion(baseSha: string, generation: string | undefined, seq: number): string {
  return seq === 0 || generation === undefined ? baseSha : `${baseSha}.${generation}.${seq}`;
}

async function dropWriter(held: HeldLock): Promise<void> {
  const handle = held.writer?.handle;
  held.writer = undefined;
  await handle?.close().catch(() => undefined);
}

/** Add `text` at the end of a log whose complete lines end at `completeBytes`, cutting a torn tail off first. */
async function appendToLogFile(file: string, completeBytes: number, tornBytes: number, text: string, sync: boolean): Promise<void> {
  if (tornBytes > 0) await truncate(file, completeBytes);
  const handle = await open(file, "a", PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(text, "utf8");
    if (sync) await handle.datasync();
  } catch (error) {
    await handle.truncate(completeBytes).catch(() => undefined);
    throw error;
  } finally {
    await handle.close();
  }
}

async function removeIfThere(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

function lockPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.lock`);
}

function logPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.log`);
}

function hashOf(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

async function readSessionFile(key: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "EISDIR") throw new SnapshotKeyError(`session file ${file} is a directory`, key);
    throw new SnapshotStoreError(`session file ${file}: cannot read it: ${(error as Error).message}`, key);
  }
}

async function sessionFileExists(key: string, file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new SnapshotStoreError(`session file ${file}: cannot read it: ${(error as Error).message}`, key);
  }
}

async function readLog(place: LogPlace): Promise<Buffer | undefined> {
  try {
    return await readFile(place.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SnapshotStoreError(`${place.session}: cannot read its checkpoint log ${place.file}: ${(error as Error).message}`, place.key);
  }
}
