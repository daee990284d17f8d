/**
 * The real Redis the store tests use (127.0.0.1:6379). When it is not there, the tests fail
 * with a message saying so: they are never skipped.
 */
import { randomBytes } from "node:crypto";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
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

/** A loopback TCP proxy in front of the test Redis, to make the server go away under a client. */
export interface RedisProxy {
  port: number;
  /** redis://127.0.0.1:<port>/0 */
  url: string;
  /** Stop forwarding but keep the connections open: the server seems to hang. */
  stall(): void;
  /** Close the port and every connection: the server is gone. */
  stop(): Promise<void>;
}

export async function startRedisProxy(): Promise<RedisProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const server = createServer((client) => {
    const upstream = connect(6379, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.on("data", (chunk) => stalled || upstream.write(chunk));
    upstream.on("data", (chunk) => stalled || client.write(chunk));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stall: () => (stalled = true),
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** What a queue test leaves in Redis to clear once it ends: workers closed, queues emptied and closed, the prefix's keys gone. */
export async function clearQueueTest(workers: readonly { close(options?: { graceMs?: number }): Promise<void> }[], queues: readonly { queue: { obliterate(options: { force: boolean }): Promise<void> }; close(): Promise<void> }[], prefix: string): Promise<void> {
  await Promise.all(workers.map((worker) => worker.close({ graceMs: 0 })));
  for (const queue of queues) {
    await queue.queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
  const admin = await connectTestRedis();
  await deleteKeys(admin, prefix);
  admin.disconnect();
}
