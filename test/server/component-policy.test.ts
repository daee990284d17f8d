/**
 * The component policy (server.policy; docs/server.md, Component policy), through createServer
 * and Fastify's inject(): agent writes that use a denied component are refused with RAGFlow's
 * envelope naming the component, its component_name or Dify node type, and the rule, wherever the
 * component hides (inside an Iteration, as an Agent's tool or a sub-agent's, as an MCP server, as
 * a Dify code node or tool); allow and deny lists combine server-wide and per tenant as
 * documented; a stored agent or session that predates the policy is refused when its turn starts;
 * the agents folder is checked when the server starts; unknown names are config errors.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createServer, type CreateServerOptions } from "../../src/server/app.js";
import { McpHub } from "../../src/tools/mcp/hub.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { ServerOptionsError } from "../../src/server/settings.js";
import type { ComponentPolicyConfig } from "../../src/config/types.js";
import type { ServerStore } from "../../src/backends/contracts.js";
import { difyApp, edge, jsCode, type NodeSpec } from "../helpers/dify.js";
import { canvasDsl, canvasWithEnv, node } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";
import { addKey } from "../helpers/server.js";
import { hello } from "./canvases.js";

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const scratch = scratchDir("cf-policy-");
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

/** A new agents folder holding one file. */
function agentsFolder(name: string, dsl: unknown): { dir: string; file: string } {
  const dir = join(scratch.dir, `agents-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(dsl));
  return { dir, file };
}

interface PolicyServer {
  app: FastifyInstance;
  store: ServerStore;
  keys: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(method: "GET" | "POST" | "PUT", url: string, body?: unknown, tenant?: string): Promise<any>;
}

/** A server with keys of the tenants t1 and t2 (another store than a new one: `store`). */
async function policyServer(policy: ComponentPolicyConfig | undefined, options: Partial<CreateServerOptions> & { keys?: Record<string, string> } = {}): Promise<PolicyServer> {
  const store = options.store ?? new InProcessServerStore();
  const keys = options.keys ?? { t1: await addKey(store, "t1"), t2: await addKey(store, "t2") };
  const app = createServer({ ...options, store, ...(policy ? { policy } : {}) });
  apps.push(app);
  await app.ready();
  return {
    app,
    store,
    keys,
    call: async (method, url, body, tenant = "t1") => {
      const answer = await app.inject({ method, url, headers: { authorization: `Bearer ${keys[tenant]}` }, ...(body !== undefined ? { payload: body as object } : {}) });
      return answer.json();
    },
  };
}

const CODE = { lang: "javascript", script: "function main() { return 1; }", outputs: { result: { type: "Number", value: "" } } };
const LLM = { llm_id: "mock@Mock", sys_prompt: "Help.", prompts: [{ role: "user", content: "{sys.query}" }] };

/** Begin → CodeExec:Calc → Message. */
function codeCanvas() {
  return canvasDsl({
    begin: node("Begin", {}, ["CodeExec:Calc"]),
    "CodeExec:Calc": node("CodeExec", CODE, ["Message:Out"]),
    "Message:Out": node("Message", { content: ["{CodeExec:Calc@result}"] }),
  });
}

/** A CodeExec inside an Iteration. */
function iterationCanvas() {
  return canvasWithEnv(
    {
      begin: node("Begin", {}, ["Iteration:Each"]),
      "Iteration:Each": node("Iteration", { items_ref: "env.items", outputs: { results: { ref: "CodeExec:Inner@result", type: "Array<number>" } } }, ["Message:Out"]),
      "IterationItem:Each": node("IterationItem", {}, ["CodeExec:Inner"], { parent_id: "Iteration:Each" }),
      "CodeExec:Inner": node("CodeExec", CODE, [], { parent_id: "Iteration:Each" }),
      "Message:Out": node("Message", { content: ["{Iteration:Each@results}"] }),
    },
    { items: ["a", "b"] },
  );
}

/** An Agent with the given params (tools, mcp…). */
function agentCanvas(params: Record<string, unknown>) {
  return canvasDsl({
    begin: node("Begin", {}, ["Agent:Helper"]),
    "Agent:Helper": node("Agent", { ...LLM, ...params }, ["Message:Out"]),
    "Message:Out": node("Message", { content: ["{Agent:Helper@content}"] }),
  });
}

const codeTool = { component_name: "CodeExec", name: "calc", params: CODE };
const wikiTool = { component_name: "Wikipedia", name: "wiki", params: {} };

const start: NodeSpec = { id: "start", type: "start", variables: [] };
const end = (selector: string[]): NodeSpec => ({ id: "end", type: "end", outputs: [{ variable: "out", value_selector: selector }] });

/** A Dify workflow: start → a JavaScript code node → end. */
function difyCodeApp() {
  return difyApp([start, jsCode("calc", "return { result: 'x' };"), end(["calc", "result"])], [edge("start", "calc"), edge("calc", "end")]);
}

/** A Dify workflow: start → a tool node running Dify's web scraper (canvasflow's Crawler) → end. */
function difyScraperApp() {
  const scrape: NodeSpec = {
    id: "scrape",
    type: "tool",
    provider_id: "webscraper",
    provider_type: "builtin",
    provider_name: "webscraper",
    tool_name: "webscraper",
    tool_parameters: { url: { type: "mixed", value: "https://example.com" } },
    tool_configurations: {},
  };
  return difyApp([start, scrape, end(["scrape", "text"])], [edge("start", "scrape"), edge("scrape", "end")]);
}

function difyAgentApp(tools: unknown) {
  const agent: NodeSpec = {
    id: "helper",
    type: "agent",
    agent_strategy_provider_name: "langgenius/agent/agent",
    agent_strategy_name: "function_calling",
    agent_parameters: {
      model: { type: "constant", value: { provider: "langgenius/openai/openai", model: "gpt-4o", mode: "chat" } },
      query: { type: "mixed", value: "{{#sys.query#}}" },
      tools,
    },
  };
  return difyApp([start, agent, end(["helper", "text"])], [edge("start", "helper"), edge("helper", "end")]);
}

async function create(server: PolicyServer, dsl: unknown, tenant = "t1") {
  return server.call("POST", "/api/v1/agents", { title: `agent ${Math.random().toString(36).slice(2)}`, dsl }, tenant);
}

describe("refused when written", () => {
  it("a denied component: code 103 naming the component, its component_name and the rule; nothing is stored", async () => {
    const server = await policyServer({ components: { deny: ["CodeExec"] } });
    const answer = await create(server, codeCanvas());
    expect(answer).toEqual({
      code: 103,
      message: 'This server\'s component policy denies what the DSL uses: component CodeExec:Calc (component_name "CodeExec") is denied by server.policy.components.deny',
      data: { denied: [{ component_id: "CodeExec:Calc", kind: "component", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.components.deny" }] },
    });
    expect((await server.call("GET", "/api/v1/agents")).data.total).toBe(0);
    // Another agent goes through.
    expect((await create(server, hello())).code).toBe(0);
  });
});

describe("wherever the component hides", () => {
  it("inside an Iteration: the child is named", async () => {
    const server = await policyServer({ components: { deny: ["CodeExec"] } });
    const answer = await create(server, iterationCanvas());
    expect(answer.code).toBe(103);
    expect(answer.data.denied).toEqual([{ component_id: "CodeExec:Inner", kind: "component", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.components.deny" }]);
  });

  it("as an Agent's tool and as a sub-agent's tool: the tool's place in the Agent's params is named", async () => {
    const server = await policyServer({ components: { deny: ["CodeExec"] } });
    const direct = await create(server, agentCanvas({ tools: [wikiTool, codeTool] }));
    expect(direct.code).toBe(103);
    expect(direct.message).toBe('This server\'s component policy denies what the DSL uses: tool tools[1] of component Agent:Helper (component_name "CodeExec") is denied by server.policy.components.deny');
    expect(direct.data.denied).toEqual([{ component_id: "Agent:Helper", at: "tools[1]", kind: "tool", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.components.deny" }]);
    const researcher = { component_name: "Agent", name: "researcher", params: { ...LLM, tools: [wikiTool, codeTool] } };
    const nested = await create(server, agentCanvas({ tools: [researcher] }));
    expect(nested.data.denied).toEqual([{ component_id: "Agent:Helper", at: "tools[0].params.tools[1]", kind: "tool", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.components.deny" }]);
    // The same Agent without the tool is fine.
    expect((await create(server, agentCanvas({ tools: [wikiTool] }))).code).toBe(0);
  });

  it("as an Agent's MCP server (a sub-agent's too); allow: [] denies every MCP server", async () => {
    const mcp = new McpHub({ files: { command: "node", args: ["files-server.js"] }, search: { command: "node", args: ["search-server.js"] } });
    const canvas = { services: { mcp } };
    const denyFiles = await policyServer({ mcpServers: { deny: ["files"] } }, { canvas });
    const answer = await create(denyFiles, agentCanvas({ mcp: [{ mcp_id: "search", tools: {} }, { mcp_id: "files", tools: {} }] }));
    expect(answer.code).toBe(103);
    expect(answer.message).toContain('MCP server mcp[1] of component Agent:Helper (MCP server "files") is denied by server.policy.mcpServers.deny');
    expect(answer.data.denied).toEqual([{ component_id: "Agent:Helper", at: "mcp[1]", kind: "mcp_server", mcp_server: "files", name: "files", rule: "server.policy.mcpServers.deny" }]);
    expect((await create(denyFiles, agentCanvas({ mcp: [{ mcp_id: "search", tools: {} }] }))).code).toBe(0);

    const none = await policyServer({ mcpServers: { allow: [] } }, { canvas });
    const sub = { component_name: "Agent", name: "researcher", params: { ...LLM, mcp: [{ mcp_id: "search", tools: {} }] } };
    const nested = await create(none, agentCanvas({ tools: [sub] }));
    expect(nested.data.denied).toEqual([{ component_id: "Agent:Helper", at: "tools[0].params.mcp[0]", kind: "mcp_server", mcp_server: "search", name: "search", rule: "server.policy.mcpServers.allow" }]);
    expect(nested.message).toContain("is not in server.policy.mcpServers.allow");
  });

  it("one rule catches CodeExec however it is reached: a RAGFlow CodeExec, a Dify code node, an Agent's tool, a RAGFlow canvas naming DifyCode", async () => {
    // The rule spelled as RAGFlow's name, then as Dify's node type: the same rule either way.
    for (const spelled of ["CodeExec", "code"]) {
      const server = await policyServer({ components: { deny: [spelled] } });
      const quoted = spelled === "CodeExec" ? "" : ' ("code")';
      const ragflow = await create(server, codeCanvas());
      expect(ragflow.message).toContain(`component CodeExec:Calc (component_name "CodeExec") is denied by server.policy.components.deny${quoted}`);
      const dify = await create(server, difyCodeApp());
      expect(dify.code).toBe(103);
      expect(dify.message).toContain(`component calc (Dify node type "code", which runs CodeExec) is denied by server.policy.components.deny${quoted}`);
      expect(dify.data.denied).toEqual([{ component_id: "calc", kind: "component", dify_node_type: "code", name: "CodeExec", rule: "server.policy.components.deny" }]);
      expect((await create(server, agentCanvas({ tools: [codeTool] }))).code).toBe(103);
      // DifyCode is a registered component: a RAGFlow canvas may name it directly.
      const disguised = canvasDsl({
        begin: node("Begin", {}, ["DifyCode:X"]),
        "DifyCode:X": node("DifyCode", { type: "answer", code_language: "javascript", code: "function main() { return { r: 1 }; }", variables: [], outputs: { r: { type: "number" } } }, ["Message:Out"]),
        "Message:Out": node("Message", { content: ["{DifyCode:X@r}"] }),
      });
      const caught = await create(server, disguised);
      expect(caught.data.denied).toEqual([{ component_id: "DifyCode:X", kind: "component", component_name: "DifyCode", name: "CodeExec", rule: "server.policy.components.deny" }]);
    }
  });

  it("a Dify tool node and a Dify agent's tools are the canvasflow tools that run them; tools only a run knows are refused", async () => {
    const server = await policyServer({ components: { deny: ["Crawler"] } });
    const scraper = await create(server, difyScraperApp());
    expect(scraper.data.denied).toEqual([{ component_id: "scrape", kind: "component", dify_node_type: "tool", dify_tool: "webscraper/webscraper", name: "Crawler", rule: "server.policy.components.deny" }]);
    expect(scraper.message).toContain('component scrape (Dify tool "webscraper/webscraper", which runs Crawler) is denied by server.policy.components.deny');
    const jina = { provider_name: "jina", tool_name: "jina_reader", enabled: true };
    const agent = await create(server, difyAgentApp({ type: "array[tools]", value: [{ provider_name: "wikipedia", tool_name: "wikipedia_search" }, jina] }));
    expect(agent.data.denied).toEqual([{ component_id: "helper", at: "agent_parameters.tools[1]", kind: "tool", dify_tool: "jina/jina_reader", name: "Crawler", rule: "server.policy.components.deny" }]);
    // A disabled tool is not offered to the model.
    expect((await create(server, difyAgentApp({ type: "array[tools]", value: [{ ...jina, enabled: false }] }))).code).toBe(0);
    const fromVariable = await create(server, difyAgentApp({ type: "variable", value: ["sys", "query"] }));
    expect(fromVariable.code).toBe(103);
    expect(fromVariable.data.denied).toEqual([{ component_id: "helper", at: "agent_parameters.tools", kind: "unchecked_tools", rule: "server.policy.components.deny" }]);
    expect(fromVariable.message).toContain("agent_parameters.tools of component helper come from a variable at run time, which the component policy cannot check while server.policy.components.deny is set");
  });

  it("tools: what an Agent may hand its model, while the component itself may still run as a node", async () => {
    const server = await policyServer({ tools: { deny: ["CodeExec"] } });
    expect((await create(server, codeCanvas())).code).toBe(0);
    const answer = await create(server, agentCanvas({ tools: [codeTool] }));
    expect(answer.data.denied).toEqual([{ component_id: "Agent:Helper", at: "tools[0]", kind: "tool", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.tools.deny" }]);
    // Agent in tools names sub-agents.
    const subAgents = await policyServer({ tools: { deny: ["Agent"] } });
    const nested = await create(subAgents, agentCanvas({ tools: [{ component_name: "Agent", name: "researcher", params: LLM }] }));
    expect(nested.data.denied).toEqual([{ component_id: "Agent:Helper", at: "tools[0]", kind: "tool", component_name: "Agent", name: "Agent", rule: "server.policy.tools.deny" }]);
  });

  it("allow lists only those names; a container's parts come with it", async () => {
    const server = await policyServer({ components: { allow: ["Begin", "Message", "Iteration", "StringTransform"] } });
    expect((await create(server, hello())).code).toBe(0);
    const answer = await create(server, iterationCanvas());
    expect(answer.data.denied).toEqual([{ component_id: "CodeExec:Inner", kind: "component", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.components.allow" }]);
    expect(answer.message).toContain('component CodeExec:Inner (component_name "CodeExec") is not in server.policy.components.allow');
  });

  it("every denial is listed: the message shows ten", async () => {
    const server = await policyServer({ components: { deny: ["CodeExec"] } });
    const components: Record<string, ReturnType<typeof node>> = { begin: node("Begin", {}, ["CodeExec:0"]) };
    for (let i = 0; i < 12; i++) components[`CodeExec:${i}`] = node("CodeExec", CODE, i < 11 ? [`CodeExec:${i + 1}`] : []);
    const answer = await create(server, canvasDsl(components));
    expect(answer.data.denied).toHaveLength(12);
    expect(answer.message).toMatch(/; … and 2 more$/);
  });
});

describe("refused when updated", () => {
  it("PUT with a denied DSL: the same envelope, and the stored DSL stays", async () => {
    const server = await policyServer({ components: { deny: ["CodeExec"] } });
    const id = (await create(server, hello())).data.id as string;
    const answer = await server.call("PUT", `/api/v1/agents/${id}`, { dsl: codeCanvas() });
    expect(answer).toEqual({
      code: 103,
      message: 'This server\'s component policy denies what the DSL uses: component CodeExec:Calc (component_name "CodeExec") is denied by server.policy.components.deny',
      data: { denied: [{ component_id: "CodeExec:Calc", kind: "component", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.components.deny" }] },
    });
    expect((await server.call("GET", `/api/v1/agents/${id}`)).data.dsl).toEqual(hello());
    // A write without a DSL is not checked again.
    expect((await server.call("PUT", `/api/v1/agents/${id}`, { title: "renamed" })).code).toBe(0);
  });
});

describe("per tenant", () => {
  it("a tenant's allow grants past the server-wide deny and allow; a tenant's deny adds to them", async () => {
    const server = await policyServer({
      components: { deny: ["CodeExec"] },
      tenants: { t2: { components: { allow: ["CodeExec"] } }, t1: { components: { deny: ["Wikipedia"] } } },
    });
    expect((await create(server, codeCanvas(), "t1")).data.denied[0].rule).toBe("server.policy.components.deny");
    expect((await create(server, codeCanvas(), "t2")).code).toBe(0);
    const wiki = await create(server, agentCanvas({ tools: [wikiTool] }), "t1");
    expect(wiki.data.denied).toEqual([{ component_id: "Agent:Helper", at: "tools[0]", kind: "tool", component_name: "Wikipedia", name: "Wikipedia", rule: "server.policy.tenants.t1.components.deny" }]);
    expect(wiki.message).toContain("is denied by server.policy.tenants.t1.components.deny");
    expect((await create(server, agentCanvas({ tools: [wikiTool] }), "t2")).code).toBe(0);

    const locked = await policyServer({ components: { allow: ["Begin", "Message"] }, tenants: { t2: { components: { allow: ["CodeExec"] } } } });
    expect((await create(locked, codeCanvas(), "t1")).data.denied[0].rule).toBe("server.policy.components.allow");
    expect((await create(locked, codeCanvas(), "t2")).code).toBe(0);
    // A tenant's deny wins over its own grants of other lists: tools are checked against both lists.
    const both = await policyServer({ tenants: { t2: { components: { allow: ["CodeExec"] }, tools: { deny: ["CodeExec"] } } } });
    expect((await create(both, agentCanvas({ tools: [codeTool] }), "t2")).data.denied[0].rule).toBe("server.policy.tenants.t2.tools.deny");
  });
});

describe("refused when a turn starts", () => {
  it("an agent stored before the policy: completions, new and old sessions, with the same envelope as a write", async () => {
    const store = new InProcessServerStore();
    const before = await policyServer(undefined, { store });
    const id = (await create(before, iterationCanvas())).data.id as string;
    const session = (await before.call("POST", `/api/v1/agents/${id}/sessions`, {})).data.id as string;
    await before.app.close();

    const after = await policyServer({ components: { deny: ["CodeExec"] } }, { store, keys: before.keys });
    const written = await create(after, iterationCanvas());
    expect(written.code).toBe(103);
    const fresh = await after.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "go" });
    expect(fresh).toEqual(written);
    const old = await after.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "go", session_id: session });
    expect(old).toEqual(written);
    // The OpenAI-compatible route too (its errors are 400s).
    const openAi = await after.app.inject({ method: "POST", url: `/api/v1/agents_openai/${id}/chat/completions`, headers: { authorization: `Bearer ${after.keys.t1}` }, payload: { model: "agent", messages: [{ role: "user", content: "go" }] } });
    expect(openAi.statusCode).toBe(400);
    expect(openAi.json().message).toBe(written.message);
    // The tenant a grant lets through runs it.
    await after.app.close();
    const granted = await policyServer({ components: { deny: ["CodeExec"] }, tenants: { t1: { components: { allow: ["CodeExec"] } } } }, { store, keys: before.keys });
    const ran = await granted.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "go", session_id: session });
    expect(ran.code).toBe(0);
  });

  it("a session that runs an older DSL than its agent's is refused; a new session of the agent runs", async () => {
    const store = new InProcessServerStore();
    const before = await policyServer(undefined, { store });
    const id = (await create(before, codeCanvas())).data.id as string;
    const session = (await before.call("POST", `/api/v1/agents/${id}/sessions`, {})).data.id as string;
    expect((await before.call("PUT", `/api/v1/agents/${id}`, { dsl: hello() })).code).toBe(0);
    await before.app.close();

    const after = await policyServer({ components: { deny: ["CodeExec"] } }, { store, keys: before.keys });
    const old = await after.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "go", session_id: session });
    expect(old.code).toBe(103);
    expect(old.data.denied).toEqual([{ component_id: "CodeExec:Calc", kind: "component", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.components.deny" }]);
    // The session was let go: a turn after the refusal is refused the same way, not "in progress".
    expect((await after.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "go", session_id: session })).code).toBe(103);
    const fresh = await after.call("POST", "/api/v1/agents/chat/completions", { agent_id: id, query: "Ada" });
    expect(fresh.code).toBe(0);
  });

  it("Dify's run route answers Dify's app_unavailable with the same message", async () => {
    const store = new InProcessServerStore();
    const before = await policyServer(undefined, { store });
    const id = (await create(before, difyCodeApp())).data.id as string;
    await before.app.close();
    const after = await policyServer({ components: { deny: ["code"] } }, { store, keys: before.keys, difyApp: id });
    const written = await create(after, difyCodeApp());
    const run = await after.app.inject({ method: "POST", url: "/v1/workflows/run", headers: { authorization: `Bearer ${after.keys.t1}` }, payload: { inputs: {}, user: "ada", response_mode: "blocking" } });
    expect(run.statusCode).toBe(400);
    expect(run.json()).toEqual({ code: "app_unavailable", message: written.message, status: 400 });
  });
});

describe("the agents folder", () => {
  it("a file using what the server-wide policy denies stops the server, naming the file, the component and the rule", async () => {
    const { dir, file } = agentsFolder("calc.json", codeCanvas());
    const store = new InProcessServerStore();
    const app = createServer({ store, agentsDir: dir, policy: { components: { deny: ["CodeExec"] } } });
    apps.push(app);
    await expect(app.ready()).rejects.toThrow(`--agents: ${file} uses what the server's component policy denies:\n  component CodeExec:Calc (component_name "CodeExec") is denied by server.policy.components.deny`);
    // A Dify app of the folder (YAML, of which JSON is a part) the same way.
    const dify = agentsFolder("calc.yml", difyCodeApp());
    const difyServer = createServer({ store, agentsDir: dify.dir, policy: { components: { deny: ["CodeExec"] } } });
    apps.push(difyServer);
    await expect(difyServer.ready()).rejects.toThrow(`--agents: ${dify.file} uses what the server's component policy denies:\n  component calc (Dify node type "code", which runs CodeExec) is denied by server.policy.components.deny`);
  });

  it("a tenant's deny refuses that tenant's turns of a folder agent", async () => {
    const { dir } = agentsFolder("calc.json", codeCanvas());
    const server = await policyServer({ tenants: { t2: { components: { deny: ["CodeExec"] } } } }, { agentsDir: dir });
    const refused = await server.call("POST", "/api/v1/agents/chat/completions", { agent_id: "calc", query: "go" }, "t2");
    expect(refused.data.denied).toEqual([{ component_id: "CodeExec:Calc", kind: "component", component_name: "CodeExec", name: "CodeExec", rule: "server.policy.tenants.t2.components.deny" }]);
    expect((await server.call("POST", "/api/v1/agents/chat/completions", { agent_id: "calc", query: "go" }, "t1")).code).toBe(0);
  });
});

describe("config errors", () => {
  function problems(policy: ComponentPolicyConfig, options: Partial<CreateServerOptions> = {}): string[] {
    try {
      createServer({ store: new InProcessServerStore(), policy, ...options });
    } catch (error) {
      expect(error).toBeInstanceOf(ServerOptionsError);
      return (error as ServerOptionsError).issues.map((issue) => `${issue.pointer}: ${issue.message}`);
    }
    throw new Error("createServer accepted the policy");
  }

  it("unknown names, each by its key, with close names suggested", () => {
    expect(problems({ components: { deny: ["CodeExec", "CodeExe", "codexec"] }, tenants: { acme: { components: { allow: ["Http-Request"] } } } })).toEqual([
      '/policy/components/deny/1: names "CodeExe", which is no component type, Dify node type or Dify tool of this server (did you mean "CodeExec"?)',
      '/policy/components/deny/2: names "codexec", which is no component type, Dify node type or Dify tool of this server (did you mean "CodeExec"?)',
      '/policy/tenants/acme/components/allow/0: names "Http-Request", which is no component type, Dify node type or Dify tool of this server (did you mean "http-request"?)',
    ]);
    expect(problems({ tools: { allow: ["Message", "Wikipedai"] } })).toEqual([
      '/policy/tools/allow/0: names "Message", a component an Agent cannot call as a tool (tools lists name tools, or Agent for sub-agents)',
      '/policy/tools/allow/1: names "Wikipedai", which is no component type, Dify node type or Dify tool of this server (did you mean "Wikipedia"?)',
    ]);
    expect(problems({ mcpServers: { deny: ["github"] } })).toEqual(['/policy/mcpServers/deny/0: names the MCP server "github", which is not configured (no mcpServers are configured)']);
    const mcp = new McpHub({ gitlab: { command: "node" } });
    expect(problems({ mcpServers: { deny: ["gitlb"] } }, { canvas: { services: { mcp } } })).toEqual(['/policy/mcpServers/deny/0: names the MCP server "gitlb", which is not configured (mcpServers has gitlab) (did you mean "gitlab"?)']);
  });

  it("a list that allows and denies the same name, however spelled; the schema's own checks", () => {
    expect(problems({ components: { allow: ["code", "Begin"], deny: ["CodeExec"] } })).toEqual(['/policy/components/deny/0: names "CodeExec", which allow also names (as "code"): a list either allows a name or denies it']);
    expect(problems({ components: { deny: ["CodeExec", "CodeExec"] } })).toEqual(["/policy/components/deny: must NOT have duplicate items (items ## 1 and 0 are identical)"]);
    expect(problems({ components: { block: ["CodeExec"] } } as never)).toEqual(['/policy/components/block: has the unknown property "block"']);
  });
});
