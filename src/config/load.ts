/**
 * Reading `canvasflow.config.json` (from the working folder, or `--config FILE`), checking it
 * against `schemas/config.schema.json` and the rules a schema cannot state, and turning it into
 * the services a run gets (`buildServices`).
 */
import { existsSync } from "node:fs";
import { readJsonFile } from "../util/json-file.js";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { formatSchemaIssues, schemaIssues, type SchemaIssue } from "../util/json-schema.js";
import { jsonPointer } from "../util/values.js";
import { parseAllowEntry } from "../sandbox/egress/allow-list.js";
import type { CanvasflowConfig } from "./types.js";

export { buildServices, type BuildServicesOptions } from "./services.js";

export const CONFIG_FILE_NAME = "canvasflow.config.json";
const CONFIG_SCHEMA = "config.schema.json";

/** A config that cannot be used: every problem, each with its JSON pointer. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly issues: SchemaIssue[],
  ) {
    super(`invalid configuration:\n${formatSchemaIssues(file, issues)}`);
    this.name = "ConfigError";
  }
}

export interface LoadedConfig {
  config: CanvasflowConfig;
  /** The file it came from; undefined when there was none (an empty config). */
  file: string | undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A header's name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What the schema cannot say: routes name existing providers, URLs are http(s). */
function semanticIssues(config: CanvasflowConfig): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const providers = config.providers ?? {};
  const known = Object.keys(providers);
  const checkRoute = (pointer: string, provider: string) => {
    if (!Object.hasOwn(providers, provider)) {
      issues.push({ pointer: `${pointer}/provider`, message: `names the provider "${provider}", which is not in "providers" (${known.length > 0 ? `it has ${known.join(", ")}` : "there are none"})` });
    }
  };
  for (const [name, provider] of Object.entries(providers)) {
    if (!isHttpUrl(provider.baseURL)) issues.push({ pointer: jsonPointer("providers", name, "baseURL"), message: `must be an http:// or https:// URL, got "${provider.baseURL}"` });
  }
  for (const [llmId, route] of Object.entries(config.models ?? {})) checkRoute(jsonPointer("models", llmId), route.provider);
  if (config.defaultModel) checkRoute("/defaultModel", config.defaultModel.provider);
  if (config.embedding) checkRoute("/embedding", config.embedding.provider);
  for (const [id, route] of Object.entries(config.rerankModels ?? {})) checkRoute(jsonPointer("rerankModels", id), route.provider);
  if (config.defaultRerankModel) checkRoute("/defaultRerankModel", config.defaultRerankModel.provider);
  for (const [id, kb] of Object.entries(config.knowledgeBases ?? {})) {
    if (kb.type === "ragflow" && !isHttpUrl(kb.baseURL)) issues.push({ pointer: jsonPointer("knowledgeBases", id, "baseURL"), message: `must be an http:// or https:// URL, got "${kb.baseURL}"` });
    if (kb.type === "local" && kb.embedding) checkRoute(jsonPointer("knowledgeBases", id, "embedding"), kb.embedding.provider);
  }
  for (const [id, server] of Object.entries(config.mcpServers ?? {})) {
    // A URL with ${VAR} placeholders is checked once they are filled in, when the server is opened.
    if ("url" in server && !server.url.includes("${") && !isHttpUrl(server.url)) issues.push({ pointer: jsonPointer("mcpServers", id, "url"), message: `must be an http:// or https:// URL, got "${server.url}"` });
  }
  const checkAllowEntries = (entries: readonly string[] | undefined, ...at: string[]) =>
    (entries ?? []).forEach((entry, i) => {
      try {
        parseAllowEntry(entry);
      } catch (error) {
        issues.push({ pointer: jsonPointer(...at, String(i)), message: `${JSON.stringify(entry)}: ${(error as Error).message}` });
      }
    });
  checkAllowEntries(config.egress?.allow, "egress", "allow");
  checkAllowEntries(config.codeExec?.networkAllow, "codeExec", "networkAllow");
  if (config.tracing?.endpoint !== undefined && !isHttpUrl(config.tracing.endpoint)) issues.push({ pointer: "/tracing/endpoint", message: `must be an http:// or https:// URL, got "${config.tracing.endpoint}"` });
  for (const name of Object.keys(config.tracing?.headers ?? {})) {
    if (!HEADER_NAME.test(name)) issues.push({ pointer: jsonPointer("tracing", "headers", name), message: "is not an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)" });
  }
  for (const [name, tool] of Object.entries(config.tools ?? {})) {
    if (tool.baseURL !== undefined && !isHttpUrl(tool.baseURL)) issues.push({ pointer: jsonPointer("tools", name, "baseURL"), message: `must be an http:// or https:// URL, got "${tool.baseURL}"` });
  }
  return issues;
}

/**
 * Check a parsed config. `file` names it in errors; relative knowledge-base folders are resolved
 * (and index folders) are resolved
 * against `baseDir` (the config file's folder). Returns a copy; the input is not changed.
 */
export function validateConfig(value: unknown, file: string, baseDir = dirname(resolve(file))): CanvasflowConfig {
  const issues = schemaIssues(CONFIG_SCHEMA, value);
  if (issues.length > 0) throw new ConfigError(file, issues);
  const config = structuredClone(value) as CanvasflowConfig;
  const semantic = semanticIssues(config);
  if (semantic.length > 0) throw new ConfigError(file, semantic);
  for (const kb of Object.values(config.knowledgeBases ?? {})) {
    if (kb.type === "local" && !isAbsolute(kb.dir)) kb.dir = resolve(baseDir, kb.dir);
    if (kb.type === "local" && kb.indexDir !== undefined && !isAbsolute(kb.indexDir)) kb.indexDir = resolve(baseDir, kb.indexDir);
    if (kb.type === "local" && kb.pipeline !== undefined && !isAbsolute(kb.pipeline)) kb.pipeline = resolve(baseDir, kb.pipeline);
  }
  if (config.files?.dir !== undefined && !isAbsolute(config.files.dir)) config.files.dir = resolve(baseDir, config.files.dir);
  if (config.memories?.location !== undefined) config.memories.location = memoriesLocation(config.memories.location, baseDir);
  return config;
}

/**
 * A memories location with its path resolved against the config's folder: a folder, or the file
 * of `sqlite:PATH` (which is no `scheme://` URL, so would otherwise be taken for a folder named
 * "sqlite:…"); server URLs as they are.
 */
function memoriesLocation(location: string, baseDir: string): string {
  const sqlite = /^sqlite:(?:\/\/)?/i.exec(location);
  if (sqlite) {
    const rest = location.slice(sqlite[0].length);
    const hash = rest.indexOf("#");
    const file = hash === -1 ? rest : rest.slice(0, hash);
    // No file: left for the store's opener to refuse, naming the location.
    return file === "" ? location : `sqlite:${resolve(baseDir, file)}${hash === -1 ? "" : rest.slice(hash)}`;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) || isAbsolute(location)) return location;
  return resolve(baseDir, location);
}

/** Read and check one config file. */
export async function loadConfigFile(file: string): Promise<LoadedConfig> {
  const read = await readJsonFile(file);
  if (!read.ok) throw new ConfigError(file, [{ pointer: "", message: read.problem }]);
  return { config: validateConfig(read.value, file), file };
}

/**
 * The config a command uses: `configFile` when given (it must exist), else
 * `canvasflow.config.json` in `cwd` when present, else an empty config.
 */
export async function loadConfig(options: { configFile?: string; cwd?: string } = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  if (options.configFile !== undefined) return loadConfigFile(resolve(cwd, options.configFile));
  const found = join(cwd, CONFIG_FILE_NAME);
  if (existsSync(found)) return loadConfigFile(found);
  return { config: {}, file: undefined };
}
