/**
 * MCP servers as `canvasflow.config.json` declares them under `mcpServers`, in the shape MCP users
 * already write (Claude Desktop, VS Code, Cursor): `command`/`args`/`env` for a stdio server, `url`
 * plus `headers` for an HTTP one, with an optional `type` ("stdio", "http" / "streamable-http",
 * "sse"). The key is the `mcp_id` an Agent's `mcp` entries name.
 *
 * Secrets stay out of the file: `${VAR}` (or `${VAR:-default}`) in a url, an arg, an env value or a
 * header value is read from the environment when the server is opened.
 */

export interface McpStdioServerConfig {
  type?: "stdio";
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** The server's working folder (default: canvasflow's). */
  cwd?: string;
  /** Seconds one tool call (and the connection's set-up) may take; default 60. */
  timeoutSeconds?: number;
}

export interface McpHttpServerConfig {
  /** "http" / "streamable-http": Streamable HTTP only; "sse": the older HTTP+SSE transport; left out: Streamable HTTP, falling back to SSE. */
  type?: "http" | "streamable-http" | "sse";
  url: string;
  headers?: Record<string, string>;
  timeoutSeconds?: number;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The transport actually used for a server. */
export type McpTransportKind = "stdio" | "streamable-http" | "sse";

const DEFAULT_MCP_TIMEOUT_SECONDS = 60;

export function isStdioServer(config: McpServerConfig): config is McpStdioServerConfig {
  return typeof (config as McpStdioServerConfig).command === "string";
}

/** Seconds → ms for a server's calls. */
export function serverTimeoutMs(config: McpServerConfig): number {
  const seconds = config.timeoutSeconds;
  return (typeof seconds === "number" && seconds > 0 ? seconds : DEFAULT_MCP_TIMEOUT_SECONDS) * 1000;
}

/** A `${VAR}` that names an unset variable without a default. */
class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replace `${VAR}` and `${VAR:-default}` from `env`; `where` names the field for the error. */
function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>, where: string): string {
  return text.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    throw new McpConfigError(`${where} reads the environment variable ${name}, which is not set`);
  });
}

function expandRecord(record: Readonly<Record<string, string>> | undefined, env: Readonly<Record<string, string | undefined>>, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record ?? {})) out[key] = expandVariables(value, env, `${where}.${key}`);
  return out;
}

/** A server's config with every `${VAR}` read from `env` (`mcpServers.<id>` names the fields). */
export function resolveServerConfig(id: string, config: McpServerConfig, env: Readonly<Record<string, string | undefined>>): McpServerConfig {
  const at = `mcpServers.${id}`;
  if (isStdioServer(config)) {
    return {
      ...config,
      command: expandVariables(config.command, env, `${at}.command`),
      args: (config.args ?? []).map((arg, i) => expandVariables(arg, env, `${at}.args[${i}]`)),
      env: expandRecord(config.env, env, `${at}.env`),
      ...(config.cwd !== undefined ? { cwd: expandVariables(config.cwd, env, `${at}.cwd`) } : {}),
    };
  }
  return { ...config, url: expandVariables(config.url, env, `${at}.url`), headers: expandRecord(config.headers, env, `${at}.headers`) };
}
