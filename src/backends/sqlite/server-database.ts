/**
 * The connection the SQLite server records go through (server-store.ts): one open database file,
 * its prepared statements, and the rules every record table follows. A failure of the file
 * becomes a ServerStoreError (the server hides those from clients: they name the file); a
 * constraint SQLite refused becomes a ConstraintViolation for the caller to put into words (a
 * title the tenant has, an id in use); every other SQLite error a ServerStoreError naming the
 * file and what was being done.
 */
import { resolve } from "node:path";
import type { ListQuery } from "../contracts.js";
import { DatabaseFileError, ServerStoreError } from "../errors.js";
import { DamageListeners } from "../shared/records.js";
import { onFile, preparedStatements, sqliteTransactions, type SqliteDatabase, type SqliteTransactions } from "./database.js";

/** An insert or update SQLite refused by a primary key or a unique index; its message is SQLite's. */
export class ConstraintViolation extends ServerStoreError {
  constructor(
    /** `primary key`: the id is in use; `unique`: a unique index (a tenant's title, a key's hash). */
    readonly constraint: "primary key" | "unique",
    message: string,
  ) {
    super(message);
  }
}

/** The constraint an error says was violated, if that is what it is. */
export function violatedConstraint(error: unknown): ConstraintViolation["constraint"] | undefined {
  return error instanceof ConstraintViolation ? error.constraint : undefined;
}

/** A page of rows and the number of rows of every page. */
export interface ListedRows<R> {
  rows: R[];
  total: number;
}

export class ServerDatabase {
  /** `sqlite:/abs/path/canvasflow.db`, for `/healthz`, logs and messages. */
  readonly location: string;
  /** Who is told of the damaged rows the lists skip. */
  readonly damage = new DamageListeners();
  /** `sql(text)`: the statement, compiled on its first use. */
  readonly sql: ReturnType<typeof preparedStatements>;
  private readonly transactions: SqliteTransactions;
  private closed = false;

  constructor(
    readonly db: SqliteDatabase,
    readonly file: string,
    private readonly busyTimeoutMs: number,
  ) {
    this.location = `sqlite:${resolve(file)}`;
    this.sql = preparedStatements(db);
    this.transactions = sqliteTransactions(db);
  }

  /** `work` on the database, its failures as the errors of the module comment. */
  run<T>(doing: string, work: () => T): T {
    if (this.closed) throw new ServerStoreError(`${this.location}: the store is closed (while ${doing})`);
    try {
      return onFile(this.file, doing, this.busyTimeoutMs, work);
    } catch (error) {
      if (error instanceof DatabaseFileError) throw new ServerStoreError(error.message);
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code !== "string" || !code.startsWith("SQLITE_")) throw error;
      const message = `${this.location}, ${doing}: ${(error as Error).message}`;
      if (code === "SQLITE_CONSTRAINT_PRIMARYKEY") throw new ConstraintViolation("primary key", message);
      if (code === "SQLITE_CONSTRAINT_UNIQUE") throw new ConstraintViolation("unique", message);
      throw new ServerStoreError(message);
    }
  }

  /** `work` in one immediate transaction: it holds the write lock from its start, so what it read still holds when it writes. */
  write<T>(doing: string, work: () => T): T {
    return this.run(doing, () => this.transactions.immediate(work));
  }

  /** `work`'s reads from one snapshot of the file (a page and its total agree). */
  read<T>(doing: string, work: () => T): T {
    return this.run(doing, () => this.transactions.deferred(work));
  }

  /**
   * A page of `table`'s rows matching `conditions` (with `values` for their `?`) and the list
   * query's filters on `textColumn`, ordered as the query says (ties by id, in the same
   * direction), with the number of all matching rows: carried by each row (`count(*) OVER ()`),
   * so only a page past the end counts on its own.
   */
  list<R extends object>(doing: string, table: string, textColumn: string, conditions: readonly string[], values: readonly unknown[], query: ListQuery): ListedRows<R> {
    const where = [...conditions];
    const params = [...values];
    if (query.id !== undefined) {
      where.push("id = ?");
      params.push(query.id);
    }
    if (query.keywords) {
      where.push(`instr(${textColumn}, ?) > 0`);
      params.push(query.keywords.toLowerCase());
    }
    if (query.title) {
      where.push(`${textColumn} = ?`);
      params.push(query.title.toLowerCase());
    }
    if (query.user_id !== undefined) {
      where.push("user_id = ?");
      params.push(query.user_id);
    }
    const column = query.orderby === "create_time" ? "create_time" : "update_time";
    const direction = query.desc ? "DESC" : "ASC";
    const limit = Math.max(0, Math.floor(query.page_size));
    const offset = (Math.max(1, Math.floor(query.page)) - 1) * limit;
    const filter = where.join(" AND ");
    return this.read(doing, () => {
      const rows = this.sql<unknown[], R & { total: number }>(`SELECT *, count(*) OVER () AS total FROM ${table} WHERE ${filter} ORDER BY ${column} ${direction}, id ${direction} LIMIT ? OFFSET ?`).all(...params, limit, offset);
      if (rows.length > 0) return { rows, total: Number(rows[0].total) };
      const counted = this.sql<unknown[], { total: number }>(`SELECT count(*) AS total FROM ${table} WHERE ${filter}`).get(...params)!;
      return { rows, total: counted.total };
    });
  }

  /** How a row is named in messages. */
  rowWhere(table: string, id: string): string {
    return `SQLite database ${this.file}: table ${table}, row id ${JSON.stringify(id)}`;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
