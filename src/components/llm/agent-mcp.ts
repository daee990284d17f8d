/**
 * An Agent's MCP tools (RAGFlow AgentParam.mcp = [{mcp_id, tools: {name: meta}}]). Each entry
 * binds to the server configured under that id in `mcpServers`. The tools are listed from the
 * server, with their input schemas; a non-empty `tools` map keeps only the tools it names (an
 * empty one offers them all, as RAGFlow's editor stores "every tool"). Calls go to the run's
 * session on that server (see tools/mcp/hub.ts); RAGFlow's `custom_header` is sent on HTTP
 * transports. A server that cannot be opened offers the tools the DSL lists, each answering the
 * model with why it cannot run.
 */
import type { FunctionTool } from "../../llm/types.js";
import { MCP_SERVICE, isMcpHub, type McpHub } from "../../tools/mcp/hub.js";
import type { McpTool } from "../../tools/mcp/session.js";
import { isPlainObject } from "../../util/values.js";
import { egressPolicyOf } from "../../sandbox/egress/service.js";
import { runScopeOf } from "../run-scope.js";
import { UnavailableError } from "../unavailable.js";
import type { Params } from "../types.js";
import type { AgentFunction } from "./agent-loop.js";
import { functionName, type ToolHost } from "./agent-host.js";

interface McpEntry {
  mcp_id?: unknown;
  tools?: unknown;
}

/** The tools an entry stores (RAGFlow keeps the meta it listed when the user configured the server). */
function storedTools(entry: McpEntry): McpTool[] {
  if (!isPlainObject(entry.tools)) return [];
  return Object.entries(entry.tools).map(([key, raw]) => {
    const meta = isPlainObject(raw) ? raw : {};
    const schema = isPlainObject(meta.inputSchema) ? meta.inputSchema : isPlainObject(meta.input_schema) ? meta.input_schema : { type: "object", properties: {} };
    return { name: typeof meta.name === "string" && meta.name !== "" ? meta.name : key, ...(typeof meta.description === "string" ? { description: meta.description } : {}), inputSchema: schema };
  });
}

/** custom_header as strings, references rendered. */
function customHeaders(host: ToolHost, params: Params): Record<string, string> {
  const raw = params.custom_header;
  if (!isPlainObject(raw)) return {};
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || value === null || key.trim() === "") continue;
    headers[key] = host.ctx.render(typeof value === "string" ? value : JSON.stringify(value));
  }
  return headers;
}

function schemaOf(name: string, tool: McpTool): FunctionTool {
  const parameters: Record<string, unknown> = isPlainObject(tool.inputSchema) ? { ...tool.inputSchema } : { type: "object", properties: {} };
  // OpenAI wants an object schema; MCP's draft-07 marker adds nothing for the model.
  delete parameters.$schema;
  if (parameters.type === undefined) parameters.type = "object";
  return { type: "function", function: { name, description: tool.description ?? tool.name, parameters } };
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = functionName(base, undefined);
  for (let n = 2; taken.has(name); n++) name = functionName(base, n);
  taken.add(name);
  return name;
}

/** The MCP functions of an Agent, named after the tools (made unique against `taken`). */
export async function mcpFunctions(host: ToolHost, params: Params, taken: Set<string>): Promise<AgentFunction[]> {
  if (!Array.isArray(params.mcp)) return [];
  const services = host.ctx.services;
  const hub: McpHub | undefined = isMcpHub(services[MCP_SERVICE]) ? (services[MCP_SERVICE] as McpHub) : undefined;
  const scope = runScopeOf(services);
  const headers = customHeaders(host, params);
  // Every connection to an HTTP server passes the egress guard: its URL is the operator's, but
  // its address, and where it redirects, are checked like anything else a canvas reaches.
  const egress = egressPolicyOf(services);
  const functions: AgentFunction[] = [];
  for (const raw of params.mcp as unknown[]) {
    if (!isPlainObject(raw)) continue;
    const entry = raw as McpEntry;
    const serverId = typeof entry.mcp_id === "string" ? entry.mcp_id : "";
    const stored = storedTools(entry);
    const wanted = new Set(stored.map((tool) => tool.name));
    let tools: McpTool[];
    let unavailable: Error | undefined;
    try {
      if (!hub) throw new UnavailableError(`MCP server ${serverId} is not configured: canvasflow.config.json has no "mcpServers"`);
      const session = await hub.session(serverId, { scope, headers, signal: host.signal, egress });
      const listed = await session.listTools(host.signal);
      tools = wanted.size === 0 ? listed : listed.filter((tool) => wanted.has(tool.name));
    } catch (error) {
      if (host.signal.aborted) throw error;
      unavailable = error instanceof Error ? error : new Error(String(error));
      tools = stored;
    }
    for (const tool of tools) {
      const name = uniqueName(tool.name, taken);
      functions.push({
        name,
        schema: schemaOf(name, tool),
        call: async (args) => {
          if (unavailable) throw unavailable;
          const session = await hub!.session(serverId, { scope, headers, signal: host.signal, egress });
          return session.callTool(tool.name, args, host.signal);
        },
      });
    }
  }
  return functions;
}
