/**
 * Loopback stand-ins for the web tools' APIs (node:http on 127.0.0.1:0, recording every request),
 * a ToolContext for calling `run` directly, and a small canvas (begin → tool → Message) for
 * running a tool as a node.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { loadCanvas, type CanvasDsl, type CanvasEvent, type ReferenceChunk, type ReferenceDocument } from "../../src/index.js";
import type { ToolEndpointConfig } from "../../src/config/types.js";
import type { ToolContext } from "../../src/tools/types.js";
import { canvasDsl, node } from "../helpers/dsl.js";

export interface Recorded {
  method: string;
  /** The path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StandIn {
  /** http://127.0.0.1:<port> */
  base: string;
  /** 127.0.0.1:<port>, as errors name it. */
  host: string;
  requests: Recorded[];
}

type Handler = (request: Recorded, res: ServerResponse) => void;

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

export async function standIn(handler: Handler): Promise<StandIn> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const recorded: Recorded = {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      try {
        handler(recorded, res);
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, requests };
}

/** A port nothing listens on (a server was bound there and closed): connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
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

/** A request that never gets an answer (to test cancellation). */
export function hang(): void {}

export interface Recording {
  ctx: ToolContext;
  references: Array<{ chunks: ReferenceChunk[]; documents: ReferenceDocument[] }>;
}

export interface ContextOptions {
  params?: Record<string, unknown>;
  endpoints?: Record<string, ToolEndpointConfig>;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Leave services.tools out entirely. */
  noToolServices?: boolean;
}

/** A ToolContext for calling `run` directly, recording the references it adds. */
export function toolContext(options: ContextOptions = {}): Recording {
  const references: Recording["references"] = [];
  const services = options.noToolServices ? {} : { tools: { knowledgeBases: {}, endpoints: options.endpoints ?? {}, env: options.env ?? {} } };
  const ctx: ToolContext = {
    signal: options.signal ?? new AbortController().signal,
    services,
    params: options.params ?? {},
    label: "Agent:A → tool",
    addReferences: (chunks, documents = []) => references.push({ chunks: [...chunks], documents: [...documents] }),
    addUsage: () => undefined,
  };
  return { ctx, references };
}

/** begin → <id> (the tool) → Message:Out showing `content`. */
export function toolCanvas(componentName: string, id: string, params: Record<string, unknown>, content: string): CanvasDsl {
  return canvasDsl({
    begin: node("Begin", { prologue: "" }, [id]),
    [id]: node(componentName, params, ["Message:Out"]),
    "Message:Out": node("Message", { content: [content] }),
  });
}

export async function runToolCanvas(
  dsl: CanvasDsl,
  tools: { endpoints?: Record<string, ToolEndpointConfig>; env?: Record<string, string | undefined> },
  query: string,
): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(dsl, { services: { tools: { knowledgeBases: {}, endpoints: tools.endpoints ?? {}, env: tools.env ?? {} } } });
  return canvas.runToEnd({ query });
}

/** The messages shown, one string per message_end. */
export function shownMessages(events: readonly CanvasEvent[]): string[] {
  const out: string[] = [];
  let current = "";
  for (const event of events) {
    if (event.event === "message") current += event.data.content;
    if (event.event === "message_end") {
      out.push(current);
      current = "";
    }
  }
  return out;
}

export function finished(events: readonly CanvasEvent[]) {
  const last = events.at(-1);
  if (!last || last.event !== "workflow_finished") throw new Error(`the run did not end with workflow_finished but with ${last?.event}`);
  return last.data;
}

export function nodeFinished(events: readonly CanvasEvent[], id: string) {
  const event = events.find((e) => e.event === "node_finished" && e.data.component_id === id);
  if (!event || event.event !== "node_finished") throw new Error(`no node_finished for ${id}`);
  return event.data;
}

export function messageEnd(events: readonly CanvasEvent[]) {
  const event = events.find((e) => e.event === "message_end");
  if (!event || event.event !== "message_end") throw new Error("no message_end");
  return event.data;
}

/**
 * A tool that is unavailable here (no key, no network) does not end the run: it finishes
 * cleanly, the tool's node_finished carries the error, and the message downstream shows it.
 */
export function unavailableError(events: readonly CanvasEvent[], id: string): string {
  const run = finished(events);
  if (run.error !== undefined) throw new Error(`the run ended with an error instead of going on: ${run.error}`);
  const error = nodeFinished(events, id).error;
  if (!error) throw new Error(`${id} finished without an error`);
  return error;
}
