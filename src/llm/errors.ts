/**
 * The two ways a model call goes wrong: the llm_id names no model we can reach (configuration),
 * or the request to the model failed (HTTP status, timeout, abort, network).
 */
import type { ModelRequester } from "./types.js";

/** "component Agent:Writer (Agent)": who asked, for messages. */
export function describeRequester(requester: ModelRequester): string {
  return `component ${requester.id} (${requester.type})`;
}

/** An llm_id that no config entry, default or environment variable resolves. */
export class ModelResolutionError extends Error {
  constructor(
    readonly llmId: string,
    readonly requester: ModelRequester,
    message: string,
  ) {
    super(message);
    this.name = "ModelResolutionError";
  }
}

/**
 * - `http`: the server answered with an error status (`status` is set);
 * - `timeout`: no complete answer within the request's timeoutMs;
 * - `aborted`: the caller's AbortSignal fired (a cancelled run, a component timeout);
 * - `connection`: the server could not be reached, or the connection broke;
 * - `stream`: the server reported an error inside a streamed answer.
 */
export type LlmFailureKind = "http" | "timeout" | "aborted" | "connection" | "stream";

interface LlmRequestErrorDetails {
  kind: LlmFailureKind;
  llmId: string;
  model: string;
  baseURL: string;
  status?: number;
  /** What the server said (its error message or body), or the network error. */
  serverMessage?: string;
  /** Requests made, retries included. */
  attempts: number;
  cause?: unknown;
}

export class LlmRequestError extends Error {
  readonly kind: LlmFailureKind;
  readonly llmId: string;
  readonly model: string;
  readonly baseURL: string;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly attempts: number;

  constructor(details: LlmRequestErrorDetails, message: string) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "LlmRequestError";
    this.kind = details.kind;
    this.llmId = details.llmId;
    this.model = details.model;
    this.baseURL = details.baseURL;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.attempts = details.attempts;
  }
}
