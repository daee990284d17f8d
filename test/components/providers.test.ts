import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas, validateDsl } from "../../src/api.js";
import type { ComponentEntry } from "../../src/dsl/types.js";
import { LLM_COMPONENTS } from "../../src/components/llm/index.js";
import { checkSampling, promptReferences } from "../../src/components/llm/llm-params.js";
import { unitInterval } from "../../src/components/param-checks.js";
import { finiteNumber } from "../../src/util/values.js";
import { ProviderMissingError } from "../../src/components/needs-provider.js";
import { TOOL_COMPONENTS } from "../../src/tools/index.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { businessOutput, isContractType } from "../../src/tools/code-exec.js";
import { corpusRoot } from "../helpers/corpus.js";
import { errors, finished, messages, node } from "../helpers/dsl.js";
import { builtinDefinition } from "../helpers/registry.js";

const HEAD = join(corpusRoot(), "ragflow/head");

/** begin → <tested> → (downstream of the tested node), plus extra components. */
function canvas(tested: { id: string; name: string; params: Record<string, unknown>; downstream?: string[] }, extra: Record<string, ComponentEntry> = {}) {
  return {
    components: {
      begin: node("Begin", { prologue: "" }, [tested.id]),
      [tested.id]: node(tested.name, tested.params, tested.downstream ?? []),
      ...extra,
    },
    globals: {},
  };
}

/**
 * Components written by other helpers at the same time as this work. Until they are registered, a
 * template that uses them fails with "unknown-component"; only that error is ignored for them.
 */
const IN_PROGRESS = new Set(["Switch", "VariableAssigner", "VariableAggregator", "StringTransform", "ListOperations", "DataOperations", "Invoke"]);

describe("RAGFlow head templates", () => {
  const files = readdirSync(HEAD).filter((f) => f.endsWith(".json"));
  const reports = files.map((file) => validateDsl(JSON.parse(readFileSync(join(HEAD, file), "utf8")), { file }));
  const agentReports = reports.filter((r) => r.kind === "agent");

  it("holds 15 agent canvases", () => {
    expect(agentReports).toHaveLength(15);
  });

  it.each(agentReports.map((r) => [r.file!, r] as const))("%s validates without errors (except Bing in web_search_assistant)", (file, report) => {
    const remaining = errors(report.issues).filter((i) => !(i.code === "unknown-component" && i.componentType && IN_PROGRESS.has(i.componentType)));
    if (file !== "web_search_assistant.json") {
      expect(remaining).toEqual([]);
      return;
    }
    expect(remaining).toHaveLength(1);
    expect(remaining[0]).toMatchObject({
      code: "param",
      pointer: "/dsl/components/Agent:WildGoatsRule/obj/params/tools/3/component_name",
      componentId: "Agent:WildGoatsRule",
      componentType: "Agent",
      message: 'tool "Bing" (tools[3]) has no implementation: RAGFlow has no Bing tool either',
    });
  });
});

describe("running provider components without providers", () => {
  it("begin → Agent → Message ends with an error naming the Agent and the missing LLM provider", async () => {
    const dsl = canvas(
      {
        id: "Agent:Writer",
        name: "Agent",
        // max_retries must not make the engine retry: the model client retries on its own.
        params: { llm_id: "deepseek-chat@DeepSeek", max_retries: 3, delay_after_error: 1, sys_prompt: "Be brief.", prompts: [{ role: "user", content: "{sys.query}" }] },
        downstream: ["Message:Out"],
      },
      { "Message:Out": node("Message", { content: ["{Agent:Writer@content}"] }) },
    );
    const started = Date.now();
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "hello" });
    expect(Date.now() - started).toBeLessThan(900);
    const end = finished(events);
    expect(end.error).toContain("needs an LLM provider");
    expect(end.error).toContain("component Agent:Writer (Agent) needs an LLM provider");
    const agentStarts = events.filter((e) => e.event === "node_started" && e.data.component_id === "Agent:Writer");
    expect(agentStarts).toHaveLength(1);
    expect(agentStarts[0].event === "node_started" && agentStarts[0].data.thoughts).toBe("⌛Give me a moment—I’ll figure out our best next move.");
    const done = events.find((e) => e.event === "node_finished" && e.data.component_id === "Agent:Writer");
    expect(done?.event === "node_finished" && done.data.error).toBe("component Agent:Writer (Agent) needs an LLM provider");
    expect(events.some((e) => e.event === "node_started" && e.data.component_id === "Message:Out")).toBe(false);
  });

  it("a Retrieval canvas node without its knowledge base is recorded as unavailable, naming the kb id and how to configure it", async () => {
    const dsl = canvas({ id: "Retrieval:Docs", name: "Retrieval", params: { query: "{sys.query}", kb_ids: ["kb-1"] } });
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "what is RAG?" });
    expect(finished(events).error).toBeUndefined();
    const done = events.find((e) => e.event === "node_finished" && e.data.component_id === "Retrieval:Docs");
    expect(done?.event === "node_finished" && done.data.error).toBe('knowledge base "kb-1" is not configured: add it with --kb kb-1=DIR or under knowledgeBases in canvasflow.config.json');
  });

  // Every tool has an implementation (test/tools/ covers them all): what is left needing a provider is the models.
  it("no tool is left needing a tool provider", () => {
    expect(TOOL_COMPONENTS.filter((d) => d.tool === undefined && d.usableAsTool).map((d) => d.name)).toEqual([]);
    for (const d of TOOL_COMPONENTS) expect(typeof (d.tool?.run ?? d.invoke)).toBe("function");
  });
  it.each(LLM_COMPONENTS.map((d) => [d.name, d] as const))("%s fails at run time with the provider it needs", async (name, definition) => {
    const params: Record<string, unknown> = {};
    if (name === "Categorize") params.category_description = { Only: { description: "everything", to: ["Message:Out"] } };
    if (name === "DocGenerator") params.content = "# Report\n{sys.query}";
    const dsl = canvas({ id: `${name}:Node`, name, params }, { "Message:Out": node("Message", { content: ["done"] }) });
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "q" });
    const provider = definition.capabilities?.provider;
    expect(provider === "llm" || provider === "tool").toBe(true);
    expect(finished(events).error).toContain(`component ${name}:Node (${name}) needs ${provider === "llm" ? "an LLM provider" : "a tool provider"}`);
  });

  it("exception_method comment on a tool node continues with the default value", async () => {
    const dsl = canvas(
      {
        id: "TavilySearch:Web",
        name: "TavilySearch",
        // No key: the tool fails before any request, and the comment default flows on.
        params: { query: "sys.query", api_key: "", exception_method: "comment", exception_default_value: "no results today" },
        downstream: ["Message:Out"],
      },
      { "Message:Out": node("Message", { content: ["Search said: {TavilySearch:Web@formalized_content}"] }) },
    );
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "weather" });
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["Search said: no results today"]);
    const done = events.find((e) => e.event === "node_finished" && e.data.component_id === "TavilySearch:Web");
    expect(done?.event === "node_finished" && done.data.outputs.formalized_content).toBe("no results today");
  });

  it("a tool defined without an implementation rejects with ProviderMissingError naming who ran it", async () => {
    // A PubMed definition built without `run`, as a custom tool waiting for its provider would be.
    const custom = defineTool({ name: "PubMed", meta: { query: { default: "{sys.query}" } }, timeoutSeconds: 5 });
    const run = () => custom.tool!.run({}, { label: "PubMed:P" } as never);
    await expect(run()).rejects.toThrow(ProviderMissingError);
    await expect(run()).rejects.toThrow("component PubMed:P (PubMed) needs a tool provider");
  });
});

describe("registration", () => {
  it("registers every RAGFlow model and tool component with its provider", () => {
    const tools = ["Retrieval", "CodeExec", "TavilySearch", "TavilyExtract", "Google", "DuckDuckGo", "Wikipedia", "PubMed", "ArXiv", "GoogleScholar", "GitHub", "SearXNG", "KeenableSearch", "QueritSearch", "QueritContents", "BGPT", "Crawler", "DeepL", "QWeather", "AkShare", "WenCai", "YahooFinance", "ExeSQL", "Email"];
    for (const name of tools) expect(builtinDefinition(name)).toMatchObject({ usableAsTool: true, capabilities: { provider: "tool" } });
    for (const name of ["DocGenerator", "ExcelProcessor"]) expect(builtinDefinition(name)).toMatchObject({ usableAsTool: false, capabilities: { provider: "tool" } });
    for (const name of ["LLM", "Categorize", "Browser"]) expect(builtinDefinition(name).capabilities?.provider).toBe("llm");
    expect(builtinDefinition("Agent")).toMatchObject({ usableAsTool: true, capabilities: { provider: "llm" } });
    expect(builtinDefinition("Categorize").capabilities?.router).toBe(true);
  });

  it.each([...LLM_COMPONENTS, ...TOOL_COMPONENTS].map((d) => [d.name, d] as const))("%s: its defaults satisfy its own schema and checks", (name) => {
    const params: Record<string, unknown> = {};
    if (name === "Categorize") params.category_description = { Only: { to: ["Message:Out"] } };
    if (name === "DocGenerator") params.content = "text";
    const report = validateDsl(canvas({ id: "X:1", name, params }, { "Message:Out": node("Message", { content: ["done"] }) }));
    expect(errors(report.issues)).toEqual([]);
  });
});

describe("Agent tools", () => {
  function agentIssues(tools: unknown[], extra: Record<string, unknown> = {}) {
    return validateDsl(canvas({ id: "Agent:A", name: "Agent", params: { llm_id: "m@F", tools, ...extra } })).issues;
  }

  it("names a tool that has no implementation, with a pointer to its component_name", () => {
    const issues = errors(agentIssues([{ component_name: "Wikipedia", params: {} }, { component_name: "Frobnicate", params: {} }]));
    expect(issues).toEqual([
      expect.objectContaining({
        pointer: "/components/Agent:A/obj/params/tools/1/component_name",
        message: 'tool "Frobnicate" (tools[1]) has no implementation: no component of that type is registered',
      }),
    ]);
  });

  it("checks a sub-agent's tools recursively with nested pointers", () => {
    const issues = errors(agentIssues([{ component_name: "Agent", name: "Researcher", params: { llm_id: "m@F", tools: [{ component_name: "GitHub", params: {} }, { component_name: "Bing", params: {} }] } }]));
    expect(issues).toHaveLength(1);
    expect(issues[0].pointer).toBe("/components/Agent:A/obj/params/tools/0/params/tools/1/component_name");
    expect(issues[0].message).toContain('tool "Bing" (tools[0].tools[1]) has no implementation: RAGFlow has no Bing tool either');
  });

  it("refuses components that are not tools and entries without a component_name", () => {
    const issues = errors(agentIssues([{ component_name: "Message", params: {} }, { params: {} }, "Retrieval"]));
    expect(issues.map((i) => [i.pointer.replace("/components/Agent:A/obj/params", ""), i.message])).toEqual([
      ["/tools/2", 'param "tools.2" must be object'],
      ["/tools/0/component_name", 'tool "Message" (tools[0]) cannot be an Agent tool: Message is a canvas component, not a tool'],
      ["/tools/1/component_name", "tools[1] has no component_name"],
    ]);
  });

  it("runs each tool's own checks on its params, over its defaults", () => {
    const issues = agentIssues([{ component_name: "TavilySearch", params: { api_key: "k", max_results: 0 } }, { component_name: "Google", params: { api_key: "", country: "zz" } }]);
    expect(issues.map((i) => [i.severity, i.pointer.replace("/components/Agent:A/obj/params", ""), i.message])).toEqual([
      ["error", "/tools/0/params/max_results", 'tool "TavilySearch" (tools[0]): max_results must be a whole number greater than 0, not 0'],
      ["warning", "/tools/1/params/api_key", 'tool "Google" (tools[1]): api_key is empty: the SerpApi API key must be set before this component can run'],
      ["error", "/tools/1/params/country", 'tool "Google" (tools[1]): country "zz" is not a Google country code (e.g. "af", "al", "dz", "as")'],
    ]);
  });

  it("reads references from its own and its sub-agents' prompts, not from tool params", () => {
    const refs = builtinDefinition("Agent").references!({
      sys_prompt: "Use {begin@style}.",
      prompts: [{ role: "user", content: "{sys.query}" }],
      user_prompt: "",
      visual_files_var: "sys.files",
      tools: [
        { component_name: "TavilySearch", params: { query: "{Missing@x}" } },
        { component_name: "Agent", params: { sys_prompt: "Sub {env.tone}", prompts: [{ role: "user", content: "{Writer:A@content}" }] } },
      ],
    });
    expect(refs.map((r) => r.expr)).toEqual(["begin@style", "sys.query", "sys.files", "env.tone", "Writer:A@content"]);
  });

  it("reports a sub-agent prompt reference to a missing component", () => {
    const issues = errors(agentIssues([{ component_name: "Agent", params: { llm_id: "m@F", prompts: [{ role: "user", content: "{Gone:X@content}" }] } }]));
    expect(issues.map((i) => [i.code, i.message])).toEqual([["unknown-reference", 'reference {Gone:X@content}: no component "Gone:X" in this canvas']]);
  });
});

describe("LLM params", () => {
  function llmIssues(params: Record<string, unknown>) {
    return validateDsl(canvas({ id: "LLM:L", name: "LLM", params })).issues.map((i) => [i.severity, i.pointer.replace("/components/LLM:L/obj/params", ""), i.message]);
  }

  it("accepts numeric strings and warns on an empty llm_id", () => {
    expect(llmIssues({ llm_id: "m@F", temperature: "0.1", top_p: 0.3, max_tokens: "256" })).toEqual([]);
    expect(llmIssues({ llm_id: "" })).toEqual([["warning", "/llm_id", "llm_id is empty: no chat model is chosen"]]);
  });

  it("rejects values LLMParam.check rejects, and only warns when the value is not sent", () => {
    expect(llmIssues({ llm_id: "m@F", temperature: "hot", presence_penalty: 1.5, frequency_penalty: 2, frequencyPenaltyEnabled: false, max_tokens: -1, prompts: [] })).toEqual([
      ["error", "/temperature", 'temperature must be a number between 0 and 1, not "hot"'],
      ["error", "/presence_penalty", "presence_penalty must be a number between 0 and 1, not 1.5"],
      ["warning", "/frequency_penalty", "frequency_penalty must be a number between 0 and 1, not 2"],
      ["error", "/max_tokens", "max_tokens must be a whole number of 0 or more, not -1"],
      ["error", "/prompts", "prompts is empty: the model needs at least one prompt"],
    ]);
  });

  it("rejects a non-string llm_id through the schema and a visual_files_var that is not a reference", () => {
    const issues = llmIssues({ llm_id: 7, visual_files_var: "just text" });
    expect(issues).toContainEqual(["error", "/llm_id", 'param "llm_id" must be string']);
    expect(issues).toContainEqual(["error", "/visual_files_var", 'visual_files_var must be a reference such as "sys.files", not "just text"']);
  });

  it("reads prompt references (a string prompt included)", () => {
    expect(promptReferences({ sys_prompt: "{a@b}", prompts: "{sys.query} and {env.x}" }).map((r) => r.expr)).toEqual(["a@b", "sys.query", "env.x"]);
  });

  it("number checks read values with finiteNumber, as the runtime does: hexadecimal or infinite text is not a number", () => {
    expect(unitInterval({ t: " 0.5 " }, "t")).toEqual([]);
    expect(unitInterval({ t: "0x1" }, "t")).toEqual([{ pointer: "/t", message: 't must be a number between 0 and 1, not "0x1"' }]);
    expect(unitInterval({ t: "inf" }, "t")).toEqual([{ pointer: "/t", message: 't must be a number between 0 and 1, not "inf"' }]);
    expect(unitInterval({ t: 2 }, "t", "warning")).toEqual([{ pointer: "/t", message: "t must be a number between 0 and 1, not 2", severity: "warning" }]);
    expect(unitInterval({ t: null }, "t")).toEqual([]);
    expect(unitInterval({ t: "" }, "t")).toEqual([{ pointer: "/t", message: 't must be a number between 0 and 1, not ""' }]);
  });

  it("sampling checks never throw and accept every value in [0, 1], as a number or a string", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (n, asString) => {
        expect(unitInterval({ t: asString ? String(n) : n }, "t")).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const problems = checkSampling({ temperature: value, top_p: value, presence_penalty: value, frequency_penalty: value, max_tokens: value });
        const n = finiteNumber(value);
        if (value === null || (n !== undefined && n >= 0 && n <= 1 && Number.isInteger(n))) expect(problems).toEqual([]);
        else expect(problems.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("Categorize", () => {
  function categorizeCanvas(params: Record<string, unknown>) {
    return canvas({ id: "Categorize:C", name: "Categorize", params: { llm_id: "m@F", ...params }, downstream: ["Message:A", "Message:B"] }, {
      "Message:A": node("Message", { content: ["A"] }),
      "Message:B": node("Message", { content: ["B"] }),
    });
  }
  const issuesOf = (params: Record<string, unknown>) =>
    validateDsl(categorizeCanvas(params)).issues.map((i) => [i.severity, i.pointer.replace("/components/Categorize:C/obj/params", ""), i.message]);

  it("warns on a stale target next to an existing one, and fails a category whose targets are all missing", () => {
    expect(
      issuesOf({
        category_description: {
          Billing: { description: "money", to: ["Message:A", "Message:Deleted"] },
          "Other / misc": { description: "rest", to: ["Message:Gone"] },
          Empty: { to: [] },
        },
      }),
    ).toEqual([
      ["warning", "/category_description/Billing/to/1", 'stale route target "Message:Deleted" in category "Billing" (not a component of this canvas), skipped when the branch is taken'],
      ["error", "/category_description/Other ~1 misc/to/0", 'category "Other / misc" leads to "Message:Gone", which is not a component of this canvas'],
      ["error", "/category_description/Empty/to", 'category "Empty" has no target ("to" is empty)'],
    ]);
  });

  it("needs at least one category and a query that is a reference", () => {
    expect(issuesOf({ category_description: {}, query: "hello there" })).toEqual([
      ["error", "/query", 'query must be a reference to the text to classify (e.g. "sys.query" or "begin@review"), not "hello there"'],
      ["error", "/category_description", "category_description lists no category"],
    ]);
  });

  it("accepts temperature as a string, and a one-id string target as in older DSLs", () => {
    expect(issuesOf({ temperature: "0.1", category_description: { A: { to: "Message:A" }, B: { examples: "one\ntwo", to: ["Message:B"] } } })).toEqual([]);
  });

  it("reads its query selector (default sys.query) and reports a missing component", () => {
    const references = builtinDefinition("Categorize").references!;
    expect(references({ query: "sys.query" }).map((r) => r.expr)).toEqual(["sys.query"]);
    expect(references({ query: "{begin@review}" }).map((r) => r.expr)).toEqual(["begin@review"]);
    expect(references({ query: "" }).map((r) => r.expr)).toEqual(["sys.query"]);
    const issues = validateDsl(categorizeCanvas({ query: "Nobody@text", category_description: { A: { to: ["Message:A"] } } })).issues;
    expect(errors(issues).map((i) => i.message)).toEqual(['reference {Nobody@text}: no component "Nobody" in this canvas']);
  });

  it("lists the categories in its thoughts", () => {
    expect(builtinDefinition("Categorize").thoughts!({ category_description: { Positive: {}, Negative: {} } })).toBe("Which should it falls into `Positive`,`Negative`? ...");
  });
});

describe("tool params", () => {
  const issuesOf = (name: string, params: Record<string, unknown>) =>
    validateDsl(canvas({ id: "T:1", name, params })).issues.map((i) => [i.severity, i.code, i.pointer.replace("/components/T:1/obj/params", ""), i.message]);

  it("Retrieval's query may be a template string, a bare reference, and datasets may be references", () => {
    expect(issuesOf("Retrieval", { query: "Question: {sys.query} ({begin@topic})", kb_ids: ["kb"] })).toEqual([]);
    expect(issuesOf("Retrieval", { query: "Question: {sys.query} ({Gone:X@topic})", kb_ids: ["kb"] })).toEqual([
      ["error", "unknown-reference", "/query", 'reference {Gone:X@topic}: no component "Gone:X" in this canvas'],
    ]);
    const refs = builtinDefinition("Retrieval").references!({ query: "Agent:Plan@content", kb_ids: ["plain-id", "begin@kb"], dataset_ids: [] });
    expect(refs.map((r) => r.expr)).toEqual(["Agent:Plan@content", "begin@kb"]);
  });

  it("reads meta params as references, but never e-mail addresses", () => {
    expect(builtinDefinition("TavilySearch").references!({ query: "sys.query", include_domains: ["{env.site}"] }).map((r) => r.expr)).toEqual(["sys.query", "env.site"]);
    expect(builtinDefinition("Email").references!({ to_email: "ops@example.com", subject: "Report {sys.date}", content: "" }).map((r) => r.expr)).toEqual(["sys.date"]);
    expect(issuesOf("Email", { to_email: "ops@example.com", smtp_server: "smtp.example.com", email: "me@example.com", password: "p", sender_name: "Me" })).toEqual([]);
  });

  it("Retrieval warns when no dataset is chosen and checks its ranges", () => {
    expect(issuesOf("Retrieval", { similarity_threshold: 1.2, top_n: 0 })).toEqual([
      ["error", "param", "/similarity_threshold", "similarity_threshold must be a number between 0 and 1, not 1.2"],
      ["error", "param", "/top_n", "top_n must be a number greater than 0, not 0"],
      ["warning", "param", "/kb_ids", "no dataset is chosen (dataset_ids and kb_ids are empty): the retrieval fails unless a knowledge base is configured for any id (\"*\")"],
    ]);
  });

  it("CodeExec needs one business output and references as arguments", () => {
    expect(issuesOf("CodeExec", { arguments: { x: "begin@x", y: "literal text" }, outputs: { a: { type: "String" }, b: { type: "Number" } } })).toEqual([
      ["error", "param", "/arguments/y", 'argument "y" must be a reference such as "begin@y", not "literal text"'],
      ["error", "param", "/outputs", "outputs must declare exactly one business output besides content, actual_type, attachments…, found 2"],
    ]);
    expect(businessOutput({ result: {}, attachments: {} })).toEqual({ name: "result" });
    expect(businessOutput({ attachments: {} })).toEqual({ problem: '"attachments" is reserved and cannot be the business output' });
    expect(["String", "array<object>", "Array<Array<Number>>", "any"].every(isContractType)).toBe(true);
    expect(["Array<>", "Integer", "list"].some(isContractType)).toBe(false);
  });

  it("ExeSQL refuses RAGFlow's own database and warns on missing connection settings", () => {
    expect(issuesOf("ExeSQL", { database: "rag_flow", username: "root", host: "ragflow-mysql", password: "x" })).toEqual([
      ["error", "param", "/database", "for security reasons the database rag_flow of a RAGFlow installation cannot be queried"],
    ]);
    expect(issuesOf("ExeSQL", { db_type: "trino", database: "hive.sales", username: "u", host: "trino.local" })).toEqual([]);
    expect(issuesOf("ExeSQL", { db_type: "sqlite" }).filter((i) => i[0] === "error")).toEqual([["error", "param", "/db_type", 'param "db_type" must be one of "mysql", "mariadb", "oceanbase", "postgres", "mssql", "trino", "IBM DB2"']]);
  });

  it("QueritSearch checks its time range and chunk count", () => {
    expect(issuesOf("QueritSearch", { chunks_per_doc: 5, time_range: "last week" })).toEqual([
      ["error", "param", "/chunks_per_doc", "chunks_per_doc must be 1, 2 or 3, not 5"],
      ["error", "param", "/time_range", 'time_range "last week" must look like d7, w1, m3, y1 or 2024-01-01to2024-12-31'],
    ]);
  });
});
