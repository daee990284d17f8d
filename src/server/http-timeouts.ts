/**
 * How long a client may take to send a request (server.limits.requestMs, headersMs): Node's
 * `requestTimeout` and `headersTimeout`, which run from a request's first byte (or a connection's
 * opening) until the request is received whole. They end with the request: an answer, however
 * long it streams (SSE, re-attach, Dify's streams, WebSocket upgrades), is never cut by them. A
 * body that stalls, headers trickled a byte at a time (slowloris) and a connection that sends
 * nothing are answered HTTP 408 with the API's envelope, and closed.
 *
 * Idle keep-alive connections are closed by Fastify's keepAliveTimeout (72 s). There is no idle
 * timeout on a connection while its answer streams: RAGFlow's streams send nothing while a model
 * thinks, and a run's own time is bounded by limits.runMs.
 */
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { ServerOptions } from "node:http";
import type { Socket } from "node:net";
import type { ServerLimits } from "./settings.js";

/** The longest wait between two checks of the connections' deadlines (Node's default is 30 s). */
const MAX_CHECK_INTERVAL_MS = 1000;
/** Node refuses a check interval of 0. */
const MIN_CHECK_INTERVAL_MS = 10;

/** What a timed-out client is told, naming the settings. */
export function requestTimeoutMessage(limits: Pick<ServerLimits, "requestMs" | "headersMs">): string {
  const parts = [
    ...(limits.headersMs > 0 ? [`its headers within ${limits.headersMs} ms (server.limits.headersMs)`] : []),
    ...(limits.requestMs > 0 ? [`all of it within ${limits.requestMs} ms (server.limits.requestMs)`] : []),
  ];
  return `Request Timeout: the request was not received in time: this server waits for ${parts.join(", and for ")}`;
}

/** The Fastify options that set the timeouts, and the answer to a client that ran out of time. */
export function httpTimeoutOptions(limits: Pick<ServerLimits, "requestMs" | "headersMs">): Pick<FastifyServerOptions, "requestTimeout" | "clientErrorHandler"> & { http: ServerOptions } {
  const shortest = Math.min(...[limits.requestMs, limits.headersMs].filter((ms) => ms > 0));
  // A deadline is noticed at the first check after it: at most a second late, or a tenth of the limit.
  const checkEvery = Number.isFinite(shortest) ? Math.max(MIN_CHECK_INTERVAL_MS, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(shortest / 10))) : MAX_CHECK_INTERVAL_MS;
  const timedOut = JSON.stringify({ code: 408, message: requestTimeoutMessage(limits), data: null });
  return {
    requestTimeout: limits.requestMs,
    // Fastify sets requestTimeout on the server after making it; Node checks headersTimeout against it when making it.
    http: { requestTimeout: limits.requestMs, headersTimeout: limits.headersMs, connectionsCheckingInterval: checkEvery },
    // Fastify's own handler, but a timeout is answered with the API's envelope and logged.
    clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      let answer: string;
      if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
        this.log.info({ remoteAddress: socket.remoteAddress }, "a request timed out before it was received whole (HTTP 408)");
        answer = rawAnswer(408, "Request Timeout", timedOut);
      } else if (error.code === "HPE_HEADER_OVERFLOW") {
        answer = rawAnswer(431, "Request Header Fields Too Large", '{"error":"Request Header Fields Too Large","message":"Exceeded maximum allowed HTTP header size","statusCode":431}');
      } else {
        this.log.trace({ err: error }, "client error");
        answer = rawAnswer(400, "Bad Request", '{"error":"Bad Request","message":"Client Error","statusCode":400}');
      }
      if (socket.writable) socket.write(answer);
      socket.destroy(error);
    },
  };
}

function rawAnswer(status: number, text: string, body: string): string {
  return `HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`;
}
