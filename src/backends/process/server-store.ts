/**
 * A ServerStore in this process's memory: for tests and single-process trials. Records are kept
 * as JSON text, so what a caller gets is always a copy.
 */
import { InProcessCancelSignals } from "./cancel.js";
import { InProcessSnapshotStore } from "./session-store.js";
import { listPage } from "../shared/paging.js";
import { checkNewRecord, isKeyHash, isRecordId, patchedAgent, patchedSession } from "../shared/records.js";
import { DuplicateTitleError, ServerStoreError } from "../errors.js";
import type { AgentPatch, AgentRecord, AgentStore, ApiKeyRecord, ApiKeyStore, ListQuery, Page, ServerStore, SessionPatch, SessionRecord, SessionRecordStore, UploadLimits, UploadRecord, UploadStore } from "../contracts.js";
import { checkUpload, isUploadId, uploadsToDrop } from "../shared/uploads.js";

const STORE = "memory store";
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

class MemoryAgents implements AgentStore {
  readonly records = new Map<string, string>();

  constructor(private readonly sessions: MemorySessions) {}

  async create(agent: AgentRecord): Promise<AgentRecord> {
    checkNewRecord("agent", agent, STORE);
    if (this.records.has(agent.id)) throw new ServerStoreError(`${STORE}: agent ${agent.id} already exists`);
    if (this.titled(agent.tenant, agent.title)) throw new DuplicateTitleError(agent.title);
    this.records.set(agent.id, JSON.stringify(agent));
    return copy(agent);
  }

  async get(tenant: string, id: string): Promise<AgentRecord | undefined> {
    const text = isRecordId(id) ? this.records.get(id) : undefined;
    const agent = text ? (JSON.parse(text) as AgentRecord) : undefined;
    return agent?.tenant === tenant ? agent : undefined;
  }

  async list(tenant: string, query: ListQuery): Promise<Page<AgentRecord>> {
    const mine = [...this.records.values()].map((t) => JSON.parse(t) as AgentRecord).filter((a) => a.tenant === tenant);
    return listPage(mine, query, (a) => a.title);
  }

  async update(tenant: string, id: string, patch: AgentPatch, now: number): Promise<AgentRecord | undefined> {
    const agent = await this.get(tenant, id);
    if (!agent) return undefined;
    if (patch.title !== undefined && patch.title.toLowerCase() !== agent.title.toLowerCase() && this.titled(tenant, patch.title)) {
      throw new DuplicateTitleError(patch.title);
    }
    const updated = patchedAgent(agent, patch, now, STORE);
    this.records.set(id, JSON.stringify(updated));
    return copy(updated);
  }

  async delete(tenant: string, id: string): Promise<boolean> {
    if (!(await this.get(tenant, id))) return false;
    this.records.delete(id);
    this.sessions.dropAgent(tenant, id);
    return true;
  }

  private titled(tenant: string, title: string): boolean {
    const wanted = title.toLowerCase();
    for (const text of this.records.values()) {
      const agent = JSON.parse(text) as AgentRecord;
      if (agent.tenant === tenant && agent.title.toLowerCase() === wanted) return true;
    }
    return false;
  }
}

class MemorySessions implements SessionRecordStore {
  private readonly records = new Map<string, string>();

  async create(record: SessionRecord): Promise<SessionRecord> {
    checkNewRecord("session record", record, STORE);
    if (this.records.has(record.id)) throw new ServerStoreError(`${STORE}: session record ${record.id} already exists`);
    this.records.set(record.id, JSON.stringify(record));
    return copy(record);
  }

  async get(tenant: string, id: string): Promise<SessionRecord | undefined> {
    const text = isRecordId(id) ? this.records.get(id) : undefined;
    const record = text ? (JSON.parse(text) as SessionRecord) : undefined;
    return record?.tenant === tenant ? record : undefined;
  }

  async tenantOf(id: string): Promise<string | undefined> {
    const text = isRecordId(id) ? this.records.get(id) : undefined;
    return text ? (JSON.parse(text) as SessionRecord).tenant : undefined;
  }

  async list(tenant: string, agentId: string, query: ListQuery): Promise<Page<SessionRecord>> {
    const mine = [...this.records.values()]
      .map((t) => JSON.parse(t) as SessionRecord)
      .filter((s) => s.tenant === tenant && s.agent_id === agentId && (query.user_id === undefined || s.user_id === query.user_id));
    return listPage(mine, query, (s) => s.name);
  }

  async update(tenant: string, id: string, patch: SessionPatch, now: number): Promise<SessionRecord | undefined> {
    const record = await this.get(tenant, id);
    if (!record) return undefined;
    const updated = patchedSession(record, patch, now, STORE);
    this.records.set(id, JSON.stringify(updated));
    return copy(updated);
  }

  async delete(tenant: string, ids: readonly string[]): Promise<string[]> {
    const deleted: string[] = [];
    for (const id of ids) {
      if (await this.get(tenant, id)) {
        this.records.delete(id);
        deleted.push(id);
      }
    }
    return deleted;
  }

  dropAgent(tenant: string, agentId: string): void {
    for (const [id, text] of this.records) {
      const record = JSON.parse(text) as SessionRecord;
      if (record.tenant === tenant && record.agent_id === agentId) this.records.delete(id);
    }
  }
}

class MemoryKeys implements ApiKeyStore {
  private readonly records = new Map<string, ApiKeyRecord>();

  async create(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    checkNewRecord("API key", key, STORE);
    if (this.records.has(key.id)) throw new ServerStoreError(`${STORE}: API key ${key.id} already exists`);
    for (const other of this.records.values()) if (other.hash === key.hash) throw new ServerStoreError(`${STORE}: another API key (${other.id}) has this hash`);
    this.records.set(key.id, copy(key));
    return copy(key);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    if (!isKeyHash(hash)) return undefined;
    for (const key of this.records.values()) if (key.hash === hash && !key.revoked) return copy(key);
    return undefined;
  }

  async list(tenant?: string): Promise<ApiKeyRecord[]> {
    return [...this.records.values()].filter((k) => tenant === undefined || k.tenant === tenant).sort((a, b) => a.create_time - b.create_time).map(copy);
  }

  async revoke(id: string): Promise<boolean> {
    const key = this.records.get(id);
    if (!key) return false;
    key.revoked = true;
    return true;
  }
}

class MemoryUploads implements UploadStore {
  private readonly files = new Map<string, { record: UploadRecord; data: Buffer }>();

  async put(record: UploadRecord, data: Buffer, limits: UploadLimits): Promise<void> {
    checkUpload(record, data, limits, STORE);
    this.files.set(record.id, { record: copy(record), data: Buffer.from(data) });
    const own = [...this.files.values()].filter((f) => f.record.tenant === record.tenant).map((f) => f.record);
    for (const id of uploadsToDrop(own, limits, Date.now())) this.files.delete(id);
  }

  async get(tenant: string, id: string, now: number): Promise<{ record: UploadRecord; data: Buffer } | undefined> {
    const file = isUploadId(id) ? this.files.get(id) : undefined;
    if (!file || file.record.tenant !== tenant || file.record.expire_time <= now) return undefined;
    return { record: copy(file.record), data: Buffer.from(file.data) };
  }
}

export class InProcessServerStore implements ServerStore {
  readonly sessions = new MemorySessions();
  readonly agents = new MemoryAgents(this.sessions);
  readonly keys = new MemoryKeys();
  readonly uploads = new MemoryUploads();
  readonly runs = new InProcessSnapshotStore();
  readonly cancel = new InProcessCancelSignals();
  readonly location = "memory";

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    await this.runs.close();
    await this.cancel.close();
  }
}

/** @deprecated Renamed InProcessServerStore ("memory" names conversation memories only). */
export const MemoryServerStore = InProcessServerStore;
/** @deprecated Renamed InProcessServerStore ("memory" names conversation memories only). */
export type MemoryServerStore = InProcessServerStore;
