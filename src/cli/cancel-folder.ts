/**
 * The folder where local runs hear cancel requests (`canvasflow cancel TASK_ID` without
 * `--redis`/`--postgres`): `CANVASFLOW_CANCEL_DIR` when set, else a folder of this user's under
 * the OS temp folder, `canvasflow-cancel-<uid>`. Every run without `--session` or with a file
 * session listens there, so a cancel from any terminal of the same user reaches it.
 *
 * The default folder is made private to its user (mode 700): another user of the machine must
 * not be able to cancel (or pre-create the folder to watch) this user's runs.
 */
import { lstatSync, mkdirSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { CancelSignalError } from "../backends/errors.js";

export const CANCEL_DIR_ENV = "CANVASFLOW_CANCEL_DIR";

export function cancelFolder(env: Readonly<Record<string, string | undefined>> = process.env): { directory: string; fromEnv: boolean } {
  const fromEnv = env[CANCEL_DIR_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return { directory: fromEnv, fromEnv: true };
  const uid = process.getuid?.();
  return { directory: join(tmpdir(), `canvasflow-cancel-${uid ?? safeName(userInfo().username)}`), fromEnv: false };
}

/** The folder, created when missing; the default one must be this user's own. */
export function prepareCancelFolder(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const { directory, fromEnv } = cancelFolder(env);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CancelSignalError(`cannot create the cancel folder ${directory}: ${(error as Error).message}${fromEnv ? ` (from ${CANCEL_DIR_ENV})` : ""}`);
  }
  const uid = process.getuid?.();
  if (!fromEnv && uid !== undefined) {
    const stat = lstatSync(directory);
    if (!stat.isDirectory() || stat.uid !== uid) {
      throw new CancelSignalError(`the cancel folder ${directory} is not a folder of this user's; remove it, or set ${CANCEL_DIR_ENV} to a folder of your own`);
    }
  }
  return directory;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_") || "user";
}
