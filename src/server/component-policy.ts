/**
 * The component policy at the API (policy/policy.ts): a DSL that uses what the policy denies the
 * tenant is refused when it is written (create, update), and a turn is refused when it starts if
 * the agent's DSL, or the DSL its session runs (a stored agent or session may predate the policy),
 * uses any. The refusal is RAGFlow's envelope, code 103 ("not allowed for this tenant"), every
 * denial in `data.denied`.
 */
import { compileCanvasGraph } from "../engine/canvas.js";
import type { CanvasGraph } from "../engine/graph.js";
import type { CanvasDsl } from "../dsl/types.js";
import { policyRefusalMessage, type ComponentPolicy, type PolicyDenial } from "../policy/policy.js";
import type { ComponentRegistry } from "../components/registry.js";
import { ApiError, RET } from "./envelope.js";

/** One denial as `data.denied` shows it. */
export interface DenialView {
  component_id: string;
  /** Where inside the component (`tools[0]`, `mcp[1]`); left out for the component itself. */
  at?: string;
  kind: "component" | "tool" | "mcp_server" | "unchecked_tools";
  component_name?: string;
  dify_node_type?: string;
  dify_tool?: string;
  mcp_server?: string;
  /** The name the rule matched (`CodeExec` for a Dify code node). */
  name?: string;
  /** The config key of the rule, e.g. `server.policy.components.deny`. */
  rule: string;
}

const KINDS = { component: "component", tool: "tool", mcpServer: "mcp_server", uncheckedTools: "unchecked_tools" } as const;

/** What the policy denies: code 103 with each denial in `data.denied`. */
export class PolicyRefusal extends ApiError {
  constructor(readonly denials: readonly PolicyDenial[]) {
    super(RET.operating, policyRefusalMessage(denials), { denied: denials.map(denialView) });
    this.name = "PolicyRefusal";
  }
}

function denialView(denial: PolicyDenial): DenialView {
  const s = denial.spelled;
  return {
    component_id: denial.componentId,
    ...(denial.at !== "" ? { at: denial.at } : {}),
    kind: KINDS[denial.kind],
    ...(s.componentName !== undefined ? { component_name: s.componentName } : {}),
    ...(s.difyNodeType !== undefined ? { dify_node_type: s.difyNodeType } : {}),
    ...(s.difyTool !== undefined ? { dify_tool: s.difyTool } : {}),
    ...(s.mcpServer !== undefined ? { mcp_server: s.mcpServer } : {}),
    ...(denial.name !== "" ? { name: denial.name } : {}),
    rule: denial.rule.key,
  };
}

/** Throws PolicyRefusal when the policy denies the tenant anything the graph uses. */
export function refuseDenied(policy: ComponentPolicy, graph: CanvasGraph, tenant: string | undefined): void {
  const denials = policy.denials(graph, tenant);
  if (denials.length > 0) throw new PolicyRefusal(denials);
}

/** The write-time check of a DSL that passed validation (agent-dsl.ts): its graph against the tenant's policy. */
export function refuseDeniedDsl(policy: ComponentPolicy, registry: ComponentRegistry, dsl: CanvasDsl, tenant: string | undefined): void {
  if (!policy.restrictsAnything) return;
  refuseDenied(policy, compileCanvasGraph(dsl, registry), tenant);
}
