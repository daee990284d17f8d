/**
 * File writes the file store and the file cancel signals share: whole-file replacement through a
 * temp file and a rename (a reader never sees half a file), and fsync of files and folders for
 * durability past a power loss (a rename or a new file is durable only once its folder is synced).
 * Files and folders are created private to their user (util/private-files.ts).
 */
import { randomBytes } from "node:crypto";
import { link, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { makePrivateFolder, PRIVATE_FILE_MODE } from "../../util/private-files.js";

export interface WriteFileOptions {
  /** fsync the new content before the rename and the folder after it. */
  sync?: boolean;
  /** The new file's mode (default 0600: canvasflow's files are its user's only). */
  mode?: number;
}

/** Write a file through a temp file in the same folder and a rename. */
export async function writeFileAtomic(file: string, content: string, options: WriteFileOptions = {}): Promise<void> {
  const temp = tempBeside(file);
  try {
    await writeTemp(temp, content, options);
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (options.sync) await syncDirectory(dirname(file));
}

/**
 * Write a new file whole, unless it exists: a temp file hard-linked to its name (the link fails
 * when the name is taken, atomically, so no lock is needed; a reader never sees half a file).
 * Resolves to false, writing nothing, when the file exists. A file system without hard links
 * fails with its own error (EPERM, ENOTSUP…), for the caller to write another way.
 */
export async function writeNewFileAtomic(file: string, content: string, options: WriteFileOptions = {}): Promise<boolean> {
  const temp = tempBeside(file);
  let created: boolean;
  try {
    await writeTemp(temp, content, options);
    created = await link(temp, file).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "EEXIST") return false;
        throw error;
      },
    );
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  if (created && options.sync) await syncDirectory(dirname(file));
  return created;
}

/** A fresh temp file name in `file`'s folder (same file system, so a rename or link is atomic). */
function tempBeside(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/** Create `temp` (it must not exist) with `content`, synced when asked. */
async function writeTemp(temp: string, content: string, options: WriteFileOptions): Promise<void> {
  const handle = await open(temp, "wx", options.mode ?? PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(content, "utf8");
    if (options.sync) await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Hard links are not available on this file system (writeNewFileAtomic's caller writes another way). */
export function noHardLinks(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS" || code === "EXDEV";
}

/**
 * Create something in `folder` (made when missing): `create` is tried first, and the folder made
 * only when that fails with ENOENT, so the usual case costs no mkdir. `create` must leave nothing
 * behind when it fails. No folder: just `create`.
 */
export async function inFolder<T>(folder: string | undefined, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (folder === undefined || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await makePrivateFolder(folder);
  return create();
}

/** fsync a file's content; false when there is no such file. */
export async function syncFile(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** fsync a folder, so the files created, renamed or removed in it stay so after a power loss. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
