/**
 * The four session backends of `canvasflow run --session` as the durable-run acceptance tests use
 * them: a file, a key in the test Redis, a key in the test PostgreSQL (a schema of its own, in
 * the URL's `?schema=`), a key in a SQLite database file of the test's own. Each gives the `--session` value of a named session, the flags a test
 * adds, a store of the same backend to read what the session holds, and its cleanup. Local cancel
 * requests go to a cancel folder of the test's own (CANVASFLOW_CANCEL_DIR), never the user's.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { FileSnapshotStore } from "../../src/backends/files/session-store.js";
import { openCancelSignals } from "../../src/backends/open-sessions.js";
import type { CancelSignals, CheckpointStore } from "../../src/backends/contracts.js";
import { PostgresSnapshotStore } from "../../src/backends/postgres/session-store.js";
import { RedisSnapshotStore } from "../../src/backends/redis/session-store.js";
import { SqliteSnapshotStore } from "../../src/backends/sqlite/session-store.js";
import { connectTestPostgres, dropSchema, TEST_POSTGRES_URL, uniqueTestSchema } from "./postgres.js";
import { connectTestRedis, TEST_REDIS_URL } from "./redis.js";
import { scratchDir } from "./scratch.js";

export type BackendName = "file" | "redis" | "postgres" | "sqlite";

export interface TestBackend {
  name: BackendName;
  /** The `--session` value of the session `name`. */
  session(name: string): string;
  /** The key of the session `name` in `store()`. */
  key(name: string): string;
  /** A store of this backend (the caller closes it). */
  store(): CheckpointStore;
  /** The `canvasflow cancel` flags that reach a run of this backend. */
  cancelFlags: string[];
  /** Where this backend's runs hear cancel requests, as `openCancelSignals` takes it. */
  cancelLocation: string;
  /** This backend's cancel signals, in this process (the caller closes them). */
  signals(): CancelSignals;
  /** Removes what the tests wrote. */
  cleanup(): Promise<void>;
}

/** The environment of every CLI child: a cancel folder of this test run's own. */
export function testEnv(cancelDir: string): NodeJS.ProcessEnv {
  return { ...process.env, CANVASFLOW_CANCEL_DIR: cancelDir };
}

export function testBackends(cancelDir: string): Record<BackendName, TestBackend> {
  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const files = scratchDir("canvasflow-durable-");
  const redisKeys: string[] = [];
  const schema = uniqueTestSchema();
  const pgUrl = `${TEST_POSTGRES_URL}?schema=${schema}`;
  const database = join(files.dir, "sessions.db");
  return {
    file: {
      name: "file",
      session: (name) => join(files.dir, `${name}.json`),
      key: (name) => join(files.dir, `${name}.json`),
      store: () => new FileSnapshotStore(),
      cancelFlags: ["--dir", cancelDir],
      cancelLocation: cancelDir,
      signals: () => openCancelSignals(cancelDir),
      cleanup: async () => undefined,
    },
    redis: {
      name: "redis",
      session: (name) => {
        redisKeys.push(`canvasflow-test-${tag}-${name}`);
        return `${TEST_REDIS_URL}#canvasflow-test-${tag}-${name}`;
      },
      key: (name) => `canvasflow-test-${tag}-${name}`,
      store: () => new RedisSnapshotStore({ url: TEST_REDIS_URL }),
      cancelFlags: ["--redis", TEST_REDIS_URL],
      cancelLocation: TEST_REDIS_URL,
      signals: () => openCancelSignals(TEST_REDIS_URL),
      cleanup: async () => {
        const admin = await connectTestRedis();
        try {
          for (const key of redisKeys) {
            await admin.del(...["session", "session-checkpoints", "session-events", "session-lock"].map((kind) => `canvasflow:${kind}:${key}`));
          }
        } finally {
          admin.disconnect();
        }
      },
    },
    postgres: {
      name: "postgres",
      session: (name) => `${pgUrl}#${name}`,
      key: (name) => name,
      store: () => new PostgresSnapshotStore({ url: TEST_POSTGRES_URL, schema }),
      cancelFlags: ["--postgres", pgUrl],
      cancelLocation: pgUrl,
      signals: () => openCancelSignals(pgUrl),
      cleanup: async () => {
        const admin = await connectTestPostgres();
        try {
          await dropSchema(admin, schema);
        } finally {
          await admin.end();
        }
      },
    },
    sqlite: {
      name: "sqlite",
      session: (name) => `sqlite:${database}#${name}`,
      key: (name) => name,
      store: () => new SqliteSnapshotStore({ file: database }),
      cancelFlags: ["--sqlite", database],
      cancelLocation: `sqlite:${database}`,
      signals: () => openCancelSignals(`sqlite:${database}`),
      cleanup: async () => undefined,
    },
  };
}
