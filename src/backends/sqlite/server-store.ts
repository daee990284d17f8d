/**
 * A ServerStore in one SQLite database file (issue 26): agents, session records, API keys and
 * uploads in the tables of migration 3 (schema.ts), the run state through SqliteSnapshotStore and
 * cancel requests through SqliteCancelSignals, all on one connection; the server's rate-limit
 * counters too, so the server processes of one machine sharing the file share everything.
 *
 * The file is opened (created with its folder, its schema brought up to date) when the store is
 * made: a file that is not a canvasflow database is a DatabaseFileError then, and is left as it
 * is. Afterwards every failure is a ServerStoreError naming the file (see server-database.ts).
 */
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, type OpenSqliteOptions } from "./database.js";
import { openStoreDatabase } from "./schema.js";
import { SqliteCancelSignals } from "./cancel.js";
import { SqliteSnapshotStore } from "./session-store.js";
import { ServerDatabase } from "./server-database.js";
import { SqliteAgents, SqliteSessionRecords } from "./server-records.js";
import { SqliteApiKeys } from "./server-keys.js";
import { SqliteUploads } from "./server-uploads.js";
import { SqliteRateLimitCounters } from "./rate-limit-counters.js";
import type { AgentStore, ApiKeyStore, DamageListener, RateLimitCounters, ServerStore, SessionRecordStore, UploadStore } from "../contracts.js";
import { ServerStoreError } from "../errors.js";

export interface SqliteServerStoreOptions extends OpenSqliteOptions {
  /** The database file (created with its folder when missing), e.g. `.canvasflow/canvasflow.db`. */
  file: string;
  /** The clock uploads expire and cancel flags run out by (default `Date.now`; tests pass their own). */
  now?: () => number;
}

export class SqliteServerStore implements ServerStore {
  readonly file: string;
  /** `sqlite:/abs/path/canvasflow.db`. */
  readonly location: string;
  readonly agents: AgentStore;
  readonly sessions: SessionRecordStore;
  readonly keys: ApiKeyStore;
  readonly uploads: UploadStore;
  readonly runs: SqliteSnapshotStore;
  readonly cancel: SqliteCancelSignals;
  readonly rateLimitCounters: RateLimitCounters;
  private readonly database: ServerDatabase;
  private closed = false;

  constructor(options: SqliteServerStoreOptions) {
    if (typeof options?.file !== "string" || options.file === "") throw new ServerStoreError("a SQLite server store needs a file: the path of its database");
    this.file = options.file;
    const db = openStoreDatabase(this.file, options);
    this.database = new ServerDatabase(db, this.file, options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS);
    this.location = this.database.location;
    try {
      this.runs = new SqliteSnapshotStore({ ...options, database: db, now: options.now });
      this.cancel = new SqliteCancelSignals({ ...options, database: db, now: options.now });
    } catch (error) {
      this.database.close();
      throw error;
    }
    this.agents = new SqliteAgents(this.database);
    this.sessions = new SqliteSessionRecords(this.database);
    this.keys = new SqliteApiKeys(this.database);
    this.uploads = new SqliteUploads(this.database, options.now ?? Date.now);
    this.rateLimitCounters = new SqliteRateLimitCounters(this.database);
  }

  onDamaged(listener: DamageListener): () => void {
    return this.database.damage.add(listener);
  }

  async ping(): Promise<void> {
    this.database.run("answering a ping", () => this.database.sql("SELECT 1").get());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      // The run state's leases are released while the connection is still open.
      await this.runs.close();
      await this.cancel.close();
    } finally {
      this.database.close();
    }
  }
}
