/**
 * What `canvasflow serve` keeps besides the sessions' run state: agents, the records of their
 * sessions (RAGFlow's session objects: name, messages, times), and API keys. Every record
 * belongs to a tenant, and every read and write names one: a tenant never sees another's.
 *
 * The sessions' run state (base snapshot, checkpoints, event log, lease) lives in a
 * CheckpointStore on the same backend, and cancel requests go through its CancelSignals: a
 * ServerStore hands both out, so one `--redis`, `--postgres` or `--data` moves everything.
 *
 * Backends: memory (tests), a data folder (the default), Redis, PostgreSQL; one conformance
 * suite (test/server/store-conformance.ts) runs against each.
 */
import type { CanvasDsl } from "../../dsl/types.js";
import type { CancelSignals } from "../../stores/cancel-signals.js";
import type { CheckpointStore } from "../../stores/snapshot-store.js";
import type { Redis } from "ioredis";

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
   * Be told of every damaged record the store skips (a list, a title check, a key lookup);
   * returns the function that stops it. Stores that cannot hold a damaged record leave it out.
   */
  onDamaged?(listener: DamageListener): () => void;
  /** Throws when the backend cannot be reached (for readiness checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Every failure of a ServerStore names the store and what was wrong. */
export class ServerStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ServerStoreError";
  }
}

/** Another agent of the tenant has this title (RAGFlow answers code 102 "<title> already exists."). */
export class DuplicateTitleError extends ServerStoreError {
  constructor(readonly title: string) {
    super(`${title} already exists.`);
    this.name = "DuplicateTitleError";
  }
}
