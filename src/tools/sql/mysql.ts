/**
 * MySQL and MariaDB through `mysql2` (the maintained, pure-JavaScript MySQL protocol driver with a
 * promise API; it speaks to MariaDB as well). Dates stay the text the server sent; DECIMAL and
 * BIGINT become numbers when exact.
 */
import mysql from "mysql2/promise";
import { pinnedConnect } from "../../sandbox/egress/connect.js";
import { rowValues, type ConnectionSettings, type SqlConnection, type StatementResult } from "./connection.js";

export async function connectMysql(settings: ConnectionSettings): Promise<SqlConnection> {
  const connection = await mysql.createConnection({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    connectTimeout: settings.connectTimeoutMs,
    dateStrings: true,
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    multipleStatements: false,
    // The checked addresses only, never a second lookup (TLS, if ever on, still checks the host name).
    stream: () => pinnedConnect(settings.addresses, settings.host, settings.port),
  });
  connection.on("error", () => undefined);
  let closed = false;
  return {
    async query(sql: string): Promise<StatementResult> {
      const [rows, fields] = await connection.query({ sql, rowsAsArray: false });
      if (!Array.isArray(rows) || !Array.isArray(fields)) return { columns: null, rows: [] };
      return { columns: fields.map((f) => f.name), rows: (rows as Array<Record<string, unknown>>).map(rowValues) };
    },
    async close() {
      if (closed) return;
      closed = true;
      connection.destroy();
    },
  };
}
