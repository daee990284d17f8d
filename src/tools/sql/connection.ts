/**
 * One database connection for an ExeSQL run, the same for every driver: run one statement, get
 * its column names and rows (or none, for statements that return no rows), close.
 */
import type { ResolvedAddress } from "../../sandbox/egress/guard.js";

export interface ConnectionSettings {
  host: string;
  port: number;
  /** The addresses the egress guard checked for host: the driver connects to these only (the host name stays for TLS). */
  addresses: readonly ResolvedAddress[];
  database: string;
  user: string;
  password: string;
  /** Milliseconds to wait for the server to accept the connection. */
  connectTimeoutMs: number;
}

export interface StatementResult {
  /** Column names, or null when the statement returns no rows (DDL, SET…). */
  columns: string[] | null;
  rows: Array<Record<string, unknown>>;
}

export interface SqlConnection {
  query(sql: string): Promise<StatementResult>;
  /** Closes the connection; a query still running fails. Never throws. */
  close(): Promise<void>;
}

/** A cell as JSON data: bytes as 0x-hex, dates as ISO text, big integers as numbers when exact, NaN and infinities as null. */
function cellValue(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Buffer.isBuffer(value)) return `0x${value.toString("hex")}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(cellValue);
  return value;
}

export function rowValues(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = cellValue(value);
  return out;
}
