/**
 * ExeSQL (agent/tools/exesql.py): runs the statements in `sql` (split on ";") against a database
 * and returns the rows as Markdown tables (`formalized_content`) and `json`. INSERT, UPDATE and
 * DELETE are refused at run time.
 */
import { credential, positiveInteger } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import { finiteNumber, showValue } from "../util/values.js";
import { UnavailableError } from "../components/unavailable.js";
import { checkEgress } from "../sandbox/egress/guard.js";
import { egressPolicyOf } from "../sandbox/egress/service.js";
import { defineTool } from "./define-tool.js";
import type { ConnectionSettings, SqlConnection } from "./sql/connection.js";
import { runStatements } from "./sql/execute.js";
import { splitStatements, type SqlDialect } from "./sql/split.js";
import type { ToolContext, ToolOutput } from "./types.js";
import { importNeeding, MissingPackageError } from "../util/optional-package.js";

/** The database types this ExeSQL can reach, and the driver each uses. */
const DIALECTS: Readonly<Record<string, SqlDialect>> = { mysql: "mysql", mariadb: "mysql", postgres: "postgres" };

const CONNECT_TIMEOUT_MS = 10_000;

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The connection's settings, its host checked by the egress guard: a database on loopback or a
 * private network is refused unless the operator allows it (egress.allow), and the driver then
 * connects to the checked addresses only.
 */
async function connectionSettings(params: Params, ctx: ToolContext): Promise<ConnectionSettings> {
  const host = text(params.host).trim();
  if (host === "") throw new UnavailableError("host is empty: set the database host of ExeSQL");
  const port = finiteNumber(params.port) ?? 3306;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`port must be a whole number from 1 to 65535, not ${showValue(params.port)}`);
  const addresses = await checkEgress({ host, port, role: "ExeSQL host" }, egressPolicyOf(ctx.services));
  return { host, port, addresses, database: text(params.database), user: text(params.username), password: text(params.password), connectTimeoutMs: CONNECT_TIMEOUT_MS };
}

async function connect(dialect: SqlDialect, dbType: string, settings: ConnectionSettings): Promise<SqlConnection> {
  try {
    // The drivers load on first use: every canvas loads this module, few of them query a database.
    return dialect === "postgres" ? await (await import("./sql/postgres.js")).connectPostgres(settings) : await (await importNeeding(["mysql2"], "ExeSQL (MySQL, MariaDB)", () => import("./sql/mysql.js"))).connectMysql(settings);
  } catch (error) {
    if (error instanceof MissingPackageError) throw error;
    const reason = error instanceof Error ? error.message || (error as NodeJS.ErrnoException).code || error.name : String(error);
    throw new UnavailableError(`cannot connect to the ${dbType} database "${settings.database}" at ${settings.host}:${settings.port} as user "${settings.user}": ${reason}`);
  }
}

async function executeSql(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  const params = ctx.params;
  const dbType = typeof params.db_type === "string" ? params.db_type : "mysql";
  const dialect = DIALECTS[dbType];
  if (!dialect) throw new UnavailableError(`db_type ${showValue(params.db_type)} is not supported here: ExeSQL runs on ${Object.keys(DIALECTS).join(", ")}`);
  const statements = splitStatements(text(args.sql), dialect);
  if (statements.length === 0) throw new Error("sql is empty: ExeSQL needs SQL to run");
  const maxRecords = Math.max(1, Math.floor(finiteNumber(params.max_records) ?? 1024));

  ctx.signal.throwIfAborted();
  const connection = await connect(dialect, dbType, await connectionSettings(params, ctx));
  // Cancelling the run closes the connection, which ends a statement still running.
  const onAbort = () => void connection.close();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const outcomes = await runStatements(connection, statements, maxRecords, ctx.signal);
    return { formalized_content: outcomes.map((o) => o.text).join("\n\n"), json: outcomes.map((o) => o.json) };
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    await connection.close();
  }
}

/** RAGFlow refuses to query its own database. */
function checkNotRagflowItself(params: Params): ParamProblem[] {
  if (params.database !== "rag_flow" || (params.host !== "ragflow-mysql" && params.password !== "infini_rag_flow")) return [];
  return [{ pointer: "/database", message: "for security reasons the database rag_flow of a RAGFlow installation cannot be queried" }];
}

export const ExeSQL = defineTool({
  name: "ExeSQL",
  functionName: "execute_sql",
  description: "This is a tool that can execute SQL.",
  meta: { sql: { default: "{sys.query}", type: "string", description: "The SQL needs to be executed.", required: true } },
  defaults: { db_type: "mysql", database: "", username: "", host: "", port: 3306, password: "", max_records: 1024 },
  timeoutSeconds: 60,
  thoughts: () => "Query sent—waiting for the data.",
  run: executeSql,
  check: (params) => [
    ...credential(params, "database", "the database name"),
    ...credential(params, "username", "the database user"),
    ...credential(params, "host", "the database host"),
    ...positiveInteger(params, "port"),
    // Trino may run without a password.
    ...(params.db_type === "trino" ? [] : credential(params, "password", "the database password")),
    ...positiveInteger(params, "max_records"),
    ...checkNotRagflowItself(params),
  ],
});
