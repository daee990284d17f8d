/**
 * The WebSocket transport (ours, not RAGFlow's): `GET /api/v1/agents/{agent_id}/ws`, upgraded to a
 * WebSocket whose frames are JSON (ws-connection.ts). The key is checked on the upgrade request
 * like any request's (an Authorization header, or the `bearer.<key>` subprotocol: ws-auth.ts); a
 * refused upgrade is answered as HTTP with the envelope (401…). A plain GET is told to upgrade.
 */
import type {} from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.js";
import { ApiError, RET } from "../envelope.js";
import { WsConnection } from "../ws-connection.js";

export function webSocketRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.route({
    method: "GET",
    url: "/api/v1/agents/:agent_id/ws",
    handler: async (request) => {
      const path = request.url.split("?")[0];
      throw new ApiError(RET.argument, `${path} is a WebSocket endpoint: connect with a WebSocket client (a GET with Upgrade: websocket)`, null, 426);
    },
    wsHandler: (socket, request) => {
      const { agent_id: agentId } = request.params as { agent_id: string };
      new WsConnection(ctx, socket, { tenant: request.tenant, caller: request.caller, log: request.log }, agentId);
    },
  });
}
