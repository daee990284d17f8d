/**
 * What canvasflow writes of its own (data folders, sessions and their logs, keys, uploads, locks,
 * cancel flags, the documents runs make) is its user's only: files are created 0600 and folders
 * 0700 (less what the umask takes away), since runs' messages, uploads and key hashes are nobody
 * else's business on a shared machine.
 */
import { chmod, mkdir, stat } from "node:fs/promises";

/** The mode of the files canvasflow creates: read and written by their owner only. */
export const PRIVATE_FILE_MODE = 0o600;
/** The mode of the folders it creates: entered by their owner only. */
const PRIVATE_FOLDER_MODE = 0o700;

/** Make `folder` and its missing parents, private (0700); resolves to the first folder made, if any (as mkdir). */
export function makePrivateFolder(folder: string): Promise<string | undefined> {
  return mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/** What `makeFolderPrivate` found: a folder it closed, or one it could not (another user's). */
type FolderTightening = { closed: true; from: number } | { closed: false; mode: number; owner: number };

/**
 * An existing folder that other users may enter or read (made by an older version, or by hand) is
 * made its owner's only (group and other permissions taken away), when this process's user owns
 * it (or is root). What is inside keeps its modes, but nobody else can reach it any more.
 * Undefined when there is nothing to do: no such folder, or one that is private already.
 */
export async function makeFolderPrivate(folder: string): Promise<FolderTightening | undefined> {
  if (process.platform === "win32") return undefined;
  let found;
  try {
    found = await stat(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const mode = found.mode & 0o777;
  if (!found.isDirectory() || (mode & 0o077) === 0) return undefined;
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && found.uid !== uid) return { closed: false, mode, owner: found.uid };
  await chmod(folder, mode & 0o700);
  return { closed: true, from: mode };
}
