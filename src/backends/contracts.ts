/**
 * The contracts of every store, one module for all backends (process memory, files, Redis,
 * PostgreSQL): what a backend implements and what the rest of canvasflow may rely on.
 * - Sessions: checkpoints and the event log (SnapshotStore, CheckpointStore) and their leases
 *   (SessionLock).
 * - Cancel signals (CancelSignals).
 * - The server's records (ServerStore: agents, session records, API keys, uploads).
 * - Conversation memories (MemoryStore).
 * Each backend folder (backends/process, files, redis, postgres) holds its implementations; one
 * conformance suite per contract runs every backend through it. The errors are in errors.ts.
 *
 * A leaf: it imports no backend (only types).
 */
import type { CanvasDsl } from "../dsl/types.js";
import type { Redis } from "ioredis";

// --- Sessions: checkpoints, the event log and leases ---

/*
 * Session stores: where a session lives between runs and during one, so that any process can
 * resume it: a base snapshot (`canvas.toJSON()`), the checkpoints written since (what changed
 * after each batch of a run, never the whole state), and the session's event log. A new base
 * (`save`) folds the checkpoints away; the event log stays (capped).
 *
 * Saves may be conditional on the version that was loaded (optimistic concurrency): when two
 * workers resume the same session, the second save fails with `SnapshotConflictError` instead of
 * silently replacing the first one's result.
 */
/** A stored snapshot and the version it is at. */
export interface StoredSnapshot {
  /** The base: the session as it was at the last `save`. */
  snapshot: CanvasDsl;
  /** An opaque token for this stored state (it changes with every save and append): pass it back as `expectedVersion` when saving. */
  version: string;
  /** The deltas of the checkpoints appended since the base, in order (seq 1, 2, 3…), parsed from JSON. */
  deltas: unknown[];
}

/**
 * One checkpoint of a run, as a store keeps it: what changed since the previous one and the
 * events emitted meanwhile, written together (atomically where the backend can), so the event
 * log never holds an event of a step the checkpoints do not have.
 */
export interface CheckpointRecord {
  /** 1 for the first checkpoint after the base, then one more each time. */
  seq: number;
  /** The delta as JSON text. */
  readonly delta: string;
  /**
   * The delta itself, when it shares nothing the run may still change (see `keptDelta` in
   * durable/writer.ts): a store in this process's memory keeps it instead of its text, and makes
   * a copy through JSON when it is loaded. `delta` is then made only if read.
   */
  readonly value?: object;
  /** The events emitted since the previous checkpoint, in order. */
  events: LoggedEvent[];
}

/** An event in a session's log. */
export interface LoggedEvent {
  /**
   * `<run>-<n>`: the run (the session's epoch) and the event's number in it, both decimal
   * integers. Ids only grow: compare them with `compareEventIds`.
   */
  id: string;
  /** The event as JSON text. */
  json: string;
  /**
   * The event itself, when the run that made it hands it over (read-only: the engine never
   * changes an event it emitted). A store in this process's memory keeps it instead of its text,
   * and copies it through JSON when it is read, which gives what the text would have.
   */
  readonly event?: object;
}

/** An event read back from the log. */
export interface StoredEvent {
  id: string;
  event: Record<string, unknown>;
}

export interface EventQuery {
  /** Only events after this id (`Last-Event-ID`); left out, from the oldest kept. */
  after?: string;
  /** At most this many (default: all). */
  limit?: number;
}

export interface AppendOptions {
  /** The session's lock (a checkpoint is only written by the run that holds it). */
  lock: SessionLock;
}

export interface SaveOptions {
  /**
   * Save only if the session is still at this version (the one `load` returned); `null` saves
   * only if the session does not exist yet. Left out, the save overwrites whatever is stored.
   */
  expectedVersion?: string | null;
  /**
   * Seconds until the session expires, counted from this save; a later save without it keeps the
   * session forever (unless the store has a default). Stores that cannot expire entries reject it.
   */
  ttlSeconds?: number;
  /**
   * Save under this lock, taken with `lock(key)` on this store. The save fails with
   * `SessionLockLostError` when the lock is no longer held. Left out, the save is refused with
   * `SessionLockedError` while another holder has the session's lock.
   */
  lock?: SessionLock;
}

export interface DeleteOptions {
  /** Delete under this lock (see `SaveOptions.lock`). */
  lock?: SessionLock;
}

/**
 * A session's lock: held from before a run starts until its result is saved, so that two runs of
 * one session never overlap. Optimistic concurrency (`expectedVersion`) still applies to saves
 * made under it.
 */
export interface SessionLock {
  /** The session key. */
  readonly key: string;
  /** Where the lock lives, for messages: the lock file, the Redis key. */
  readonly location: string;
  /** Let go of the lock if this holder still has it. Releasing twice is harmless. */
  release(): Promise<void>;
}

export interface SnapshotStore {
  /** The stored base and the checkpoints since, with its version, or `undefined` when there is none (or it expired). */
  load(key: string): Promise<StoredSnapshot | undefined>;
  /** Store a new base (the checkpoints before it are dropped; the event log is kept); resolves to its new version. */
  save(key: string, snapshot: CanvasDsl, options?: SaveOptions): Promise<string>;
  /** Remove a session; `false` when there was none. */
  delete(key: string, options?: DeleteOptions): Promise<boolean>;
  /**
   * Take the session's lock (the session need not exist yet). Fails at once with
   * `SessionLockedError`, naming the holder and how to clear a stale lock, when another holder
   * has it; a lock whose holder is gone (a process that died, an expired lease) is taken over.
   */
  lock(key: string): Promise<SessionLock>;
  /** Release connections, handles and the locks this store holds. The store cannot be used afterwards. */
  close(): Promise<void>;
}

/**
 * When a durable run writes its checkpoints: `sync` before the next batch starts, `async` behind
 * the run (in order, all durable before its last event), `exit` only when it ends.
 */
export type Durability = "sync" | "async" | "exit";

/**
 * A session store that also keeps checkpoints and the event log: what a durable run needs. Every
 * backend (memory, files, Redis, PostgreSQL) implements it.
 */
export interface CheckpointStore extends SnapshotStore {
  /** The durability a run gets when it does not choose one (each backend says why in its docs). */
  readonly defaultDurability: Durability;
  /**
   * Make everything written for the session so far survive a power loss, for backends whose
   * writes may sit in the OS's cache (files); a durable run calls it when an `async` or `exit`
   * run ends.
   */
  flush?(key: string): Promise<void>;
  /**
   * Add a checkpoint after the base (which must exist) and the ones before it: `record.seq` must
   * be one more than the last (`SnapshotConflictError` otherwise; nothing is written). Its events
   * join the event log. Resolves to the session's new version.
   */
  append(key: string, record: CheckpointRecord, options: AppendOptions): Promise<string>;
  /**
   * Log events ahead of their checkpoint, for a run that logs each event as it happens (so a
   * reader of the log sees it at once). Under the session's lock, with `append`'s rule: ids in
   * order, the first after the last one logged (`SnapshotConflictError` otherwise; nothing is
   * written). The session must exist. The checkpoints are not touched.
   */
  logEvents(key: string, events: LoggedEvent[], options: AppendOptions): Promise<void>;
  /** The session's logged events, oldest first (the log keeps the most recent `maxEvents`). */
  events(key: string, query?: EventQuery): Promise<StoredEvent[]>;
  /** The id of the last event the session logged, or undefined when it logged none (or was deleted). */
  lastEventId(key: string): Promise<string | undefined>;
  /**
   * `append`, done before it returns, for a store in this process's memory: a durable run in
   * `sync` mode then goes on without awaiting a promise per batch. Same checks and errors.
   */
  appendNow?(key: string, record: CheckpointRecord, options: AppendOptions): string;
}

// --- Cancel signals ---

/*
 * Cancel signals: any process may ask for a task's run to stop, and every process running that
 * task hears it (within 100 ms). As in RAGFlow, a request is a flag under the task's id
 * (`{task_id}-cancel`, with a time to live); unlike RAGFlow, the flag is cleared when the next
 * turn of the session starts, so one cancel does not kill every later turn.
 */
export interface CancelSignals {
  /** Ask for the task's run to stop (the flag lives `ttlSeconds`, default 600). */
  request(taskId: string, options?: { ttlSeconds?: number }): Promise<void>;
  /** Whether a cancel was asked for and not cleared. */
  isRequested(taskId: string): Promise<boolean>;
  /**
   * Call `onCancel` once when a cancel is asked for (at once if it already was). Resolves when
   * listening has begun; the returned function stops listening.
   */
  watch(taskId: string, onCancel: () => void, options?: WatchOptions): Promise<() => Promise<void>>;
  /** Clear the flag (a new turn starts). */
  clear(taskId: string): Promise<void>;
  close(): Promise<void>;
}

export interface WatchOptions {
  /**
   * The task id was made just now and nobody has seen it yet (a new session's own random id): no
   * cancel can be waiting for it, so the flag is not looked up first (one store round trip less).
   */
  unseen?: boolean;
}

// --- The server's records ---

/*
 * What `canvasflow serve` keeps besides the sessions' run state: agents, the records of their
 * sessions (RAGFlow's session objects: name, messages, times), and API keys. Every record
 * belongs to a tenant, and every read and write names one: a tenant never sees another's.
 *
 * The sessions' run state (base snapshot, checkpoints, event log, lease) lives in a
 * CheckpointStore on the same backend, and cancel requests go through its CancelSignals: a
 * ServerStore hands both out, so one `--redis`, `--postgres`, `--sqlite` or `--data` moves everything.
 *
 * Backends: in process (tests), a data folder (the default), Redis, PostgreSQL, SQLite; one conformance
 * suite (test/server/store-conformance.ts) runs against each.
 */

/** An agent as RAGFlow's API shows it (user_id is the owning tenant). */
export interface AgentRecord {
  /** 32 lowercase hex characters, as RAGFlow's ids. */
  id: string;
  tenant: string;
  title: string;
  description: string;
  /** The bare canvas DSL (a template envelope is unwrapped before it is stored). */
  dsl: CanvasDsl;
  canvas_type: string;
  avatar: string | null;
  /** Epoch milliseconds, as RAGFlow. */
  create_time: number;
  update_time: number;
}

/** A message of a session as RAGFlow's session objects list them. */
export interface SessionMessage {
  role: "user" | "assistant";
  content: string;
  id?: string;
  /** On a question: the documents it gave (an ingestion pipeline's upload, RAGFlow's file dict). */
  files?: unknown[];
  reference?: unknown;
  /** How the turn's run ended (Dify's API keeps it on the answer: GET /v1/workflows/run/{id}). */
  run?: RunSummary;
  /** The end user's rating of the answer (Dify's message feedback). */
  feedback?: MessageFeedback;
  /**
   * On a reply: its turn never finished, because the process running it died mid-run; `content`
   * is what it had produced (see docs/durable.md, "A server's turns across a crash").
   */
  interrupted?: true;
}

/** What a finished run showed, kept with its turn's answer. */
export interface RunSummary {
  /** succeeded, failed, stopped, partial-succeeded. */
  status: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: string | null;
  /** Seconds. */
  elapsed_time: number;
  total_tokens: number;
  total_steps: number;
  /** Epoch seconds. */
  created_at: number;
  finished_at: number;
}

export interface MessageFeedback {
  rating: "like" | "dislike";
  content: string | null;
  /** Epoch milliseconds. */
  time: number;
}

/** A session's record (its run state is in the CheckpointStore under the same id). */
export interface SessionRecord {
  id: string;
  tenant: string;
  agent_id: string;
  user_id: string;
  name: string;
  message: SessionMessage[];
  source: "agent";
  create_time: number;
  update_time: number;
}

/** An API key: only its SHA-256 is kept. */
export interface ApiKeyRecord {
  /** A short id to name the key in `keys list` and `keys revoke`. */
  id: string;
  tenant: string;
  name: string;
  /** SHA-256 of the key, lowercase hex. */
  hash: string;
  /** The key's last four characters, to tell keys apart in a list. */
  last4: string;
  create_time: number;
  revoked: boolean;
}

/** Paging and filters of RAGFlow's list endpoints. */
export interface ListQuery {
  /** 1-based. */
  page: number;
  page_size: number;
  orderby: "create_time" | "update_time";
  desc: boolean;
  /** Only this id. */
  id?: string;
  /** Agents: title contains it, case-insensitive. Sessions: name contains it. */
  keywords?: string;
  /** Agents: exactly this title, case-insensitive. */
  title?: string;
  /** Sessions: only this user's. */
  user_id?: string;
}

export interface Page<T> {
  items: T[];
  /** All records that match, across pages. */
  total: number;
  /**
   * Stored records of the asking tenant that could not be read and were left out (a truncated
   * file, a damaged value): the list is the rest. Absent when there are none.
   */
  damaged?: DamagedRecord[];
}

/**
 * A stored record that cannot be read, skipped by a list. `problem` is for its owner (no path, no
 * other tenant's ids); `detail` names the store, the file, key or row, for the server's log only.
 */
export interface DamagedRecord {
  kind: "agent" | "session record" | "API key";
  /** Its id, when it can be told (from the file's name, key or row, or what is left of it). */
  id?: string;
  /** Its owner, when it can be told: only they are told about it. */
  tenant?: string;
  /** A session record's agent, when it can be told. */
  agent_id?: string;
  problem: string;
  detail: string;
}

/** Receives every damaged record a store skips (a server logs them). */
export type DamageListener = (damaged: DamagedRecord) => void;

export interface AgentPatch {
  title?: string;
  description?: string;
  dsl?: CanvasDsl;
  canvas_type?: string;
  avatar?: string | null;
}

export interface SessionPatch {
  name?: string;
  message?: SessionMessage[];
}

export interface AgentStore {
  /** Store a new agent. A title another agent of the tenant has (case-insensitive) is a DuplicateTitleError. */
  create(agent: AgentRecord): Promise<AgentRecord>;
  /** The tenant's agent, or undefined (another tenant's agent is undefined too). */
  get(tenant: string, id: string): Promise<AgentRecord | undefined>;
  list(tenant: string, query: ListQuery): Promise<Page<AgentRecord>>;
  /** Change the given fields and update_time; undefined when there is no such agent of the tenant. */
  update(tenant: string, id: string, patch: AgentPatch, now: number): Promise<AgentRecord | undefined>;
  /** false when there was no such agent of the tenant. Its session records go with it. */
  delete(tenant: string, id: string): Promise<boolean>;
}

export interface SessionRecordStore {
  create(record: SessionRecord): Promise<SessionRecord>;
  get(tenant: string, id: string): Promise<SessionRecord | undefined>;
  /**
   * The tenant of a session, whoever asks (undefined when there is no such session): for the
   * operator's tools only (moving memories of earlier releases to their tenants), never a route.
   */
  tenantOf(id: string): Promise<string | undefined>;
  /** The tenant's sessions of one agent. */
  list(tenant: string, agentId: string, query: ListQuery): Promise<Page<SessionRecord>>;
  /**
   * `known`: the record as the caller last read or wrote it. A store that compares and swaps
   * (Redis) tries it as the current record first, saving a read; a stale one costs only that
   * try. Others ignore it.
   */
  update(tenant: string, id: string, patch: SessionPatch, now: number, known?: SessionRecord): Promise<SessionRecord | undefined>;
  /** Delete these (the tenant's) session records; resolves to the ids that were deleted. */
  delete(tenant: string, ids: readonly string[]): Promise<string[]>;
}

export interface ApiKeyStore {
  create(key: ApiKeyRecord): Promise<ApiKeyRecord>;
  /** The live (not revoked) key with this SHA-256, or undefined. */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Every key (revoked ones too), oldest first; optionally of one tenant. */
  list(tenant?: string): Promise<ApiKeyRecord[]>;
  /** false when there is no such key. */
  revoke(id: string): Promise<boolean>;
}

/** A file uploaded for later runs (Dify's POST /v1/files/upload), kept until it expires. */
export interface UploadRecord {
  id: string;
  tenant: string;
  /** The end user who uploaded it. */
  user: string;
  name: string;
  /** Bytes. */
  size: number;
  extension: string;
  mime_type: string;
  /** Epoch milliseconds. */
  create_time: number;
  /** Epoch milliseconds; from then on the file is gone. */
  expire_time: number;
}

/** How much a tenant may keep: past either bound its oldest files go. */
export interface UploadLimits {
  maxFiles: number;
  maxBytes: number;
}

export interface UploadStore {
  /** Keep a file (its size is `data`'s); the tenant's expired files go, then its oldest past `limits`. */
  put(record: UploadRecord, data: Buffer, limits: UploadLimits): Promise<void>;
  /** The tenant's file with its bytes, unless it has expired by `now` (another tenant's is undefined). */
  get(tenant: string, id: string, now: number): Promise<{ record: UploadRecord; data: Buffer } | undefined>;
}

export interface ServerStore {
  readonly agents: AgentStore;
  readonly sessions: SessionRecordStore;
  readonly keys: ApiKeyStore;
  /** Uploaded files, so every server process on the store finds them. */
  readonly uploads: UploadStore;
  /** The sessions' run state (key: the session id). */
  readonly runs: CheckpointStore;
  readonly cancel: CancelSignals;
  /** Where it all lives, for `/healthz` and logs (no secrets). */
  readonly location: string;
  /** The Redis connection of a store that uses one, and the prefix of its keys: the server keeps its rate-limit counters there. */
  readonly redis?: { client: Redis; prefix: string };
  /**
   * Rate-limit counters every server on the store shares, for a store without Redis that can
   * keep them (SQLite). Left out (and no Redis), each server process counts its own.
   */
  readonly rateLimitCounters?: RateLimitCounters;
  /**
   * Be told of every damaged record the store skips (a list, a title check, a key lookup);
   * returns the function that stops it. Stores that cannot hold a damaged record leave it out.
   */
  onDamaged?(listener: DamageListener): () => void;
  /** Throws when the backend cannot be reached (for readiness checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Fixed-window counters (the server's requests per minute per API key), shared by the processes
 * on one store. A counter's window starts with its first hit and lasts `windowMs`; the first hit
 * after it ran out starts a new one at 1.
 */
export interface RateLimitCounters {
  /** Count one hit of `name` at `now` (epoch ms): the hits in its current window, this one included, and the ms left of that window. */
  incr(name: string, windowMs: number, now: number): Promise<{ current: number; ttlMs: number }>;
}

// --- Conversation memories ---

/*
 * Conversation memories (RAGFlow's memory feature): named collections of what was said, written
 * by a Message whose `memory_ids` names them and searched by a Retrieval with
 * `retrieval_from: "memory"`. They live where the sessions live (this process, a folder, Redis or
 * PostgreSQL), so every process that serves a session sees the same memories.
 *
 * A memory is created by its first message, as a dataset id names a configured knowledge base: no
 * separate step. Each memory keeps at most `maxBytes` of message text (RAGFlow's memory_size, at
 * most 5 MiB there) and forgets its oldest messages first (RAGFlow's FIFO forgetting policy).
 *
 * A memory belongs to a tenant: every store method takes a MemoryRef (tenant and id), so two
 * tenants with the same memory id have two memories, and a backend cannot forget the scope. A run
 * gets one tenant's memories (TenantMemories, scope.ts); a run with no tenant (the CLI, the
 * library) is the tenant "default", the tenant of a server with one key or none.
 */

/** A message as a memory keeps it (RAGFlow's memory message, raw type). */
export interface MemoryMessage {
  /** Unique within the memory; later messages sort after earlier ones. */
  message_id: string;
  memory_id: string;
  /** Always "raw": the exchange as it happened (canvasflow extracts no semantic memories). */
  message_type: "raw";
  user_id: string;
  agent_id: string;
  session_id: string;
  /** `User Input: …\nAgent Response: …` */
  content: string;
  /** When it was written (ISO 8601). */
  valid_at: string;
  /** The writing step's idempotency key: a step run again after a crash adds no second copy. */
  source_key: string;
}

export type NewMemoryMessage = Omit<MemoryMessage, "message_id" | "memory_id" | "message_type" | "valid_at">;

/** Which memory: a tenant's scope, and the memory's id in it. */
export interface MemoryRef {
  /** 1 to MAX_TENANT_LENGTH printable characters (the server's rule for tenants). */
  tenant: string;
  /** What a DSL's memory_ids hold: 1 to MAX_MEMORY_ID_LENGTH printable characters. */
  id: string;
}

export interface MemoryStore {
  /**
   * Says the store names memories by tenant and id. Checked at run time: a store written for the
   * interface before tenants (add(id, message)) would file every tenant's memory under one key.
   */
  readonly scope: "tenant";
  /** Where the memories are, for messages (passwords masked). */
  readonly location: string;
  /** Add a message to the tenant's memory (created on first use); false when one with the same source key is there already. */
  add(memory: MemoryRef, message: NewMemoryMessage): Promise<boolean>;
  /** The tenant's memory's messages, oldest first (none for a memory never written). */
  messages(memory: MemoryRef): Promise<MemoryMessage[]>;
  close(): Promise<void>;
}
