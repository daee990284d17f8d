/**
 * Memories in a SQLite database file (issue 26), the same file as the sessions when a run's
 * session is there: one row per message in `memory_messages`, with its tenant, in the order
 * written (`seq`). A message is added and the oldest past the size limit forgotten in one
 * immediate transaction, which holds the file's write lock from its start, so processes sharing
 * the file neither lose a message nor keep a source key twice. The semantics are the PostgreSQL
 * store's (postgres/memories.ts).
 *
 * No release before tenant scopes wrote memories to SQLite, so there are no legacy memories to
 * move (the store has no LegacyMemoryLayout; `canvasflow db migrate` finds nothing here).
 *
 * What the file causes (not a database, a newer schema, locked past the busy timeout, a full
 * disk) is a DatabaseFileError naming the file; a bad name, a closed store or a corrupt row is a
 * MemoryStoreError.
 */
import { resolve } from "node:path";
import type { MemoryMessage, MemoryRef, MemoryStore, NewMemoryMessage } from "../contracts.js";
import { MemoryStoreError } from "../errors.js";
import { checkMaxBytes, checkMemoryRef, completeMessage, describeMemory, messageBytes, newMessageId, parseMessage } from "../shared/memories.js";
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, onFile, preparedStatements, sqliteTransactions, type OpenSqliteOptions, type SqliteDatabase, type SqliteTransactions } from "./database.js";
import { openStoreDatabase } from "./schema.js";

export interface SqliteMemoryStoreOptions extends OpenSqliteOptions {
  /** The database file (created with its folder when missing). */
  file: string;
  /** Message text one memory keeps (default 5 MiB); the oldest messages are forgotten first. */
  maxBytes?: number;
}

/** A duplicate source key (not an empty one) adds nothing: the partial unique index of schema.ts. */
const INSERT = `INSERT INTO memory_messages (tenant, memory_id, source_key, bytes, message) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (tenant, memory_id, source_key) WHERE source_key <> '' DO NOTHING`;

/** Forget the oldest while the newer ones hold more than the limit; the newest always stays. */
const FORGET = `DELETE FROM memory_messages WHERE seq IN (
  SELECT seq FROM (
    SELECT seq, SUM(bytes) OVER (ORDER BY seq DESC) AS held, ROW_NUMBER() OVER (ORDER BY seq DESC) AS rank
    FROM memory_messages WHERE tenant = ? AND memory_id = ?
  ) WHERE held > ? AND rank > 1)`;

const MESSAGES = "SELECT seq, message FROM memory_messages WHERE tenant = ? AND memory_id = ? ORDER BY seq";

export class SqliteMemoryStore implements MemoryStore {
  readonly scope = "tenant" as const;
  /** `sqlite:` and the file's absolute path. */
  readonly location: string;
  readonly file: string;
  private readonly db: SqliteDatabase;
  private readonly sql: ReturnType<typeof preparedStatements>;
  private readonly transactions: SqliteTransactions;
  private readonly maxBytes: number;
  private readonly busyTimeoutMs: number;
  private closed = false;

  constructor(options: SqliteMemoryStoreOptions) {
    if (typeof options?.file !== "string" || options.file === "") throw new MemoryStoreError(`a SQLite memory store needs a file: the path of its database, got ${JSON.stringify(options?.file) ?? String(options?.file)}`);
    this.maxBytes = checkMaxBytes(options.maxBytes);
    this.file = options.file;
    this.location = `sqlite:${resolve(options.file)}`;
    this.busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
    this.db = openStoreDatabase(this.file, options);
    this.sql = preparedStatements(this.db);
    this.transactions = sqliteTransactions(this.db);
  }

  async add(memory: MemoryRef, message: NewMemoryMessage): Promise<boolean> {
    const { tenant, id } = this.check(memory);
    const added = completeMessage(id, message, newMessageId());
    return this.onFile(`adding a message to ${describeMemory({ tenant, id })}`, () =>
      this.transactions.immediate(() => {
        const inserted = this.sql(INSERT).run(tenant, id, added.source_key, messageBytes(added), JSON.stringify(added)).changes === 1;
        if (inserted) this.sql(FORGET).run(tenant, id, this.maxBytes);
        return inserted;
      }),
    );
  }

  /**
   * Keep `message` as it was written elsewhere, its id and time unchanged (`canvasflow db import`):
   * false when the memory has it already (by id, or by its source key).
   */
  async keep(memory: MemoryRef, message: MemoryMessage): Promise<boolean> {
    const { tenant, id } = this.check(memory);
    if (message?.memory_id !== id || typeof message.message_id !== "string") throw new MemoryStoreError(`${describeMemory({ tenant, id })}: a message to keep must be one of its own, with its message_id`);
    return this.onFile(`keeping a message in ${describeMemory({ tenant, id })}`, () =>
      this.transactions.immediate(() => {
        const held = this.sql<[string, string], { message: string }>(MESSAGES).all(tenant, id);
        if (held.some((row) => (JSON.parse(row.message) as MemoryMessage).message_id === message.message_id)) return false;
        const inserted = this.sql(INSERT).run(tenant, id, message.source_key, messageBytes(message), JSON.stringify(message)).changes === 1;
        if (inserted) this.sql(FORGET).run(tenant, id, this.maxBytes);
        return inserted;
      }),
    );
  }

  async messages(memory: MemoryRef): Promise<MemoryMessage[]> {
    const { tenant, id } = this.check(memory);
    const named = describeMemory({ tenant, id });
    const rows = this.onFile(`reading ${named}`, () => this.sql<[string, string], { seq: number; message: string }>(MESSAGES).all(tenant, id));
    return rows.map((row) => parseMessage(row.message, `${named} in ${this.location}, row ${row.seq}`));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private check(memory: MemoryRef): MemoryRef {
    if (this.closed) throw new MemoryStoreError(`the SQLite memory store on ${this.file} is closed`);
    return checkMemoryRef(memory);
  }

  private onFile<T>(doing: string, work: () => T): T {
    return onFile(this.file, doing, this.busyTimeoutMs, work);
  }
}
