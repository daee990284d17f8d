/**
 * The durable-run flags and commands of the CLI, in this process: --durability, --task-id, the
 * cancel hint of pretty mode, `canvasflow cancel` and `canvasflow db migrate`, and the one-line
 * errors (exit 1) or usage errors (exit 2) of each flag and failure.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { closedPort } from "../helpers/http.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { testBackends } from "../helpers/durable-backends.js";
import { TEST_REDIS_URL } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";

const { dir } = scratchDir("canvasflow-durable-flags-");
const cancelDir = join(dir, "cancel");
process.env.CANVASFLOW_CANCEL_DIR = cancelDir;
const backends = testBackends(cancelDir);
const postgres = sharedTestPostgres();
const migrated = uniqueTestSchema();
let admin: pg.Client;

beforeEach(async () => {
  admin = await postgres.get();
});

afterAll(async () => {
  if (admin) await dropSchema(admin, migrated);
  await postgres.close();
  for (const backend of Object.values(backends)) await backend.cleanup();
});

describe("canvasflow run: --durability and --task-id", () => {
  it("refuses a durability that is not sync, async or exit, and --durability without --session (exit 2)", async () => {
    const bad = await cli(["run", "fixtures/hello.json", "--session", join(dir, "d.json"), "--durability", "fast", "-q", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^canvasflow: --durability must be sync, async or exit, got "fast"\n\ncanvasflow — run/);
    expect(existsSync(join(dir, "d.json"))).toBe(false);
    const alone = await cli(["run", "fixtures/hello.json", "--durability", "sync", "-q", "x"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("canvasflow: --durability needs --session: a run without a session keeps nothing after it ends\n");
  });

  it("in each mode a file session ends as the session after its turn, with the turn's events logged beside it", async () => {
    for (const mode of ["sync", "async", "exit"]) {
      const session = join(dir, `mode-${mode}.json`);
      const r = await cli(["run", "fixtures/hello.json", "--session", session, "--durability", mode, "-q", "Ada"]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(readFileSync(session, "utf8")).canvasflow.status).toBe("idle");
      const log = readFileSync(join(dir, `.mode-${mode}.json.log`), "utf8");
      expect(log).toContain('"event":"workflow_finished"');
    }
  });

  it("a failed turn leaves the session file byte for byte as it was; its checkpoints and events go to the log beside it", async () => {
    const session = join(dir, "failed.json");
    expect((await cli(["run", "fixtures/variables.json", "--session", session, "-q", "one"])).code).toBe(0);
    const before = readFileSync(session, "utf8");
    const logBefore = statSync(join(dir, ".failed.json.log")).size;
    const failed = await cli(["run", "fixtures/variables.json", "--session", session, "-q", "two", "--max-steps", "2"]);
    expect(failed.code).toBe(1);
    expect(readFileSync(session, "utf8")).toBe(before);
    expect(statSync(join(dir, ".failed.json.log")).size).toBeGreaterThan(logBefore);
  });

  it("--task-id names a new session's task; a different one for an existing session is a usage error (exit 2)", async () => {
    const session = join(dir, "task.json");
    const first = await cli(["run", "fixtures/hello.json", "--session", session, "--task-id", "my-task", "-q", "one"]);
    expect(first.code).toBe(0);
    expect(first.events.every((e) => e.task_id === "my-task")).toBe(true);
    expect(JSON.parse(readFileSync(session, "utf8")).task_id).toBe("my-task");
    expect((await cli(["run", "fixtures/hello.json", "--session", session, "--task-id", "my-task", "-q", "two"])).code).toBe(0);
    const other = await cli(["run", "fixtures/hello.json", "--session", session, "--task-id", "other", "-q", "three"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`canvasflow: --task-id other: the session ${session} already has the task id my-task (--task-id names the task of a new session)\n`);
    expect(other.stdout).toBe("");
  });

  it("refuses a task id that cannot name a flag (exit 2)", async () => {
    const r = await cli(["run", "fixtures/hello.json", "--task-id", "a/b", "-q", "x"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('canvasflow: --task-id: task id must be 1 to 256 printable characters without "/" or "\\", got "a/b"');
  });

  it("pretty mode prints the task id and the cancel command that reaches the run, for each backend", async () => {
    const cases = [
      [backends.file.session("hint"), ""],
      [backends.redis.session("hint"), ` --redis ${TEST_REDIS_URL}`],
      [backends.postgres.session("hint"), ` --postgres ${backends.postgres.cancelFlags[1]}`],
    ] as const;
    for (const [session, flags] of cases) {
      const r = await cli(["run", "fixtures/hello.json", "--session", session, "--task-id", "hint-task", "--events", "pretty", "-q", "Ada"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(`canvasflow: task hint-task; to cancel it from another terminal: canvasflow cancel hint-task${flags}\n`);
    }
  });

  it("a PostgreSQL session whose server is unreachable: one line naming it (exit 1)", async () => {
    const port = await closedPort();
    const r = await cli(["run", "fixtures/hello.json", "--session", `postgres://postgres@127.0.0.1:${port}/test#s`, "-q", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`canvasflow: cannot reach PostgreSQL at 127.0.0.1:${port}/test: connect ECONNREFUSED 127.0.0.1:${port}\n`);
    expect(r.stdout).toBe("");
  });

  it("a PostgreSQL session URL with a schema name that cannot be one is a usage error (exit 2)", async () => {
    const bad = await cli(["run", "fixtures/hello.json", "--session", `${TEST_POSTGRES_URL}?schema=Not-Valid#s`, "-q", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('canvasflow: --session: PostgreSQL schema name must be 1 to 56 lowercase letters, digits or "_", starting with a letter or "_"; got "Not-Valid"\n');
    expect(bad.stdout).toBe("");
  });
});

describe("canvasflow cancel", () => {
  it("writes the request to the local cancel folder by default ($CANVASFLOW_CANCEL_DIR)", async () => {
    const r = await cli(["cancel", "some-task"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("canvasflow: cancel requested for task some-task\n");
    expect(existsSync(join(cancelDir, "some-task-cancel"))).toBe(true);
    const signals = backends.file.signals();
    try {
      expect(await signals.isRequested("some-task")).toBe(true);
      await signals.clear("some-task");
    } finally {
      await signals.close();
    }
  });

  it("usage errors (exit 2): no task id, two places, a bad task id, a URL of the wrong kind, a prefix without Redis", async () => {
    const cases: Array<[string[], string]> = [
      [["cancel"], "cancel expects exactly one TASK_ID, got 0"],
      [["cancel", "t", "--redis", TEST_REDIS_URL, "--dir", dir], "cancel takes one of --redis, --postgres, --sqlite and --dir, got --redis and --dir"],
      [["cancel", "a/b"], 'cancel: task id must be 1 to 256 printable characters without "/" or "\\", got "a/b"'],
      [["cancel", "t", "--redis", "http://127.0.0.1:6379"], '--redis expects a redis:// URL, got "http://127.0.0.1:6379"'],
      [["cancel", "t", "--postgres", "redis://127.0.0.1:6379"], '--postgres expects a postgres:// URL, got "redis://127.0.0.1:6379"'],
      [["cancel", "t", "--redis-prefix", "mine:"], "--redis-prefix is a Redis key prefix: give it with --redis"],
      [["cancel", "t", "--postgres", TEST_POSTGRES_URL, "--redis-prefix", "mine:"], "--redis-prefix is a Redis key prefix: give it with --redis"],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(`canvasflow: ${message}\n`);
    }
  });

  it("an unreachable Redis or PostgreSQL: one line naming the server (exit 1)", async () => {
    const port = await closedPort();
    const redis = await cli(["cancel", "t", "--redis", `redis://127.0.0.1:${port}/0`]);
    expect(redis.code).toBe(1);
    expect(redis.stderr).toBe(`canvasflow: cannot reach Redis at 127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port}\n`);
    const pgDown = await cli(["cancel", "t", "--postgres", `postgres://postgres@127.0.0.1:${port}/test`]);
    expect(pgDown.code).toBe(1);
    expect(pgDown.stderr).toBe(`canvasflow: cannot reach PostgreSQL at 127.0.0.1:${port}/test: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });
});

describe("canvasflow db migrate", () => {
  it("creates the tables in the schema, then finds them current; --schema and ?schema= name it", async () => {
    const first = await cli(["db", "migrate", "--postgres", TEST_POSTGRES_URL, "--schema", migrated]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      `schema ${migrated} at postgres://postgres@127.0.0.1:5432/test: created (version 1)\n` +
        `server tables in schema ${migrated} at postgres://postgres@127.0.0.1:5432/test: created (version 2)\n` +
        `memory tables in schema ${migrated} at postgres://postgres@127.0.0.1:5432/test: created (version 2)\n` +
        `memories at PostgreSQL at 127.0.0.1:5432/test (${migrated}.memory_messages): none written before memories had tenants\n`,
    );
    const tables = await admin.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [migrated]);
    expect(tables.rows.map((row) => row.table_name)).toEqual([
      "agents",
      "api_keys",
      "cancel_flags",
      "checkpoints",
      "events",
      "locks",
      "memory_messages",
      "memory_schema_version",
      "schema_version",
      "server_schema_version",
      "session_records",
      "sessions",
      "uploads",
    ]);
    const again = await cli(["db", "migrate", "--postgres", `${TEST_POSTGRES_URL}?schema=${migrated}`]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `schema ${migrated} at postgres://postgres@127.0.0.1:5432/test: already at version 1\n` +
        `server tables in schema ${migrated} at postgres://postgres@127.0.0.1:5432/test: already at version 2\n` +
        `memory tables in schema ${migrated} at postgres://postgres@127.0.0.1:5432/test: already at version 2\n` +
        `memories at PostgreSQL at 127.0.0.1:5432/test (${migrated}.memory_messages): none written before memories had tenants\n`,
    );
  });

  it("usage errors (exit 2): no store, no or another subcommand, a bad schema name, two schemas", async () => {
    const cases: Array<[string[], string]> = [
      [["db", "migrate"], "db migrate needs --postgres URL (postgres://user@host:port/database)"],
      [["db"], "db expects a subcommand: migrate"],
      [["db", "drop"], 'unknown db subcommand "drop": use migrate, check or import'],
      [["db", "migrate", "--postgres", TEST_POSTGRES_URL, "--schema", "Bad-Name"], '--postgres: PostgreSQL schema name must be 1 to 56 lowercase letters, digits or "_", starting with a letter or "_"; got "Bad-Name"'],
      [["db", "migrate", "--postgres", `${TEST_POSTGRES_URL}?schema=one`, "--schema", "two"], 'names schema "one", but schema "two" was also given: name it once'],
      [["db", "migrate", "--postgres", "redis://127.0.0.1:6379"], "--postgres: expected a postgres:// URL"],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it("an unreachable server: one line naming it (exit 1)", async () => {
    const port = await closedPort();
    const r = await cli(["db", "migrate", "--postgres", `postgres://postgres@127.0.0.1:${port}/test`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`canvasflow: cannot reach PostgreSQL at 127.0.0.1:${port}/test: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });
});
