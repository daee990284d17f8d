/**
 * The real PostgreSQL the store tests use (127.0.0.1:5432, database test, user postgres, trust
 * auth). When it is not there, the tests fail with a message saying so: they are never skipped.
 * Each test file works in a schema of its own, dropped at the end.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

/** An admin connection to inspect and clean up; throws a clear error when PostgreSQL is not reachable. */
export async function connectTestPostgres(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_POSTGRES_URL} (${(error as Error).message}). The PostgreSQL store tests need a real server there ` +
        `(database "test", trust auth for user postgres); .ci/run starts it.`,
    );
  }
  return client;
}

/**
 * The admin connection for a test file, made once. Await it in `beforeEach` (not `beforeAll`):
 * then, without PostgreSQL, every test fails with the message instead of being reported as skipped.
 */
export function sharedTestPostgres(): { get(): Promise<pg.Client>; close(): Promise<void> } {
  let connecting: Promise<pg.Client> | undefined;
  return {
    get: () => (connecting ??= connectTestPostgres()),
    async close() {
      const client = await connecting?.catch(() => undefined);
      await client?.end().catch(() => undefined);
    },
  };
}

/** A schema name no other test run uses. */
export function uniqueTestSchema(): string {
  return `cf_test_${process.pid}_${randomBytes(4).toString("hex")}`;
}

export async function dropSchema(client: pg.Client, schema: string): Promise<void> {
  await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
}
