/**
 * A lock file beside a session file, so that the check of the stored version and the rename that
 * replaces the file happen as one step, also between processes. The lock is created with O_EXCL
 * and holds `pid hostname`. A lock whose process is gone (same host) is stale and is taken over;
 * any other lock is waited for, then reported with the lock file to delete.
 */
import { randomBytes } from "node:crypto";
import { link, open, readFile, rename, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { SnapshotStoreError } from "./snapshot-store.js";

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
const RETRY_MS = 15;

export async function withFileLock<T>(lockPath: string, timeoutMs: number, action: () => Promise<T>): Promise<T> {
  await acquire(lockPath, timeoutMs);
  try {
    return await action();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function acquire(lockPath: string, timeoutMs: number): Promise<void> {
  const owner = `${process.pid} ${hostname()}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(lockPath, "wx");
      try {
        await handle.writeFile(owner, "utf8");
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readFile(lockPath, "utf8").catch(() => undefined);
    if (holder === undefined) continue; // released between our attempt and the read
    if (isStale(holder) && (await takeOverStale(lockPath, holder))) continue;
    if (Date.now() >= deadline) {
      throw new SnapshotStoreError(
        `${lockPath} is held by another writer (${describeHolder(holder)}) for more than ${timeoutMs} ms; if no process is saving this session, delete the lock file`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS + Math.floor(Math.random() * RETRY_MS)));
  }
}

/** A lock written on this host by a process that no longer runs. */
function isStale(holder: string): boolean {
  const [pidText, host] = holder.split(" ");
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Move the stale lock aside rather than deleting it: if another process replaced it with a live
 * lock in the meantime, what we moved is not what we judged stale, and it is put back.
 */
async function takeOverStale(lockPath: string, staleHolder: string): Promise<boolean> {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    await rename(lockPath, aside);
  } catch {
    return true; // gone already: just try again
  }
  const moved = await readFile(aside, "utf8").catch(() => undefined);
  if (moved !== staleHolder) await link(aside, lockPath).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return true;
}

function describeHolder(holder: string): string {
  const [pid, host] = holder.split(" ");
  return pid && host ? `process ${pid} on ${host}` : `lock content ${JSON.stringify(holder)}`;
}
