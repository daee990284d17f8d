/**
 * The API key of a WebSocket connection. Browsers cannot set headers on a WebSocket, so besides
 * `Authorization: Bearer <key>` a client may offer the key as a subprotocol: it asks for
 * `Sec-WebSocket-Protocol: canvasflow, bearer.<key>`, and the server answers `canvasflow` (never
 * the key). A subprotocol, unlike a query parameter, is not part of the URL that servers, proxies
 * and browsers' histories log.
 */
import type { FastifyRequest } from "fastify";

/** The subprotocol the server answers: a client that offers a key must offer it too. */
const WS_PROTOCOL = "canvasflow";
const KEY_PREFIX = "bearer.";

function isUpgrade(request: FastifyRequest): boolean {
  return request.headers.upgrade?.toLowerCase() === "websocket";
}

/** The key offered as a `bearer.<key>` subprotocol on a WebSocket upgrade, if any. */
export function webSocketKey(request: FastifyRequest): string | undefined {
  if (!isUpgrade(request)) return undefined;
  const offered = request.headers["sec-websocket-protocol"];
  if (typeof offered !== "string") return undefined;
  for (const protocol of offered.split(",")) {
    const name = protocol.trim();
    if (name.startsWith(KEY_PREFIX) && name.length > KEY_PREFIX.length) return name.slice(KEY_PREFIX.length);
  }
  return undefined;
}

/** ws's `handleProtocols`: answer `canvasflow` when offered, never a key. */
export function selectProtocol(protocols: Set<string>): string | false {
  return protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false;
}
