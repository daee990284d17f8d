/**
 * `canvasflow mcp list [--config FILE] [--json]`: opens each MCP server the config declares
 * under `mcpServers`, lists its tools, and closes it. A server that cannot be opened is shown with
 * the reason; the exit code is then 1. The parameters shown are each tool's input properties
 * (`*` marks the required ones).
 */
import { ConfigError, loadConfig } from "../config/load.js";
import { McpHub } from "../tools/mcp/hub.js";
import type { McpTool } from "../tools/mcp/session.js";
import { isPlainObject } from "../util/values.js";
import { UsageError, type CliIO } from "./io.js";
import { EXIT } from "./run-command.js";

export interface McpArgs {
  action: string | undefined;
  positionals: string[];
  config?: string;
  json?: boolean;
}

interface ServerListing {
  id: string;
  transport?: string;
  tools?: McpTool[];
  error?: string;
}

/** "a*, b" from an input schema: the property names, required ones starred. */
function parameterSummary(tool: McpTool): string {
  const properties = isPlainObject(tool.inputSchema.properties) ? Object.keys(tool.inputSchema.properties) : [];
  const required = new Set(Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.map(String) : []);
  return properties.map((name) => (required.has(name) ? `${name}*` : name)).join(", ");
}

function firstLine(text: string | undefined): string {
  const line = (text ?? "").split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line.trim();
}

async function listServer(hub: McpHub, id: string): Promise<ServerListing> {
  try {
    const session = await hub.session(id);
    return { id, transport: session.transportKind, tools: await session.listTools() };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

function printText(listings: readonly ServerListing[], io: CliIO): void {
  for (const listing of listings) {
    if (listing.error !== undefined) {
      io.stdout.write(`${listing.id}: unavailable: ${listing.error}\n`);
      continue;
    }
    const tools = listing.tools ?? [];
    io.stdout.write(`${listing.id} (${listing.transport}): ${tools.length} tool${tools.length === 1 ? "" : "s"}\n`);
    for (const tool of tools) {
      const params = parameterSummary(tool);
      const about = firstLine(tool.description);
      io.stdout.write(`  ${tool.name}(${params})${about ? ` — ${about}` : ""}\n`);
    }
  }
}

export async function mcpCommand(args: McpArgs, io: CliIO): Promise<number> {
  if (args.action !== "list") throw new UsageError(args.action === undefined ? "mcp expects a subcommand: list" : `unknown mcp subcommand "${args.action}": the only one is list`);
  if (args.positionals.length > 0) throw new UsageError(`mcp list takes no arguments, got "${args.positionals[0]}"`);
  let servers;
  let file: string | undefined;
  try {
    const loaded = await loadConfig({ configFile: args.config });
    servers = loaded.config.mcpServers ?? {};
    file = loaded.file;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  const ids = Object.keys(servers);
  if (ids.length === 0) {
    io.err(`canvasflow: ${file ?? "no canvasflow.config.json found"}: no MCP servers are configured (add them under "mcpServers")\n`);
    if (args.json) io.stdout.write("[]\n");
    return EXIT.finished;
  }
  const hub = new McpHub(servers);
  try {
    // One server at a time: each may start a process.
    const listings: ServerListing[] = [];
    for (const id of ids) listings.push(await listServer(hub, id));
    if (args.json) io.stdout.write(`${JSON.stringify(listings, null, 2)}\n`);
    else printText(listings, io);
    return listings.some((listing) => listing.error !== undefined) ? EXIT.failed : EXIT.finished;
  } finally {
    await hub.close();
  }
}
