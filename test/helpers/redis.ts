/**
 * The real Redis the store tests use (127.0.0.1:6379). When it is not there, the tests fail
 * with a message saying so: they are never skipped.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const TEST_REDIS_URL = "redis://127.0.0.1:6379/0";

/** An admin connection to inspect and clean up; throws a clear error when Redis is not reachable. */
export async function connectTestRedis(url = TEST_REDIS_URL): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
  let connectionError: Error | undefined; // the cause; connect() itself only says "Connection is closed."
  client.on("error", (error: Error) => (connectionError = error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(
      `Redis is not reachable at ${url} (${(connectionError ?? (error as Error)).message}). The Redis store tests need a real server there: ` +
        `start one with "redis-server --port 6379" (.ci/run starts it).`,
    );
  }
  return client;
}

/**
 * The admin connection for a test file, made once. Await it in `beforeEach` (not `beforeAll`):
 * then, without Redis, every test fails with the message instead of being reported as skipped.
 */
export function sharedTestRedis(): { get(): Promise<Redis>; close(): Promise<void> } {
  let connecting: Promise<Redis> | undefined;
  return {
    get: () => (connecting ??= connectTestRedis()),
    async close() {
      const client = await connecting?.catch(() => undefined);
      client?.disconnect();
    },
  };
}

/** A key prefix no other test run uses. */
export function uniqueTestPrefix(): string {
  return `canvasflow-test:${process.pid}:${randomBytes(4).toString("hex")}:`;
}

/** Delete every key under `prefix`. */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== "0");
}
