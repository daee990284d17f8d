/**
 * Invoke ("HTTP request"): calls a URL with GET, POST or PUT and outputs the response text
 * (research/ragflow.md §4.1). Arguments come from references or templated values; header
 * values may hold `{token}` references. Requests to non-public addresses are refused unless
 * the operator allows them (services.egress, see sandbox/egress/service.ts).
 *
 * Retries are the engine's (max_retries / delay_after_error), so none are made here.
 */
import { componentSchema } from "../dsl/schemas.js";
import { templateReferencesInParams } from "./params.js";
import { parseExpression, parseSelector, type Reference } from "../refs/grammar.js";
import { stringifyValue } from "../refs/template.js";
import { finiteNumber, isBlank, isPlainObject, objectRows } from "../util/values.js";
import { formBody, hasHeader, jsonArgument, withQuery } from "./http/arguments.js";
import { htmlToText } from "./http/html-to-text.js";
import { requestLabel, sendHttpRequest, spanUrl, type HttpMethod } from "./http/request.js";
import { egressPolicyOf } from "../sandbox/egress/service.js";
import { isTextStream } from "./text-stream.js";
import type { ComponentContext, ComponentDefinition, Params, ParamProblem, SpanAttributes } from "./types.js";
import { valueKind } from "./value-kind.js";

export type { EgressServiceOptions, HttpServiceOptions } from "../sandbox/egress/service.js";
export type { HostResolver, ResolvedAddress } from "../sandbox/egress/guard.js";

const DEFAULT_INVOKE_TIMEOUT_S = 60;
/** The engine's timeout is the HTTP timeout plus this, so the request's own clearer error comes first. */
export const ENGINE_TIMEOUT_MARGIN_MS = 5_000;

/**
 * Header placeholders: RAGFlow's `\{([a-zA-Z_][a-zA-Z0-9_.@-]*)\}`, plus ":" so that ids like
 * `Agent:Fast@content` resolve too.
 */
const HEADER_TOKEN = /\{([a-zA-Z_][a-zA-Z0-9_:.@-]*)\}/g;

/** Headers the HTTP client manages itself (and refuses when given). */
const CLIENT_MANAGED_HEADERS: ReadonlySet<string> = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "expect", "content-length"]);

interface InvokeVariable {
  key?: unknown;
  ref?: unknown;
  value?: unknown;
}

type Datatype = "json" | "formdata";

// ---- param readers (shared by check and invoke) ----

export function parseMethod(value: unknown): HttpMethod | undefined {
  if (isBlank(value)) return "GET";
  const method = typeof value === "string" ? value.trim().toUpperCase() : "";
  return method === "GET" || method === "POST" || method === "PUT" ? method : undefined;
}

function parseDatatype(value: unknown): Datatype | undefined {
  if (isBlank(value)) return "json";
  const datatype = typeof value === "string" ? value.trim().toLowerCase() : "";
  return datatype === "json" || datatype === "formdata" ? datatype : undefined;
}

/** Seconds, from a positive number or numeric text; blank gives the default. */
export function timeoutSeconds(value: unknown): number | undefined {
  if (isBlank(value)) return DEFAULT_INVOKE_TIMEOUT_S;
  const seconds = finiteNumber(value);
  return seconds !== undefined && seconds > 0 ? seconds : undefined;
}

/** The headers param: JSON object text (as the editor stores it) or an object. */
export function parseHeaders(value: unknown): Record<string, unknown> {
  let headers: unknown = value;
  if (isBlank(value)) return {};
  if (typeof value === "string") {
    try {
      headers = JSON.parse(value);
    } catch (error) {
      throw new Error(`headers is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (!isPlainObject(headers)) {
    throw new Error('headers must be a JSON object such as {"Authorization": "Bearer {env.token}"}');
  }
  for (const [name, item] of Object.entries(headers)) {
    if (item !== null && typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean") {
      throw new Error(`headers: the value of "${name}" must be text, not ${valueKind(item)}`);
    }
  }
  return headers as Record<string, unknown>;
}

function withScheme(text: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
}

/** The endpoint: `http://` is added when there is no scheme; only http and https are allowed. */
export function endpointUrl(text: string, param = "url"): URL {
  let url: URL;
  try {
    url = new URL(withScheme(text.trim()));
  } catch {
    throw new Error(`${param} "${text}" is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`${param} "${text}" uses ${url.protocol.slice(0, -1)}; only http and https are supported`);
  }
  if (url.hostname === "") throw new Error(`${param} "${text}" has no host`);
  return url;
}

/** The proxy, or undefined when unset. Like RAGFlow, a bare "http://" (the editor's default) means none. */
export function proxyUrl(value: unknown): URL | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value !== "string") throw new Error("proxy must be a URL such as http://proxy.local:3128");
  if (value.trim().replace(/https?:?\/?\/?/gi, "") === "") return undefined;
  return endpointUrl(value, "proxy");
}

/** Editor rows with no key are unfilled rows: they send nothing. */
function filledVariables(params: Params): Array<{ row: InvokeVariable; index: number; key: string }> {
  return objectRows<InvokeVariable>(params.variables).flatMap(({ row, index }) =>
    typeof row.key === "string" && row.key.trim() !== "" ? [{ row, index, key: row.key }] : [],
  );
}

function refText(row: InvokeVariable): string {
  return typeof row.ref === "string" ? row.ref.trim() : "";
}

/** References in header values, found with the header placeholder pattern. */
function headerReferences(value: unknown): Reference[] {
  let headers: Record<string, unknown>;
  try {
    headers = parseHeaders(value);
  } catch {
    return [];
  }
  const refs: Reference[] = [];
  for (const item of Object.values(headers)) {
    if (typeof item !== "string") continue;
    for (const match of item.matchAll(HEADER_TOKEN)) {
      const ref = parseExpression(match[1]);
      // Aliases in headers are looked up when they are valid (inside an Iteration), not required.
      if (ref && ref.kind !== "alias") refs.push(ref);
    }
  }
  return refs;
}

// ---- resolving values ----

/** A referenced value as text: a finished upstream stream as its text. */
function valueText(value: unknown): string {
  return isTextStream(value) ? value.text : stringifyValue(value);
}

/** `{token}` placeholders: a resolvable reference gives its value, anything else "" (as RAGFlow). */
export function renderHeaderValue(text: string, resolve: (ref: Reference) => unknown): string {
  return text.replace(HEADER_TOKEN, (_match, token: string) => {
    const ref = parseExpression(token);
    if (!ref) return "";
    try {
      return valueText(resolve(ref));
    } catch {
      return "";
    }
  });
}

function resolveHeaders(ctx: ComponentContext<Params>, headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, item] of Object.entries(headers)) {
    if (CLIENT_MANAGED_HEADERS.has(name.toLowerCase())) continue;
    out[name] = typeof item === "string" ? renderHeaderValue(item, (ref) => ctx.get(ref)) : item === null ? "" : String(item);
  }
  return out;
}

/** The reference's value when it has one, else the templated `value`, else "". */
function argumentValue(ctx: ComponentContext<Params>, row: InvokeVariable, key: string): unknown {
  const ref = refText(row);
  if (ref !== "") {
    let value: unknown;
    try {
      value = ctx.get(ref);
    } catch (error) {
      throw new Error(`variables: argument "${key}": ${(error as Error).message}`);
    }
    if (value !== null && value !== undefined) return isTextStream(value) ? value.text : value;
  }
  if (row.value !== null && row.value !== undefined) return typeof row.value === "string" ? ctx.render(row.value, valueText) : row.value;
  return "";
}

function statusError(status: number, statusText: string, label: string, text: string, location: unknown): Error {
  let message = `HTTP ${status}${statusText ? ` ${statusText}` : ""} from ${label}`;
  if (status >= 300 && status < 400) {
    message += ` (redirects are not followed${typeof location === "string" && location ? `; Location: ${location}` : ""})`;
  }
  const excerpt = text.replace(/\s+/g, " ").trim().slice(0, 200);
  return new Error(excerpt ? `${message}: ${excerpt}` : message);
}

/** An HTTP client span's attributes: the method, the URL without credentials, the server. */
function requestAttributes(method: HttpMethod, url: URL): SpanAttributes {
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { "http.request.method": method, "url.full": spanUrl(url), "server.address": url.hostname.replace(/^\[(.*)\]$/, "$1"), "server.port": port };
}

// ---- the definition ----

export const Invoke: ComponentDefinition = {
  name: "Invoke",
  paramsSchema: componentSchema("Invoke"),
  defaults: { url: "", method: "get", headers: "", proxy: null, variables: [], timeout: DEFAULT_INVOKE_TIMEOUT_S, clean_html: false, datatype: "json", idempotency_key: false },
  thoughts: () => "Waiting for the server to respond...",
  timeoutMs: (params) => (timeoutSeconds(params.timeout) ?? DEFAULT_INVOKE_TIMEOUT_S) * 1000 + ENGINE_TIMEOUT_MARGIN_MS,
  references(params) {
    // Only text values are templated, so only they can hold references.
    const values = objectRows<InvokeVariable>(params.variables).flatMap(({ row }) => (typeof row.value === "string" ? [row.value] : []));
    const refs = templateReferencesInParams({ url: params.url, values });
    for (const { row } of objectRows<InvokeVariable>(params.variables)) {
      const ref = refText(row) === "" ? null : parseSelector(refText(row));
      if (ref) refs.push(ref);
    }
    refs.push(...headerReferences(params.headers));
    return refs;
  },
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    const add = (pointer: string, message: string, severity: "error" | "warning" = "error") => problems.push({ pointer, message, severity });
    if (typeof params.url !== "string" || params.url.trim() === "") add("/url", "url is required: the endpoint to call (references such as {begin@endpoint} are allowed)");
    if (parseMethod(params.method) === undefined) add("/method", `method must be get, post or put, not ${JSON.stringify(params.method)}`);
    if (parseDatatype(params.datatype) === undefined) add("/datatype", `datatype must be json or formdata, not ${JSON.stringify(params.datatype)}`);
    if (timeoutSeconds(params.timeout) === undefined) add("/timeout", `timeout must be a positive number of seconds, not ${JSON.stringify(params.timeout)}`);
    if (params.clean_html !== undefined && params.clean_html !== null && typeof params.clean_html !== "boolean") add("/clean_html", "clean_html must be true or false");
    for (const [pointer, read] of [["/headers", () => parseHeaders(params.headers)], ["/proxy", () => proxyUrl(params.proxy)]] as const) {
      try {
        read();
      } catch (error) {
        add(pointer, (error as Error).message);
      }
    }
    if (params.variables !== undefined && params.variables !== null && !Array.isArray(params.variables)) add("/variables", "variables must be a list of {key, ref?, value?}");
    for (const { row, index } of objectRows<InvokeVariable>(params.variables)) {
      const at = `/variables/${index}`;
      if (typeof row.key !== "string" || row.key.trim() === "") {
        add(`${at}/key`, "this argument has no key: it is not sent", "warning");
        continue;
      }
      const ref = refText(row);
      if (ref !== "" && parseSelector(ref) === null) add(`${at}/ref`, `argument "${row.key}": "${ref}" is not a reference (expected cpn@var, sys.x or env.x)`);
    }
    return problems;
  },
  async invoke(ctx) {
    const params = ctx.params;
    const method = parseMethod(params.method);
    if (!method) throw new Error(`method must be get, post or put, not ${JSON.stringify(params.method)}`);
    const datatype = parseDatatype(params.datatype);
    if (!datatype) throw new Error(`datatype must be json or formdata, not ${JSON.stringify(params.datatype)}`);
    const seconds = timeoutSeconds(params.timeout);
    if (seconds === undefined) throw new Error(`timeout must be a positive number of seconds, not ${JSON.stringify(params.timeout)}`);
    if (typeof params.url !== "string" || params.url.trim() === "") throw new Error("url is empty: set the endpoint to call");
    const url = endpointUrl(ctx.render(params.url.trim(), valueText));
    const headers = resolveHeaders(ctx, parseHeaders(params.headers));
    // The same key when this step runs again after a crash: the service can drop the duplicate.
    if (params.idempotency_key === true && !hasHeader(headers, "idempotency-key")) headers["Idempotency-Key"] = ctx.idempotencyKey;
    const proxy = proxyUrl(params.proxy);

    const args: Record<string, unknown> = {};
    for (const { row, key } of filledVariables(params)) args[key] = argumentValue(ctx, row, key);

    let target = url;
    let body: string | undefined;
    if (method === "GET") {
      target = withQuery(url, args);
    } else if (datatype === "json") {
      const json: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(args)) json[key] = jsonArgument(key, value);
      body = JSON.stringify(json);
      if (!hasHeader(headers, "content-type")) headers["Content-Type"] = "application/json";
    } else {
      body = formBody(args);
      if (!hasHeader(headers, "content-type")) headers["Content-Type"] = "application/x-www-form-urlencoded";
    }

    const send = () =>
      sendHttpRequest({
        method,
        url: target,
        headers,
        body,
        timeoutMs: seconds * 1000,
        proxy,
        egress: egressPolicyOf(ctx.services),
        signal: ctx.signal,
      });
    // The request is a span of its own when the run is traced (the HTTP client conventions).
    const response = ctx.span
      ? await ctx.span(method, requestAttributes(method, target), async (span) => {
          const answer = await send();
          span.setAttributes({ "http.response.status_code": answer.status });
          if (answer.status >= 400) {
            span.setAttributes({ "error.type": String(answer.status) });
            span.recordError(`HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}`);
          }
          return answer;
        })
      : await send();
    const text = params.clean_html === true ? htmlToText(response.text) : response.text;
    ctx.setOutput("result", text);
    ctx.setOutput("status_code", response.status);
    if (response.status < 200 || response.status >= 300) {
      throw statusError(response.status, response.statusText, requestLabel(method, target), text, response.headers.location);
    }
  },
};
