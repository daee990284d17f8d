/**
 * Cutting ExeSQL's text into statements. RAGFlow splits on every ";"; here a ";" inside a string,
 * a quoted name, a comment or a PostgreSQL dollar-quoted body does not end a statement. Markdown
 * code fences and [ID:n] citation marks (text an LLM wrapped around its SQL) are removed first.
 */

export type SqlDialect = "mysql" | "postgres";

/** The SQL an LLM wrote, without code fences and citation marks. */
export function cleanSql(text: string): string {
  return text.replace(/```[A-Za-z]*[ \t]*\r?\n?/g, "").replace(/\[ID:[0-9]+\]/g, "");
}

/** The statements of a text, in order, trimmed; statements holding only comments are dropped. */
export function splitStatements(text: string, dialect: SqlDialect): string[] {
  const sql = cleanSql(text);
  const statements: string[] = [];
  let start = 0;
  let substantive = false;
  let i = 0;
  const push = (end: number) => {
    const statement = sql.slice(start, end).trim();
    if (substantive && statement !== "") statements.push(statement);
    substantive = false;
  };
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      i = lineEnd(sql, i);
    } else if (c === "#" && dialect === "mysql") {
      i = lineEnd(sql, i);
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      substantive = true;
      i = quoteEnd(sql, i, c, dialect === "mysql" && c !== "`");
    } else if (c === "$" && dialect === "postgres" && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      substantive = true;
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end < 0 ? sql.length : end + tag.length;
    } else if (c === ";") {
      push(i);
      start = i + 1;
      i += 1;
    } else {
      if (!/\s/.test(c)) substantive = true;
      i += 1;
    }
  }
  push(sql.length);
  return statements;
}

function lineEnd(sql: string, from: number): number {
  const end = sql.indexOf("\n", from);
  return end < 0 ? sql.length : end + 1;
}

/** The index after a quoted part opened at `from`; a doubled quote (and a backslash, for MySQL strings) escapes. */
function quoteEnd(sql: string, from: number, quote: string, backslash: boolean): number {
  let i = from + 1;
  while (i < sql.length) {
    if (backslash && sql[i] === "\\") i += 2;
    else if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i += 1;
  }
  return sql.length;
}

/** The statement's first word, lower-cased, after any leading comments ("select", "with"…). */
export function leadingKeyword(statement: string): string {
  const text = statement.replace(/^(\s+|--[^\n]*(\n|$)|#[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)+/, "");
  return /^[A-Za-z]+/.exec(text)?.[0].toLowerCase() ?? "";
}
