/**
 * Running ExeSQL's statements in order on one connection. Each statement gives a Markdown table
 * (for the model) and its rows (for `json`), or a message: no rows, refused, or failed. A failing
 * statement does not stop the ones after it.
 */
import { markdownTable } from "./markdown-table.js";
import { leadingKeyword } from "./split.js";
import type { SqlConnection } from "./connection.js";

const NO_RECORD = "No record in the database!";
const REFUSED = "For security reasons, INSERT, UPDATE, and DELETE statements are not supported.";

interface StatementOutcome {
  /** The Markdown table, or the message. */
  text: string;
  /** The rows (at most maxRecords), or {content: message}. */
  json: Array<Record<string, unknown>> | { content: string };
}

export async function runStatements(connection: SqlConnection, statements: readonly string[], maxRecords: number, signal: AbortSignal): Promise<StatementOutcome[]> {
  const outcomes: StatementOutcome[] = [];
  for (const statement of statements) {
    signal.throwIfAborted();
    if (["insert", "update", "delete"].includes(leadingKeyword(statement))) {
      outcomes.push({ text: REFUSED, json: { content: REFUSED } });
      continue;
    }
    try {
      const result = await connection.query(statement);
      const rows = result.rows.slice(0, maxRecords);
      if (result.columns === null || rows.length === 0) outcomes.push({ text: NO_RECORD, json: { content: NO_RECORD } });
      else outcomes.push({ text: markdownTable(result.columns, rows), json: rows });
    } catch (error) {
      signal.throwIfAborted();
      const message = `SQL Execution Failed: ${statement}\n${error instanceof Error ? error.message : String(error)}`;
      outcomes.push({ text: message, json: { content: message } });
    }
  }
  return outcomes;
}
