/**
 * Cancel signals as flag files, for processes that share a folder: a request writes
 * `<directory>/<taskId>-cancel` (RAGFlow's key name) holding the time it expires, as an ISO
 * date; `clear` removes it. Flags are written through a temp file and a rename, so a reader never
 * sees half of one. A flag file without a readable date (`touch <taskId>-cancel`) is a request
 * that lives the default time to live from its modification time.
 *
 * Watchers hear a request through a change notification on the folder (fs.watch: inotify on
 * Linux, within a few milliseconds), and list the folder every `pollMs` besides (reading the
 * watched flags found there), for the filesystems whose notifications do not cross machines (NFS
 * and the like).
 */
import { watch as watchFolder, type FSWatcher } from "node:fs";
import { readdir, readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { CancelSignalError } from "../errors.js";
import { CancelWatchers, cancelKey, checkTaskId, DEFAULT_CANCEL_TTL_SECONDS, cancelTtlSeconds } from "../shared/cancel.js";
import type { CancelSignals, WatchOptions } from "../contracts.js";
import { makePrivateFolder } from "../../util/private-files.js";
import { writeFileAtomic } from "./io.js";

export interface FileCancelSignalsOptions {
  /** The folder of the flag files (created when missing); every process that runs or cancels the task uses the same one. */
  directory: string;
  /** How often a watcher also reads its flag, in case a change notification is missed (default 50 ms). */
  pollMs?: number;
  /** Listen for change notifications on the folder (default true); without them a watcher relies on `pollMs`. */
  notifications?: boolean;
  /** The clock a flag's time to live is measured by (default `Date.now`; tests pass their own). */
  now?: () => number;
}

export const DEFAULT_CANCEL_POLL_MS = 50;
const FLAG_SUFFIX = cancelKey("");

export class FileCancelSignals implements CancelSignals {
  readonly directory: string;
  private readonly pollMs: number;
  private readonly notifications: boolean;
  private readonly now: () => number;
  /** Task id → the callbacks still waiting for its cancel. */
  private readonly watchers = new CancelWatchers(() => this.stopListening());
  private folderWatcher: FSWatcher | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private closed = false;

  constructor(options: FileCancelSignalsOptions) {
    if (typeof options?.directory !== "string" || options.directory === "") throw new CancelSignalError("file cancel signals need a directory: a non-empty folder path");
    this.directory = options.directory;
    this.pollMs = options.pollMs ?? DEFAULT_CANCEL_POLL_MS;
    if (!Number.isFinite(this.pollMs) || this.pollMs <= 0) throw new CancelSignalError(`pollMs must be a positive number of milliseconds, got ${String(options.pollMs)}`);
    this.notifications = options.notifications ?? true;
    this.now = options.now ?? Date.now;
  }

  /** The flag file of a task. */
  flagPath(taskId: string): string {
    return join(this.directory, cancelKey(checkTaskId(taskId)));
  }

  async request(taskId: string, options: { ttlSeconds?: number } = {}): Promise<void> {
    const flag = this.flag(taskId);
    const ttlSeconds = cancelTtlSeconds(options);
    try {
      await makePrivateFolder(this.directory);
      await writeFileAtomic(flag, `${new Date(this.now() + ttlSeconds * 1000).toISOString()}\n`);
    } catch (error) {
      throw new CancelSignalError(`cannot write the cancel flag ${flag}: ${(error as Error).message}`);
    }
  }

  async isRequested(taskId: string): Promise<boolean> {
    const flag = this.flag(taskId);
    let content: string;
    try {
      content = await readFile(flag, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw new CancelSignalError(`cannot read the cancel flag ${flag}: ${(error as Error).message}`);
    }
    let expiresAt = Date.parse(content.trim());
    if (Number.isNaN(expiresAt)) {
      const modified = await stat(flag).then((s) => s.mtimeMs, () => undefined);
      if (modified === undefined) return false; // cleared meanwhile
      expiresAt = modified + DEFAULT_CANCEL_TTL_SECONDS * 1000;
    }
    return expiresAt > this.now();
  }

  async watch(taskId: string, onCancel: () => void, options: WatchOptions = {}): Promise<() => Promise<void>> {
    this.flag(taskId);
    // While it listens, the folder it listens to was made already.
    if (this.pollTimer === undefined) {
      try {
        await makePrivateFolder(this.directory);
      } catch (error) {
        throw new CancelSignalError(`cannot create the cancel flag folder ${this.directory}: ${(error as Error).message}`);
      }
    }
    const stop = this.watchers.add(taskId, onCancel);
    this.startListening();
    if (!options.unseen && (await this.isRequested(taskId))) this.watchers.cancelled(taskId);
    return async () => stop();
  }

  async clear(taskId: string): Promise<void> {
    const flag = this.flag(taskId);
    try {
      await unlink(flag);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw new CancelSignalError(`cannot remove the cancel flag ${flag}: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watchers.clear();
    this.stopListening();
  }

  /** The task's flag file, once the task id and this object are fit for use. */
  private flag(taskId: string): string {
    if (this.closed) throw new CancelSignalError("the cancel signals are closed");
    return this.flagPath(taskId);
  }

  private startListening(): void {
    if (this.notifications && this.folderWatcher === undefined) {
      try {
        // Not persistent: a watch left running never keeps the process alive.
        this.folderWatcher = watchFolder(this.directory, { persistent: false }, (_event, name) => {
          const file = name?.toString();
          if (file?.endsWith(FLAG_SUFFIX)) this.look(file.slice(0, -FLAG_SUFFIX.length));
        });
        // Notifications that stop working (the folder removed, a watch limit): polling goes on.
        this.folderWatcher.on("error", () => this.stopNotifications());
      } catch {
        this.folderWatcher = undefined;
      }
    }
    if (this.pollTimer === undefined) {
      this.pollTimer = setInterval(() => this.poll(), this.pollMs);
      this.pollTimer.unref();
    }
  }

  private stopNotifications(): void {
    this.folderWatcher?.close();
    this.folderWatcher = undefined;
  }

  private stopListening(): void {
    this.stopNotifications();
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /**
   * One listing of the folder per tick, then a read of only the flags that exist and are watched:
   * reading every watched flag each tick cost a server with 500 open streams 10 000 file reads a
   * second. A poll still under way when the next tick comes is not doubled.
   */
  private poll(): void {
    if (this.polling) return;
    this.polling = true;
    readdir(this.directory).then(
      (names) => {
        this.polling = false;
        for (const name of names) {
          if (name.endsWith(FLAG_SUFFIX)) this.look(name.slice(0, -FLAG_SUFFIX.length));
        }
      },
      // Unreadable for now (permissions, a folder being replaced): the next tick tries again.
      () => {
        this.polling = false;
      },
    );
  }

  /** Read a watched task's flag and call its watchers if it is set. */
  private look(taskId: string): void {
    if (!this.watchers.has(taskId)) return;
    this.isRequested(taskId).then(
      (requested) => {
        if (requested) this.watchers.cancelled(taskId);
      },
      // Unreadable for now (permissions, a folder being replaced): the next look tries again.
      () => undefined,
    );
  }
}
