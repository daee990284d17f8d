/**
 * Dify's error answer on /v1: HTTP 4xx/5xx with `{code, message, status}` (research/dify-import.md
 * §4.1), not RAGFlow's envelope: dify-client and Dify's own apps read these. The server's own
 * refusals (a bad key, a rate limit, a bad body, a session in use) are translated here, so every
 * answer under /v1 has Dify's shape.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { PolicyRefusal } from "../component-policy.js";
import { ApiError, RET, TooManyRequestsError } from "../envelope.js";
import { validationError } from "../validation.js";

export class DifyApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "DifyApiError";
  }

  body(): { code: string; message: string; status: number } {
    return { code: this.code, message: this.message, status: this.status };
  }
}

export function invalidParam(message: string): DifyApiError {
  return new DifyApiError(400, "invalid_param", message);
}

export function notFound(message: string): DifyApiError {
  return new DifyApiError(404, "not_found", message);
}

/** A RAGFlow-style refusal from the shared server code, in Dify's terms. */
function fromApiError(error: ApiError): DifyApiError {
  if (error instanceof TooManyRequestsError) return new DifyApiError(429, "too_many_requests", error.message);
  // The app uses what this server's component policy denies: it cannot run here.
  if (error instanceof PolicyRefusal) return new DifyApiError(400, "app_unavailable", error.message);
  switch (error.code) {
    case RET.unauthorized:
      return new DifyApiError(401, "unauthorized", "Access token is invalid");
    case RET.tooLarge:
      return new DifyApiError(413, "request_too_large", error.message);
    case RET.argument:
      return invalidParam(error.message);
    case RET.data:
      return notFound(error.message);
    case RET.operating:
      return new DifyApiError(409, "conflict", error.message);
    default:
      return new DifyApiError(500, "internal_server_error", error.message);
  }
}

export function difyErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  let answer: DifyApiError;
  if (error instanceof DifyApiError) answer = error;
  else if (error instanceof ApiError) answer = fromApiError(error);
  else if (error.validation) answer = fromApiError(validationError(error.validation, error.validationContext));
  else if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") answer = new DifyApiError(413, "request_too_large", "Request body is too large");
  else if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) answer = invalidParam(error.message);
  else {
    request.log.error({ err: error }, "request failed");
    answer = new DifyApiError(500, "internal_server_error", error.message);
  }
  if (error instanceof TooManyRequestsError) reply.header("retry-after", String(error.retryAfterSeconds));
  void reply.code(answer.status).send(answer.body());
}
