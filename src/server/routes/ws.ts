/**
 * The WebSocket transport (ours, not RAGFlow's): `GET /api/v1/agents/{agent_id}/ws`, upgraded to a
 * WebSocket whose frames are JSON (ws-connection.ts). The key is checked on the upgrade request
 * like any request's (an Authorization header, or the `bearer.<key>` subprotocol: ws-auth.ts); a
 * refused upgrade is answered as HTTP with the envelope (401…). A plain GET is told to upgrade.
 * A key has at most `limits.wsConnectionsPerKey` connections open at once in this process (429
 * beyond it).
 */
import type {} from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.js";
import { ApiError, RET, TooManyRequestsError } from "../envelope.js";
import { WsConnection } from "../ws-connection.js";
import { POLICY_VIOLATION } from "../ws-flow.js";

export function webSocketRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const perKey = ctx.limits.wsConnectionsPerKey;
  const tooMany = `Too many WebSocket connections: this API key may keep ${perKey} open at once (server.limits.wsConnectionsPerKey); close one first`;
  /** Open connections by caller (the key's rate-limit identity). */
  const open = new Map<string, number>();
  const full = (caller: string) => perKey > 0 && (open.get(caller) ?? 0) >= perKey;
  app.route({
    method: "GET",
    url: "/api/v1/agents/:agent_id/ws",
    // Before the upgrade, so the refusal is an HTTP answer.
    preHandler: async (request) => {
      if (full(request.caller)) throw new TooManyRequestsError(tooMany, 1);
    },
    handler: async (request) => {
      const path = request.url.split("?")[0];
      throw new ApiError(RET.argument, `${path} is a WebSocket endpoint: connect with a WebSocket client (a GET with Upgrade: websocket)`, null, 426);
    },
    wsHandler: (socket, request) => {
      const caller = request.caller;
      // Upgrades checked at once may pass the check together: the count decides.
      if (full(caller)) return socket.close(POLICY_VIOLATION, "too many WebSocket connections (server.limits.wsConnectionsPerKey)");
      open.set(caller, (open.get(caller) ?? 0) + 1);
      socket.on("close", () => {
        const left = (open.get(caller) ?? 1) - 1;
        if (left > 0) open.set(caller, left);
        else open.delete(caller);
      });
      const { agent_id: agentId } = request.params as { agent_id: string };
      new WsConnection(ctx, socket, request.raw.socket, { tenant: request.tenant, caller: request.caller, log: request.log }, agentId);
    },
  });
}
