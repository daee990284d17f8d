/**
 * Where a web tool sends its requests and which API key it uses: the public API by default,
 * or what `ctx.services.tools.endpoints[<component_name>]` configures (canvasflow.config.json
 * `tools.<Name>`: a self-hosted or stand-in baseURL, and the env var holding the key).
 */
import { UnavailableError } from "../../components/unavailable.js";
import type { ToolEndpointConfig, ToolServices } from "../../config/types.js";
import { isPlainObject } from "../../util/values.js";
import type { ToolContext } from "../types.js";

/** `ctx.services.tools`, or nothing configured (public endpoints, keys from the DSL only). */
function toolServices(ctx: ToolContext): ToolServices | undefined {
  const tools = ctx.services.tools;
  return isPlainObject(tools) ? (tools as unknown as ToolServices) : undefined;
}

function endpointConfig(ctx: ToolContext, tool: string): ToolEndpointConfig {
  const endpoints = toolServices(ctx)?.endpoints;
  const config = isPlainObject(endpoints) ? endpoints[tool] : undefined;
  return isPlainObject(config) ? config : {};
}

/**
 * The base URL a tool's requests go to: the configured baseURL (trailing slashes dropped), else
 * the public one. A configured baseURL that is not an absolute http(s) URL is a configuration
 * error worth naming.
 */
export function toolBaseUrl(ctx: ToolContext, tool: string, publicBase: string): string {
  const configured = endpointConfig(ctx, tool).baseURL;
  if (configured === undefined || configured === "") return publicBase;
  let url: URL;
  try {
    // Placeholders such as Wikipedia's {language} are filled in later.
    url = new URL(configured.replace(/\{[a-z_]+\}/g, "x"));
  } catch {
    throw new Error(`tools.${tool}.baseURL ${JSON.stringify(configured)} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`tools.${tool}.baseURL must be an http(s) URL, not ${JSON.stringify(configured)}`);
  return configured.replace(/\/+$/, "");
}

/** A URL below a base URL (`path` starts with "/"), with query parameters. */
export function apiUrl(base: string, path: string, query: Readonly<Record<string, string | number | undefined>> = {}): URL {
  const url = new URL(base + path);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

/**
 * The API key: the DSL's `api_key` param, else the environment variable that
 * `tools.<Name>.apiKeyEnv` names (read from `ctx.services.tools.env`). Without one the tool
 * cannot run: the error says both ways to give it one.
 */
export function requireApiKey(ctx: ToolContext, tool: string): string {
  const own = ctx.params.api_key;
  if (typeof own === "string" && own.trim() !== "") return own.trim();
  const envName = endpointConfig(ctx, tool).apiKeyEnv;
  if (typeof envName === "string" && envName !== "") {
    const env = toolServices(ctx)?.env;
    const value = isPlainObject(env) ? env[envName] : undefined;
    if (typeof value === "string" && value.trim() !== "") return value.trim();
    throw new UnavailableError(`${tool} has no API key: api_key is empty on the component and the environment variable ${envName} (tools.${tool}.apiKeyEnv) is not set`);
  }
  throw new UnavailableError(`${tool} has no API key: set api_key on the component or tools.${tool}.apiKeyEnv in canvasflow.config.json`);
}

/** The API key when one is given (api_key, else tools.<Name>.apiKeyEnv), for APIs that work without one too. */
export function optionalApiKey(ctx: ToolContext, tool: string): string | undefined {
  const own = ctx.params.api_key;
  if (typeof own === "string" && own.trim() !== "") return own.trim();
  const envName = endpointConfig(ctx, tool).apiKeyEnv;
  if (typeof envName !== "string" || envName === "") return undefined;
  const env = toolServices(ctx)?.env;
  const value = isPlainObject(env) ? env[envName] : undefined;
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
