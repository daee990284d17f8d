/**
 * A server's component policy (the config's `server.policy`; docs/server.md, Component policy):
 * allow and deny lists of component types (`components`), of tools an Agent may hand its model
 * (`tools`) and of MCP servers (`mcpServers`), server-wide and per tenant.
 *
 * For a tenant T and a name N in one list, the first of these that applies decides:
 *   1. T's `deny` names N: denied;
 *   2. T's `allow` names N: allowed (a tenant's grant goes past the server-wide lists);
 *   3. the server-wide `deny` names N: denied;
 *   4. the server-wide `allow` is given and does not name N: denied;
 *   5. otherwise allowed.
 * A component is checked against `components`; a tool an Agent offers against `components`, then
 * `tools`; an MCP server against `mcpServers`. One list may not both allow and deny a name.
 */
import type { ComponentPolicyConfig, PolicyListsConfig, PolicyRulesConfig } from "../config/types.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { CanvasGraph } from "../engine/graph.js";
import { didYouMean } from "../util/close-names.js";
import { formatSchemaIssues, type SchemaIssue } from "../util/json-schema.js";
import { jsonPointer } from "../util/values.js";
import { componentSpellings, isToolName } from "./names.js";
import { usesOf, type ComponentUse, type Spelling } from "./uses.js";

export const POLICY_LISTS = ["components", "tools", "mcpServers"] as const;
export type PolicyList = (typeof POLICY_LISTS)[number];

/** Where the policy lives in the config file, for messages. */
const POLICY_KEY = "server.policy";

/** The rule that decided against a name. */
export interface PolicyRule {
  /** The list's key, e.g. `server.policy.components.deny` or `server.policy.tenants.acme.tools.deny`. */
  key: string;
  /** `deny`: the list names it; `allow`: the list does not. */
  kind: "deny" | "allow";
  /** A deny list's entry as written (`code` for CodeExec). */
  listed?: string;
}

/** One thing a canvas uses that the policy denies. */
export interface PolicyDenial {
  componentId: string;
  /** Where inside the component (`tools[0]`, `mcp[1]`); "" for the component itself. */
  at: string;
  kind: ComponentUse["kind"] | "uncheckedTools";
  spelled: Spelling;
  /** The name the rule matched ("" for unchecked tools). */
  name: string;
  rule: PolicyRule;
  /** The denial in words: what, where, and which rule. */
  reason: string;
}

/** The names a policy may use besides its lists: the registry's components and the configured MCP servers. */
export interface PolicyVocabulary {
  registry: ComponentRegistry;
  mcpServers: readonly string[];
}

/** A policy that cannot be used: each problem with its JSON pointer inside the policy (`/components/deny/1`). */
export class ComponentPolicyError extends Error {
  constructor(readonly issues: SchemaIssue[]) {
    super(`invalid component policy:\n${formatSchemaIssues(POLICY_KEY, issues)}`);
    this.name = "ComponentPolicyError";
  }
}

/** One list's rules: names (as the policy matches them) to the entry that named them. */
interface Rules {
  allow?: ReadonlyMap<string, string>;
  deny: ReadonlyMap<string, string>;
}

interface Level {
  /** `server.policy` or `server.policy.tenants.<name>`. */
  key: string;
  lists: Record<PolicyList, Rules>;
}

const NO_RULES: Rules = { deny: new Map() };

export class ComponentPolicy {
  /** A policy with no rules: everything is allowed. */
  static readonly OPEN = new ComponentPolicy({ key: POLICY_KEY, lists: { components: NO_RULES, tools: NO_RULES, mcpServers: NO_RULES } }, new Map());

  /** Whether any rule can deny anything (a policy of tenant grants alone cannot). */
  readonly restrictsAnything: boolean;

  private constructor(
    private readonly server: Level,
    private readonly tenants: ReadonlyMap<string, Level>,
  ) {
    this.restrictsAnything = [server, ...tenants.values()].some((level) => POLICY_LISTS.some((list) => mayDeny(level.lists[list], level === server)));
  }

  /** Check a policy's lists against what exists; throws ComponentPolicyError naming each unknown or contradictory entry. */
  static resolve(config: ComponentPolicyConfig | undefined, vocabulary: PolicyVocabulary): ComponentPolicy {
    if (config === undefined) return ComponentPolicy.OPEN;
    const issues: SchemaIssue[] = [];
    const reader = new ListReader(vocabulary, issues);
    const server = reader.level(POLICY_KEY, config, "");
    const tenants = new Map<string, Level>();
    for (const [tenant, lists] of Object.entries(config.tenants ?? {})) {
      tenants.set(tenant, reader.level(`${POLICY_KEY}.tenants${keySegment(tenant)}`, lists, jsonPointer("tenants", tenant)));
    }
    if (issues.length > 0) throw new ComponentPolicyError(issues);
    const policy = new ComponentPolicy(server, tenants);
    return policy.restrictsAnything ? policy : ComponentPolicy.OPEN;
  }

  /** What the graph uses that the policy denies the tenant (none given: the server-wide rules alone). */
  denials(graph: CanvasGraph, tenant?: string): PolicyDenial[] {
    if (!this.restrictsAnything) return [];
    const { uses, unchecked } = usesOf(graph);
    const denials: PolicyDenial[] = [];
    for (const use of uses) {
      const rule = use.kind === "mcpServer" ? this.decide("mcpServers", use.name, tenant) : (this.decide("components", use.name, tenant) ?? (use.kind === "tool" ? this.decide("tools", use.name, tenant) : undefined));
      if (rule) denials.push({ ...use, rule, reason: `${describeUse(use)} ${describeRule(rule, use.name)}` });
    }
    for (const place of unchecked) {
      // Tools from a variable are a Dify agent's (no MCP there); sub-agents too deep may bind MCP servers too.
      const rule = this.firstRestriction(tenant, place.at === "agent_parameters.tools" ? ["components", "tools"] : POLICY_LISTS);
      if (!rule) continue;
      const reason = `${place.at} of component ${place.componentId} ${place.at === "agent_parameters.tools" ? "come from a variable at run time" : "nest sub-agents too deep"}, which the component policy cannot check while ${rule.key} is set: list the tools in the DSL`;
      denials.push({ componentId: place.componentId, at: place.at, kind: "uncheckedTools", spelled: {}, name: "", rule, reason });
    }
    return denials;
  }

  /** The rule that denies the name to the tenant, or undefined when it is allowed (the order is the module's header's). */
  decide(list: PolicyList, name: string, tenant?: string): PolicyRule | undefined {
    const own = tenant === undefined ? undefined : this.tenants.get(tenant);
    if (own) {
      const rules = own.lists[list];
      const listed = rules.deny.get(name);
      if (listed !== undefined) return { key: `${own.key}.${list}.deny`, kind: "deny", listed };
      if (rules.allow?.has(name)) return undefined;
    }
    const rules = this.server.lists[list];
    const listed = rules.deny.get(name);
    if (listed !== undefined) return { key: `${POLICY_KEY}.${list}.deny`, kind: "deny", listed };
    if (rules.allow && !rules.allow.has(name)) return { key: `${POLICY_KEY}.${list}.allow`, kind: "allow" };
    return undefined;
  }

  /** A rule of these lists that may deny something to the tenant (then what only a run knows cannot be let through). */
  private firstRestriction(tenant: string | undefined, lists: readonly PolicyList[]): PolicyRule | undefined {
    const own = tenant === undefined ? undefined : this.tenants.get(tenant);
    for (const list of lists) {
      if (own && own.lists[list].deny.size > 0) return { key: `${own.key}.${list}.deny`, kind: "deny" };
      const rules = this.server.lists[list];
      if (rules.deny.size > 0) return { key: `${POLICY_KEY}.${list}.deny`, kind: "deny" };
      if (rules.allow) return { key: `${POLICY_KEY}.${list}.allow`, kind: "allow" };
    }
    return undefined;
  }
}

/** Whether a list can deny something: a deny list, or a server-wide allow list (a tenant's allow only grants). */
function mayDeny(rules: Rules, serverWide: boolean): boolean {
  return rules.deny.size > 0 || (serverWide && rules.allow !== undefined);
}

/** `.acme`, or `["a.b"]` for a tenant whose name would not read as one key. */
function keySegment(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function describeUse(use: ComponentUse): string {
  const s = use.spelled;
  const spelled = s.mcpServer !== undefined
    ? `MCP server ${JSON.stringify(s.mcpServer)}`
    : s.difyTool !== undefined
      ? `Dify tool ${JSON.stringify(s.difyTool)}${use.name !== s.difyTool ? `, which runs ${use.name}` : ""}`
      : s.difyNodeType !== undefined
        ? `Dify node type ${JSON.stringify(s.difyNodeType)}${use.name !== s.difyNodeType ? `, which runs ${use.name}` : ""}`
        : `component_name ${JSON.stringify(s.componentName)}${use.name !== s.componentName ? `, which runs ${use.name}` : ""}`;
  const what = use.kind === "tool" ? "tool" : use.kind === "mcpServer" ? "MCP server" : "component";
  return use.at === "" ? `component ${use.componentId} (${spelled})` : `${what} ${use.at} of component ${use.componentId} (${spelled})`;
}

function describeRule(rule: PolicyRule, name: string): string {
  if (rule.kind === "allow") return `is not in ${rule.key}`;
  return `is denied by ${rule.key}${rule.listed !== undefined && rule.listed !== name ? ` (${JSON.stringify(rule.listed)})` : ""}`;
}

/** Reads the lists of one level, resolving each entry to the name it stands for; problems go to `issues`. */
class ListReader {
  private readonly components: ReadonlyMap<string, string>;

  constructor(
    private readonly vocabulary: PolicyVocabulary,
    private readonly issues: SchemaIssue[],
  ) {
    this.components = componentSpellings(vocabulary.registry);
  }

  level(key: string, lists: PolicyListsConfig, pointer: string): Level {
    return {
      key,
      lists: {
        components: this.rules(lists.components, `${pointer}/components`, (entry) => this.component(entry)),
        tools: this.rules(lists.tools, `${pointer}/tools`, (entry) => this.tool(entry)),
        mcpServers: this.rules(lists.mcpServers, `${pointer}/mcpServers`, (entry) => this.mcpServer(entry)),
      },
    };
  }

  private rules(config: PolicyRulesConfig | undefined, pointer: string, read: (entry: string) => { name: string } | { problem: string }): Rules {
    if (config === undefined) return NO_RULES;
    const names = (which: "allow" | "deny") => {
      const found = new Map<string, string>();
      (config[which] ?? []).forEach((entry, index) => {
        const resolved = read(entry);
        if ("problem" in resolved) this.issues.push({ pointer: `${pointer}/${which}/${index}`, message: resolved.problem });
        else if (!found.has(resolved.name)) found.set(resolved.name, entry);
      });
      return found;
    };
    const allow = config.allow === undefined ? undefined : names("allow");
    const deny = names("deny");
    for (const [name, entry] of deny) {
      const allowed = allow?.get(name);
      if (allowed === undefined) continue;
      const index = config.deny!.indexOf(entry);
      const same = allowed === entry ? "" : ` (as ${JSON.stringify(allowed)})`;
      this.issues.push({ pointer: `${pointer}/deny/${index}`, message: `names ${JSON.stringify(entry)}, which allow also names${same}: a list either allows a name or denies it` });
    }
    return { ...(allow ? { allow } : {}), deny };
  }

  private component(entry: string): { name: string } | { problem: string } {
    const name = this.components.get(entry);
    if (name !== undefined) return { name };
    return { problem: `names ${JSON.stringify(entry)}, which is no component type, Dify node type or Dify tool of this server${didYouMean(entry, this.components.keys())}` };
  }

  private tool(entry: string): { name: string } | { problem: string } {
    const read = this.component(entry);
    if ("problem" in read) return read;
    if (isToolName(read.name, this.vocabulary.registry)) return read;
    const tools = [...this.components].filter(([, name]) => isToolName(name, this.vocabulary.registry)).map(([spelling]) => spelling);
    return { problem: `names ${JSON.stringify(entry)}, a component an Agent cannot call as a tool (tools lists name tools, or Agent for sub-agents)${didYouMean(entry, tools)}` };
  }

  private mcpServer(entry: string): { name: string } | { problem: string } {
    if (this.vocabulary.mcpServers.includes(entry)) return { name: entry };
    const configured = this.vocabulary.mcpServers.length > 0 ? `mcpServers has ${this.vocabulary.mcpServers.join(", ")}` : "no mcpServers are configured";
    return { problem: `names the MCP server ${JSON.stringify(entry)}, which is not configured (${configured})${didYouMean(entry, this.vocabulary.mcpServers)}` };
  }
}

/** Denials shown in a message (every one is in the refusal's data). */
const SHOWN_DENIALS = 10;

/**
 * The refusal's message, the same when a DSL is written and when a turn of it starts (on the
 * server or on a queue worker): each denial, what it is, where, and the rule.
 */
export function policyRefusalMessage(denials: readonly PolicyDenial[]): string {
  const shown = denials.slice(0, SHOWN_DENIALS).map((denial) => denial.reason);
  const more = denials.length > SHOWN_DENIALS ? `; … and ${denials.length - SHOWN_DENIALS} more` : "";
  return `This server's component policy denies what the DSL uses: ${shown.join("; ")}${more}`;
}
