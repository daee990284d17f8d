/**
 * One outgoing HTTP request with the guard rails a canvas needs: an overall deadline, the
 * caller's AbortSignal, the SSRF check with DNS pinning, an optional proxy, and no redirects.
 * Direct requests reuse kept-alive connections to the same checked addresses (sandbox/egress/dispatchers.ts);
 * a proxy gets a connection of its own per request.
 */
import { STATUS_CODES } from "node:http";
import type { Dispatcher } from "undici";
import { undici } from "../../util/undici.js";
import { pinnedDispatcher } from "../../sandbox/egress/dispatchers.js";
import { BlockedAddressError, checkEgress, pinnedLookup, urlPort, type EgressPolicy } from "../../sandbox/egress/guard.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";

export interface HttpRequestSpec {
  readonly method: HttpMethod;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Whole request, DNS to last body byte. */
  readonly timeoutMs: number;
  readonly proxy?: URL;
  /** The egress guard's rules for this run (sandbox/egress/service.ts, egressPolicyOf). */
  readonly egress: EgressPolicy;
  /** Cancellation from outside (the run, or the engine's own timeout). */
  readonly signal: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** The request as errors show it: no query string or credentials, which may hold secrets. */
export function requestLabel(method: string, url: URL): string {
  return `${method} ${url.origin}${url.pathname}`;
}

/** Query parameters whose values are secrets by their name (OpenTelemetry's list, and the usual key names). */
const SECRET_QUERY_KEYS = /^(awsaccesskeyid|signature|sig|x-goog-signature|api[_-]?key|key|token|access[_-]?token|secret|client[_-]?secret|password|passwd|auth|authorization)$/i;

/**
 * The URL as a span's `url.full` shows it (the HTTP semantic conventions): a user and password
 * become REDACTED, and so do the values of query parameters named like credentials.
 */
export function spanUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.username !== "" || shown.password !== "") {
    shown.username = "REDACTED";
    shown.password = shown.password === "" ? "" : "REDACTED";
  }
  if ([...shown.searchParams.keys()].some((key) => SECRET_QUERY_KEYS.test(key))) {
    const query = new URLSearchParams();
    for (const [key, value] of shown.searchParams) query.append(key, SECRET_QUERY_KEYS.test(key) ? "REDACTED" : value);
    shown.search = query.toString();
  }
  return shown.href;
}

export async function sendHttpRequest(spec: HttpRequestSpec): Promise<HttpResponse> {
  const label = requestLabel(spec.method, spec.url);
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort(new Error("timeout"));
  }, spec.timeoutMs);
  const onCancel = () => abort.abort(spec.signal.reason);
  if (spec.signal.aborted) onCancel();
  else spec.signal.addEventListener("abort", onCancel, { once: true });

  /** A proxy agent made for this request (closed after it); a direct request's pool is shared. */
  let owned: Dispatcher | undefined;
  try {
    const { dispatcher, perRequest } = await untilAborted(buildDispatcher(spec), abort.signal);
    if (perRequest) owned = dispatcher;
    const response = await undici().request(spec.url, {
      method: spec.method,
      headers: { ...spec.headers },
      body: spec.body,
      signal: abort.signal,
      dispatcher,
      headersTimeout: spec.timeoutMs,
      bodyTimeout: spec.timeoutMs,
    });
    const bytes = await response.body.arrayBuffer();
    const headers = response.headers as Record<string, string | string[] | undefined>;
    return {
      status: response.statusCode,
      statusText: STATUS_CODES[response.statusCode] ?? "",
      headers,
      text: decodeBody(bytes, headers["content-type"]),
    };
  } catch (error) {
    if (spec.signal.aborted) throw spec.signal.reason instanceof Error ? spec.signal.reason : new Error("cancelled");
    if (timedOut) throw new Error(`${label} timed out after ${spec.timeoutMs / 1000}s (the timeout param)`);
    if (error instanceof BlockedAddressError) throw error;
    throw new Error(`${label} failed: ${describeError(error)}`);
  } finally {
    clearTimeout(timer);
    spec.signal.removeEventListener("abort", onCancel);
    owned?.destroy().catch(() => undefined);
  }
}

/** A dispatcher for one request: `perRequest` ones are this request's to close. */
interface BuiltDispatcher {
  dispatcher: Dispatcher;
  perRequest: boolean;
}

/**
 * Resolve and check the hosts, then connect only to the checked addresses. Through a proxy we
 * connect to the proxy (pinned); the target is still checked, though the proxy resolves it.
 */
async function buildDispatcher(spec: HttpRequestSpec): Promise<BuiltDispatcher> {
  const connectTimeout = spec.timeoutMs;
  if (spec.proxy) {
    const proxyAddresses = await checkEgress({ host: spec.proxy.hostname, port: urlPort(spec.proxy), role: "proxy host" }, spec.egress);
    await checkEgress({ host: spec.url.hostname, port: urlPort(spec.url), role: "url host" }, spec.egress);
    const proxy = new (undici().ProxyAgent)({
      uri: spec.proxy.href,
      // Plain http targets are forwarded (absolute-URI requests, as Python requests does); https ones tunnel.
      proxyTunnel: false,
      proxyTls: { lookup: pinnedLookup(proxyAddresses), timeout: connectTimeout },
      requestTls: { timeout: connectTimeout },
    });
    return { dispatcher: proxy, perRequest: true };
  }
  const addresses = await checkEgress({ host: spec.url.hostname, port: urlPort(spec.url), role: "url host" }, spec.egress);
  return { dispatcher: pinnedDispatcher(addresses, connectTimeout), perRequest: false };
}

/** The dispatcher, unless the request is aborted first (a per-request one made too late is closed). */
function untilAborted(work: Promise<BuiltDispatcher>, signal: AbortSignal): Promise<BuiltDispatcher> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<BuiltDispatcher>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted && value.perRequest) value.dispatcher.destroy().catch(() => undefined);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Decode with the charset the server declares; UTF-8 otherwise (also for unknown charsets). */
export function decodeBody(bytes: ArrayBuffer, contentType: string | string[] | undefined): string {
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  const charset = type ? /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type)?.[1] : undefined;
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown label: fall through to UTF-8.
    }
  }
  return new TextDecoder("utf-8").decode(bytes);
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message || error.name];
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && !parts[0].includes(cause.message)) parts.push(cause.message);
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && !parts.some((p) => p.includes(code))) parts.push(code);
  return parts.join(": ");
}
