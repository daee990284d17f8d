/**
 * PostgreSQL through `pg` (node-postgres: the de-facto Node driver, pure JavaScript, no native
 * build). Dates and timestamps stay the text the server sent; numeric and bigint become numbers
 * when exact, as RAGFlow turns Decimal into float.
 */
import type pg from "pg";
import { pgDriver } from "../../backends/drivers.js";
import { pinnedSocket } from "../../sandbox/egress/connect.js";
import { rowValues, type ConnectionSettings, type SqlConnection, type StatementResult } from "./connection.js";

const OID = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

function parseNumeric(text: string): number | string {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

const typeParsers = {
  getTypeParser(oid: number, format?: string): (text: string) => unknown {
    if (oid === OID.int8) return parseInt8;
    if (oid === OID.numeric) return parseNumeric;
    if (oid === OID.date || oid === OID.timestamp || oid === OID.timestamptz) return (text: string) => text;
    return pgDriver().types.getTypeParser(oid, (format ?? "text") as "text");
  },
} as pg.CustomTypesConfig;

export async function connectPostgres(settings: ConnectionSettings): Promise<SqlConnection> {
  const client = new (pgDriver().Client)({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    types: typeParsers,
    // pg calls connect(port, host) on it: the checked addresses only, never a second lookup.
    stream: () => pinnedSocket(settings.addresses),
  });
  // A connection lost between statements must not crash the process; the next query reports it.
  client.on("error", () => undefined);
  await client.connect();
  let closed = false;
  return {
    async query(sql: string): Promise<StatementResult> {
      const raw = (await client.query({ text: sql })) as pg.QueryResult | pg.QueryResult[];
      const result = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      if (!result || !Array.isArray(result.fields) || result.fields.length === 0) return { columns: null, rows: [] };
      return { columns: result.fields.map((f) => f.name), rows: result.rows.map((row) => rowValues(row as Record<string, unknown>)) };
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.end().catch(() => undefined);
    },
  };
}
