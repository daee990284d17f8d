/**
 * RAGFlow's answer envelope `{code, message, data}` and its return codes (research/ragflow-api.md
 * §1). Application errors answer HTTP 200 with a non-zero code, as RAGFlow does (its SDK only
 * reads `code`); real HTTP statuses are kept for 401, 403, 404, 413 and 429, and on the OpenAI
 * routes for every error (`httpStatus`).
 */
import type { DamagedRecord } from "../backends/contracts.js";

/** RAGFlow's `RetCode` values that the agent API uses. */
export const RET = {
  success: 0,
  exception: 100,
  argument: 101,
  data: 102,
  operating: 103,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  tooLarge: 413,
  /** Not one of RAGFlow's RetCodes: RAGFlow has no API rate limit; its real-status errors carry the status as code (401, 404), so does this. */
  tooManyRequests: 429,
  serverError: 500,
} as const;

export interface Envelope {
  code: number;
  message?: string;
  data?: unknown;
  /** Only on the OpenAI-compatible routes: what the `openai` SDK reads to raise its errors. */
  error?: OpenAiError;
}

/** The `error` object of OpenAI's API (the `openai` SDK shows `message` and maps the status). */
interface OpenAiError {
  message: string;
  type: string;
  code: number | string | null;
}

/** RAGFlow's `get_json_result`: `{code: 0, message: "success", data}`. */
export function success(data: unknown): Envelope {
  return { code: RET.success, message: "success", data };
}

/**
 * A list's answer with the asking tenant's records that could not be read and were left out
 * (docs/server.md, Damaged records): `damaged` beside `data`, only when there are some.
 */
export function withDamaged<E extends object>(envelope: E, damaged: readonly DamagedRecord[] | undefined): E & { damaged?: Array<{ kind: string; id: string | null; problem: string }> } {
  if (!damaged || damaged.length === 0) return envelope;
  return { ...envelope, damaged: damaged.map((d) => ({ kind: d.kind, id: d.id ?? null, problem: d.problem })) };
}

/**
 * A request that cannot be served: it becomes the envelope `{code, message, data}` with HTTP
 * `status` (200 for application errors, as RAGFlow). Thrown by handlers; the error handler
 * answers it.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = false,
    readonly status = 200,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /**
   * The HTTP status to answer with. An OpenAI client reads only the status: a 200 is a completion
   * to it (the `openai` SDK returns the envelope as one, or streams nothing), so on the OpenAI
   * routes an application error gets a real status, 400 (OpenAI's `invalid_request_error`) or 500
   * for code 100, and the SDK raises it with the message.
   */
  httpStatus(openAi = false): number {
    if (!openAi || this.status !== 200) return this.status;
    return this.code === RET.exception ? 500 : 400;
  }

  envelope(openAi = false): Envelope {
    const envelope: Envelope = { code: this.code, message: this.message, data: this.data };
    if (openAi) envelope.error = { message: this.message, type: "invalid_request_error", code: this.code };
    return envelope;
  }
}

/** The exact answer RAGFlow (HEAD) gives a missing or unknown key, with HTTP 401; its tests assert the message. */
const UNAUTHORIZED_MESSAGE = "<Unauthorized '401: Unauthorized'>";

export function unauthorized(): ApiError {
  return new ApiError(RET.unauthorized, UNAUTHORIZED_MESSAGE, null, 401);
}

export function tooLarge(): ApiError {
  return new ApiError(RET.tooLarge, "Request body is too large", null, 413);
}

/** A rate limit refused the request: HTTP 429 with `retry-after` (seconds). */
export class TooManyRequestsError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(RET.tooManyRequests, message, null, 429);
    this.name = "TooManyRequestsError";
  }
}

/** A bad argument (code 101). */
export function argumentError(message: string, data: unknown = false): ApiError {
  return new ApiError(RET.argument, message, data);
}

/** Missing or wrong data (code 102). */
export function dataError(message: string, data: unknown = false): ApiError {
  return new ApiError(RET.data, message, data);
}

/** Not allowed in this state or for this tenant (code 103). */
export function operatingError(message: string, data: unknown = false): ApiError {
  return new ApiError(RET.operating, message, data);
}
