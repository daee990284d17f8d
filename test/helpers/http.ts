/**
 * Loopback HTTP servers for tests (node:http on 127.0.0.1, a free port) that record every request,
 * a port nothing listens on, and small response writers.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface RecordedRequest {
  method: string;
  /** The request target as received: the path and the query string. */
  url: string;
  /** The path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  base: string;
  /** 127.0.0.1:<port>, as errors name it. */
  host: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Answers a request once its whole body has arrived; a handler that throws answers 500. */
export type RequestHandler = (request: RecordedRequest, res: ServerResponse, req: IncomingMessage) => void;

const closedAfterTest: Server[] = [];

afterEach(async () => {
  await Promise.all(closedAfterTest.splice(0).map(closeServer));
});

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Binds `server` to a free loopback port and closes it after the current test; returns the port. */
export async function listenForTest(server: Server): Promise<number> {
  closedAfterTest.push(server);
  return listenOnLoopback(server);
}

function recordingServer(handler: RequestHandler, requests: RecordedRequest[]): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      try {
        handler(recorded, res, req);
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      }
    });
  });
}

function describeServer(server: Server, port: number, requests: RecordedRequest[]): LoopbackServer {
  return { base: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, port, requests, close: () => closeServer(server) };
}

/** A recording server that is closed after the current test. */
export async function standIn(handler: RequestHandler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = recordingServer(handler, requests);
  return describeServer(server, await listenForTest(server), requests);
}

/** A recording server that stays until its `close()` (for servers a whole describe shares). */
export async function startLoopbackServer(handler: RequestHandler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = recordingServer(handler, requests);
  return describeServer(server, await listenOnLoopback(server), requests);
}

/** A port nothing listens on (a server was bound there and closed): connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listenOnLoopback(server);
  await closeServer(server);
  return port;
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(value));
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(html);
}
