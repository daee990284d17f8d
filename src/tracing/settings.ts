/**
 * Where spans go, after OpenTelemetry's standard environment variables
 * (https://opentelemetry.io/docs/specs/otel/protocol/exporter/): what was given explicitly wins,
 * then the traces-specific variable, then the general one.
 *
 * - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`: the traces URL, used as it is;
 * - `OTEL_EXPORTER_OTLP_ENDPOINT`: a base URL, `/v1/traces` appended;
 * - `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS`: `key=value,key2=value2`, values percent-decoded;
 * - `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`: `http/protobuf` (default) or `http/json` (gRPC is not spoken);
 * - `OTEL_SERVICE_NAME`: the resource's `service.name` (default "canvasflow").
 *
 * Pure: no OpenTelemetry package is loaded here (src/tracing/setup.ts loads them).
 */

export type OtlpProtocol = "http/protobuf" | "http/json";

export const OTLP_PROTOCOLS: readonly OtlpProtocol[] = ["http/protobuf", "http/json"];

export const DEFAULT_SERVICE_NAME = "canvasflow";

/** What an OTLP/HTTP exporter of spans needs, every field decided. */
export interface OtlpSettings {
  /** The URL spans are POSTed to (…/v1/traces). */
  endpoint: string;
  /** Sent with every export (authorization…): secrets, never logged. */
  headers: Record<string, string>;
  protocol: OtlpProtocol;
  serviceName: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A setting that cannot be used; the message names the variable, flag or key it came from. */
export class TracingSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TracingSettingsError";
  }
}

function set(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function httpUrl(text: string, where: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TracingSettingsError(`${where} must be an http:// or https:// URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TracingSettingsError(`${where} must be an http:// or https:// URL, got ${JSON.stringify(masked(text))}`);
  return url;
}

/**
 * The traces URL of an endpoint given to canvasflow (`--otlp`, the config's `tracing.endpoint`):
 * used as it is when its path ends in `/v1/traces`, else `/v1/traces` is appended (so both
 * `http://localhost:4318` and `http://localhost:4318/v1/traces` work).
 */
export function tracesUrl(endpoint: string, where: string): string {
  const url = httpUrl(endpoint, where);
  if (/\/v1\/traces\/?$/.test(url.pathname)) return url.href;
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`;
  return url.href;
}

/** The traces URL the environment names, if it names one (the specification's rules). */
export function endpointFromEnv(env: Env): string | undefined {
  const traces = set(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (traces !== undefined) return httpUrl(traces, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").href;
  const base = set(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  if (base === undefined) return undefined;
  const url = httpUrl(base, "OTEL_EXPORTER_OTLP_ENDPOINT");
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`;
  return url.href;
}

/** `key=value,key2=value2` (OTEL_EXPORTER_OTLP_HEADERS): values are percent-decoded. */
export function parseOtlpHeaders(text: string, variable: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const eq = entry.indexOf("=");
    const key = eq < 0 ? "" : entry.slice(0, eq).trim();
    // The entry is not shown: it may hold a secret.
    if (key === "" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) throw new TracingSettingsError(`${variable} must be a list of key=value pairs separated by commas`);
    let value: string;
    try {
      value = decodeURIComponent(entry.slice(eq + 1).trim());
    } catch {
      throw new TracingSettingsError(`${variable}: the value of ${key} is not validly percent-encoded`);
    }
    headers[key] = value;
  }
  return headers;
}

function protocolFrom(value: string, where: string): OtlpProtocol {
  if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
  const grpc = value === "grpc" ? " (canvasflow exports over OTLP/HTTP only, not gRPC)" : "";
  throw new TracingSettingsError(`${where} must be http/protobuf or http/json, got ${JSON.stringify(value)}${grpc}`);
}

/** The exporter's settings: `given` first, then the environment, then the defaults. */
export function otlpSettings(given: Partial<OtlpSettings>, env: Env): OtlpSettings {
  const endpoint = given.endpoint ?? endpointFromEnv(env) ?? "http://localhost:4318/v1/traces";
  const envHeaders = {
    ...parseOtlpHeaders(set(env, "OTEL_EXPORTER_OTLP_HEADERS") ?? "", "OTEL_EXPORTER_OTLP_HEADERS"),
    ...parseOtlpHeaders(set(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS") ?? "", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
  };
  const tracesProtocol = set(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL");
  const protocolVariable = tracesProtocol !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const envProtocol = tracesProtocol ?? set(env, "OTEL_EXPORTER_OTLP_PROTOCOL");
  return {
    endpoint,
    headers: { ...envHeaders, ...(given.headers ?? {}) },
    protocol: given.protocol ?? (envProtocol !== undefined ? protocolFrom(envProtocol, protocolVariable) : "http/protobuf"),
    serviceName: given.serviceName ?? set(env, "OTEL_SERVICE_NAME") ?? DEFAULT_SERVICE_NAME,
  };
}

/** Whether the environment turns tracing on: it names an endpoint, and OTEL_SDK_DISABLED is not true. */
export function envTurnsTracingOn(env: Env): boolean {
  if (set(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return false;
  return set(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") !== undefined || set(env, "OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined;
}

/** A URL as messages show it: no user, password or query (where keys may sit). */
export function masked(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = parsed.username === "" ? "" : "***";
    parsed.password = parsed.password === "" ? "" : "***";
    parsed.search = parsed.search === "" ? "" : "?***";
    return parsed.href;
  } catch {
    return "(not a URL)";
  }
}
