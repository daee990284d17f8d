/**
 * The server's logs: Fastify's pino logger, one JSON line per event, each request's lines carrying
 * its id (`reqId`; a client's `x-request-id` when it is a plain token, else a new UUID, sent back
 * in the `x-request-id` header).
 *
 * What is never written: API keys, prompts, questions, inputs, DSLs. The server logs only what it
 * chooses (method, path, status, times, ids, outcomes; see the log calls), and pino's redaction
 * blanks the fields that would carry them should any log call include a header set, a body or a
 * request's fields. A request's logged URL has the values of key-like query parameters
 * (`?api_key=`, `token`…) and anything shaped like a canvasflow key blanked: the server takes keys
 * from headers only, but a client may put one in the URL by mistake.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyRequest, FastifyServerOptions } from "fastify";

/** Fields that carry secrets or user content, at the top of a log line or one level down. */
const SENSITIVE_FIELDS = ["authorization", "cookie", "apiKey", "api_key", "body", "dsl", "query", "question", "messages", "inputs", "prompt", "prompts"];

const REDACTED_PATHS: readonly string[] = [
  ...SENSITIVE_FIELDS.flatMap((field) => [field, `*.${field}`]),
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
];

export const REDACTED = "[redacted]";

/** Query parameters whose values are credentials, compared without case, `-` or `_` ("api_key", "apiKey", "access-token"…). */
const SECRET_PARAMETERS = new Set(["apikey", "key", "token", "accesstoken", "auth", "authorization", "bearer", "password", "secret", "clientsecret", "signature", "sig"]);
/** A canvasflow API key (`cf-` and 43 base64url characters: store/api-keys.ts), wherever it is. */
const KEY_SHAPE = /cf-[A-Za-z0-9_-]{43}/g;

function parameterName(raw: string): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    // Not valid percent-encoding: compared as it is.
  }
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/** A request URL as it may be logged: key-like query values and key-shaped text blanked. */
export function redactedUrl(url: string): string {
  const at = url.indexOf("?");
  const path = (at < 0 ? url : url.slice(0, at)).replace(KEY_SHAPE, REDACTED);
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals < 0) return pair.replace(KEY_SHAPE, REDACTED);
      const name = pair.slice(0, equals);
      return SECRET_PARAMETERS.has(parameterName(name)) ? `${name}=${REDACTED}` : `${name}=${pair.slice(equals + 1).replace(KEY_SHAPE, REDACTED)}`;
    });
  return `${path}?${query.join("&")}`;
}

type LoggerOption = FastifyServerOptions["logger"];
type Serializer = (value: unknown) => unknown;

/** Fastify's request serializer (lib/logger-pino.js), with the URL redacted. */
function requestFields(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url,
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** createServer's `logger` option with the redaction added (false stays false). */
export function safeLoggerOptions(logger: LoggerOption): LoggerOption {
  if (logger === undefined || logger === false) return false;
  const given = (logger === true ? {} : logger) as Exclude<LoggerOption, boolean | undefined> & {
    redact?: string[] | { paths: string[]; censor?: unknown; remove?: boolean };
  };
  const serializers = (given as { serializers?: Record<string, Serializer> }).serializers;
  const extra = Array.isArray(given.redact) ? given.redact : (given.redact?.paths ?? []);
  const censor = Array.isArray(given.redact) || given.redact === undefined ? REDACTED : (given.redact.censor ?? REDACTED);
  const serializeRequest: Serializer = serializers?.req ?? ((request) => requestFields(request as FastifyRequest));
  const req = (request: unknown) => {
    const fields = serializeRequest(request);
    if (fields === null || typeof fields !== "object" || typeof (fields as { url?: unknown }).url !== "string") return fields;
    return { ...fields, url: redactedUrl((fields as { url: string }).url) };
  };
  return { level: "info", ...given, serializers: { ...serializers, req }, redact: { paths: [...REDACTED_PATHS, ...extra], censor } } as LoggerOption;
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request's id: the client's `x-request-id` when it is a plain token (so logs can be joined up), else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}
