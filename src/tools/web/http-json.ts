/**
 * The HTTP plumbing the web API tools share: one request with the tool's deadline and the run's
 * AbortSignal, the body decoded with the charset the server declares, JSON parsed, and every
 * failure turned into an error that names the tool and the host it tried to reach.
 *
 * The endpoints are fixed public APIs or ones the operator configured (never a URL from the
 * DSL), so no SSRF guard applies here, unlike Invoke.
 */
import { UnavailableError } from "../../components/unavailable.js";
import { decodeBody } from "../../components/http/request.js";

export interface ApiRequest {
  readonly method?: "GET" | "POST";
  readonly url: URL;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (sent as application/json) or a form (application/x-www-form-urlencoded). */
  readonly json?: unknown;
  readonly form?: Readonly<Record<string, string>>;
}

interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** Where a request went, for messages: the host only (query strings may hold API keys). */
function hostOf(url: URL): string {
  return url.host;
}

/** The network error codes worth a plain-words explanation. */
const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ENOTFOUND: "the host name could not be resolved (no DNS or no network)",
  EAI_AGAIN: "the host name could not be resolved (DNS lookup timed out: no network?)",
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  UND_ERR_SOCKET: "the connection was closed",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
};

/** The innermost cause of a fetch failure, with its code when it has one. */
function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return NETWORK_REASONS[code] ? `${NETWORK_REASONS[code]} (${code})` : `${current.message || code}`;
    const cause = (current as { cause?: unknown }).cause;
    if (!(cause instanceof Error)) break;
    current = cause;
  }
  return error instanceof Error ? error.message || error.name : String(error);
}

function bodyOf(request: ApiRequest): { body?: string; contentType?: string } {
  if (request.json !== undefined) return { body: JSON.stringify(request.json), contentType: "application/json" };
  if (request.form) return { body: new URLSearchParams({ ...request.form }).toString(), contentType: "application/x-www-form-urlencoded" };
  return {};
}

/** An API's own words about a failure, from the usual JSON error shapes, else the start of the body. */
export function apiErrorMessage(text: string): string {
  try {
    const found = errorText(JSON.parse(text));
    if (found) return found;
  } catch {
    // Not JSON: the text itself.
  }
  const plain = text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  return plain.length > 300 ? `${plain.slice(0, 297)}...` : plain;
}

const ERROR_KEYS = ["error", "detail", "message", "description", "info"];

/**
 * The message in an error body: a string under one of the usual keys, looked for first at this
 * level, then inside wrapper objects (Yahoo's {"chart": {"error": {"description": …}}}).
 */
function errorText(value: unknown, depth = 0): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (depth > 3 || value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ERROR_KEYS) {
    const found = errorText(record[key], depth + 1);
    if (found) return found;
  }
  for (const [key, nested] of Object.entries(record)) {
    if (ERROR_KEYS.includes(key) || nested === null || typeof nested !== "object") continue;
    const found = errorText(nested, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The requests of one tool call. They share one deadline (the tool's timeout, however many
 * requests the call needs) and the run's AbortSignal.
 */
export class ApiClient {
  private readonly deadline: number;

  constructor(
    /** The component_name, for messages ("TavilySearch could not reach api.tavily.com: …"). */
    readonly tool: string,
    private readonly signal: AbortSignal,
    private readonly timeoutMs: number,
    /** Headers sent with every request (e.g. a User-Agent the API expects). */
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {
    this.deadline = Date.now() + timeoutMs;
  }

  /**
   * Send one request and read the whole body. Any HTTP status comes back as a response; only
   * failures to get one (no network, refused, timed out, cancelled) throw.
   */
  async send(request: ApiRequest): Promise<ApiResponse> {
    const host = hostOf(request.url);
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        abort.abort(new Error("timeout"));
      },
      Math.max(0, this.deadline - Date.now()),
    );
    const onCancel = () => abort.abort(this.signal.reason);
    if (this.signal.aborted) onCancel();
    else this.signal.addEventListener("abort", onCancel, { once: true });

    const { body, contentType } = bodyOf(request);
    try {
      const response = await fetch(request.url, {
        method: request.method ?? (body === undefined ? "GET" : "POST"),
        headers: { accept: "application/json", ...(contentType ? { "content-type": contentType } : {}), ...this.headers, ...request.headers },
        body,
        signal: abort.signal,
      });
      const bytes = await response.arrayBuffer();
      return { status: response.status, headers: response.headers, text: decodeBody(bytes, response.headers.get("content-type") ?? undefined) };
    } catch (error) {
      if (this.signal.aborted) {
        const reason: unknown = this.signal.reason;
        throw reason instanceof Error ? reason : new Error(`${this.tool} was cancelled`);
      }
      if (timedOut) throw new Error(`${this.tool} gave up on ${host}: no answer within its ${this.timeoutMs / 1000}s timeout`);
      // No network here is an environment problem, not the canvas's: the run records it and goes on.
      throw new UnavailableError(`${this.tool} could not reach ${host}: ${networkReason(error)}`);
    } finally {
      clearTimeout(timer);
      this.signal.removeEventListener("abort", onCancel);
    }
  }

  /** Fail on a status >= 400, quoting what the API said. */
  requireOk(request: ApiRequest, response: ApiResponse): ApiResponse {
    if (response.status < 400) return response;
    const said = apiErrorMessage(response.text);
    throw new Error(`${this.tool}: ${hostOf(request.url)} answered HTTP ${response.status}${said ? `: ${said}` : ""}`);
  }

  /** Parse a body as JSON, naming the host when it is not. */
  parseJson(request: ApiRequest, response: ApiResponse): unknown {
    try {
      return JSON.parse(response.text);
    } catch {
      const start = response.text.slice(0, 80).replace(/\s+/g, " ");
      throw new Error(`${this.tool}: ${hostOf(request.url)} did not answer with JSON (the body starts with ${JSON.stringify(start)})`);
    }
  }

  /** The body as JSON (a status >= 400 fails first). */
  async json(request: ApiRequest): Promise<unknown> {
    return this.parseJson(request, this.requireOk(request, await this.send(request)));
  }

  /** The body as text (a status >= 400 fails first). */
  async text(request: ApiRequest): Promise<string> {
    return this.requireOk(request, await this.send(request)).text;
  }

  /** A malformed answer: the API answered, but not in the shape its documentation gives. */
  unexpected(request: ApiRequest, what: string): Error {
    return new Error(`${this.tool}: ${hostOf(request.url)} answered without ${what}`);
  }
}
