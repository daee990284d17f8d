/**
 * The component policy's own rules (src/policy/): how allow and deny combine server-wide and per
 * tenant, what a compiled graph uses (read once per graph), and the names a policy may use.
 */
import { describe, expect, it } from "vitest";
import { compileCanvas, defaultRegistry, readSource } from "../../src/api.js";
import { ComponentPolicy, ComponentPolicyError } from "../../src/policy/policy.js";
import type { ComponentPolicyConfig } from "../../src/config/types.js";
import { usesOf } from "../../src/policy/uses.js";
import { canvasDsl, canvasWithEnv, node } from "../helpers/dsl.js";

const vocabulary = { registry: defaultRegistry, mcpServers: ["files"] };
const policy = (config: ComponentPolicyConfig) => ComponentPolicy.resolve(config, vocabulary);
const graphOf = async (dsl: object) => compileCanvas(await readSource(dsl), defaultRegistry).graph;

describe("how allow and deny combine", () => {
  const p = policy({
    components: { allow: ["Begin", "Message", "LLM", "Agent", "Wikipedia"], deny: ["Email"] },
    tenants: {
      trusted: { components: { allow: ["CodeExec", "Email"] } },
      strict: { components: { deny: ["Wikipedia"], allow: ["CodeExec"] } },
    },
  });
  const verdict = (name: string, tenant?: string) => p.decide("components", name, tenant)?.key ?? "allowed";

  it.each([
    // 1. the tenant's deny
    ["Wikipedia", "strict", "server.policy.tenants.strict.components.deny"],
    // 2. the tenant's allow, past the server-wide deny and allow
    ["Email", "trusted", "allowed"],
    ["CodeExec", "trusted", "allowed"],
    ["CodeExec", "strict", "allowed"],
    // 3. the server-wide deny
    ["Email", "strict", "server.policy.components.deny"],
    ["Email", undefined, "server.policy.components.deny"],
    // 4. the server-wide allow, which does not name it
    ["ExeSQL", "trusted", "server.policy.components.allow"],
    ["CodeExec", "nobody", "server.policy.components.allow"],
    // 5. allowed
    ["LLM", "strict", "allowed"],
    ["Wikipedia", undefined, "allowed"],
  ])("%s for %s: %s", (name, tenant, expected) => {
    expect(verdict(name, tenant)).toBe(expected);
  });

  it("a policy of tenant grants alone denies nothing; no policy is open", () => {
    expect(policy({ tenants: { a: { components: { allow: ["CodeExec"] } } } }).restrictsAnything).toBe(false);
    expect(ComponentPolicy.resolve(undefined, vocabulary)).toBe(ComponentPolicy.OPEN);
    expect(policy({ tenants: { a: { components: { deny: ["CodeExec"] } } } }).restrictsAnything).toBe(true);
    expect(policy({ mcpServers: { allow: [] } }).restrictsAnything).toBe(true);
  });
});

describe("what a graph uses", () => {
  it("every container part is its container; the uses are read once per graph", async () => {
    const graph = await graphOf(
      canvasWithEnv(
        {
          begin: node("Begin", {}, ["Loop:L"]),
          "Loop:L": node("Loop", { loop_variables: [], loop_termination_condition: [], maximum_loop_count: 2 }, ["Message:M"]),
          "LoopItem:L": node("LoopItem", {}, ["ExitLoop:X"], { parent_id: "Loop:L" }),
          "ExitLoop:X": node("ExitLoop", {}, [], { parent_id: "Loop:L" }),
          "Message:M": node("Message", { content: ["done"] }),
        },
        {},
      ),
    );
    const uses = usesOf(graph);
    expect(uses.uses.map((u) => `${u.componentId}=${u.name}`).sort()).toEqual(["ExitLoop:X=Loop", "Loop:L=Loop", "LoopItem:L=Loop", "Message:M=Message", "begin=Begin"]);
    expect(usesOf(graph)).toBe(uses);
    expect(policy({ components: { allow: ["Begin", "Message", "Loop"] } }).denials(graph)).toEqual([]);
  });

  it("sub-agents nested past 32 levels are not followed: they are refused as unchecked", async () => {
    let params: Record<string, unknown> = { llm_id: "m@M", tools: [{ component_name: "Wikipedia" }] };
    for (let i = 0; i < 34; i++) params = { llm_id: "m@M", tools: [{ component_name: "Agent", name: `a${i}`, params }] };
    const graph = await graphOf(canvasDsl({ begin: node("Begin", {}, ["Agent:A"]), "Agent:A": node("Agent", { ...params, prompts: [{ role: "user", content: "{sys.query}" }] }) }));
    const denials = policy({ components: { deny: ["CodeExec"] } }).denials(graph);
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ componentId: "Agent:A", kind: "uncheckedTools" });
    expect(denials[0].at).toBe("tools[0].params.".repeat(33).slice(0, -1));
    expect(policy({ tenants: { a: { components: { allow: ["CodeExec"] } } } }).denials(graph)).toEqual([]);
    // They may bind MCP servers too.
    expect(policy({ mcpServers: { deny: ["files"] } }).denials(graph)[0]).toMatchObject({ kind: "uncheckedTools", rule: { key: "server.policy.mcpServers.deny" } });
  });
});

describe("the names a policy may use", () => {
  it("reads each spelling as the name it stands for", () => {
    const p = policy({ components: { deny: ["code", "DifyHttpRequest", "tavily/tavily_search", "IterationItem"] } });
    for (const name of ["CodeExec", "Invoke", "TavilySearch", "Iteration"]) expect(p.decide("components", name)?.kind).toBe("deny");
    expect(p.decide("components", "CodeExec")?.listed).toBe("code");
  });

  it("names neither a Dify tool node nor an unsupported node: neither is one thing", () => {
    expect(() => policy({ components: { deny: ["DifyTool"] } })).toThrow(ComponentPolicyError);
    expect(() => policy({ components: { deny: ["DifyUnsupported"] } })).toThrow(/names "DifyUnsupported", which is no component type/);
  });
});
