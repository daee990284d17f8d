/**
 * `canvasflow db import --data-folder DIR [--sqlite FILE]`: copy the data folder an earlier
 * canvasflow serve kept (agents, API keys, session records, the sessions' run state, uploads,
 * memories) into a SQLite database (default `DIR/canvasflow.db`, where `serve --data DIR` now
 * looks). A new database appears only once the import is whole. It never overwrites: a record the database holds with other content refuses the whole
 * import, naming each one, before anything is written; one it holds the same is counted as
 * there already, so an import that was cut off can be run again. The folder is only read.
 *
 * Exit codes: 0 imported, 1 a conflict, a damaged record or a database that cannot be used, 2 usage.
 */
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { importDataFolder, ImportConflictError, type DataFolderImportReport } from "../backends/data-folder-import.js";
import { DatabaseFileError, MemoryStoreError, ServerStoreError, SnapshotStoreError } from "../backends/errors.js";
import { DataFolderReader, holdsDataFolder } from "../backends/files/data-folder.js";
import { DATABASE_FILE_NAME } from "../backends/sqlite/schema.js";
import { SqliteMemoryStore } from "../backends/sqlite/memories.js";
import { SqliteServerStore } from "../backends/sqlite/server-store.js";
import { UsageError, type CliIO } from "./io.js";
import { EXIT } from "./exit-codes.js";

export interface DbImportArgs {
  dataFolder?: string;
  sqlite?: string;
}

export async function dbImportCommand(args: DbImportArgs, io: CliIO): Promise<number> {
  const folder = args.dataFolder;
  if (folder === undefined || folder.trim() === "") throw new UsageError("db import needs --data-folder DIR: the data folder an earlier canvasflow serve kept");
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`--data-folder: ${folder} is not a folder`);
  if (!(await holdsDataFolder(folder))) throw new UsageError(`--data-folder: ${folder} holds no data folder (no agents/, session-records/ or keys/ in it)`);
  const file = args.sqlite ?? join(folder, DATABASE_FILE_NAME);
  if (args.sqlite !== undefined && args.sqlite.trim() === "") throw new UsageError("--sqlite needs the database file");

  // A new database is made under a temporary name and renamed into place once whole: an import
  // that fails leaves no database (which serve would then start on, beside the folder).
  const fresh = !existsSync(file);
  const target = fresh ? `${file}.importing-${process.pid}` : file;
  let store: SqliteServerStore | undefined;
  let memories: SqliteMemoryStore | undefined;
  let done = false;
  try {
    store = new SqliteServerStore({ file: target });
    memories = new SqliteMemoryStore({ file: target });
    const report = await importDataFolder(new DataFolderReader(folder), { store, memories });
    await memories.close();
    await store.close();
    if (fresh) renameSync(target, file);
    done = true;
    io.stdout.write(reportLines(folder, file, report));
    return EXIT.finished;
  } catch (error) {
    if (error instanceof ImportConflictError || error instanceof DatabaseFileError || error instanceof ServerStoreError || error instanceof SnapshotStoreError || error instanceof MemoryStoreError) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    await memories?.close();
    await store?.close();
    if (fresh && !done) for (const suffix of ["", "-wal", "-shm"]) rmSync(`${target}${suffix}`, { force: true });
  }
}

function reportLines(folder: string, file: string, report: DataFolderImportReport): string {
  const line = (what: string, counts: { imported: number; present: number }, extra = "") =>
    `  ${what}: ${counts.imported} imported${counts.present > 0 ? `, ${counts.present} there already` : ""}${extra}\n`;
  return (
    `imported the data folder ${folder} into ${file}:\n` +
    line("agents", report.agents) +
    line("API keys", report.keys) +
    line("session records", report.sessionRecords) +
    line("sessions' run state", report.runs) +
    line("uploads", report.uploads, report.uploads.expired > 0 ? `, ${report.uploads.expired} expired (left out)` : "") +
    line("memories", report.memories, ` (${report.memories.messages} message${report.memories.messages === 1 ? "" : "s"})`) +
    (report.unownedMessages > 0
      ? `  ${report.unownedMessages} message${report.unownedMessages === 1 ? "" : "s"} of memories from before tenants had no known session: left in ${join(folder, "memories")}, where no run reads them\n`
      : "") +
    `start the server with: canvasflow serve ${args(folder, file)}\n`
  );
}

function args(folder: string, file: string): string {
  return file === join(folder, DATABASE_FILE_NAME) ? `--data ${folder}` : `--sqlite ${file}`;
}
