/**
 * Dify's HTTP request node, on canvasflow's HTTP client (undici behind the SSRF guard: no
 * private addresses unless allowed, DNS pinned, no redirects followed).
 * - every method; `url`, `headers` and `params` (`key:value` lines) and the body are templates;
 * - authorization: api-key as a bearer token, a basic credential or a custom header;
 * - bodies: none, raw-text, json, x-www-form-urlencoded, form-data (text fields);
 * - outputs `status_code`, `body`, `headers`, `files`. A status outside 2xx is a success, unless
 *   the node has an error strategy or retries, when it fails as HTTPResponseCodeError (with the
 *   outputs set), as in Dify.
 */
import { Buffer } from "node:buffer";
import type { ComponentContext, ComponentDefinition, ParamProblem, Params } from "../../components/types.js";
import { sendHttpRequest, requestLabel, type HttpMethod } from "../../components/http/request.js";
import { egressPolicyOf } from "../../sandbox/egress/service.js";
import { isPlainObject } from "../../util/values.js";
import { templateReferences } from "../references.js";
import { list, record, renderText } from "./common.js";

const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
const BODY_TYPES: ReadonlySet<string> = new Set(["none", "raw-text", "json", "x-www-form-urlencoded", "form-data", "binary"]);

/** Dify's HTTP_REQUEST_MAX_CONNECT_TIMEOUT / _READ_TIMEOUT (seconds) and text response limit. */
const HTTP_LIMITS = { connectSeconds: 10, readSeconds: 600, defaultReadSeconds: 60, textBytes: 1024 * 1024 } as const;

class HTTPResponseCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HTTPResponseCodeError";
  }
}

function methodOf(value: unknown): HttpMethod | undefined {
  const method = typeof value === "string" ? value.toUpperCase() : "";
  return METHODS.has(method) ? (method as HttpMethod) : undefined;
}

/** `key:value` lines (Dify's headers and params), each part a rendered template; blank keys are dropped. */
function pairs(ctx: ComponentContext, text: unknown): Array<[string, string]> {
  if (typeof text !== "string") return [];
  const out: Array<[string, string]> = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    const key = renderText(ctx, colon < 0 ? line : line.slice(0, colon)).trim();
    const value = colon < 0 ? "" : renderText(ctx, line.slice(colon + 1)).trim();
    if (key !== "") out.push([key, value]);
  }
  return out;
}

function authorization(ctx: ComponentContext, params: Params, headers: Record<string, string>): void {
  const auth = record(params.authorization);
  if (auth.type !== "api-key") return;
  const config = record(auth.config);
  const key = renderText(ctx, config.api_key ?? "");
  if (key === "") throw new Error("authorization: the API key is empty");
  if (config.type === "basic") headers.Authorization = `Basic ${key.includes(":") ? Buffer.from(key).toString("base64") : key}`;
  else if (config.type === "custom") {
    const header = typeof config.header === "string" && config.header.trim() !== "" ? config.header.trim() : "Authorization";
    headers[header] = key;
  } else headers.Authorization = `Bearer ${key}`;
}

/** The request body, and its content type. */
function body(ctx: ComponentContext, params: Params): { text?: string; type?: string } {
  const spec = record(params.body);
  const type = typeof spec.type === "string" ? spec.type : "none";
  const items = list(spec.data).filter(isPlainObject);
  switch (type) {
    case "none":
      return {};
    case "raw-text":
      return { text: renderText(ctx, items[0]?.value ?? ""), type: "text/plain" };
    case "json":
      return { text: renderText(ctx, items[0]?.value ?? ""), type: "application/json" };
    case "x-www-form-urlencoded": {
      const form = new URLSearchParams();
      for (const item of items) if (typeof item.key === "string" && item.key !== "") form.append(renderText(ctx, item.key), renderText(ctx, item.value ?? ""));
      return { text: form.toString(), type: "application/x-www-form-urlencoded" };
    }
    case "form-data": {
      if (items.some((item) => item.type === "file")) throw new Error("form-data file fields are not supported by canvasflow's HTTP node");
      const boundary = `----canvasflow${Math.random().toString(36).slice(2)}`;
      const parts = items
        .filter((item) => typeof item.key === "string" && item.key !== "")
        .map((item) => `--${boundary}\r\nContent-Disposition: form-data; name="${renderText(ctx, item.key).replace(/"/g, "%22")}"\r\n\r\n${renderText(ctx, item.value ?? "")}\r\n`);
      return { text: `${parts.join("")}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
    }
    default:
      throw new Error(`the body type ${JSON.stringify(type)} is not supported by canvasflow's HTTP node`);
  }
}

function timeoutMs(params: Params): number {
  const timeout = record(params.timeout);
  const seconds = (value: unknown, fallback: number, max: number) => {
    const n = Number(value);
    return Number.isFinite(n) && n > 0 ? Math.min(n, max) : fallback;
  };
  return (seconds(timeout.connect, HTTP_LIMITS.connectSeconds, HTTP_LIMITS.connectSeconds) + seconds(timeout.read, HTTP_LIMITS.defaultReadSeconds, HTTP_LIMITS.readSeconds)) * 1000;
}

/** Whether a status outside 2xx fails the node: only with an error strategy or retries, as in Dify. */
function statusFails(params: Params): boolean {
  return (params.error_strategy !== undefined && params.error_strategy !== null && params.error_strategy !== "none") || record(params.retry_config).retry_enabled === true;
}

function headerObject(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

export const DifyHttpRequest: ComponentDefinition = {
  name: "DifyHttpRequest",
  thoughts: () => "",
  // The client enforces the node's own timeout; the engine's comes a little later.
  timeoutMs: (params) => timeoutMs(params) + 5_000,
  references: (params) => {
    const data = list(record(params.body).data).filter(isPlainObject);
    return [params.url, params.headers, params.params, ...data.flatMap((d) => [d.key, d.value]), record(record(params.authorization).config).api_key].flatMap(templateReferences);
  },
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    if (!methodOf(params.method)) problems.push({ pointer: "/method", message: `method must be one of ${[...METHODS].join(", ").toLowerCase()}, not ${JSON.stringify(params.method)}` });
    if (typeof params.url !== "string" || params.url.trim() === "") problems.push({ pointer: "/url", message: "the HTTP node needs a url" });
    const type = record(params.body).type;
    if (type !== undefined && (typeof type !== "string" || !BODY_TYPES.has(type))) problems.push({ pointer: "/body/type", message: `unknown body type ${JSON.stringify(type)}` });
    if (type === "binary") problems.push({ pointer: "/body/type", severity: "warning", message: "binary bodies are not supported: running this node fails" });
    return problems;
  },
  async invoke(ctx) {
    const params = ctx.params;
    const method = methodOf(params.method);
    if (!method) throw new Error(`method must be one of ${[...METHODS].join(", ").toLowerCase()}, not ${JSON.stringify(params.method)}`);
    const rendered = renderText(ctx, params.url ?? "").trim();
    let url: URL;
    try {
      url = new URL(rendered);
    } catch {
      throw new Error(`the url ${JSON.stringify(rendered.slice(0, 200))} is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`the url must be http or https, not ${url.protocol}`);
    for (const [key, value] of pairs(ctx, params.params)) url.searchParams.append(key, value);
    const headers: Record<string, string> = {};
    for (const [key, value] of pairs(ctx, params.headers)) headers[key] = value;
    authorization(ctx, params, headers);
    const payload = method === "GET" || method === "HEAD" ? {} : body(ctx, params);
    if (payload.type && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["Content-Type"] = payload.type;
    // The path may hold what a template resolved (a secret): messages show the origin only.
    const shown = `${method} ${url.origin}`;
    ctx.setInput("request", shown);
    const egress = egressPolicyOf(ctx.services);
    let response;
    try {
      response = await sendHttpRequest({
        method,
        url,
        headers,
        ...(payload.text !== undefined ? { body: payload.text } : {}),
        timeoutMs: timeoutMs(params),
        egress,
        signal: ctx.signal,
      });
    } catch (error) {
      if (error instanceof Error) error.message = error.message.split(requestLabel(method, url)).join(shown);
      throw error;
    }
    if (Buffer.byteLength(response.text, "utf8") > HTTP_LIMITS.textBytes) throw new Error(`the response body is larger than ${HTTP_LIMITS.textBytes / 1024 / 1024} MB`);
    ctx.setOutput("status_code", response.status);
    ctx.setOutput("body", response.text);
    ctx.setOutput("headers", headerObject(response.headers));
    ctx.setOutput("files", []);
    if ((response.status < 200 || response.status >= 300) && statusFails(params)) {
      throw new HTTPResponseCodeError(`${shown} answered ${response.status} ${response.statusText}`.trim());
    }
  },
};
