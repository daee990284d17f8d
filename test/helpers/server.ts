/**
 * `canvasflow serve` in a test: a server from `createServer` over an InProcessServerStore, API keys
 * made for it, and a client that keeps the bytes. `startTestServer` listens on 127.0.0.1 (a free
 * port) and the client is a real HTTP client: for streams read while they run (SSE), WebSockets,
 * and clients or processes of their own. `injectTestServer` opens no socket: `call` and `send`
 * go through Fastify's `inject()`, for tests that send requests and read whole answers. Every
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
  /** http://127.0.0.1:<port>; for an injectTestServer, INJECTED_BASE (no request reaches it). */
  base: string;
  /** Requests go through app.inject() (injectTestServer). */
  injected?: true;
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

export type TestServerOptions = Partial<CreateServerOptions> & { keys?: boolean };

/** A listening server with a key of the tenant "t1" (pass `keys: false` for none). */
export function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return testServer(options, true);
}

/** The base URL of an injectTestServer: it does not resolve, so a request sent around inject() fails. */
export const INJECTED_BASE = "http://injected.invalid";

/** The same server answering through app.inject(), with no socket (see the top of this file). */
export function injectTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return testServer(options, false);
}

async function testServer(options: TestServerOptions, listen: boolean): Promise<TestServer> {
  const store = options.store ?? new InProcessServerStore();
  const key = options.keys === false ? "" : await addKey(store, "t1");
  const app = createServer({ ...options, store });
  let base = INJECTED_BASE;
  if (listen) {
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  } else {
    await app.ready();
  }
  const server: TestServer = {
    base,
    ...(listen ? {} : { injected: true as const }),
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
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  if (server.injected) return injected(server, path, method, headers, body, options.signal);
  return fetch(`${server.base}${path}`, { method, headers, body, signal: options.signal });
}

/** One request through app.inject(), its answer as fetch would give it (the body whole). */
async function injected(server: TestServer, path: string, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined): Promise<Response> {
  if (signal) throw new Error("an injectTestServer cannot abort a request: use startTestServer");
  const answer = await server.app.inject({ method: method as "GET", url: path, headers, ...(body !== undefined ? { payload: body } : {}) });
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) for (const one of [value].flat()) answerHeaders.append(name, String(one));
  }
  // These statuses have no body (the Response constructor refuses one).
  const bodyless = [101, 204, 205, 304].includes(answer.statusCode);
  return new Response(bodyless ? null : answer.rawPayload, { status: answer.statusCode, headers: answerHeaders });
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
