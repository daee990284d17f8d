/**
 * Sessions as JSON files. A file holds exactly the snapshot (what `canvas.toJSON()` returned), so
 * it is also a DSL that `loadCanvas` and `canvasflow run` read. Writes go to a temp file that is
 * then renamed over the session, so a crash or a concurrent reader never sees half a session.
 *
 * With `directory`, a key is a plain name kept in `<directory>/<key>.json`; without it, a key is
 * the session file's path (the CLI's `--session FILE`).
 *
 * A file's version is the SHA-256 of its content; a save with `expectedVersion` compares it under a
 * lock file (`.<name>.lock`), so two processes resuming one session cannot both write it. The same
 * file is the session's lock (`lock(key)`), which a run holds from before it starts until it has
 * saved (see file-lock.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { CanvasDsl } from "../dsl/types.js";
import { acquireFileLock, DEFAULT_LOCK_TIMEOUT_MS, withFileLock, type AcquireFileLockOptions, type FileLock } from "./file-lock.js";
import {
  checkKey,
  checkSaveOptions,
  closedError,
  IssuedLocks,
  parseSnapshot,
  serializeSnapshot,
  SessionLockLostError,
  SnapshotConflictError,
  SnapshotKeyError,
  SnapshotStoreError,
  type DeleteOptions,
  type SaveOptions,
  type SessionLock,
  type SnapshotStore,
  type StoredSnapshot,
} from "./snapshot-store.js";

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
}

export class FileSnapshotStore implements SnapshotStore {
  private readonly directory: string | undefined;
  private readonly extension: string;
  private readonly lockTimeoutMs: number;
  private readonly issued = new IssuedLocks<FileLock>();
  private closed = false;

  constructor(options: FileSnapshotStoreOptions = {}) {
    if (options.directory !== undefined && (typeof options.directory !== "string" || options.directory === "")) {
      throw new SnapshotStoreError("directory must be a non-empty path");
    }
    this.directory = options.directory;
    this.extension = options.extension ?? ".json";
    if (/[/\\]/.test(this.extension)) throw new SnapshotStoreError(`extension must not contain a path separator, got "${this.extension}"`);
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  /** The file a key is kept in. */
  pathFor(key: string): string {
    checkKey(key);
    if (this.directory === undefined) return key;
    // A key is one file name inside the directory: nothing that climbs out of it or hides among
    // the store's own dot-files (temp files and locks).
    if (/[/\\]/.test(key)) throw new SnapshotKeyError(`session key "${key}" must not contain "/" or "\\" (it names a file in ${this.directory})`, key);
    if (key.startsWith(".")) throw new SnapshotKeyError(`session key "${key}" must not start with "." (it names a file in ${this.directory})`, key);
    return join(this.directory, `${key}${this.extension}`);
  }

  async load(key: string): Promise<StoredSnapshot | undefined> {
    this.checkOpen();
    const file = this.pathFor(key);
    const text = await readSessionFile(key, file);
    if (text === undefined) return undefined;
    return { snapshot: parseSnapshot(key, text, this.describe(key, file)), version: versionOf(text), deltas: [] };
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
      if (this.directory !== undefined) await mkdir(this.directory, { recursive: true });
      return await this.underLock(key, file, lock, async () => {
        if (expectedVersion !== undefined) {
          const current = await readSessionFile(key, file);
          const currentVersion = current === undefined ? undefined : versionOf(current);
          if (expectedVersion !== (currentVersion ?? null)) throw new SnapshotConflictError(key, expectedVersion, currentVersion);
        }
        await writeFileAtomic(file, text);
        return versionOf(text);
      });
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw error;
      throw new SnapshotStoreError(`${this.describe(key, file)}: cannot write it: ${(error as Error).message}`, key);
    }
  }

  async delete(key: string, options?: DeleteOptions): Promise<boolean> {
    this.checkOpen();
    const file = this.pathFor(key);
    try {
      return await this.underLock(key, file, options?.lock, async () => {
        await unlink(file);
        return true;
      });
    } catch (error) {
      // ENOENT: no such file, or not even its directory.
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
      if (this.directory !== undefined) await mkdir(this.directory, { recursive: true });
      fileLock = await acquireFileLock(lockPathFor(file), this.lockOptions(key, file, "run", 0));
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? `the folder ${dirname(file)} does not exist` : (error as Error).message;
      throw new SnapshotStoreError(`${this.describe(key, file)}: cannot create its lock file ${lockPathFor(file)}: ${why}`, key);
    }
    const lock: SessionLock = {
      key,
      location: fileLock.path,
      release: async () => {
        this.issued.remove(lock);
        await fileLock.release();
      },
    };
    this.issued.add(lock, fileLock);
    return lock;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lock of this.issued.all()) await lock.release();
  }

  /** Run a write under the caller's session lock (checked to be still held), or else under a save lock of its own. */
  private async underLock<T>(key: string, file: string, lock: SessionLock | undefined, action: () => Promise<T>): Promise<T> {
    if (lock === undefined) return withFileLock(lockPathFor(file), this.lockOptions(key, file, "save", this.lockTimeoutMs), action);
    const fileLock = this.issued.check(lock, key, this.describe(key, file));
    if (!(await fileLock.held())) {
      throw new SessionLockLostError(`${this.describe(key, file)}: its lock file ${fileLock.path} no longer holds this run's lock (deleted or taken over); nothing was written`, key);
    }
    return action();
  }

  private lockOptions(key: string, file: string, purpose: "run" | "save", waitMs: number): AcquireFileLockOptions {
    return { purpose, waitMs, staleAfterMs: this.lockTimeoutMs, session: this.describe(key, file), key };
  }

  private describe(key: string, file: string): string {
    return this.directory === undefined ? `session file ${file}` : `session "${key}" (${file})`;
  }

  private checkOpen(): void {
    if (this.closed) throw closedError("file");
  }
}

/** Write a file through a temp file in the same directory and a rename. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, content, { encoding: "utf8", flag: "wx" });
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

function lockPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.lock`);
}

function versionOf(text: string): string {
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
