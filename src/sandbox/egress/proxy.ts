/**
 * A guarded forward proxy, for clients that resolve names themselves and can only be steered
 * through a proxy (Chromium; sandboxed code): CONNECT for TLS (and WebSockets), absolute-URI
 * forwarding for plain HTTP. Every target is checked when it is asked for: by an optional
 * "only these hosts" list first (before any lookup when it names hosts only, so an unlisted name
 * is not even resolved), then by the egress guard, and the connection goes to the checked
 * addresses only. A refusal is a 403 whose body says why (header `x-canvasflow-egress: refused`).
 *
 * Bounded: client connections at once (more are closed at once), an idle timeout on every
 * connection both ways, a connect timeout upstream, the request head's size (Node's 16 KiB).
 * Listens on a unix socket path or on 127.0.0.1 with a free port; close() ends every connection.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP, type Socket } from "node:net";
import { AllowList } from "./allow-list.js";
import { pinnedConnect } from "./connect.js";
import { BlockedAddressError, bareHost, checkEgress, pinnedLookup, type EgressPolicy, type ResolvedAddress } from "./guard.js";

export interface EgressProxyOptions {
  /** The egress guard every target passes. */
  policy: EgressPolicy;
  /**
   * Only these targets, on top of the guard (e.g. the hosts sandboxed code may reach): entries as
   * in egress.allow; a name entry matches the name asked for, an address or range entry every
   * address it resolves to. `where` names the list in refusals.
   */
  only?: { allow: readonly string[] | AllowList; where: string };
  /** A unix socket path, or (the default) 127.0.0.1 on `port` (0: a free one). */
  listen?: { path: string } | { port?: number };
  /** Client connections at once (default 64); more are closed as they come. */
  maxConnections?: number;
  /** A connection with no traffic either way for this long is closed (default 60 s). */
  idleTimeoutMs?: number;
  /** Making one upstream connection, resolving included (default 10 s). */
  connectTimeoutMs?: number;
  /** What targets are, as refusals name them (default "proxied host"). */
  role?: string;
  /** Told of every refused target (the Browser hands the reasons to its model). */
  onRefused?: (refusal: EgressRefusal) => void;
}

export interface EgressRefusal {
  host: string;
  port: number;
  reason: string;
}

export interface EgressProxy {
  /** `http://127.0.0.1:PORT` when listening on TCP. */
  readonly url: string | undefined;
  readonly port: number | undefined;
  /** The socket path when listening on one. */
  readonly path: string | undefined;
  /** Client connections open now. */
  readonly connections: number;
  /** Stop listening and end every connection. */
  close(): Promise<void>;
}

export const EGRESS_PROXY_DEFAULTS = Object.freeze({ maxConnections: 64, idleTimeoutMs: 60_000, connectTimeoutMs: 10_000 });

/** Headers that belong to one hop (RFC 9110 §7.6.1) and the proxy's own. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"]);

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** "host:port" or "[v6]:port" of a CONNECT request. */
function authority(text: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/?#@[\]]+):([0-9]{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1], port } : undefined;
}

class Refusal extends Error {}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const role = options.role ?? "proxied host";
  const idleMs = options.idleTimeoutMs ?? EGRESS_PROXY_DEFAULTS.idleTimeoutMs;
  const connectMs = options.connectTimeoutMs ?? EGRESS_PROXY_DEFAULTS.connectTimeoutMs;
  const only = options.only ? { list: options.only.allow instanceof AllowList ? options.only.allow : AllowList.parse(options.only.allow, options.only.where), where: options.only.where } : undefined;
  /** Every socket, both sides: close() ends them all. */
  const sockets = new Set<Socket>();
  /** Client connections open now. */
  let clients = 0;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.setTimeout(idleMs, () => socket.destroy());
    socket.once("close", () => sockets.delete(socket));
  };

  /** The target's checked addresses, or a Refusal saying why not. */
  async function allowed(host: string, port: number): Promise<ResolvedAddress[]> {
    const bare = bareHost(host);
    const name = isIP(bare) === 0 ? bare.toLowerCase() : undefined;
    const notListed = () => new Refusal(`${role} "${host}" port ${port} is not in ${only!.where}`);
    // A name the list does not hold is refused before it is resolved, unless ranges might match it.
    if (only && name !== undefined && !only.list.match({ name, address: "", port }) && !only.list.hasRanges) throw notListed();
    let addresses: ResolvedAddress[];
    try {
      addresses = await checkEgress({ host, port, role }, options.policy);
    } catch (error) {
      throw new Refusal((error as Error).message);
    }
    if (only && !addresses.every(({ address }) => only.list.match({ name, address, port }))) throw notListed();
    return addresses;
  }

  const refuse = (host: string, port: number, error: unknown): string => {
    const reason = error instanceof Refusal || error instanceof BlockedAddressError ? error.message : `${role} "${host}" port ${port}: ${(error as Error).message}`;
    options.onRefused?.({ host, port, reason });
    return reason;
  };

  const server = createServer({ requestTimeout: 0, headersTimeout: Math.min(idleMs, 60_000) });
  server.maxConnections = options.maxConnections ?? EGRESS_PROXY_DEFAULTS.maxConnections;
  server.on("connection", (socket: Socket) => {
    clients++;
    socket.once("close", () => clients--);
    track(socket);
  });

  // Plain HTTP: an absolute URI, forwarded on a connection of its own.
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end("this is a proxy: send an absolute http:// URI, or CONNECT host:port\n");
      return;
    }
    if (url.protocol !== "http:") {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(`${url.protocol} URLs go through CONNECT, not as an absolute URI\n`);
      return;
    }
    const port = url.port === "" ? 80 : Number(url.port);
    allowed(url.hostname, port).then(
      (addresses) => {
        const upstream = httpRequest({
          host: bareHost(url.hostname),
          port,
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: { ...endToEnd(req.headers), host: req.headers.host ?? url.host },
          lookup: pinnedLookup(addresses),
          agent: false,
          timeout: connectMs,
        });
        upstream.on("socket", (socket) => track(socket));
        upstream.on("timeout", () => upstream.destroy(new Error(`no answer within ${connectMs / 1000}s`)));
        upstream.on("response", (answer) => {
          upstream.setTimeout(0);
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
          answer.pipe(res);
        });
        upstream.on("error", (error) => {
          if (res.headersSent) return void res.destroy();
          res.writeHead(502, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(`${role} "${url.hostname}" port ${port}: ${error.message}\n`);
        });
        req.pipe(upstream);
      },
      (error: unknown) => {
        req.resume();
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8", "x-canvasflow-egress": "refused", connection: "close" }).end(`${refuse(url.hostname, port, error)}\n`);
      },
    );
  });

  // TLS, WebSockets and anything else: a tunnel to host:port.
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = authority(req.url ?? "");
    const answer = (status: string, body: string, refused = false) => {
      const text = `${body}\n`;
      client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\n${refused ? "X-Canvasflow-Egress: refused\r\n" : ""}Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
    };
    if (!target) return answer("400 Bad Request", "CONNECT needs host:port");
    client.on("error", () => client.destroy());
    allowed(target.host, target.port).then(
      (addresses) => {
        if (client.destroyed) return;
        const upstream = pinnedConnect(addresses, bareHost(target.host), target.port);
        track(upstream);
        const connectTimer = setTimeout(() => upstream.destroy(new Error(`no connection within ${connectMs / 1000}s`)), connectMs);
        upstream.once("connect", () => {
          clearTimeout(connectTimer);
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on("error", (error) => {
          clearTimeout(connectTimer);
          if (upstream.bytesRead > 0 || upstream.bytesWritten > 0 || !client.writable) return void client.destroy();
          answer("502 Bad Gateway", `${role} "${target.host}" port ${target.port}: ${error.message}`);
        });
        upstream.once("close", () => client.destroy());
        client.once("close", () => upstream.destroy());
      },
      (error: unknown) => answer("403 Forbidden", refuse(target.host, target.port, error), true),
    );
  });

  // An absolute-URI request asking to upgrade (WebSocket clients use CONNECT instead).
  server.on("upgrade", (_req: IncomingMessage, client: Socket) => {
    client.end("HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  server.on("clientError", (_error, socket: Socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });

  const listen = options.listen ?? {};
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const ready = () => {
      server.off("error", reject);
      resolve();
    };
    if ("path" in listen) server.listen(listen.path, ready);
    else server.listen(listen.port ?? 0, "127.0.0.1", ready);
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : undefined;
  let closing: Promise<void> | undefined;
  return {
    url: port === undefined ? undefined : `http://127.0.0.1:${port}`,
    port,
    path: "path" in listen ? listen.path : undefined,
    get connections() {
      return clients;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
