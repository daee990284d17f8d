/**
 * A lock file beside a session file. It is created whole (written under a temporary name, then
 * linked into place) and holds one line,
 * `pid hostname token purpose`:
 * - purpose `run`: a run holds the session from before it starts until its result is saved;
 * - purpose `save`: a save holds it for the moment it compares the stored version and renames
 *   the new file into place.
 *
 * A lock is stale, and is taken over, when its process is gone (same host), or when its content
 * cannot be read as a holder (empty: written by an older version that died between creating and
 * writing it; garbled; unreadable) and it is older than `staleAfterMs`. A live run's lock is reported at once; a live
 * save's lock is waited for, up to `waitMs`.
 */
import { randomBytes } from "node:crypto";
import { link, open, readFile, rename, stat, unlink, type FileHandle } from "node:fs/promises";
import { hostname } from "node:os";
import { PRIVATE_FILE_MODE } from "../../util/private-files.js";
import { SessionLockedError } from "../errors.js";
import { processRuns } from "../../util/process-runs.js";

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
const RETRY_MS = 15;

export type LockPurpose = "run" | "save";

export interface FileLockHolder {
  pid: number;
  host: string;
  /** Absent in locks written before tokens existed. */
  token?: string;
  /** Absent in locks written before purposes existed: treated as a save. */
  purpose?: LockPurpose;
}

export interface AcquireFileLockOptions {
  purpose: LockPurpose;
  /** How long to wait for a live save's lock (a live run's lock is reported at once). */
  waitMs: number;
  /** An empty, garbled or unreadable lock older than this is stale. */
  staleAfterMs: number;
  /** The session, for messages ("session file /x/s.json"). */
  session: string;
  key: string;
}

/** Tokens of the locks this process holds: a lock with this pid and another token was left by an earlier process with the same pid. */
const heldHere = new Set<string>();

/**
 * A lock file this process created; `release()` removes it if it is still this lock. The file
 * stays open while the lock is held: its inode cannot be reused meanwhile, so the path still
 * names this lock exactly when it still leads to that inode (one stat per check, which every
 * checkpoint append makes, instead of reading the file).
 */
export class FileLock {
  constructor(
    readonly path: string,
    private readonly token: string,
    private readonly handle: FileHandle,
    private readonly identity: { dev: number; ino: number },
  ) {}

  /** Whether the lock file still holds this lock (it was not deleted, or replaced by another). */
  async held(): Promise<boolean> {
    const found = await stat(this.path).catch(() => undefined);
    return found !== undefined && found.ino === this.identity.ino && found.dev === this.identity.dev;
  }

  async release(): Promise<void> {
    heldHere.delete(this.token);
    if (await this.held()) await unlink(this.path).catch(() => undefined);
    await this.handle.close().catch(() => undefined);
  }
}

export async function withFileLock<T>(lockPath: string, options: AcquireFileLockOptions, action: () => Promise<T>): Promise<T> {
  const lock = await acquireFileLock(lockPath, options);
  try {
    return await action();
  } finally {
    await lock.release();
  }
}

export async function acquireFileLock(lockPath: string, options: AcquireFileLockOptions): Promise<FileLock> {
  const token = randomBytes(6).toString("hex");
  const content = `${process.pid} ${hostname()} ${token} ${options.purpose}`;
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const handle = await create(lockPath, content);
    if (handle) {
      heldHere.add(token);
      const { dev, ino } = await handle.stat();
      return new FileLock(lockPath, token, handle, { dev, ino });
    }
    const found = await inspect(lockPath, options.staleAfterMs);
    if (found === undefined) continue; // released between our attempt and the look
    if (found.stale) {
      await takeOverStale(lockPath, found.content);
      continue;
    }
    const holder = found.holder;
    const runHolds = holder?.purpose === "run";
    if (runHolds || Date.now() >= deadline) throw lockedError(lockPath, options, found);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS + Math.floor(Math.random() * RETRY_MS)));
  }
}

/**
 * Create the lock file with `content`, left open; undefined when it exists. The content is
 * written to a private temporary name first and then linked into place (link fails when the
 * lock exists), so no other process ever sees a lock file without its holder.
 */
async function create(lockPath: string, content: string): Promise<FileHandle | undefined> {
  const draft = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.new`;
  const handle = await open(draft, "wx", PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(content, "utf8");
    await link(draft, lockPath);
  } catch (error) {
    await handle.close();
    await unlink(draft).catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
  await unlink(draft).catch(() => undefined);
  return handle;
}

interface FoundLock {
  /** What was read (undefined: unreadable). */
  content: string | undefined;
  holder: FileLockHolder | undefined;
  ageMs: number;
  stale: boolean;
}

/** The lock as it is now; undefined when it is gone. */
async function inspect(lockPath: string, staleAfterMs: number): Promise<FoundLock | undefined> {
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(lockPath)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let content: string | undefined;
  try {
    content = await readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    content = undefined;
  }
  const holder = content === undefined ? undefined : parseHolder(content);
  const ageMs = Math.max(0, Date.now() - mtimeMs);
  const stale = holder ? holderIsGone(holder) : ageMs >= staleAfterMs;
  return { content, holder, ageMs, stale };
}

export function parseHolder(content: string): FileLockHolder | undefined {
  const [pidText, host, token, purpose, ...rest] = content.trim().split(" ");
  const pid = Number(pidText);
  if (rest.length > 0 || !/^\d+$/.test(pidText ?? "") || pid <= 0 || !host) return undefined;
  if (purpose !== undefined && purpose !== "run" && purpose !== "save") return undefined;
  return { pid, host, ...(token !== undefined ? { token } : {}), ...(purpose !== undefined ? { purpose } : {}) };
}

/** A holder on this host whose process no longer runs (or this pid, but not one of this process's locks). */
function holderIsGone(holder: FileLockHolder): boolean {
  if (holder.host !== hostname()) return false; // another machine: cannot tell
  if (holder.pid === process.pid) return holder.token === undefined || !heldHere.has(holder.token);
  return !processRuns(holder.pid);
}

/**
 * Move the stale lock aside rather than deleting it: if another process replaced it with a live
 * lock in the meantime, what we moved is not what we judged stale, and it is put back.
 */
async function takeOverStale(lockPath: string, staleContent: string | undefined): Promise<void> {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // gone already: just try again
    throw error;
  }
  const moved = await readFile(aside, "utf8").catch(() => undefined);
  if (moved !== staleContent) await link(aside, lockPath).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function lockedError(lockPath: string, options: AcquireFileLockOptions, found: FoundLock): SessionLockedError {
  const { holder } = found;
  const since = new Date(Date.now() - found.ageMs).toISOString();
  let message: string;
  if (!holder) {
    const what = found.content === undefined ? "cannot be read" : found.content.trim() === "" ? "is empty" : `does not name a holder (${JSON.stringify(found.content.slice(0, 80))})`;
    const left = Math.max(1, Math.ceil((options.staleAfterMs - found.ageMs) / 1000));
    message =
      `${options.session} is locked: its lock file ${lockPath} ${what} (written ${since}); ` +
      `it counts as stale ${left} s from now. If no canvasflow run is using this session, delete the lock file`;
  } else {
    const who = `process ${holder.pid} on ${holder.host}${holder.host === hostname() ? "" : ", another machine"}, since ${since}`;
    message =
      holder.purpose === "run"
        ? `${options.session} is locked by another run (${who}): lock file ${lockPath}. If no canvasflow run is using this session, delete the lock file`
        : `${options.session} is locked by another writer (${who}) for more than ${options.waitMs} ms: lock file ${lockPath}. If no process is saving this session, delete the lock file`;
  }
  return new SessionLockedError(message, options.key, lockPath);
}
