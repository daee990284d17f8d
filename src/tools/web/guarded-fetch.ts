/**
 * Fetching a URL that a canvas or a model chose (Crawler's page, a SearXNG instance named in the
 * DSL): through undici with the egress guard (non-public addresses refused unless the operator
 * allows them: services.egress), DNS pinned, no redirects followed blindly, the tool's
 * deadline and the run's signal.
 */
import { sendHttpRequest, type HttpResponse } from "../../components/http/request.js";
import { egressPolicyOf } from "../../sandbox/egress/service.js";
import type { ToolContext } from "../types.js";

/** Redirects followed at most (each hop is checked by the guard again). */
const MAX_REDIRECTS = 5;

interface GuardedGet {
  url: URL;
  headers?: Readonly<Record<string, string>>;
  timeoutMs: number;
  proxy?: URL;
}

/** GET a URL; redirects are followed, each target checked by the guard. */
export async function guardedGet(ctx: ToolContext, request: GuardedGet): Promise<HttpResponse & { url: URL }> {
  const egress = egressPolicyOf(ctx.services);
  let url = request.url;
  for (let hop = 0; ; hop++) {
    const response = await sendHttpRequest({
      method: "GET",
      url,
      headers: { ...(request.headers ?? {}) },
      timeoutMs: request.timeoutMs,
      ...(request.proxy ? { proxy: request.proxy } : {}),
      egress,
      signal: ctx.signal,
    });
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && typeof location === "string" && hop < MAX_REDIRECTS) {
      url = new URL(location, url);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${request.url.host} redirected to ${url.protocol} URL, which is not fetched`);
      continue;
    }
    return { ...response, url };
  }
}

/** An absolute http(s) URL from text; `name` says which argument, for the error. */
export function httpUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} must be an absolute http:// or https:// URL, not ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http:// or https:// URL, not ${JSON.stringify(text.slice(0, 200))}`);
  return url;
}
