/**
 * The server's logs: Fastify's pino logger, one JSON line per event, each request's lines carrying
 * its id (`reqId`; a client's `x-request-id` when it is a plain token, else a new UUID, sent back
 * in the `x-request-id` header).
 *
 * What is never written: API keys, prompts, questions, inputs, DSLs. The server logs only what it
 * chooses (method, path, status, times, ids, outcomes; see the log calls), and pino's redaction
 * blanks the fields that would carry them should any log call include a header set, a body or a
 * request's fields.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyServerOptions } from "fastify";

/** Fields that carry secrets or user content, at the top of a log line or one level down. */
const SENSITIVE_FIELDS = ["authorization", "cookie", "apiKey", "api_key", "body", "dsl", "query", "question", "messages", "inputs", "prompt", "prompts"];

export const REDACTED_PATHS: readonly string[] = [
  ...SENSITIVE_FIELDS.flatMap((field) => [field, `*.${field}`]),
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
];

export const REDACTED = "[redacted]";

type LoggerOption = FastifyServerOptions["logger"];

/** createServer's `logger` option with the redaction added (false stays false). */
export function safeLoggerOptions(logger: LoggerOption): LoggerOption {
  if (logger === undefined || logger === false) return false;
  const given = (logger === true ? {} : logger) as Exclude<LoggerOption, boolean | undefined> & { redact?: string[] | { paths: string[]; censor?: unknown; remove?: boolean } };
  const extra = Array.isArray(given.redact) ? given.redact : (given.redact?.paths ?? []);
  const censor = Array.isArray(given.redact) || given.redact === undefined ? REDACTED : (given.redact.censor ?? REDACTED);
  return { level: "info", ...given, redact: { paths: [...REDACTED_PATHS, ...extra], censor } } as LoggerOption;
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request's id: the client's `x-request-id` when it is a plain token (so logs can be joined up), else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}
