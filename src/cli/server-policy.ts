/**
 * The config's `server.policy` as `serve` and `worker` use it: checked against the components
 * this process has (built-ins, `--register` modules) and the config's MCP servers, so an unknown
 * name stops the command with a config error naming its key (exit 2).
 */
import { ConfigError } from "../config/load.js";
import type { ComponentRegistry } from "../components/registry.js";
import { ComponentPolicy, ComponentPolicyError } from "../policy/policy.js";
import type { RunServices } from "./services.js";

export function serverPolicy(services: RunServices, registry: ComponentRegistry): ComponentPolicy {
  try {
    return ComponentPolicy.resolve(services.config.server?.policy, { registry, mcpServers: services.services.mcp?.serverIds() ?? [] });
  } catch (error) {
    if (!(error instanceof ComponentPolicyError)) throw error;
    throw new ConfigError(services.configFile ?? "the configuration", error.issues.map((issue) => ({ ...issue, pointer: `/server/policy${issue.pointer}` })));
  }
}
