/**
 * `canvasflow serve` in a test: a server from `createServer` on 127.0.0.1 (a free port) over a
 * InProcessServerStore, API keys made for it, and a raw HTTP client that keeps the bytes. Every
 * server is closed after the test that started it.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterEach } from "vitest";
import { createApiKey } from "../../src/server/store/api-keys.js";
import { createServer, type CreateServerOptions } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import type { ServerStore } from "../../src/backends/contracts.js";

export interface TestServer {
  /** http://127.0.0.1:<port> */
  base: string;
  app: FastifyInstance;
  store: ServerStore;
  /** A key of the tenant "t1". */
  key: string;
  close(): Promise<void>;
}

const closedAfterTest: TestServer[] = [];

afterEach(async () => {
  await Promise.all(closedAfterTest.splice(0).map((server) => server.close()));
});

/** Store a new key of `tenant` and return it. */
export async function addKey(store: ServerStore, tenant: string): Promise<string> {
  return (await createApiKey(store, { tenant, name: `${tenant} key` })).key;
}

/** A server with a key of the tenant "t1" (pass `keys: false` for none). */
export async function startTestServer(options: Partial<CreateServerOptions> & { keys?: boolean } = {}): Promise<TestServer> {
  const store = options.store ?? new InProcessServerStore();
  const key = options.keys === false ? "" : await addKey(store, "t1");
  const app = createServer({ ...options, store });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address() as { port: number };
  const server: TestServer = {
    base: `http://127.0.0.1:${address.port}`,
    app,
    store,
    key,
    close: async () => {
      // A keep-alive connection whose last answer went out a moment ago may not count as idle
      // yet: the test is over, every connection goes.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await store.close();
    },
  };
  closedAfterTest.push(server);
  return server;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallOptions {
  method?: string;
  /** A value sent as JSON, or a string sent as is. */
  body?: unknown;
  /** The key (sent as a bearer token); null sends no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** One request; the answer's body read whole. */
export async function call(server: TestServer, path: string, options: CallOptions = {}): Promise<Answer> {
  const response = await send(server, path, options);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function send(server: TestServer, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const key = options.key === undefined ? server.key : options.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return fetch(`${server.base}${path}`, { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body, signal: options.signal });
}

/** The frames of an SSE body (the text between `\n\n` separators). */
export function frames(text: string): string[] {
  const parts = text.split("\n\n");
  // The body ends with a separator: the last part is empty.
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;
}

/** Create an agent through the API; resolves to its id. */
export async function createAgent(server: TestServer, dsl: unknown, title = `agent ${randomBytes(3).toString("hex")}`, key?: string): Promise<string> {
  const answer = await call(server, "/api/v1/agents", { body: { title, dsl }, ...(key ? { key } : {}) });
  if (answer.json?.code !== 0) throw new Error(`create agent failed: ${answer.text}`);
  return answer.json.data.id as string;
}

/**
 * Hold every agent read of `store` until `open()`: a read is the first step of a turn's setup, so
 * the first turn to read holds its place among the setups (limits.setupsAtOnce). `started()`
 * resolves once a read has begun; `reads()` counts them.
 */
export function holdAgentReads(store: ServerStore): { started(): Promise<void>; reads(): number; open(): void } {
  const agents = store.agents;
  const read = agents.get.bind(agents);
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let reads = 0;
  agents.get = async (...args) => {
    reads++;
    await opened;
    return read(...args);
  };
  return {
    started: async () => {
      while (reads === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    reads: () => reads,
    open,
  };
}
