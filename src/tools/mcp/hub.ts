/**
 * The configured MCP servers and the sessions open on them. Sessions open lazily (the first time
 * an Agent of a run needs a server), are shared by every Agent of that run (one per server and
 * set of extra headers), and close when the run ends (its RunScope) or, for sessions opened
 * outside a run, when the hub closes. A stdio server still running when the process exits is
 * ended then. A session whose server went away is dropped, so the next need opens a new one.
 */
import { UnavailableError } from "../../components/unavailable.js";
import type { RunScope } from "../../components/run-scope.js";
import type { EgressPolicy } from "../../sandbox/egress/guard.js";
import { isStdioServer, resolveServerConfig, type McpServerConfig } from "./config.js";
import type { McpSession } from "./session.js";
import { importNeeding } from "../../util/optional-package.js";

export const MCP_SERVICE = "mcp";

/** Sessions of one scope, by server id and headers. */
type SessionTable = Map<string, Promise<McpSession>>;

/** Every hub with open sessions, for the exit handler. */
const liveHubs = new Set<McpHub>();
let exitHandlerInstalled = false;

function installExitHandler(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  // 'exit' handlers cannot wait: stdio servers are signalled synchronously.
  process.once("exit", () => {
    for (const hub of liveHubs) hub.killAll();
  });
}

/** A number per resolver function, for the policy's part of a session's key. */
const resolverIds = new WeakMap<object, number>();
let nextResolverId = 1;

/** What a policy decides, as text: sessions opened under different policies are never shared. */
function policyKey(policy: EgressPolicy | undefined): string {
  if (!policy) return "unguarded";
  let resolver = resolverIds.get(policy.resolver);
  if (resolver === undefined) {
    resolver = nextResolverId++;
    resolverIds.set(policy.resolver, resolver);
  }
  return JSON.stringify([policy.allowPrivateNetwork, policy.allow.entries.map((entry) => entry.text), policy.hint, resolver]);
}

function sessionKey(serverId: string, headers: Readonly<Record<string, string>>, egress: EgressPolicy | undefined): string {
  const sorted = Object.keys(headers)
    .sort()
    .map((key) => [key.toLowerCase(), headers[key]]);
  return `${serverId}\n${JSON.stringify(sorted)}\n${policyKey(egress)}`;
}

export interface SessionRequest {
  /** The run the session belongs to; without one it lives until the hub closes. */
  scope?: RunScope;
  /** Extra HTTP headers (RAGFlow's custom_header); ignored by stdio servers. */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** The egress guard HTTP servers' connections pass (a run's services.egress); stdio servers are not network. */
  egress?: EgressPolicy;
}

export class McpHub {
  private readonly scoped = new WeakMap<RunScope, SessionTable>();
  private readonly unscoped: SessionTable = new Map();
  /** Every session open now, for closing and for the exit handler. */
  private readonly open = new Set<McpSession>();

  constructor(
    private readonly servers: Readonly<Record<string, McpServerConfig>>,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  serverIds(): string[] {
    return Object.keys(this.servers);
  }

  has(serverId: string): boolean {
    return Object.hasOwn(this.servers, serverId);
  }

  /** The sessions open now (server, transport, stdio pid), for diagnostics and tests. */
  openSessions(): Array<{ serverId: string; transport: string; pid: number | undefined }> {
    return [...this.open].map((s) => ({ serverId: s.serverId, transport: s.transportKind, pid: s.pid }));
  }

  /** The session of a server for a run, opened on first use. */
  async session(serverId: string, request: SessionRequest = {}): Promise<McpSession> {
    const config = this.servers[serverId];
    if (!config || !this.has(serverId)) {
      const known = this.serverIds();
      throw new UnavailableError(
        `MCP server ${serverId} is not configured: add it under "mcpServers" in canvasflow.config.json (${known.length > 0 ? `configured: ${known.join(", ")}` : "none are configured"})`,
      );
    }
    const headers = isStdioServer(config) ? {} : { ...(request.headers ?? {}) };
    const table = this.table(request.scope);
    const egress = isStdioServer(config) ? undefined : request.egress;
    const key = sessionKey(serverId, headers, egress);
    const existing = table.get(key);
    if (existing) {
      const session = await existing.catch(() => undefined);
      if (session && !session.closed) return session;
      table.delete(key);
    }
    const opening = this.openSession(serverId, config, headers, request.signal, egress);
    table.set(key, opening);
    opening.catch(() => table.delete(key));
    return opening;
  }

  private table(scope: RunScope | undefined): SessionTable {
    if (!scope) return this.unscoped;
    let table = this.scoped.get(scope);
    if (!table) {
      const created: SessionTable = new Map();
      table = created;
      this.scoped.set(scope, created);
      scope.defer(() => this.closeTable(created));
    }
    return table;
  }

  private async openSession(
    serverId: string,
    config: McpServerConfig,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal | undefined,
    egress: EgressPolicy | undefined,
  ): Promise<McpSession> {
    let resolved: McpServerConfig;
    try {
      resolved = resolveServerConfig(serverId, config, this.env);
    } catch (error) {
      throw new UnavailableError((error as Error).message);
    }
    // The SDK loads on first use: most runs open no MCP server.
    const { McpSession } = await importNeeding(["@modelcontextprotocol/sdk"], "MCP servers (the MCP tool, Agent's MCP tools)", () => import("./session.js"));
    const session = await McpSession.open(serverId, resolved, { headers, ...(signal ? { signal } : {}), ...(egress ? { egress } : {}) });
    this.open.add(session);
    liveHubs.add(this);
    installExitHandler();
    return session;
  }

  private async closeTable(table: SessionTable): Promise<void> {
    const sessions = await Promise.all([...table.values()].map((p) => p.catch(() => undefined)));
    table.clear();
    await Promise.all(sessions.map((session) => (session ? this.closeSession(session) : undefined)));
  }

  private async closeSession(session: McpSession): Promise<void> {
    await session.close();
    this.open.delete(session);
    if (this.open.size === 0) liveHubs.delete(this);
  }

  /** Close every session (those of runs still going too). */
  async close(): Promise<void> {
    await this.closeTable(this.unscoped);
    await Promise.all([...this.open].map((session) => this.closeSession(session)));
  }

  /** Signal every stdio server to end, synchronously (process exit). */
  killAll(): void {
    for (const session of this.open) session.killNow();
  }
}

export function isMcpHub(value: unknown): value is McpHub {
  return value instanceof McpHub;
}
