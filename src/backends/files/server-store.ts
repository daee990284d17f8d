/**
 * A ServerStore in a folder (the server's default, `./.canvasflow`), so a fresh machine needs no
 * service. Every record is one JSON file, replaced whole through a temp file and a rename (a
 * reader never sees half of one):
 *
 *     <data>/agents/<agent id>.json            AgentRecord
 *     <data>/session-records/<session id>.json SessionRecord (RAGFlow's session object)
 *     <data>/keys/<sha256 of the key>.json     ApiKeyRecord (found by hash with one read)
 *     <data>/uploads/<tenant digest>/<id>.json UploadRecord, and <id>.bin its bytes
 *     <data>/sessions/                         the sessions' run state (FileSnapshotStore)
 *     <data>/cancel/                           cancel flags (FileCancelSignals)
 *
 * Ids are unique across tenants, as in the databases. Writes take the lock file of their folder
 * (`agents/.lock`, … : file-lock.ts), so processes sharing the folder neither lose an update nor
 * let two agents of a tenant take one title; reads take no lock. A new session record takes none
 * either: an exclusive hard link claims its name (`writeNew`).
 *
 * Listing: a list reads the folder and stats each record file; each process keeps a summary of
 * every file it has parsed (the fields lists filter and sort on), checked against the file's
 * inode, size and mtime, so a file is read again only when it changed, and only the records of
 * the page asked for are read whole. That is one readdir and one stat per record of the kind per
 * list: fine for thousands of records; beyond that, use PostgreSQL or Redis.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdir, readFile, rename, stat, unlink, access, constants, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { FileCancelSignals } from "./cancel.js";
import { noHardLinks, writeFileAtomic, writeNewFileAtomic } from "./io.js";
import { makeFolderPrivate, makePrivateFolder, PRIVATE_FILE_MODE } from "../../util/private-files.js";
import { acquireFileLock, DEFAULT_LOCK_TIMEOUT_MS, withFileLock, type FileLock } from "./lock.js";
import { FileSnapshotStore } from "./session-store.js";
import { SnapshotStoreError, DamagedRecordError, StoredRecordError, DuplicateTitleError, ServerStoreError } from "../errors.js";
import { KeyedTurns } from "../../util/turns.js";
import { listPage } from "../shared/paging.js";
import { checkNewRecord, DamageListeners, damagedOwner, damagedRecord, isKeyHash, isRecordId, parseStoredRecord, patchedAgent, patchedSession, titleKey, type RecordKind } from "../shared/records.js";
import type { AgentPatch, AgentRecord, AgentStore, ApiKeyRecord, DamagedRecord, DamageListener, ApiKeyStore, ListQuery, Page, ServerStore, SessionPatch, SessionRecord, SessionRecordStore, UploadLimits, UploadRecord, UploadStore } from "../contracts.js";
import { checkUpload, isUploadId, uploadsToDrop } from "../shared/uploads.js";

export interface DataFolderServerStoreOptions {
  /** The data folder (created when first written). */
  directory: string;
  /** How long a write waits for another process's write lock on the same folder (default 10 s). */
  lockTimeoutMs?: number;
  /** fsync every record write and its folder, so it survives a power loss (default false, as the file session store). */
  sync?: boolean;
}

/** The sub-folders of a data folder. */
export const DATA_FOLDER_LAYOUT = {
  agents: "agents",
  sessionRecords: "session-records",
  keys: "keys",
  runs: "sessions",
  cancel: "cancel",
  uploads: "uploads",
} as const;

/** What a list needs of a record without reading it whole. */
interface Summary {
  id: string;
  tenant: string;
  create_time: number;
  update_time: number;
  /** Agents: the title; sessions: the name (what keywords search). */
  text: string;
  agent_id?: string;
  user_id?: string;
}

interface Cached<S> {
  ino: number;
  size: number;
  mtimeMs: number;
  value: S;
}

/** This process's writes to each folder (by lock path, whichever store instance makes them), one at a time. */
const folderTurns = new KeyedTurns();

/**
 * One folder of records of one kind, `<name>.json` each: reads, atomic writes, the folder's write
 * lock, and a per-file cache of what lists need (`digest`), revalidated by stat on every list.
 */

class RecordFolder<T extends { id: string; tenant: string }, S> {
  private readonly cache = new Map<string, Cached<S>>();

  constructor(
    readonly path: string,
    private readonly data: DataFolderServerStore,
    private readonly kind: RecordKind,
    private readonly digest: (record: T) => S,
  ) {}

  fileOf(name: string): string {
    return join(this.path, `${name}.json`);
  }

  /** How a file is named in messages: the data folder and the path inside it. */
  where(name: string): string {
    return `${this.data.location}: ${this.relative(this.fileOf(name))}`;
  }

  /** The record in `<name>.json`, or undefined when there is none. */
  async read(name: string, expectedId?: string): Promise<T | undefined> {
    const file = this.fileOf(name);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw this.data.fsFailure("read", file, error);
    }
    return parseStoredRecord<T>(this.kind, text, this.where(name), expectedId === undefined ? {} : { id: expectedId });
  }

  /**
   * Write a record under a name nobody has yet, without the folder's lock (an exclusive link);
   * false when the name is taken. On a file system without hard links: under the lock.
   */
  async writeNew(name: string, record: T): Promise<boolean> {
    const file = this.fileOf(name);
    const text = JSON.stringify(record);
    try {
      return await this.createdInFolder(() => writeNewFileAtomic(file, text, { sync: this.data.sync }));
    } catch (error) {
      if (!noHardLinks(error)) throw this.data.fsFailure("write", file, error);
    }
    return this.locked(async () => {
      if (await this.exists(name)) return false;
      await this.write(name, record);
      return true;
    });
  }

  /** Run `create`, making the folder first when it fails for want of it (only the first write pays for the mkdir). */
  private async createdInFolder<R>(create: () => Promise<R>): Promise<R> {
    try {
      return await create();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    try {
      await makePrivateFolder(this.path);
    } catch (cause) {
      throw this.data.fsFailure("create", this.path, cause);
    }
    return create();
  }

  async write(name: string, record: T): Promise<void> {
    const file = this.fileOf(name);
    try {
      await writeFileAtomic(file, JSON.stringify(record), { sync: this.data.sync });
    } catch (error) {
      throw this.data.fsFailure("write", file, error);
    }
  }

  async remove(name: string): Promise<boolean> {
    const file = this.fileOf(name);
    try {
      await unlink(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw this.data.fsFailure("delete", file, error);
    }
  }

  async exists(name: string): Promise<boolean> {
    try {
      await stat(this.fileOf(name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw this.data.fsFailure("look at", this.fileOf(name), error);
    }
  }

  /**
   * The digest of every record in the folder (a file that goes away meanwhile is left out). A
   * record that cannot be read is left out too, reported to the store's damage listeners and
   * added to `damaged`: one damaged file must not take every list of the folder down with it.
   */
  async all(damaged: DamagedRecord[] = []): Promise<Array<S & { fileName: string }>> {
    let names: string[];
    try {
      names = (await readdir(this.path)).filter((entry) => entry.endsWith(".json") && !entry.startsWith(".")).map((entry) => entry.slice(0, -".json".length));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw this.data.fsFailure("list", this.path, error);
    }
    const seen = new Set<string>();
    const out: Array<S & { fileName: string }> = [];
    for (const name of names) {
      const file = this.fileOf(name);
      seen.add(file);
      let info;
      try {
        info = await stat(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw this.data.fsFailure("look at", file, error);
      }
      const cached = this.cache.get(file);
      if (cached && cached.ino === info.ino && cached.size === info.size && cached.mtimeMs === info.mtimeMs) {
        out.push({ ...cached.value, fileName: name });
        continue;
      }
      let record: T | undefined;
      try {
        record = await this.read(name);
        if (record === undefined) continue;
        this.checkName(name, record);
      } catch (error) {
        if (!(error instanceof StoredRecordError)) throw error;
        damaged.push(await this.damaged(name, error));
        continue;
      }
      const value = this.digest(record);
      this.cache.set(file, { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, value });
      out.push({ ...value, fileName: name });
    }
    for (const file of this.cache.keys()) if (!seen.has(file)) this.cache.delete(file);
    return out;
  }

  /**
   * Run `action` holding the folder's write lock (created with the folder when missing). This
   * process's writes to the folder take turns first, in order (`folderTurns`), so the lock file
   * only has other processes to keep out: racing for it, hundreds of concurrent writes of one
   * process polled it at random and some waited out the lock timeout behind their own siblings.
   */
  async locked<R>(action: () => Promise<R>): Promise<R> {
    const lockPath = join(this.path, ".lock");
    return folderTurns.run(lockPath, () => this.lockedFile(lockPath, action));
  }

  private async lockedFile<R>(lockPath: string, action: () => Promise<R>): Promise<R> {
    const options = { purpose: "save", waitMs: this.data.lockTimeoutMs, staleAfterMs: this.data.lockTimeoutMs, session: `the ${this.kind}s of ${this.data.location}`, key: lockPath } as const;
    let lock: FileLock;
    try {
      // The folder is made only when the lock file cannot be created without it (the first write).
      lock = await this.createdInFolder(() => acquireFileLock(lockPath, options));
    } catch (error) {
      // The lock's own errors (held too long, cannot be created) are about the store, not a session.
      if (error instanceof SnapshotStoreError) throw new ServerStoreError(error.message);
      throw this.data.fsFailure("lock", lockPath, error);
    }
    try {
      return await action();
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw new ServerStoreError(error.message);
      if (error instanceof ServerStoreError) throw error;
      throw this.data.fsFailure("lock", lockPath, error);
    } finally {
      await lock.release();
    }
  }

  /** A damaged record as its owner may be told of it (reported to the store's listeners). */
  async damaged(name: string, error: StoredRecordError): Promise<DamagedRecord> {
    const text = await readFile(this.fileOf(name), "utf8").catch(() => "");
    const owner = damagedOwner(text);
    // A record's file is named by its id (a key's by its hash, which is not shown).
    const damaged = damagedRecord(this.kind, error, { ...owner, id: this.kind === "API key" ? owner.id : name });
    this.data.damage.report(damaged);
    return damaged;
  }

  /**
   * Read a record of a page or of one tenant's request: a damaged one is reported and reads as
   * missing, unless it is `tenant`'s own (told by what is left of it): then its owner gets the error.
   */
  async readFor(tenant: string, name: string, damaged?: DamagedRecord[]): Promise<T | undefined> {
    try {
      return await this.read(name, this.kind === "API key" ? undefined : name);
    } catch (error) {
      if (!(error instanceof StoredRecordError)) throw error;
      const found = await this.damaged(name, error);
      if (damaged) {
        if (found.tenant === tenant) damaged.push(found);
        return undefined;
      }
      if (found.tenant === tenant) throw new DamagedRecordError(`${this.kind} ${name} is damaged in the store: ${found.problem}`);
      return undefined;
    }
  }

  /** A record must be stored under its own name (its id; a key under its hash). */
  checkName(name: string, record: T): void {
    const expected = this.kind === "API key" ? (record as unknown as ApiKeyRecord).hash : record.id;
    if (expected !== name) {
      const what = this.kind === "API key" ? "hash" : "id";
      throw new StoredRecordError(`${this.where(name)}: the stored ${this.kind} says its ${what} is ${JSON.stringify(expected)}, but its file is named ${name}.json`, this.where(name));
    }
  }

  private relative(file: string): string {
    return file.startsWith(this.data.directory) ? file.slice(this.data.directory.length + 1) : file;
  }
}

class DataFolderAgents implements AgentStore {
  constructor(
    private readonly folder: RecordFolder<AgentRecord, Summary>,
    private readonly sessions: DataFolderSessions,
    private readonly store: string,
  ) {}

  async create(agent: AgentRecord): Promise<AgentRecord> {
    checkNewRecord("agent", agent, this.store);
    await this.folder.locked(async () => {
      if (await this.folder.exists(agent.id)) throw new ServerStoreError(`${this.store}: agent ${agent.id} already exists`);
      await this.checkTitleFree(agent.tenant, agent.title, agent.id);
      await this.folder.write(agent.id, agent);
    });
    return structuredClone(agent);
  }

  async get(tenant: string, id: string): Promise<AgentRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    const agent = await this.folder.readFor(tenant, id);
    return agent?.tenant === tenant ? agent : undefined;
  }

  async list(tenant: string, query: ListQuery): Promise<Page<AgentRecord>> {
    const damaged: DamagedRecord[] = [];
    const mine = (await this.folder.all(damaged)).filter((s) => s.tenant === tenant);
    const page = listPage(mine, query, (s) => s.text);
    const items = await readPage(page.items, (name) => this.folder.readFor(tenant, name, damaged), tenant);
    return withDamaged({ items, total: page.total }, damaged.filter((d) => d.tenant === tenant));
  }

  async update(tenant: string, id: string, patch: AgentPatch, now: number): Promise<AgentRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    return this.folder.locked(async () => {
      const agent = await this.get(tenant, id);
      if (!agent) return undefined;
      const updated = patchedAgent(agent, patch, now, this.store);
      if (titleKey(updated.title) !== titleKey(agent.title)) await this.checkTitleFree(tenant, updated.title, id);
      await this.folder.write(id, updated);
      return updated;
    });
  }

  async delete(tenant: string, id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    return this.folder.locked(async () => {
      if (!(await this.get(tenant, id))) return false;
      // The agent goes first: a crash after it leaves session records of a missing agent, which
      // no list shows (lists are per agent) rather than an agent with some of its sessions gone.
      await this.folder.remove(id);
      await this.sessions.dropAgent(tenant, id);
      return true;
    });
  }

  /** Called under the lock: no other agent of the tenant has this title (in any case). */
  private async checkTitleFree(tenant: string, title: string, self: string): Promise<void> {
    const wanted = titleKey(title);
    const taken = (await this.folder.all()).some((s) => s.tenant === tenant && s.id !== self && titleKey(s.text) === wanted);
    if (taken) throw new DuplicateTitleError(title);
  }
}

class DataFolderSessions implements SessionRecordStore {
  constructor(
    private readonly folder: RecordFolder<SessionRecord, Summary>,
    private readonly store: string,
  ) {}

  async create(record: SessionRecord): Promise<SessionRecord> {
    checkNewRecord("session record", record, this.store);
    // A new id: no lock needed to take it (an exclusive link); one per turn without a session id.
    if (!(await this.folder.writeNew(record.id, record))) throw new ServerStoreError(`${this.store}: session record ${record.id} already exists`);
    return structuredClone(record);
  }

  async get(tenant: string, id: string): Promise<SessionRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    const record = await this.folder.readFor(tenant, id);
    return record?.tenant === tenant ? record : undefined;
  }

  async tenantOf(id: string): Promise<string | undefined> {
    if (!isRecordId(id)) return undefined;
    return (await this.folder.read(id, id))?.tenant;
  }

  async list(tenant: string, agentId: string, query: ListQuery): Promise<Page<SessionRecord>> {
    const damaged: DamagedRecord[] = [];
    const mine = (await this.folder.all(damaged)).filter((s) => s.tenant === tenant && s.agent_id === agentId && (query.user_id === undefined || s.user_id === query.user_id));
    const page = listPage(mine, query, (s) => s.text);
    const items = await readPage(page.items, (name) => this.folder.readFor(tenant, name, damaged), tenant);
    // A damaged record whose agent cannot be told is shown in each of its owner's session lists.
    return withDamaged({ items, total: page.total }, damaged.filter((d) => d.tenant === tenant && (d.agent_id === undefined || d.agent_id === agentId)));
  }

  async update(tenant: string, id: string, patch: SessionPatch, now: number): Promise<SessionRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    return this.folder.locked(async () => {
      const record = await this.get(tenant, id);
      if (!record) return undefined;
      const updated = patchedSession(record, patch, now, this.store);
      await this.folder.write(id, updated);
      return updated;
    });
  }

  async delete(tenant: string, ids: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(ids)].filter(isRecordId);
    if (wanted.length === 0) return [];
    return this.folder.locked(async () => {
      const deleted: string[] = [];
      for (const id of wanted) {
        if ((await this.get(tenant, id)) && (await this.folder.remove(id))) deleted.push(id);
      }
      return deleted;
    });
  }

  /** Remove an agent's session records (its delete calls this). */
  async dropAgent(tenant: string, agentId: string): Promise<void> {
    await this.folder.locked(async () => {
      for (const s of await this.folder.all()) if (s.tenant === tenant && s.agent_id === agentId) await this.folder.remove(s.fileName);
    });
  }
}

class DataFolderKeys implements ApiKeyStore {
  constructor(
    private readonly folder: RecordFolder<ApiKeyRecord, ApiKeyRecord>,
    private readonly store: string,
  ) {}

  async create(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    checkNewRecord("API key", key, this.store);
    await this.folder.locked(async () => {
      const all = await this.folder.all();
      if (all.some((k) => k.id === key.id)) throw new ServerStoreError(`${this.store}: API key ${key.id} already exists`);
      if (await this.folder.exists(key.hash)) throw new ServerStoreError(`${this.store}: another API key has this hash (${this.folder.where(key.hash)})`);
      await this.folder.write(key.hash, key);
    });
    return structuredClone(key);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    if (!isKeyHash(hash)) return undefined;
    let key: ApiKeyRecord | undefined;
    try {
      key = await this.folder.read(hash);
      if (key === undefined) return undefined;
      this.folder.checkName(hash, key);
    } catch (error) {
      if (!(error instanceof StoredRecordError)) throw error;
      // A key whose record cannot be read opens nothing (its holder gets 401; the log says why).
      await this.folder.damaged(hash, error);
      return undefined;
    }
    return key.revoked ? undefined : key;
  }

  async list(tenant?: string): Promise<ApiKeyRecord[]> {
    return (await this.folder.all())
      .filter((k) => tenant === undefined || k.tenant === tenant)
      .sort((a, b) => a.create_time - b.create_time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ fileName: _file, ...key }) => key as ApiKeyRecord);
  }

  async revoke(id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    return this.folder.locked(async () => {
      const found = (await this.folder.all()).find((k) => k.id === id);
      if (!found) return false;
      const key = await this.folder.read(found.fileName);
      if (!key) return false;
      if (!key.revoked) await this.folder.write(found.fileName, { ...key, revoked: true });
      return true;
    });
  }
}

function agentSummary(a: AgentRecord): Summary {
  return { id: a.id, tenant: a.tenant, create_time: a.create_time, update_time: a.update_time, text: a.title };
}

function sessionSummary(s: SessionRecord): Summary {
  return { id: s.id, tenant: s.tenant, create_time: s.create_time, update_time: s.update_time, text: s.name, agent_id: s.agent_id, user_id: s.user_id };
}

function withDamaged<T>(page: Page<T>, damaged: DamagedRecord[]): Page<T> {
  return damaged.length > 0 ? { ...page, damaged } : page;
}

/** The records of a page, read whole (one that was deleted since it was listed is left out). */
async function readPage<T extends { tenant: string }>(items: ReadonlyArray<{ fileName: string }>, read: (name: string) => Promise<T | undefined>, tenant: string): Promise<T[]> {
  const records: Array<T | undefined> = await Promise.all(items.map((item) => read(item.fileName)));
  return records.filter((r): r is T => r !== undefined && r.tenant === tenant);
}

/**
 * Uploads, one folder per tenant (named by a digest of the tenant, so any tenant string makes a
 * safe name): the bytes are written first, then the record, so a record always has its bytes.
 * A tenant's expired and surplus files go when it uploads again, under the folder's lock.
 */
class DataFolderUploads implements UploadStore {
  constructor(
    private readonly data: DataFolderServerStore,
    private readonly path: string,
  ) {}

  private folderOf(tenant: string): string {
    return join(this.path, createHash("sha256").update(tenant).digest("hex").slice(0, 32));
  }

  async put(record: UploadRecord, data: Buffer, limits: UploadLimits): Promise<void> {
    checkUpload(record, data, limits, this.data.location);
    const folder = this.folderOf(record.tenant);
    const lockPath = join(folder, ".lock");
    try {
      await makePrivateFolder(folder);
    } catch (error) {
      throw this.data.fsFailure("create", folder, error);
    }
    await this.locked(lockPath, async () => {
      await this.writeWhole(join(folder, `${record.id}.bin`), data);
      await this.writeWhole(join(folder, `${record.id}.json`), Buffer.from(JSON.stringify(record)));
      const own: UploadRecord[] = [];
      for (const name of await readdir(folder)) {
        if (!name.endsWith(".json")) continue;
        const kept = await this.readRecord(folder, name.slice(0, -5));
        if (kept) own.push(kept);
      }
      for (const id of uploadsToDrop(own, limits, Date.now())) {
        await unlink(join(folder, `${id}.json`)).catch(() => undefined);
        await unlink(join(folder, `${id}.bin`)).catch(() => undefined);
      }
    });
  }

  async get(tenant: string, id: string, now: number): Promise<{ record: UploadRecord; data: Buffer } | undefined> {
    if (!isUploadId(id)) return undefined;
    const folder = this.folderOf(tenant);
    const record = await this.readRecord(folder, id);
    if (!record || record.tenant !== tenant || record.expire_time <= now) return undefined;
    try {
      return { record, data: await readFile(join(folder, `${id}.bin`)) };
    } catch (error) {
      // Dropped by another process between the two reads.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw this.data.fsFailure("read", join(folder, `${id}.bin`), error);
    }
  }

  private async readRecord(folder: string, id: string): Promise<UploadRecord | undefined> {
    const file = join(folder, `${id}.json`);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw this.data.fsFailure("read", file, error);
    }
    try {
      return JSON.parse(text) as UploadRecord;
    } catch {
      throw new ServerStoreError(`${this.data.location}: the upload record ${file} is not JSON`);
    }
  }

  /** Through a temp file and a rename: a reader never sees half of it. */
  private async writeWhole(file: string, content: Buffer): Promise<void> {
    const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, content, { flag: "wx", mode: PRIVATE_FILE_MODE });
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw this.data.fsFailure("write", file, error);
    }
  }

  private async locked(lockPath: string, action: () => Promise<void>): Promise<void> {
    try {
      await withFileLock(lockPath, { purpose: "save", waitMs: this.data.lockTimeoutMs, staleAfterMs: this.data.lockTimeoutMs, session: `the uploads of ${this.data.location}`, key: lockPath }, action);
    } catch (error) {
      if (error instanceof SnapshotStoreError) throw new ServerStoreError(error.message);
      if (error instanceof ServerStoreError) throw error;
      throw this.data.fsFailure("lock", lockPath, error);
    }
  }
}

export class DataFolderServerStore implements ServerStore {
  /** The folder, as an absolute path. */
  readonly directory: string;
  readonly location: string;
  readonly lockTimeoutMs: number;
  readonly sync: boolean;
  readonly agents: DataFolderAgents;
  readonly sessions: DataFolderSessions;
  readonly keys: DataFolderKeys;
  readonly uploads: DataFolderUploads;
  readonly runs: FileSnapshotStore;
  readonly cancel: FileCancelSignals;
  /** Who is told of the damaged records the folders skip. */
  readonly damage = new DamageListeners();

  constructor(options: DataFolderServerStoreOptions) {
    if (typeof options?.directory !== "string" || options.directory === "") throw new ServerStoreError("a data folder store needs a directory: a non-empty folder path");
    this.directory = resolve(options.directory);
    this.location = `data folder ${this.directory}`;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    if (!Number.isInteger(this.lockTimeoutMs) || this.lockTimeoutMs <= 0) throw new ServerStoreError(`lockTimeoutMs must be a positive whole number of milliseconds, got ${String(options.lockTimeoutMs)}`);
    if (options.sync !== undefined && typeof options.sync !== "boolean") throw new ServerStoreError(`sync must be true or false, got ${JSON.stringify(options.sync)}`);
    this.sync = options.sync ?? false;
    const sessionFolder = new RecordFolder<SessionRecord, Summary>(join(this.directory, DATA_FOLDER_LAYOUT.sessionRecords), this, "session record", sessionSummary);
    this.sessions = new DataFolderSessions(sessionFolder, this.location);
    this.agents = new DataFolderAgents(new RecordFolder<AgentRecord, Summary>(join(this.directory, DATA_FOLDER_LAYOUT.agents), this, "agent", agentSummary), this.sessions, this.location);
    this.keys = new DataFolderKeys(new RecordFolder<ApiKeyRecord, ApiKeyRecord>(join(this.directory, DATA_FOLDER_LAYOUT.keys), this, "API key", (k) => k), this.location);
    this.uploads = new DataFolderUploads(this, join(this.directory, DATA_FOLDER_LAYOUT.uploads));
    this.runs = new FileSnapshotStore({ directory: join(this.directory, DATA_FOLDER_LAYOUT.runs), lockTimeoutMs: this.lockTimeoutMs, sync: this.sync });
    this.cancel = new FileCancelSignals({ directory: join(this.directory, DATA_FOLDER_LAYOUT.cancel) });
  }

  onDamaged(listener: DamageListener): () => void {
    return this.damage.add(listener);
  }

  /** The folder exists (it is created if missing) and can be written. */
  async ping(): Promise<void> {
    try {
      await makePrivateFolder(this.directory);
      await access(this.directory, constants.R_OK | constants.W_OK);
    } catch (error) {
      throw this.fsFailure("use", this.directory, error);
    }
  }

  /**
   * Close the folder to other users of the machine if it is open to them (a folder made by an
   * older version, or by hand, 0755): its mode becomes 0700 when this user owns it, so what is
   * inside, whatever its own modes, cannot be reached. Resolves to what was done, in words, or
   * undefined when the folder is private already (or not made yet: it will be, 0700).
   */
  async protect(): Promise<string | undefined> {
    let found;
    try {
      found = await makeFolderPrivate(this.directory);
    } catch (error) {
      return `${this.location} may be open to other users of this machine: cannot check or change its mode: ${(error as Error).message}`;
    }
    if (found === undefined) return undefined;
    const octal = (mode: number) => mode.toString(8).padStart(3, "0");
    if (found.closed) return `${this.location} was open to other users of this machine (mode ${octal(found.from)}): made it ${octal(found.from & 0o700)}, its owner's only`;
    return `${this.location} is open to other users of this machine (mode ${octal(found.mode)}) and belongs to another user (uid ${found.owner}): its owner should make it private (chmod 700)`;
  }

  async close(): Promise<void> {
    await this.runs.close();
    await this.cancel.close();
  }

  /** A file system failure in words naming the store and the path. */
  fsFailure(verb: string, path: string, error: unknown): ServerStoreError {
    if (error instanceof ServerStoreError) return error;
    const inside = path === this.directory ? "the folder" : path.startsWith(this.directory) ? path.slice(this.directory.length + 1) : path;
    return new ServerStoreError(`${this.location}: cannot ${verb} ${inside}: ${(error as Error).message}`);
  }
}
