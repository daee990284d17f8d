/**
 * ExeSQL (agent/tools/exesql.py): runs the statements in `sql` (split on ";") against a database
 * and returns the rows as Markdown tables (`formalized_content`) and `json`. INSERT, UPDATE and
 * DELETE are refused at run time.
 */
import { credential, positiveInteger } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import { defineTool } from "./define-tool.js";

/** RAGFlow refuses to query its own database. */
function checkNotRagflowItself(params: Params): ParamProblem[] {
  if (params.database !== "rag_flow" || (params.host !== "ragflow-mysql" && params.password !== "infini_rag_flow")) return [];
  return [{ pointer: "/database", message: "for security reasons the database rag_flow of a RAGFlow installation cannot be queried" }];
}

export const ExeSQL = defineTool({
  name: "ExeSQL",
  meta: { sql: { default: "{sys.query}" } },
  defaults: { db_type: "mysql", database: "", username: "", host: "", port: 3306, password: "", max_records: 1024 },
  timeoutSeconds: 60,
  thoughts: () => "Query sent—waiting for the data.",
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
