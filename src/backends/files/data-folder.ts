/**
 * A data folder as releases before SQLite kept the server's state in it (issue 26), read only,
 * for `canvasflow db import --data-folder DIR`:
 *
 *     <data>/agents/<agent id>.json               AgentRecord
 *     <data>/session-records/<session id>.json    SessionRecord
 *     <data>/keys/<sha256 of the key>.json        ApiKeyRecord
 *     <data>/uploads/<tenant digest>/<id>.json    UploadRecord, and <id>.bin its bytes
 *     <data>/sessions/                            the sessions' run state (FileSnapshotStore)
 *     <data>/memories/tenants/<tenant>/<id>.jsonl conversation memories (FileMemoryStore)
 *     <data>/cancel/                              cancel flags (short-lived: not imported)
 *
 * Every record is checked as the stores check what they read: a damaged one is an error naming
 * its file, never skipped in silence. Nothing here writes.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { AgentRecord, ApiKeyRecord, MemoryMessage, SessionRecord, UploadRecord } from "../contracts.js";
import { ServerStoreError } from "../errors.js";
import { fileNameOf, legacyIdOf } from "../shared/memory-names.js";
import { parseMessage } from "../shared/memories.js";
import { isKeyHash, parseStoredJson, parseStoredRecord, type RecordKind } from "../shared/records.js";
import { isUploadId } from "../shared/uploads.js";
import { FileSnapshotStore } from "./session-store.js";

/** The sub-folders of a data folder. */
export const DATA_FOLDER_LAYOUT = {
  agents: "agents",
  sessionRecords: "session-records",
  keys: "keys",
  runs: "sessions",
  cancel: "cancel",
  uploads: "uploads",
  memories: "memories",
} as const;

/** The folders whose presence says a folder is a data folder (of records, not just a database beside them). */
const RECORD_FOLDERS = [DATA_FOLDER_LAYOUT.agents, DATA_FOLDER_LAYOUT.sessionRecords, DATA_FOLDER_LAYOUT.keys];

/** Whether `directory` holds a data folder's records (what serve kept there before SQLite). */
export async function holdsDataFolder(directory: string): Promise<boolean> {
  for (const folder of RECORD_FOLDERS) {
    if (await stat(join(directory, folder)).then((found) => found.isDirectory(), () => false)) return true;
  }
  return false;
}

export class DataFolderReader {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = resolve(directory);
  }

  async agents(): Promise<AgentRecord[]> {
    return this.records<AgentRecord>(DATA_FOLDER_LAYOUT.agents, "agent", (name) => ({ id: name }));
  }

  async sessionRecords(): Promise<SessionRecord[]> {
    return this.records<SessionRecord>(DATA_FOLDER_LAYOUT.sessionRecords, "session record", (name) => ({ id: name }));
  }

  async keys(): Promise<ApiKeyRecord[]> {
    const keys = await this.records<ApiKeyRecord>(DATA_FOLDER_LAYOUT.keys, "API key", () => ({}));
    for (const key of keys) {
      if (!isKeyHash(key.hash)) throw new ServerStoreError(`${this.where(DATA_FOLDER_LAYOUT.keys, `${key.hash}.json`)}: not an API key record (its hash is not a SHA-256)`);
    }
    return keys;
  }

  /** Every uploaded file, its record and bytes, one at a time. */
  async *uploads(): AsyncGenerator<{ record: UploadRecord; data: Buffer }> {
    const root = join(this.directory, DATA_FOLDER_LAYOUT.uploads);
    for (const folder of await this.names(root)) {
      for (const name of await this.names(join(root, folder))) {
        if (!name.endsWith(".json") || name.startsWith(".")) continue;
        const id = name.slice(0, -".json".length);
        const where = this.where(DATA_FOLDER_LAYOUT.uploads, folder, name);
        const record = parseStoredJson(await this.read(join(root, folder, name)), "upload record", where) as UploadRecord;
        if (!isUploadId(record?.id) || record.id !== id || typeof record.tenant !== "string" || typeof record.size !== "number") {
          throw new ServerStoreError(`${where}: not an upload record of ${id}`);
        }
        const data = await readFile(join(root, folder, `${id}.bin`)).catch((error: NodeJS.ErrnoException) => {
          throw new ServerStoreError(`${this.where(DATA_FOLDER_LAYOUT.uploads, folder, `${id}.bin`)}: the bytes of upload ${id} cannot be read: ${error.message}`);
        });
        if (data.length !== record.size) throw new ServerStoreError(`${where}: upload ${id} says ${record.size} bytes, its .bin holds ${data.length}`);
        yield { record, data };
      }
    }
  }

  /** The run state of the sessions (a FileSnapshotStore on `<data>/sessions`, keys: the session ids). */
  runs(): FileSnapshotStore {
    return new FileSnapshotStore({ directory: join(this.directory, DATA_FOLDER_LAYOUT.runs) });
  }

  /** The keys of the sessions that have run state. */
  async runKeys(): Promise<string[]> {
    return (await this.names(join(this.directory, DATA_FOLDER_LAYOUT.runs))).filter((name) => name.endsWith(".json") && !name.startsWith(".")).map((name) => name.slice(0, -".json".length));
  }

  /**
   * Every tenant's memories with their messages, oldest first. A tenant folder's name encodes its
   * tenant (fileNameOf); one too long for that is a digest, found among `tenants`.
   */
  async memories(tenants: Iterable<string>): Promise<Array<{ tenant: string; id: string; messages: MemoryMessage[] }>> {
    const root = join(this.directory, DATA_FOLDER_LAYOUT.memories, "tenants");
    const byName = new Map([...tenants].map((tenant) => [fileNameOf(tenant), tenant]));
    const found: Array<{ tenant: string; id: string; messages: MemoryMessage[] }> = [];
    for (const folder of await this.names(root)) {
      const tenant = byName.get(folder) ?? decodedName(folder);
      if (tenant === undefined) throw new ServerStoreError(`${this.where(DATA_FOLDER_LAYOUT.memories, "tenants", folder)}: the memories of a tenant this data folder does not name (no agent, session or key of it)`);
      for (const name of await this.names(join(root, folder))) {
        if (!name.endsWith(".jsonl")) continue;
        const where = this.where(DATA_FOLDER_LAYOUT.memories, "tenants", folder, name);
        const lines = (await this.read(join(root, folder, name))).split("\n").filter((line) => line.trim() !== "");
        const messages = lines.map((line, index) => parseMessage(line, `${where} line ${index + 1}`));
        const id = messages[0]?.memory_id;
        if (id === undefined) continue;
        if (fileNameOf(id) !== name.slice(0, -".jsonl".length)) throw new ServerStoreError(`${where}: its messages belong to memory ${JSON.stringify(id)}, whose file this is not`);
        found.push({ tenant, id, messages });
      }
    }
    return found;
  }

  /**
   * The memories written before memories had tenants (`<data>/memories/<id>.jsonl`), which serve
   * moved to their sessions' tenants when it started; what is left had no known session.
   */
  async legacyMemories(): Promise<Array<{ id: string; messages: MemoryMessage[] }>> {
    const root = join(this.directory, DATA_FOLDER_LAYOUT.memories);
    const found: Array<{ id: string; messages: MemoryMessage[] }> = [];
    for (const name of await this.names(root)) {
      const id = legacyIdOf(name);
      if (id === undefined) continue;
      const where = this.where(DATA_FOLDER_LAYOUT.memories, name);
      const lines = (await this.read(join(root, name))).split("\n").filter((line) => line.trim() !== "");
      found.push({ id, messages: lines.map((line, index) => parseMessage(line, `${where} line ${index + 1}`)) });
    }
    return found;
  }

  private async records<T>(folder: string, kind: RecordKind, expected: (name: string) => { id?: string }): Promise<T[]> {
    const out: T[] = [];
    for (const name of await this.names(join(this.directory, folder))) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue;
      const base = name.slice(0, -".json".length);
      out.push(parseStoredRecord<T>(kind, await this.read(join(this.directory, folder, name)), this.where(folder, name), expected(base)));
    }
    return out;
  }

  private where(...parts: string[]): string {
    return `data folder ${this.directory}: ${parts.join("/")}`;
  }

  private async names(folder: string): Promise<string[]> {
    try {
      return (await readdir(folder)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new ServerStoreError(`data folder ${this.directory}: ${folder} cannot be read: ${(error as Error).message}`);
    }
  }

  private async read(file: string): Promise<string> {
    try {
      return await readFile(file, "utf8");
    } catch (error) {
      throw new ServerStoreError(`data folder ${this.directory}: ${file} cannot be read: ${(error as Error).message}`);
    }
  }
}

/** The value of a readable file name (`_` and percent-encoding); undefined for a digest name. */
function decodedName(name: string): string | undefined {
  if (!name.startsWith("_")) return undefined;
  try {
    const value = decodeURIComponent(name.slice(1));
    return fileNameOf(value) === name ? value : undefined;
  } catch {
    return undefined;
  }
}
