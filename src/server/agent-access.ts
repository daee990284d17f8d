/**
 * RAGFlow's answers for an agent the caller cannot reach (api/apps/restful_apis/agent_api.py,
 * its `_require_canvas_access` and `_require_canvas_owner` guards): code 103 whether the agent
 * does not exist or is another tenant's, so one tenant never learns another's agent ids. Reads
 * (`GET /agents/{id}`) keep RAGFlow's 102 "canvas not found.".
 */
import type { ServerContext } from "./context.js";
import { operatingError } from "./envelope.js";
import type { AgentRecord } from "../backends/contracts.js";

/** Every route on an agent (its update, sessions, completions) but its reading and its deletion. */
const NO_AGENT_ACCESS = "Make sure you have permission to access the agent.";

/** DELETE /agents/{id}. */
const OWNER_ONLY = "Only the owner of the agent is authorized for this operation.";

export function noAgentAccess() {
  return operatingError(NO_AGENT_ACCESS);
}

export function ownerOnly() {
  return operatingError(OWNER_ONLY);
}

/** The tenant's agent (its own or a folder agent), or code 103. */
export async function accessibleAgent(ctx: ServerContext, tenant: string, agentId: string): Promise<AgentRecord> {
  const agent = await ctx.agents.get(tenant, agentId);
  if (!agent) throw noAgentAccess();
  return agent;
}
