import { beforeEach, describe, expect, it } from "vitest";
import { builtinRegistry } from "../../src/components/builtins.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { loadCanvas } from "../../src/api.js";
import type { ComponentRegistry } from "../../src/components/registry.js";
import type { MockLlmScript } from "../../src/llm/index.js";
import type { ToolContext } from "../../src/tools/types.js";
import { finish, roundsExhaustedNotice, runToolCall, toolLoop, type AgentFunction } from "../../src/components/llm/agent-loop.js";
import { functionName } from "../../src/components/llm/agent-host.js";
import { subAgentTask } from "../../src/components/llm/agent-tools.js";
import { CITATION_INSTRUCTIONS } from "../../src/components/llm/citations.js";
import type { ChatModel, ChatRequest, ChatResult } from "../../src/llm/types.js";
import { canvasDsl, finished, messageText, node, trace } from "../helpers/dsl.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import { registryWith } from "../helpers/registry.js";

interface ToolCallRecord {
  args: Record<string, unknown>;
  label: string;
  params: Record<string, unknown>;
}

/** A search tool registered under the Wikipedia component name, answering from `answer`. */
function searchTool(calls: ToolCallRecord[], answer: (args: Record<string, unknown>, ctx: ToolContext) => Promise<string> | string) {
  return defineTool({
    name: "Wikipedia",
    functionName: "wikipedia_search",
    description: "Searches the test encyclopedia.",
    meta: { query: { default: "{sys.query}", type: "string", description: "What to look up.", required: true } },
    defaults: { top_n: 10, language: "en" },
    timeoutSeconds: 5,
    run: async (args, ctx) => {
      calls.push({ args, label: ctx.label, params: ctx.params });
      return { formalized_content: await answer(args, ctx) };
    },
  });
}

const WIKI = { component_name: "Wikipedia", name: "Wikipedia", params: { top_n: 3 } };

function agentCanvas(agentParams: Record<string, unknown>, id = "Agent:A") {
  return canvasDsl({
    begin: node("Begin", {}, [id]),
    [id]: node("Agent", { llm_id: "mock@Mock", sys_prompt: "You are helpful.", prompts: [{ role: "user", content: "{sys.query}" }], ...agentParams }, ["Message:M"]),
    "Message:M": node("Message", { content: [`{${id}@content}`] }),
  });
}

let mock: MockLlm | undefined;

async function run(script: MockLlmScript | undefined, dsl: object, registry: ComponentRegistry, query: string) {
  mock = await startMockLlm(script);
  const canvas = await loadCanvas(dsl, { services: { llm: mock.provider }, registry });
  return canvas.runToEnd({ query });
}

describe("Agent with tools, end to end through the mock server", () => {
  it("calls a registered tool with the model's arguments and streams the final answer into the Message", async () => {
    const calls: ToolCallRecord[] = [];
    const registry = registryWith(searchTool(calls, (args) => `Sunny in ${String(args.query)}.`));
    const script: MockLlmScript = {
      rules: [
        { match: "weather", tool_calls: [{ name: "wikipedia_search_0", arguments: { query: "Paris" } }] },
        { match: "Sunny in Paris", on: "tool", reply: "It is sunny in Paris." },
      ],
    };
    const events = await run(script, agentCanvas({ tools: [WIKI], max_rounds: 3 }), registry, "weather in Paris?");

    expect(trace(events)).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:Agent:A",
      "node_started:Message:M",
      "message:It ",
      "message:is ",
      "message:sunny ",
      "message:in ",
      "message:Paris.",
      "message_end",
      "node_finished:Agent:A",
      "node_finished:Message:M",
      "workflow_finished",
    ]);
    expect(calls).toEqual([{ args: { query: "Paris" }, label: "Agent:A → Wikipedia", params: { query: "{sys.query}", top_n: 3, language: "en" } }]);

    const requests = mock!.chatRequests();
    expect(requests).toHaveLength(2);
    expect(requests.every((r) => r.stream === true)).toBe(true);
    expect(requests[0].tools).toEqual([
      {
        type: "function",
        function: {
          name: "wikipedia_search_0",
          description: "Searches the test encyclopedia.",
          parameters: { type: "object", properties: { query: { type: "string", description: "What to look up." } }, required: ["query"] },
        },
      },
    ]);
    expect(requests[0].messages).toEqual([
      { role: "system", content: "You are helpful." },
      { role: "user", content: "weather in Paris?" },
    ]);
    expect(requests[1].messages.slice(2)).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "call_mock_1_0", type: "function", function: { name: "wikipedia_search_0", arguments: '{"query":"Paris"}' } }] },
      { role: "tool", tool_call_id: "call_mock_1_0", content: "Sunny in Paris." },
    ]);
    // Mock tokens are words: call 1 reads 6 and writes 2 (`wikipedia_search_0 {"query":"Paris"}`);
    // call 2 reads 11 (the same 6, the call's 2, the result's 3) and writes 5.
    expect(finished(events).usage).toEqual({ prompt_tokens: 17, completion_tokens: 7, total_tokens: 24, calls: 2 });
    const agentDone = events.find((e) => e.event === "node_finished" && e.data.component_id === "Agent:A");
    expect(agentDone?.event === "node_finished" && agentDone.data.outputs.content).toBe("It is sunny in Paris.");
  });

  it("returns a failing tool's error to the model as the tool result, and the run goes on", async () => {
    const calls: ToolCallRecord[] = [];
    const failing = searchTool(calls, () => {
      throw new Error("quota exceeded");
    });
    // A tool type without a `run` fails with ProviderMissingError, which is a tool result too.
    const unimplemented = defineTool({ name: "PubMed", functionName: "pubmed_search", meta: { query: { default: "", required: true } }, timeoutSeconds: 5 });
    const script: MockLlmScript = {
      rules: [
        {
          match: "papers",
          tool_calls: [
            { name: "wikipedia_search_0", arguments: { query: "x" } },
            { name: "pubmed_search_1", arguments: '{"query": "y"}' },
            { name: "no_such_tool", arguments: {} },
          ],
        },
        { match: "failed", on: "tool", reply: "Sorry, the tools failed." },
      ],
    };
    const events = await run(script, agentCanvas({ tools: [WIKI, { component_name: "PubMed", name: "PubMed", params: {} }] }), registryWith(failing, unimplemented), "find papers");

    expect(finished(events).error).toBeUndefined();
    expect(messageText(events)).toBe("Sorry, the tools failed.");
    const toolMessages = mock!.chatRequests()[1].messages.filter((m) => m.role === "tool");
    expect(toolMessages.map((m) => m.content)).toEqual([
      "Tool wikipedia_search_0 failed: quota exceeded",
      "Tool pubmed_search_1 failed: component Agent:A → PubMed (PubMed) needs a tool provider",
      "Tool no_such_tool failed: there is no such tool (available: wikipedia_search_0, pubmed_search_1)",
    ]);
  });

  it("stops offering tools after max_rounds and asks once more for the final answer", async () => {
    const calls: ToolCallRecord[] = [];
    const registry = registryWith(searchTool(calls, () => "more to search"));
    // The first tool result makes the model call the tool again.
    const script: MockLlmScript = { rules: [{ match: "more to search", on: "tool", times: 1, tool_calls: [{ name: "wikipedia_search_0", arguments: { query: "again" } }] }] };
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Agent:A"]),
      // No Message downstream: the Agent answers blocking.
      "Agent:A": node("Agent", { llm_id: "mock@Mock", tools: [WIKI], max_rounds: 2 }),
    });
    const events = await run(script, dsl, registry, "loop forever");

    const requests = mock!.chatRequests();
    expect(requests.map((r) => [r.stream ?? false, (r.tools ?? []).map((t) => t.function.name)])).toEqual([
      [false, ["wikipedia_search_0"]],
      [false, ["wikipedia_search_0"]],
      [false, []],
    ]);
    // The mock's default plan made the first call, with the query as the required argument.
    expect(calls.map((c) => c.args)).toEqual([{ query: "loop forever" }, { query: "again" }]);
    // The final request ends with the tool results; the notice is in its system prompt only.
    expect(requests[2].messages[0]).toEqual({ role: "system", content: roundsExhaustedNotice(2) });
    expect(requests[1].messages[0].role).toBe("user");
    expect(requests[2].messages.at(-1)).toMatchObject({ role: "tool", content: "more to search" });
    const answer = "[mock reply] You said: loop forever | tool wikipedia_search_0 returned: more to search | tool wikipedia_search_0 returned: more to search";
    expect(finished(events)).toMatchObject({ outputs: { content: answer } });
    expect(trace(events)).toEqual(["workflow_started", "node_started:begin", "node_finished:begin", "node_started:Agent:A", "node_finished:Agent:A", "workflow_finished"]);
  });

  it("calls a sub-agent as a tool: it runs on its own prompts and tools and its answer is the tool result", async () => {
    const calls: ToolCallRecord[] = [];
    const registry = registryWith(searchTool(calls, () => "Paris is the capital of France."));
    const researcher = {
      component_name: "Agent",
      name: "Researcher",
      params: { llm_id: "mock@Mock", description: "Finds facts.", sys_prompt: "You research.", tools: [WIKI], max_rounds: 2, message_history_window_size: 0 },
    };
    const script: MockLlmScript = {
      rules: [
        { match: "You lead", on: "system", tool_calls: [{ name: "Researcher_0", arguments: { user_prompt: "Find the capital of France", reasoning: "facts needed", context: "the user asked" } }] },
        { match: "You research", on: "system", tool_calls: [{ name: "wikipedia_search_0", arguments: { query: "capital of France" } }] },
        { match: "Paris is the capital", on: "tool", reply: "The capital is Paris." },
        { match: "The capital is Paris", on: "tool", reply: "Final: Paris." },
      ],
    };
    const events = await run(script, agentCanvas({ sys_prompt: "You lead.", tools: [researcher], max_rounds: 2 }, "Agent:Lead"), registry, "capital of France?");

    expect(finished(events).error).toBeUndefined();
    expect(messageText(events)).toBe("Final: Paris.");
    expect(calls).toEqual([{ args: { query: "capital of France" }, label: "Agent:Lead → Researcher → Wikipedia", params: { query: "{sys.query}", top_n: 3, language: "en" } }]);
    const requests = mock!.chatRequests();
    expect(requests).toHaveLength(4);
    expect(requests[0].tools?.[0].function).toEqual({
      name: "Researcher_0",
      description: "Finds facts.",
      parameters: {
        type: "object",
        properties: {
          user_prompt: { type: "string", description: "This is the order you need to send to the agent." },
          reasoning: { type: "string", description: expect.stringContaining("Supervisor's reasoning") },
          context: { type: "string", description: expect.stringContaining("All relevant background information") },
        },
        required: ["user_prompt", "reasoning", "context"],
      },
    });
    // The sub-agent's own conversation: its system prompt and the task the lead wrote (history window 0).
    expect(requests[1].messages).toEqual([
      { role: "system", content: "You research." },
      { role: "user", content: "\nREASONING:\nfacts needed\n\nCONTEXT:\nthe user asked\n\nQUERY:\nFind the capital of France\n" },
    ]);
    expect(requests[1].stream).toBe(false);
    expect(requests[3].messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_mock_1_0", content: "The capital is Paris." });
    expect(finished(events).usage.calls).toBe(4);
  });

  it("with cite on, adds citation instructions once a tool retrieved chunks, and the references reach message_end", async () => {
    const calls: ToolCallRecord[] = [];
    const chunk = { id: "chunk-1", content: "Paris is the capital of France.", document_id: "doc-1", document_name: "France.md" };
    const registry = registryWith(
      searchTool(calls, (_args, ctx) => {
        ctx.addReferences([chunk], [{ doc_id: "doc-1", doc_name: "France.md", count: 1 }]);
        return "ID: 0\n└── Content: Paris is the capital of France.";
      }),
    );
    const script: MockLlmScript = {
      rules: [
        { match: "capital", tool_calls: [{ name: "wikipedia_search_0", arguments: { query: "France" } }] },
        { match: "Paris", on: "tool", reply: "Paris [ID:0]." },
      ],
    };
    const events = await run(script, agentCanvas({ tools: [WIKI], cite: true }), registry, "capital of France?");

    const [first, second] = mock!.chatRequests();
    expect(first.messages[0]).toEqual({ role: "system", content: "You are helpful." });
    expect(second.messages[0]).toEqual({ role: "system", content: `You are helpful.\n\n${CITATION_INSTRUCTIONS}` });
    const end = events.find((e) => e.event === "message_end");
    expect(end?.data).toEqual({ reference: { chunks: [chunk], doc_aggs: [{ doc_id: "doc-1", doc_name: "France.md", count: 1 }] } });
    expect(messageText(events)).toBe("Paris [ID:0].");
  });

  it("with cite off, sends no citation instructions (the references still reach message_end)", async () => {
    const registry = registryWith(
      searchTool([], (_args, ctx) => {
        ctx.addReferences([{ id: "c", content: "x" }]);
        return "x";
      }),
    );
    const events = await run({ rules: [{ match: ".", on: "tool", reply: "done" }] }, agentCanvas({ tools: [WIKI], cite: false }), registry, "q");
    expect(mock!.chatRequests().map((r) => r.messages[0].content)).toEqual(["You are helpful.", "You are helpful."]);
    expect(events.find((e) => e.event === "message_end")?.data).toEqual({ reference: { chunks: [{ id: "c", content: "x" }], doc_aggs: [] } });
  });

  it("applies a structured-output schema to the final answer after the tools, asking again when it does not match", async () => {
    const registry = registryWith(searchTool([], () => "Paris, 2.1 million people"));
    const schema = { type: "object", properties: { city: { type: "string" }, population: { type: "number" } }, required: ["city", "population"] };
    const script: MockLlmScript = {
      rules: [
        { match: "cannot be used", reply: '```json\n{"city": "Paris", "population": 2100000}\n```' },
        { match: "Paris", on: "tool", reply: '{"city": "Paris"}' },
      ],
    };
    const dsl = agentCanvas({ tools: [WIKI], max_retries: 1, delay_after_error: 0.01, outputs: { content: { type: "string" }, structured: schema } });
    (dsl.components["Message:M"].obj.params as { content: string[] }).content = ["{Agent:A@structured.city} has {Agent:A@structured.population}"];
    const events = await run(script, dsl, registry, "biggest city?");

    expect(messageText(events)).toBe("Paris has 2100000");
    const requests = mock!.chatRequests();
    expect(requests.map((r) => r.stream ?? false)).toEqual([false, false, false]);
    expect(requests[0].messages[0].content).toContain('"population": {\n      "type": "number"\n    }');
    expect(requests[2].tools).toBeUndefined();
    expect(requests[2].messages.slice(-2)).toEqual([
      { role: "assistant", content: '{"city": "Paris"}' },
      { role: "user", content: "Your answer cannot be used: the JSON does not match the schema: the value must have required property 'population'. Answer again with only the JSON value." },
    ]);
  });

  it("an Agent without tools is an LLM turn; the stored tools of an MCP server that is not configured are offered but fail as tool results", async () => {
    const script: MockLlmScript = { rules: [{ match: "MCP server", on: "tool", reply: "The MCP tool is unavailable." }] };
    const mcp = [{ mcp_id: "srv-1", tools: { lookup: { name: "lookup", description: "Looks up things.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } } } }];
    const events = await run(script, agentCanvas({ mcp }), builtinRegistry(), "find it");
    expect(messageText(events)).toBe("The MCP tool is unavailable.");
    const requests = mock!.chatRequests();
    expect(requests[0].tools?.map((t) => t.function)).toEqual([{ name: "lookup", description: "Looks up things.", parameters: mcp[0].tools.lookup.inputSchema }]);
    expect(requests[1].messages.at(-1)?.content).toBe('Tool lookup failed: MCP server srv-1 is not configured: canvasflow.config.json has no "mcpServers"');

    await mock!.close();
    const plain = await run(undefined, agentCanvas({ mcp: [{ mcp_id: "srv-2", tools: {} }] }), builtinRegistry(), "hi");
    expect(messageText(plain)).toBe("[mock reply] You said: hi");
    expect(mock!.chatRequests()[0].tools).toBeUndefined();
  });
});

describe("tool-loop helpers", () => {
  function fn(name: string, call: AgentFunction["call"]): AgentFunction {
    return { name, schema: { type: "function", function: { name, parameters: { type: "object", properties: {} } } }, call };
  }
  const toolCall = (name: string, args: string) => ({ id: "1", type: "function" as const, function: { name, arguments: args } });

  it("turns every failure of a call into the tool result text", async () => {
    const echo = fn("echo", async (args) => JSON.stringify(args));
    expect(await runToolCall([echo], toolCall("echo", '{"a":1}'))).toBe('{"a":1}');
    expect(await runToolCall([echo], toolCall("echo", ""))).toBe("{}");
    expect(await runToolCall([echo], toolCall("echo", "{oops"))).toMatch(/^Tool echo failed: its arguments are not valid JSON \(/);
    expect(await runToolCall([echo], toolCall("echo", "[1]"))).toBe("Tool echo failed: its arguments must be a JSON object");
    expect(await runToolCall([fn("boom", async () => Promise.reject("plain string"))], toolCall("boom", "{}"))).toBe("Tool boom failed: plain string");
  });

  it("names functions as the OpenAI API accepts them, unique by their place in tools", () => {
    expect(functionName("Web Search Specialist", 2)).toBe("Web_Search_Specialist_2");
    expect(functionName("研究", 0)).toBe("tool_0");
    expect(functionName("x".repeat(80), 12)).toHaveLength(64);
  });

  it("writes a sub-agent's task as RAGFlow does", () => {
    expect(subAgentTask({ user_prompt: "do it" })).toEqual([{ role: "user", content: "do it" }]);
    expect(subAgentTask({ user_prompt: "do it", context: { a: 1 } })).toEqual([{ role: "user", content: '\nCONTEXT:\n{"a":1}\n\nQUERY:\ndo it\n' }]);
  });

  describe("with a scripted model", () => {
    let results: ChatResult[];
    let seen: ChatRequest[];
    const model: ChatModel = {
      llmId: "m",
      model: "m",
      complete: async (request) => (seen.push(request), results.shift()!),
      async *stream(request) {
        seen.push(request);
        const result = results.shift()!;
        if (result.content) yield { type: "text", text: result.content };
        yield { type: "done", result };
      },
    };
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    beforeEach(() => {
      seen = [];
      results = [
        { content: "Let me look.", toolCalls: [toolCall("echo", "{}")], usage, finishReason: "tool_calls" },
        { content: "Done.", toolCalls: [], usage, finishReason: "stop" },
      ];
    });

    it("streaming, yields the text of every round, separated by a blank line; blocking, returns the last round's text", async () => {
      const request = () => ({ model, base: {}, messages: [{ role: "user" as const, content: "go" }], functions: [fn("echo", async () => "ok")], maxRounds: 5, onUsage: () => undefined });
      const streamed: string[] = [];
      const loop = toolLoop(request(), true);
      for (;;) {
        const step = await loop.next();
        if (step.done) {
          expect(step.value).toBe("Done.");
          break;
        }
        streamed.push(step.value);
      }
      expect(streamed).toEqual(["Let me look.", "\n\n", "Done."]);

      results = [
        { content: "Let me look.", toolCalls: [toolCall("echo", "{}")], usage, finishReason: "tool_calls" },
        { content: "Done.", toolCalls: [], usage, finishReason: "stop" },
      ];
      const blocking = request();
      expect(await finish(toolLoop(blocking, false))).toBe("Done.");
      expect(blocking.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
      expect(blocking.messages[1].content).toBe("Let me look.");
    });
  });
});
