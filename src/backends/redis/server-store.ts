/**
 * A ServerStore in Redis, for servers that share one Redis (any of them serves any session). Keys,
 * under `prefix` (default `canvasflow:`), with tenants and agent ids percent-encoded where they
 * are part of a key (so a ":" in a tenant cannot make one key look like another):
 *
 *     <p>agent:<id>                                   hash: json, tenant, title_key
 *     <p>agent-titles:<tenant>                        hash: lower-case title → agent id (uniqueness)
 *     <p>agents-by-create:<tenant>                    sorted set: agent id, score create_time
 *     <p>agents-by-update:<tenant>                    sorted set: agent id, score update_time
 *     <p>session-record:<id>                          hash: json, tenant, agent_id, user_id, name_key
 *     <p>session-records-by-create:<tenant>:<agent>   sorted set: session id, score create_time
 *     <p>session-records-by-update:<tenant>:<agent>   sorted set: session id, score update_time
 *     <p>apikey:<sha256>                              string: the key record's JSON
 *     <p>apikeys                                      hash: key id → sha256
 *     <p>upload:<id>, <p>upload:<id>:data             strings: the upload's record, its bytes (expiring)
 *     <p>uploads:<sha256 of the tenant, 32 hex>       sorted set: upload id, score create_time
 *
 * Every write is one Lua script (`server-scripts.ts`); updates compare and set. A list is one
 * script too, so a page is read at one moment and a listed id without its record is damage, not
 * a race. The run state is a RedisSnapshotStore under `<p>session:` on the same connection;
 * cancel flags are RedisCancelSignals (RAGFlow's `{task_id}-cancel` keys and the
 * `canvasflow:cancel` channel with the default prefix; `<p>{task_id}-cancel` and `<p>cancel`
 * with another).
 */
import { createHash } from "node:crypto";
import type { Redis, RedisOptions } from "ioredis";
import { DEFAULT_CANCEL_CHANNEL, RedisCancelSignals } from "./cancel.js";
import { RedisConnection } from "./connection.js";
import { RedisSnapshotStore } from "./session-store.js";
import { checkNewRecord, DamageListeners, damagedOwner, damagedRecord, isKeyHash, isRecordId, parseStoredRecord, patchedAgent, patchedSession, titleKey } from "../shared/records.js";
import { StoredRecordError, DuplicateTitleError, ServerStoreError } from "../errors.js";
import { AGENT_CREATE, AGENT_DELETE, AGENT_UPDATE, KEY_CREATE, LIST_PAGE, SESSION_CREATE, SESSION_DELETE, SESSION_UPDATE, STRING_SWAP } from "./server-scripts.js";
import type { AgentPatch, AgentRecord, AgentStore, ApiKeyRecord, ApiKeyStore, DamagedRecord, DamageListener, ListQuery, Page, ServerStore, SessionPatch, SessionRecord, SessionRecordStore, UploadLimits, UploadRecord, UploadStore } from "../contracts.js";
import { checkUpload, isUploadId, uploadsToDrop } from "../shared/uploads.js";

export const DEFAULT_REDIS_SERVER_PREFIX = "canvasflow:";

/**
 * Where the servers and workers under `prefix` keep cancel requests, for RedisCancelSignals: with
 * the default prefix RAGFlow's own `{task_id}-cancel` keys and `canvasflow:cancel` (so RAGFlow-style
 * pollers see them); with another, `<prefix>{task_id}-cancel` and `<prefix>cancel`, so deployments
 * sharing one Redis do not cancel each other's tasks. `canvasflow cancel --redis-prefix` uses it too.
 */
export function serverCancelLayout(prefix: string): { keyPrefix: string; channel: string } {
  return prefix === DEFAULT_REDIS_SERVER_PREFIX ? { keyPrefix: "", channel: DEFAULT_CANCEL_CHANNEL } : { keyPrefix: prefix, channel: `${prefix}cancel` };
}

export interface RedisServerStoreOptions {
  /** Where Redis is (default `redis://127.0.0.1:6379/0`); the store owns this connection. */
  url?: string;
  /** Extra ioredis options for the connection made from `url`. */
  redisOptions?: RedisOptions;
  /** Or a client you own: `close()` leaves it open. */
  client?: Redis;
  /** Prepended to every key (default `canvasflow:`). */
  prefix?: string;
}

/** Script names on the client (versioned: a shared client never runs another release's script). */
const SCRIPTS = {
  cfServerAgentCreate1: [4, AGENT_CREATE],
  cfServerAgentUpdate1: [3, AGENT_UPDATE],
  cfServerAgentDelete1: [6, AGENT_DELETE],
  cfServerSessionCreate1: [3, SESSION_CREATE],
  cfServerSessionUpdate1: [2, SESSION_UPDATE],
  cfServerSessionDelete1: [3, SESSION_DELETE],
  cfServerListPage1: [1, LIST_PAGE],
  cfServerKeyCreate1: [2, KEY_CREATE],
  cfServerStringSwap1: [1, STRING_SWAP],
} as const;
type ScriptName = keyof typeof SCRIPTS;
type Reply = Array<string | null>;

/** How many times an update reads again when another writer changed the record in between. */
const SWAP_ATTEMPTS = 20;

export class RedisServerStore implements ServerStore {
  readonly prefix: string;
  readonly location: string;
  readonly agents: AgentStore;
  readonly sessions: SessionRecordStore;
  readonly keys: ApiKeyStore;
  readonly uploads: UploadStore;
  readonly runs: RedisSnapshotStore;
  readonly cancel: RedisCancelSignals;
  readonly client: Redis;
  /** The connection and prefix again, as every ServerStore on Redis offers them (the server's rate limits share them). */
  readonly redis: { client: Redis; prefix: string };
  private readonly connection: RedisConnection;
  private closed = false;
  /** Who is told of the damaged records the lists skip. */
  readonly damage = new DamageListeners();

  onDamaged(listener: DamageListener): () => void {
    return this.damage.add(listener);
  }

  constructor(options: RedisServerStoreOptions = {}) {
    this.prefix = options.prefix ?? DEFAULT_REDIS_SERVER_PREFIX;
    if (typeof this.prefix !== "string") throw new ServerStoreError(`prefix must be a string, got ${typeof this.prefix}`);
    this.connection = new RedisConnection(options, "RedisServerStore", (message) => new ServerStoreError(message));
    this.client = this.connection.client;
    this.location = `Redis at ${this.connection.location} (prefix ${this.prefix})`;
    this.redis = { client: this.client, prefix: this.prefix };
    const defined = this.client as unknown as Record<string, unknown>;
    for (const [name, [numberOfKeys, lua]] of Object.entries(SCRIPTS)) {
      if (typeof defined[name] !== "function") this.client.defineCommand(name, { numberOfKeys, lua });
    }
    this.agents = new RedisAgents(this);
    this.sessions = new RedisSessions(this);
    this.keys = new RedisKeys(this);
    this.uploads = new RedisUploads(this);
    this.runs = new RedisSnapshotStore({ client: this.client, keyPrefix: `${this.prefix}session:` });
    this.cancel = new RedisCancelSignals({ client: this.client, ...serverCancelLayout(this.prefix) });
  }

  key(...parts: string[]): string {
    return this.prefix + parts.join(":");
  }

  async ping(): Promise<void> {
    await this.command("answering PING", [], () => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.runs.close();
    await this.cancel.close();
    await this.connection.close();
  }

  /** Run a script; a wrong-type refusal becomes an error naming the key. */
  async script(name: ScriptName, context: string, keys: string[], args: Array<string | number>): Promise<Reply> {
    const run = (this.client as unknown as Record<ScriptName, (...a: Array<string | number>) => Promise<Reply>>)[name];
    const reply = await this.command(context, keys, () => run.call(this.client, ...keys, ...args));
    if (reply[0] === "wrongtype") {
      throw new StoredRecordError(`${this.location}, ${context}: key ${reply[1]} holds a ${reply[2]}, but the store keeps a ${reply[3]} there`, String(reply[1]));
    }
    return reply;
  }

  /** A command's failure in words naming the server (and, when Redis refused it, what was being done and the keys). */
  async command<T>(context: string, keys: string[], run: () => Promise<T>): Promise<T> {
    if (this.closed) throw new ServerStoreError(`${this.location}: the store is closed`);
    try {
      return await run();
    } catch (error) {
      if (error instanceof ServerStoreError) throw error;
      const failure = this.connection.failure(error as Error);
      if (failure) throw new ServerStoreError(failure);
      throw new ServerStoreError(`${this.location}, ${context}${keys.length ? ` (${keys.join(", ")})` : ""}: ${(error as Error).message}`);
    }
  }

  /** A record hash's fields read back as a record of its kind (undefined when the hash is absent). */
  recordOf<T>(kind: "agent" | "session record", key: string, id: string, fields: Record<string, string>): T | undefined {
    if (Object.keys(fields).length === 0) return undefined;
    const where = `${this.location}: key ${key}`;
    if (fields.json === undefined) throw new StoredRecordError(`${where}: the stored ${kind} has no json field`, key);
    const record = parseStoredRecord<T & { tenant: string }>(kind, fields.json, where, { id });
    if (fields.tenant !== record.tenant) {
      throw new StoredRecordError(`${where}: the hash's tenant field (${JSON.stringify(fields.tenant ?? null)}) is not the stored ${kind}'s tenant (${JSON.stringify(record.tenant)})`, key);
    }
    return record;
  }

  /** One page of a sorted set of records (see LIST_PAGE). */
  async page<T>(kind: "agent" | "session record", set: string, recordPrefix: string, textField: string, tenant: string, query: ListQuery): Promise<Page<T>> {
    const offset = (Math.max(1, Math.floor(query.page)) - 1) * query.page_size;
    const filters = [query.id ?? "", query.keywords?.toLowerCase() ?? "", query.title?.toLowerCase() ?? "", query.user_id === undefined ? "" : `=${query.user_id}`];
    if (query.id !== undefined && !isRecordId(query.id)) return { items: [], total: 0 };
    const reply = await this.script("cfServerListPage1", `listing the ${kind}s of tenant ${JSON.stringify(tenant)}`, [set], [recordPrefix, query.desc ? "1" : "0", offset, Math.max(0, query.page_size), ...filters, textField]);
    const items: T[] = [];
    const damaged: DamagedRecord[] = [];
    for (let i = 2; i < reply.length; i += 3) {
      const id = reply[i]!;
      const key = recordPrefix + id;
      try {
        if (reply[i + 1] === null) {
          throw new StoredRecordError(`${this.location}: sorted set ${set} lists ${kind} ${id}, but there is no hash ${key} with a json field`, set);
        }
        const record = this.recordOf<T & { tenant: string }>(kind, key, id, { json: reply[i + 1]!, ...(reply[i + 2] === null ? {} : { tenant: reply[i + 2]! }) })!;
        if (record.tenant !== tenant) throw new StoredRecordError(`${this.location}: sorted set ${set} of tenant ${JSON.stringify(tenant)} lists ${kind} ${id}, which belongs to tenant ${JSON.stringify(record.tenant)}`, set);
        items.push(record);
      } catch (error) {
        // One damaged value costs its own place in the list, not the list. The set is the
        // tenant's: the tenant is told (unless the record says it is another's).
        if (!(error instanceof StoredRecordError)) throw error;
        const owner = damagedOwner(reply[i + 1] ?? "");
        const found = damagedRecord(kind, error, { ...owner, id, tenant: owner.tenant === undefined || owner.tenant === tenant ? tenant : owner.tenant });
        this.damage.report(found);
        if (found.tenant === tenant) damaged.push(found);
      }
    }
    return { items, total: Number(reply[1]) - damaged.length, ...(damaged.length > 0 ? { damaged } : {}) };
  }
}

const enc = encodeURIComponent;

class RedisAgents implements AgentStore {
  constructor(private readonly store: RedisServerStore) {}

  private agentKey(id: string): string {
    return this.store.key("agent", id);
  }

  private tenantKeys(tenant: string): { titles: string; byCreate: string; byUpdate: string } {
    return { titles: this.store.key("agent-titles", enc(tenant)), byCreate: this.store.key("agents-by-create", enc(tenant)), byUpdate: this.store.key("agents-by-update", enc(tenant)) };
  }

  async create(agent: AgentRecord): Promise<AgentRecord> {
    checkNewRecord("agent", agent, this.store.location);
    const t = this.tenantKeys(agent.tenant);
    const reply = await this.store.script("cfServerAgentCreate1", `creating agent ${agent.id}`, [this.agentKey(agent.id), t.titles, t.byCreate, t.byUpdate], [
      agent.id,
      agent.tenant,
      titleKey(agent.title),
      JSON.stringify(agent),
      agent.create_time,
      agent.update_time,
    ]);
    if (reply[0] === "id") throw new ServerStoreError(`${this.store.location}: agent ${agent.id} already exists`);
    if (reply[0] === "title") throw new DuplicateTitleError(agent.title);
    return structuredClone(agent);
  }

  async get(tenant: string, id: string): Promise<AgentRecord | undefined> {
    return (await this.read(tenant, id))?.record;
  }

  /** The agent and the JSON it was read as (for compare and set). */
  private async read(tenant: string, id: string): Promise<{ record: AgentRecord; json: string } | undefined> {
    if (!isRecordId(id)) return undefined;
    const key = this.agentKey(id);
    const fields = await this.store.command(`reading agent ${id}`, [key], () => this.store.client.hgetall(key));
    const record = this.store.recordOf<AgentRecord>("agent", key, id, fields);
    return record?.tenant === tenant ? { record, json: fields.json } : undefined;
  }

  async list(tenant: string, query: ListQuery): Promise<Page<AgentRecord>> {
    const t = this.tenantKeys(tenant);
    return this.store.page<AgentRecord>("agent", query.orderby === "create_time" ? t.byCreate : t.byUpdate, this.store.key("agent", ""), "title_key", tenant, query);
  }

  async update(tenant: string, id: string, patch: AgentPatch, now: number): Promise<AgentRecord | undefined> {
    for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt++) {
      const found = await this.read(tenant, id);
      if (!found) return undefined;
      const updated = patchedAgent(found.record, patch, now, this.store.location);
      const t = this.tenantKeys(tenant);
      const reply = await this.store.script("cfServerAgentUpdate1", `updating agent ${id}`, [this.agentKey(id), t.titles, t.byUpdate], [
        found.json,
        JSON.stringify(updated),
        titleKey(found.record.title),
        titleKey(updated.title),
        id,
        updated.update_time,
      ]);
      if (reply[0] === "title") throw new DuplicateTitleError(updated.title);
      if (reply[0] === "ok") return updated;
    }
    throw busy(this.store, `agent ${id}`);
  }

  async delete(tenant: string, id: string): Promise<boolean> {
    for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt++) {
      const found = await this.read(tenant, id);
      if (!found) return false;
      const t = this.tenantKeys(tenant);
      const sessions = sessionSets(this.store, tenant, id);
      const reply = await this.store.script("cfServerAgentDelete1", `deleting agent ${id}`, [this.agentKey(id), t.titles, t.byCreate, t.byUpdate, sessions.byCreate, sessions.byUpdate], [
        found.json,
        id,
        titleKey(found.record.title),
        this.store.key("session-record", ""),
      ]);
      if (reply[0] === "ok") return true;
    }
    throw busy(this.store, `agent ${id}`);
  }
}

function sessionSets(store: RedisServerStore, tenant: string, agentId: string): { byCreate: string; byUpdate: string } {
  return { byCreate: store.key("session-records-by-create", enc(tenant), enc(agentId)), byUpdate: store.key("session-records-by-update", enc(tenant), enc(agentId)) };
}

class RedisSessions implements SessionRecordStore {
  constructor(private readonly store: RedisServerStore) {}

  private recordKey(id: string): string {
    return this.store.key("session-record", id);
  }

  async create(record: SessionRecord): Promise<SessionRecord> {
    checkNewRecord("session record", record, this.store.location);
    const sets = sessionSets(this.store, record.tenant, record.agent_id);
    const reply = await this.store.script("cfServerSessionCreate1", `creating session record ${record.id}`, [this.recordKey(record.id), sets.byCreate, sets.byUpdate], [
      record.id,
      JSON.stringify(record),
      record.tenant,
      record.agent_id,
      record.user_id,
      record.name.toLowerCase(),
      record.create_time,
      record.update_time,
    ]);
    if (reply[0] === "id") throw new ServerStoreError(`${this.store.location}: session record ${record.id} already exists`);
    return structuredClone(record);
  }

  async get(tenant: string, id: string): Promise<SessionRecord | undefined> {
    return (await this.read(tenant, id))?.record;
  }

  async tenantOf(id: string): Promise<string | undefined> {
    if (!isRecordId(id)) return undefined;
    const key = this.recordKey(id);
    const fields = await this.store.command(`reading session record ${id}`, [key], () => this.store.client.hgetall(key));
    return this.store.recordOf<SessionRecord>("session record", key, id, fields)?.tenant;
  }

  private async read(tenant: string, id: string): Promise<{ record: SessionRecord; json: string } | undefined> {
    if (!isRecordId(id)) return undefined;
    const key = this.recordKey(id);
    const fields = await this.store.command(`reading session record ${id}`, [key], () => this.store.client.hgetall(key));
    const record = this.store.recordOf<SessionRecord>("session record", key, id, fields);
    return record?.tenant === tenant ? { record, json: fields.json } : undefined;
  }

  async list(tenant: string, agentId: string, query: ListQuery): Promise<Page<SessionRecord>> {
    const sets = sessionSets(this.store, tenant, agentId);
    return this.store.page<SessionRecord>("session record", query.orderby === "create_time" ? sets.byCreate : sets.byUpdate, this.store.key("session-record", ""), "name_key", tenant, query);
  }

  async update(tenant: string, id: string, patch: SessionPatch, now: number, known?: SessionRecord): Promise<SessionRecord | undefined> {
    // The caller's copy saves the read when it is still what is stored (the swap checks it).
    const guess = known?.id === id && known.tenant === tenant && isRecordId(id) ? { record: known, json: JSON.stringify(known) } : undefined;
    for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt++) {
      const found = attempt === 0 && guess ? guess : await this.read(tenant, id);
      if (!found) return undefined;
      const updated = patchedSession(found.record, patch, now, this.store.location);
      const sets = sessionSets(this.store, tenant, found.record.agent_id);
      const reply = await this.store.script("cfServerSessionUpdate1", `updating session record ${id}`, [this.recordKey(id), sets.byUpdate], [
        found.json,
        JSON.stringify(updated),
        updated.name.toLowerCase(),
        id,
        updated.update_time,
      ]);
      if (reply[0] === "ok") return updated;
    }
    throw busy(this.store, `session record ${id}`);
  }

  async delete(tenant: string, ids: readonly string[]): Promise<string[]> {
    const deleted: string[] = [];
    for (const id of new Set(ids)) {
      const found = await this.read(tenant, id);
      if (!found) continue;
      const sets = sessionSets(this.store, tenant, found.record.agent_id);
      const reply = await this.store.script("cfServerSessionDelete1", `deleting session record ${id}`, [this.recordKey(id), sets.byCreate, sets.byUpdate], [tenant, id]);
      if (reply[0] === "ok") deleted.push(id);
    }
    return deleted;
  }
}

/**
 * Uploads: the record (JSON) and the bytes under keys of their own, both expiring with the file
 * (PEXPIREAT), and a sorted set per tenant (by creation time) to find its files when it uploads
 * again: then ids whose record has expired leave the set, and the oldest go past the limits.
 */
class RedisUploads implements UploadStore {
  constructor(private readonly store: RedisServerStore) {}

  private recordKey(id: string): string {
    return this.store.key("upload", id);
  }

  private dataKey(id: string): string {
    return this.store.key("upload", id, "data");
  }

  private tenantKey(tenant: string): string {
    return this.store.key("uploads", createHash("sha256").update(tenant).digest("hex").slice(0, 32));
  }

  async put(record: UploadRecord, data: Buffer, limits: UploadLimits): Promise<void> {
    checkUpload(record, data, limits, this.store.location);
    const tenantKey = this.tenantKey(record.tenant);
    const keys = [this.recordKey(record.id), this.dataKey(record.id), tenantKey];
    const client = this.store.client;
    await this.store.command(`keeping upload ${record.id}`, keys, () =>
      client
        .multi()
        .set(keys[0], JSON.stringify(record), "PXAT", record.expire_time)
        .set(keys[1], data, "PXAT", record.expire_time)
        .zadd(tenantKey, record.create_time, record.id)
        .exec(),
    );
    const ids = await this.store.command("listing a tenant's uploads", [tenantKey], () => client.zrange(tenantKey, "0", "-1"));
    const texts = ids.length === 0 ? [] : await this.store.command("reading a tenant's uploads", [tenantKey], () => client.mget(ids.map((id) => this.recordKey(id))));
    const own: UploadRecord[] = [];
    const gone: string[] = [];
    ids.forEach((id, i) => {
      const text = texts[i];
      if (text === null || text === undefined) gone.push(id);
      else own.push(JSON.parse(text) as UploadRecord);
    });
    const drop = [...gone, ...uploadsToDrop(own, limits, Date.now())];
    if (drop.length === 0) return;
    await this.store.command("dropping a tenant's old uploads", [tenantKey], () =>
      client
        .multi()
        .del(...drop.flatMap((id) => [this.recordKey(id), this.dataKey(id)]))
        .zrem(tenantKey, ...drop)
        .exec(),
    );
  }

  async get(tenant: string, id: string, now: number): Promise<{ record: UploadRecord; data: Buffer } | undefined> {
    if (!isUploadId(id)) return undefined;
    const client = this.store.client;
    const text = await this.store.command(`reading upload ${id}`, [this.recordKey(id)], () => client.get(this.recordKey(id)));
    if (text === null) return undefined;
    const record = JSON.parse(text) as UploadRecord;
    if (record.tenant !== tenant || record.expire_time <= now) return undefined;
    const data = await this.store.command(`reading upload ${id}`, [this.dataKey(id)], () => client.getBuffer(this.dataKey(id)));
    return data === null ? undefined : { record, data };
  }
}

class RedisKeys implements ApiKeyStore {
  constructor(private readonly store: RedisServerStore) {}

  private keyKey(hash: string): string {
    return this.store.key("apikey", hash);
  }

  private get idsKey(): string {
    return this.store.key("apikeys");
  }

  async create(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    checkNewRecord("API key", key, this.store.location);
    const reply = await this.store.script("cfServerKeyCreate1", `creating API key ${key.id}`, [this.keyKey(key.hash), this.idsKey], [key.id, key.hash, JSON.stringify(key)]);
    if (reply[0] === "id") throw new ServerStoreError(`${this.store.location}: API key ${key.id} already exists`);
    if (reply[0] === "hash") throw new ServerStoreError(`${this.store.location}: another API key has this hash (key ${this.keyKey(key.hash)})`);
    return structuredClone(key);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    if (!isKeyHash(hash)) return undefined;
    let found;
    try {
      found = await this.read(hash);
    } catch (error) {
      // A key whose record cannot be read opens nothing (its holder gets 401; the log says why).
      if (!(error instanceof StoredRecordError)) throw error;
      this.store.damage.report(damagedRecord("API key", error, {}));
      return undefined;
    }
    return found && !found.record.revoked ? found.record : undefined;
  }

  private async read(hash: string, id?: string): Promise<{ record: ApiKeyRecord; json: string } | undefined> {
    const key = this.keyKey(hash);
    const json = await this.store.command(`reading API key ${id ?? hash}`, [key], () => this.store.client.get(key));
    if (json === null) return undefined;
    const record = parseStoredRecord<ApiKeyRecord>("API key", json, `${this.store.location}: key ${key}`, id === undefined ? {} : { id });
    if (record.hash !== hash) throw new StoredRecordError(`${this.store.location}: key ${key}: the stored API key says its hash is ${JSON.stringify(record.hash)}, but it is stored under ${hash}`, key);
    return { record, json };
  }

  async list(tenant?: string): Promise<ApiKeyRecord[]> {
    const ids = await this.store.command("listing the API keys", [this.idsKey], () => this.store.client.hgetall(this.idsKey));
    const keys: ApiKeyRecord[] = [];
    for (const [id, hash] of Object.entries(ids)) {
      try {
        const found = isKeyHash(hash) ? await this.read(hash, id) : undefined;
        if (!found) throw new StoredRecordError(`${this.store.location}: hash ${this.idsKey} lists API key ${id} with hash ${JSON.stringify(hash)}, but there is no such key ${this.keyKey(hash)}`, this.idsKey);
        if (tenant === undefined || found.record.tenant === tenant) keys.push(found.record);
      } catch (error) {
        // One damaged key must not stop `serve` (which counts the keys) nor hide the others.
        if (!(error instanceof StoredRecordError)) throw error;
        this.store.damage.report(damagedRecord("API key", error, { id }));
      }
    }
    return keys.sort((a, b) => a.create_time - b.create_time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async revoke(id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt++) {
      const hash = await this.store.command(`revoking API key ${id}`, [this.idsKey], () => this.store.client.hget(this.idsKey, id));
      if (hash === null) return false;
      const found = isKeyHash(hash) ? await this.read(hash, id) : undefined;
      if (!found) throw new StoredRecordError(`${this.store.location}: hash ${this.idsKey} lists API key ${id} with hash ${JSON.stringify(hash)}, but there is no such key ${this.keyKey(hash)}`, this.idsKey);
      if (found.record.revoked) return true;
      const reply = await this.store.script("cfServerStringSwap1", `revoking API key ${id}`, [this.keyKey(hash)], [found.json, JSON.stringify({ ...found.record, revoked: true })]);
      if (reply[0] === "ok") return true;
    }
    throw busy(this.store, `API key ${id}`);
  }
}

function busy(store: RedisServerStore, what: string): ServerStoreError {
  return new ServerStoreError(`${store.location}: ${what} kept changing while it was being written (${SWAP_ATTEMPTS} attempts); nothing was written`);
}
