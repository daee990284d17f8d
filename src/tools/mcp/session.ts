/**
 * One open connection to an MCP server (`@modelcontextprotocol/sdk` Client): stdio (a child
 * process), Streamable HTTP, or the older HTTP+SSE transport. It lists the server's tools and
 * calls them with a deadline and the run's AbortSignal. When the server goes away (the process
 * died, the HTTP session ended) the session is closed for good: calls in flight and later calls
 * fail with an error that says so, which the Agent hands its model as the tool's result.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { UnavailableError } from "../../components/unavailable.js";
import { egressFetch, type EgressFetch } from "../../sandbox/egress/fetch.js";
import type { EgressPolicy } from "../../sandbox/egress/guard.js";
import { isStdioServer, serverTimeoutMs, type McpHttpServerConfig, type McpServerConfig, type McpStdioServerConfig, type McpTransportKind } from "./config.js";
import { mcpResultText } from "./result-text.js";

/** A tool as the server lists it. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

const CLIENT_INFO = { name: "canvasflow", version: "0.1.0" };
/** The last bytes of a stdio server's stderr, kept to explain why it died. */
const STDERR_TAIL = 2000;
/** Tool lists longer than this many pages are cut (a server that pages forever). */
const MAX_LIST_PAGES = 50;

export interface OpenOptions {
  /** Headers sent besides the configured ones on HTTP transports (RAGFlow's custom_header). */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /**
   * The egress guard for HTTP transports (a run's services.egress): every connection, the
   * server's own URL and any redirect, is checked and pinned. Left out (an operator's own tool
   * such as `canvasflow mcp`), connections are not guarded.
   */
  egress?: EgressPolicy;
}

/** A server that could not be opened; `status` is the HTTP status an HTTP transport was refused with. */
export class McpOpenError extends UnavailableError {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = "McpOpenError";
  }
}

/** A server's URL as errors show it: no user, password or query, where `${VAR}` secrets may sit. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(an invalid URL)";
  }
}

/**
 * An error's message with its causes: undici's fetch says only "fetch failed" and keeps the
 * reason (connect ECONNREFUSED 127.0.0.1:8000, a DNS failure, a TLS error) in `cause`.
 */
function message(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const text =
      current instanceof AggregateError && current.message === "" ? current.errors.map((e) => (e instanceof Error ? e.message : String(e))).join("; ") : current instanceof Error ? current.message : String(current);
    if (text !== "" && !parts.some((part) => part.includes(text))) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ");
}

export class McpSession {
  private closedReason: string | undefined;
  private stderrTail = "";
  private readonly timeoutMs: number;

  private constructor(
    readonly serverId: string,
    readonly transportKind: McpTransportKind,
    private readonly client: Client,
    private readonly transport: Transport,
    config: McpServerConfig,
    /** The guarded fetch of an HTTP transport, closed with the session. */
    private readonly fetcher: EgressFetch | undefined,
  ) {
    this.timeoutMs = serverTimeoutMs(config);
  }

  /** The stdio server's process id (for diagnostics; undefined on HTTP transports or once it ended). */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Open a session on a server whose config has its variables resolved. */
  static async open(serverId: string, config: McpServerConfig, options: OpenOptions = {}): Promise<McpSession> {
    if (isStdioServer(config)) return McpSession.connect(serverId, "stdio", stdioTransport(config), config, options, undefined);
    const kind = config.type === "sse" ? "sse" : "streamable-http";
    const guarded = () => (options.egress ? egressFetch(options.egress, { role: `MCP server ${serverId} host`, connectTimeoutMs: serverTimeoutMs(config) }) : undefined);
    try {
      const fetcher = guarded();
      return await McpSession.connect(serverId, kind, httpTransport(kind, config, options.headers, fetcher), config, options, fetcher);
    } catch (error) {
      // The MCP spec's backwards compatibility: a server that refuses the Streamable HTTP POST with a 4xx may speak the old SSE transport.
      const status = error instanceof McpOpenError ? error.status : undefined;
      const fallBack = config.type === undefined && status !== undefined && status >= 400 && status < 500;
      if (!fallBack) throw error;
      const fetcher = guarded();
      return McpSession.connect(serverId, "sse", httpTransport("sse", config, options.headers, fetcher), config, options, fetcher);
    }
  }

  private static async connect(serverId: string, kind: McpTransportKind, transport: Transport, config: McpServerConfig, options: OpenOptions, fetcher: EgressFetch | undefined): Promise<McpSession> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const session = new McpSession(serverId, kind, client, transport, config, fetcher);
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on("data", (chunk: Buffer) => {
        session.stderrTail = (session.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL);
      });
    }
    client.onclose = () => session.markClosed("the connection closed");
    client.onerror = () => undefined;
    try {
      await client.connect(transport, { timeout: session.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      await transport.close().catch(() => undefined);
      await fetcher?.close().catch(() => undefined);
      const code = (error as { code?: unknown }).code;
      const where = "url" in config && typeof config.url === "string" ? `${kind}, ${shownUrl(config.url)}` : kind;
      throw new McpOpenError(`MCP server ${serverId} (${where}) could not be opened: ${session.explain(message(error))}`, typeof code === "number" ? code : undefined);
    }
    return session;
  }

  private markClosed(reason: string): void {
    if (this.closedReason === undefined) this.closedReason = reason;
  }

  /** An error text with what the server printed before it ended, when it did. */
  private explain(text: string): string {
    const tail = this.stderrTail.trim().split("\n").slice(-3).join(" | ");
    return tail === "" ? text : `${text} (its stderr ends with: ${tail})`;
  }

  private closedError(): Error {
    return new Error(`MCP server ${this.serverId} is gone: ${this.explain(this.closedReason ?? "the connection closed")}`);
  }

  /** Every tool the server offers (all pages of tools/list). */
  async listTools(signal?: AbortSignal): Promise<McpTool[]> {
    if (this.closed) throw this.closedError();
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const answer = await this.client.listTools(cursor ? { cursor } : {}, { timeout: this.timeoutMs, ...(signal ? { signal } : {}) });
      for (const tool of answer.tools) tools.push({ name: tool.name, ...(tool.description ? { description: tool.description } : {}), inputSchema: tool.inputSchema as Record<string, unknown> });
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /**
   * Call a tool; returns the text the model reads. A result the server flags as an error, a
   * timeout, a cancelled run and a server that went away all throw.
   */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
    if (this.closed) throw this.closedError();
    let result: unknown;
    try {
      result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.timeoutMs, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error(`MCP tool ${name} was cancelled`);
      if (this.closed) throw this.closedError();
      throw new Error(`MCP server ${this.serverId}: ${name} failed: ${message(error)}`);
    }
    const { text, isError } = mcpResultText(result);
    if (isError) throw new Error(`MCP server ${this.serverId}: ${name} reported an error: ${text || "no details"}`);
    return text;
  }

  /** Close the connection (a stdio server's process is ended). Safe to call twice. */
  async close(): Promise<void> {
    this.markClosed("the session was closed");
    await this.client.close().catch(() => undefined);
    await this.fetcher?.close().catch(() => undefined);
  }

  /** Ends a stdio server's process at once, for process exit (no awaiting there). */
  killNow(): void {
    const pid = this.pid;
    if (pid === undefined) return;
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
}

function stdioTransport(config: McpStdioServerConfig): StdioClientTransport {
  return new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    ...(config.env && Object.keys(config.env).length > 0 ? { env: config.env } : {}),
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: "pipe",
  });
}

function httpTransport(kind: "streamable-http" | "sse", config: McpHttpServerConfig, extra: Readonly<Record<string, string>> | undefined, guarded: EgressFetch | undefined): Transport {
  const url = new URL(config.url);
  const headers = { ...(config.headers ?? {}), ...(extra ?? {}) };
  const requestInit = { headers };
  const fetchWith: typeof fetch = guarded ?? fetch;
  const viaGuard = guarded ? { fetch: guarded } : {};
  if (kind === "sse") {
    // The SSE stream is a GET through EventSource: its headers come from the fetch it is given.
    return new SSEClientTransport(url, {
      requestInit,
      ...viaGuard,
      eventSourceInit: { fetch: (input, init) => fetchWith(input, { ...init, headers: { ...headers, ...Object.fromEntries(new Headers(init?.headers).entries()) } }) },
    });
  }
  return new StreamableHTTPClientTransport(url, { requestInit, ...viaGuard });
}
