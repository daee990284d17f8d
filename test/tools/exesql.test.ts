/**
 * ExeSQL against the real servers of this machine: PostgreSQL on 127.0.0.1:5432 (trust auth,
 * database test) and MariaDB on 127.0.0.1:3306 (root, empty password, database test). Each test
 * file run creates its own tables with unique names and drops them at the end. A server that is
 * not reachable fails the tests with a message saying so.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { paramsWithDefaults } from "../../src/components/params.js";
import { UnavailableError } from "../../src/components/unavailable.js";
import { ExeSQL } from "../../src/tools/exesql.js";
import { BlockedAddressError, PRIVATE_NETWORK_HINT, type HostResolver } from "../../src/sandbox/egress/guard.js";
import { markdownTable } from "../../src/tools/sql/markdown-table.js";
import { cleanSql, leadingKeyword, splitStatements } from "../../src/tools/sql/split.js";
import type { ToolContext } from "../../src/tools/types.js";
import { canvasDsl, lastEvent, messageText, node } from "../helpers/dsl.js";
import { closedPort } from "../helpers/http.js";
import { toolContext as toolContextWith } from "../helpers/tools.js";

const SUFFIX = randomBytes(4).toString("hex");
const PG = { db_type: "postgres", host: "127.0.0.1", port: 5432, database: "test", username: "postgres", password: "" };
const MARIA = { db_type: "mariadb", host: "127.0.0.1", port: 3306, database: "test", username: "root", password: "" };

/** The egress guard refuses loopback databases unless the operator lists them: these tests do. */
const LOCAL_DATABASES = ["127.0.0.1:5432", "127.0.0.1:3306"];
const ALLOWED = { egress: { allow: LOCAL_DATABASES } };

/** The context an Agent gives ExeSQL: its configured params with defaults, no tool services, the local databases allowed. */
function toolContext(params: Record<string, unknown>, signal = new AbortController().signal, egress: Record<string, unknown> = ALLOWED.egress): ToolContext {
  const { ctx } = toolContextWith({ params: paramsWithDefaults(ExeSQL, params), signal, noToolServices: true, label: "Agent:A → execute_sql" });
  return { ...ctx, services: { ...ctx.services, egress } };
}

const run = (sql: string, params: Record<string, unknown>, egress?: Record<string, unknown>) => ExeSQL.tool!.run({ sql }, toolContext(params, undefined, egress));

async function unreachable(what: string, error: unknown): Promise<never> {
  throw new Error(`${what} is not reachable, so the ExeSQL tests cannot run: ${error instanceof Error ? error.message : String(error)}. This machine is meant to run it (see .ci/run).`);
}

describe("splitting SQL into statements", () => {
  it("splits on semicolons outside strings, quoted names, comments and dollar quotes", () => {
    expect(splitStatements("SELECT 'a;b', \"c;d\" FROM t; -- x;y\nSELECT 2 /* ; */;;", "postgres")).toEqual(["SELECT 'a;b', \"c;d\" FROM t", "-- x;y\nSELECT 2 /* ; */"]);
    expect(splitStatements("SELECT $fn$ a; b $fn$; SELECT 'it''s; fine'", "postgres")).toEqual(["SELECT $fn$ a; b $fn$", "SELECT 'it''s; fine'"]);
    expect(splitStatements("SELECT 'x\\';y' FROM `a;b`; # note; here\nSELECT 1", "mysql")).toEqual(["SELECT 'x\\';y' FROM `a;b`", "# note; here\nSELECT 1"]);
    expect(splitStatements("-- only a comment;\n  ;", "postgres")).toEqual([]);
  });

  it("removes the code fences and citation marks an LLM wraps around SQL", () => {
    expect(cleanSql("```sql\nSELECT 1 [ID:12]\n```")).toBe("SELECT 1 \n");
    expect(splitStatements("```sql\nSELECT 1;\nSELECT 2\n```", "mysql")).toEqual(["SELECT 1", "SELECT 2"]);
  });

  it("finds the first keyword after comments", () => {
    expect(leadingKeyword("  /* hi */ -- x\n Delete FROM t")).toBe("delete");
    expect(leadingKeyword("WITH x AS (SELECT 1) SELECT * FROM x")).toBe("with");
  });

  it("keeps every simple statement, in order", () => {
    const statement = fc.stringMatching(/^SELECT [a-z0-9 ,'*]{0,20}$/).filter((s) => (s.match(/'/g) ?? []).length % 2 === 0);
    fc.assert(
      fc.property(fc.array(statement, { minLength: 1, maxLength: 6 }), (statements) => {
        expect(splitStatements(statements.join(";\n"), "postgres")).toEqual(statements.map((s) => s.trim()));
      }),
    );
  });
});

describe("Markdown tables", () => {
  it("right-aligns numeric columns, leaves nulls empty and escapes pipes", () => {
    expect(markdownTable(["id", "name", "note"], [{ id: 1, name: "alice", note: null }, { id: 10, name: "b|c", note: { k: 1 } }])).toBe(
      ["|  id | name  | note    |", "|----:|:------|:--------|", "|   1 | alice |         |", "|  10 | b\\|c  | {\"k\":1} |"].join("\n"),
    );
  });
});

describe("ExeSQL settings", () => {
  it("offers RAGFlow's function schema", () => {
    expect(ExeSQL.tool!.schema(paramsWithDefaults(ExeSQL, {}))).toEqual({
      type: "function",
      function: {
        name: "execute_sql",
        description: "This is a tool that can execute SQL.",
        parameters: { type: "object", properties: { sql: { type: "string", description: "The SQL needs to be executed." } }, required: ["sql"] },
      },
    });
  });

  it("refuses database types it has no driver for, empty SQL and a missing host", async () => {
    await expect(run("SELECT 1", { ...PG, db_type: "mssql" })).rejects.toThrow('db_type "mssql" is not supported here: ExeSQL runs on mysql, mariadb, postgres');
    await expect(run(" ; ", PG)).rejects.toThrow("sql is empty: ExeSQL needs SQL to run");
    await expect(run("SELECT 1", { ...PG, host: "" })).rejects.toThrow("host is empty: set the database host of ExeSQL");
  });

  it("names host, port, database and user when it cannot connect", async () => {
    const port = await closedPort();
    const closed = { allow: [`127.0.0.1:${port}`, ...LOCAL_DATABASES] };
    await expect(run("SELECT 1", { ...PG, port }, closed)).rejects.toThrow(`cannot connect to the postgres database "test" at 127.0.0.1:${port} as user "postgres": connect ECONNREFUSED 127.0.0.1:${port}`);
    await expect(run("SELECT 1", { ...MARIA, port }, closed)).rejects.toThrow(`cannot connect to the mariadb database "test" at 127.0.0.1:${port} as user "root": connect ECONNREFUSED 127.0.0.1:${port}`);
    await expect(run("SELECT 1", { ...PG, database: `no_such_db_${SUFFIX}` })).rejects.toThrow(`cannot connect to the postgres database "no_such_db_${SUFFIX}" at 127.0.0.1:5432 as user "postgres": database "no_such_db_${SUFFIX}" does not exist`);
  });
});

describe("ExeSQL and the egress guard", () => {
  const refusal = (host: string, shown: string, entry: string) =>
    `ExeSQL host "${host}" ${shown}, a non-public address (loopback): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; ` +
    PRIVATE_NETWORK_HINT.replace("{entry}", entry);

  it("refuses a database on loopback unless the operator lists it, naming the host, the address and the entry that allows it", async () => {
    await expect(run("SELECT current_user", PG, {})).rejects.toThrow(refusal("127.0.0.1", "is 127.0.0.1", "127.0.0.1:5432"));
    await expect(run("SELECT current_user", MARIA, {})).rejects.toThrow(refusal("127.0.0.1", "is 127.0.0.1", "127.0.0.1:3306"));
    // Listed for another port is not listed.
    await expect(run("SELECT current_user", PG, { allow: ["127.0.0.1:3306"] })).rejects.toBeInstanceOf(BlockedAddressError);
    expect((await run("SELECT current_user AS who", PG, { allow: ["127.0.0.1:5432"] })).json).toEqual([[{ who: "postgres" }]]);
    expect((await run("SELECT 1 AS one", MARIA, { allow: ["127.0.0.0/8"] })).json).toEqual([[{ one: 1 }]]);
  });

  it("a name that resolves to loopback is refused; listed, the driver connects to the address the guard checked, never looking the name up again", async () => {
    const asked: string[] = [];
    // db.example.test cannot be resolved by the system (RFC 2606): only the pinned address reaches the server.
    const lookup: HostResolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const named = { ...PG, host: "db.example.test" };
    await expect(run("SELECT 1", named, { lookup })).rejects.toThrow(refusal("db.example.test", "resolves to 127.0.0.1", "db.example.test:5432"));
    expect((await run("SELECT inet_server_addr()::text AS addr", named, { lookup, allow: ["db.example.test:5432"] })).json).toEqual([[{ addr: "127.0.0.1/32" }]]);
    expect((await run("SELECT 2 AS two", { ...MARIA, host: "db.example.test" }, { lookup, allow: ["db.example.test"] })).json).toEqual([[{ two: 2 }]]);
    expect(asked).toEqual(["db.example.test", "db.example.test", "db.example.test"]);
  });

  it("never opens a socket path, even with every address allowed", async () => {
    await expect(run("SELECT 1", { ...PG, host: "/var/run/postgresql" }, { allowPrivateNetwork: true })).rejects.toThrow(
      'ExeSQL host "/var/run/postgresql" is not a host name or an IP address (socket paths are not opened)',
    );
  });

  it("in a canvas, the refusal names the component", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["ExeSQL:Query"]),
      "ExeSQL:Query": node("ExeSQL", { ...PG, sql: "SELECT current_user" }, ["Message:Out"]),
      "Message:Out": node("Message", { content: ["{ExeSQL:Query@formalized_content}"] }),
    });
    const events = await (await loadCanvas(dsl, { services: { egress: { allowPrivateNetwork: false } } })).runToEnd({ query: "" });
    expect(lastEvent(events).data).toMatchObject({ error: `ExeSQL:Query (ExeSQL:Query): ${refusal("127.0.0.1", "is 127.0.0.1", "127.0.0.1:5432")}` });
  });
});

describe("ExeSQL on PostgreSQL", () => {
  const table = `cf_exesql_${SUFFIX}`;
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ host: PG.host, port: PG.port, database: PG.database, user: PG.username, connectionTimeoutMillis: 5000 });
    await admin.connect().catch((error) => unreachable("PostgreSQL at 127.0.0.1:5432 (database test, user postgres)", error));
    await admin.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, name text, price numeric(8,2), big bigint, day date, at timestamp, tags jsonb, missing text)`);
    await admin.query(
      `INSERT INTO ${table} VALUES (1, 'lamp', 12.50, 9007199254740993, '2024-05-01', '2024-05-01 10:30:00', '["a"]', NULL), (2, 'desk', 120.00, 7, '2024-06-02', '2024-06-02 08:00:00', '{"k": 1}', NULL), (3, 'pen', 1.25, 8, '2024-07-03', '2024-07-03 23:59:59', '[]', NULL)`,
    );
  });
  afterAll(async () => {
    await admin?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await admin?.end().catch(() => undefined);
  });

  it("runs each statement in order and shows each result as a Markdown table", async () => {
    const out = await run(`SELECT id, name, price FROM ${table} ORDER BY id; SELECT count(*) AS n FROM ${table}`, PG);
    expect(out.formalized_content).toBe(
      ["|  id | name | price |", "|----:|:-----|------:|", "|   1 | lamp |  12.5 |", "|   2 | desk |   120 |", "|   3 | pen  |  1.25 |", "", "|   n |", "|----:|", "|   3 |"].join("\n"),
    );
    expect(out.json).toEqual([
      [
        { id: 1, name: "lamp", price: 12.5 },
        { id: 2, name: "desk", price: 120 },
        { id: 3, name: "pen", price: 1.25 },
      ],
      [{ n: 3 }],
    ]);
  });

  it("returns driver values as JSON data: big integers, dates as sent, JSON, nulls", async () => {
    const out = await run(`SELECT big, day, at, tags, missing FROM ${table} ORDER BY id LIMIT 2`, PG);
    expect(out.json).toEqual([
      [
        { big: "9007199254740993", day: "2024-05-01", at: "2024-05-01 10:30:00", tags: ["a"], missing: null },
        { big: 7, day: "2024-06-02", at: "2024-06-02 08:00:00", tags: { k: 1 }, missing: null },
      ],
    ]);
  });

  it("caps rows at max_records, refuses INSERT/UPDATE/DELETE, and keeps going after a failing statement", async () => {
    const out = await run(`SELECT id FROM ${table} ORDER BY id; INSERT INTO ${table} (id) VALUES (9); SELECT nope FROM ${table}; SELECT name FROM ${table} WHERE id > 100; SELECT 'after' AS still`, { ...PG, max_records: 2 });
    const json = out.json as unknown[];
    expect(json[0]).toEqual([{ id: 1 }, { id: 2 }]);
    expect(json[1]).toEqual({ content: "For security reasons, INSERT, UPDATE, and DELETE statements are not supported." });
    expect(json[2]).toEqual({ content: `SQL Execution Failed: SELECT nope FROM ${table}\ncolumn "nope" does not exist` });
    expect(json[3]).toEqual({ content: "No record in the database!" });
    expect(json[4]).toEqual([{ still: "after" }]);
    expect(out.formalized_content!.split("\n\n")).toHaveLength(5);
    expect((await admin.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n).toBe(3);
  });

  it("runs as a canvas node with its SQL rendered from references", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", { inputs: { min: { name: "min", type: "line", optional: false } } }, ["ExeSQL:Query"]),
      "ExeSQL:Query": node("ExeSQL", { ...PG, sql: `SELECT name FROM ${table} WHERE id >= {begin@min} ORDER BY id` }, ["Message:Out"]),
      "Message:Out": node("Message", { content: ["{ExeSQL:Query@formalized_content}"] }),
    });
    const canvas = await loadCanvas(dsl, { services: ALLOWED });
    const events = await canvas.runToEnd({ query: "", inputs: { min: { value: "2" } } });
    expect(lastEvent(events).data).not.toHaveProperty("error");
    expect(messageText(events)).toBe(["| name |", "|:-----|", "| desk |", "| pen  |"].join("\n"));
    expect(canvas.outputs("ExeSQL:Query")!.json).toEqual([[{ name: "desk" }, { name: "pen" }]]);
  });

  it("a database it cannot reach is recorded as unavailable and the run goes on; a bad statement is not", async () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["ExeSQL:Query"]),
      "ExeSQL:Query": node("ExeSQL", { ...PG, database: `gone_${SUFFIX}`, sql: "SELECT 1" }, ["Message:Out"]),
      "Message:Out": node("Message", { content: ["SQL said: {ExeSQL:Query@formalized_content}"] }),
    });
    const events = await (await loadCanvas(dsl, { services: ALLOWED })).runToEnd({ query: "" });
    const message = `cannot connect to the postgres database "gone_${SUFFIX}" at 127.0.0.1:5432 as user "postgres": database "gone_${SUFFIX}" does not exist`;
    expect(lastEvent(events).data).not.toHaveProperty("error");
    const finished = events.find((e) => e.event === "node_finished" && e.data.component_id === "ExeSQL:Query");
    expect(finished?.event === "node_finished" && finished.data.error).toBe(message);
    expect(messageText(events)).toBe(`SQL said: ${message}`);
    await expect(run("SELECT 1", { ...PG, db_type: "trino" })).rejects.toBeInstanceOf(UnavailableError);
    await expect(run("SELECT 1", { ...PG, host: "" })).rejects.toBeInstanceOf(UnavailableError);
    await expect(run("", PG)).rejects.not.toBeInstanceOf(UnavailableError);
  });

  it("stops a running statement when the run is cancelled", async () => {
    const controller = new AbortController();
    const running = ExeSQL.tool!.run({ sql: "SELECT pg_sleep(30)" }, toolContext(PG, controller.signal));
    setTimeout(() => controller.abort(new Error("cancelled by the user")), 300);
    await expect(running).rejects.toThrow("cancelled by the user");
  });
});

describe("ExeSQL on MariaDB", () => {
  const table = `cf_exesql_${SUFFIX}`;
  let admin: mysql.Connection;

  beforeAll(async () => {
    admin = await mysql
      .createConnection({ host: MARIA.host, port: MARIA.port, user: MARIA.username, password: "", database: MARIA.database, connectTimeout: 5000 })
      .catch((error) => unreachable("MariaDB at 127.0.0.1:3306 (database test, user root)", error));
    await admin.query(`CREATE TABLE ${table} (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(8,2), big BIGINT, day DATE, at DATETIME, missing VARCHAR(5))`);
    await admin.query(`INSERT INTO ${table} VALUES (1, 'lamp', 12.50, 9007199254740993, '2024-05-01', '2024-05-01 10:30:00', NULL), (2, 'desk', 120.00, 7, '2024-06-02', '2024-06-02 08:00:00', NULL)`);
  });
  afterAll(async () => {
    await admin?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await admin?.end().catch(() => undefined);
  });

  it("runs statements in order with typed values and Markdown tables", async () => {
    const out = await run(`SELECT id, name, price, big, day, at, missing FROM ${table} ORDER BY id; SELECT COUNT(*) AS n FROM ${table}`, MARIA);
    expect(out.json).toEqual([
      [
        { id: 1, name: "lamp", price: 12.5, big: "9007199254740993", day: "2024-05-01", at: "2024-05-01 10:30:00", missing: null },
        { id: 2, name: "desk", price: 120, big: 7, day: "2024-06-02", at: "2024-06-02 08:00:00", missing: null },
      ],
      [{ n: 2 }],
    ]);
    expect(out.formalized_content!.split("\n\n")[1]).toBe(["|   n |", "|----:|", "|   2 |"].join("\n"));
  });

  it("the same rules as on PostgreSQL: max_records, refusals, failures, empty results", async () => {
    const out = await run(`SELECT id FROM ${table} ORDER BY id; UPDATE ${table} SET name = 'x'; SELECT nope FROM ${table}; SELECT id FROM ${table} WHERE id > 100; CREATE TEMPORARY TABLE cf_tmp_${SUFFIX} (a INT)`, { ...MARIA, db_type: "mysql", max_records: 1 });
    expect(out.json).toEqual([
      [{ id: 1 }],
      { content: "For security reasons, INSERT, UPDATE, and DELETE statements are not supported." },
      // The server's wording varies by version ("in 'field list'", "in 'SELECT'").
      { content: expect.stringMatching(new RegExp(`^SQL Execution Failed: SELECT nope FROM ${table}\nUnknown column 'nope' in `)) },
      { content: "No record in the database!" },
      { content: "No record in the database!" },
    ]);
    const [rows] = await admin.query(`SELECT name FROM ${table} ORDER BY id`);
    expect(rows).toEqual([{ name: "lamp" }, { name: "desk" }]);
  });
});
