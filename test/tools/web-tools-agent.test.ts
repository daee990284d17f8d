/**
 * The web tools inside an Agent, through the mock LLM server: a tool without a key answers the
 * model with its error as the tool result, the run goes on, and a working tool's chunks reach
 * message_end.
 */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { canvasDsl, finished, messageEnd, messages, node } from "../helpers/dsl.js";
import { sendJson, standIn } from "../helpers/http.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";

let mock: MockLlm | undefined;

async function wiki() {
  return standIn((request, res) => {
    if (request.query.list === "search") return sendJson(res, 200, { query: { search: [{ ns: 0, title: "Mercury (planet)" }] } });
    sendJson(res, 200, {
      query: { pages: [{ pageid: 1, ns: 0, title: "Mercury (planet)", extract: "Mercury is the first planet from the Sun.", fullurl: "https://en.wikipedia.org/wiki/Mercury_(planet)" }] },
    });
  });
}

describe("web tools in an Agent", () => {
  it("a missing key comes back to the model as the tool result; the other tool's chunks reach message_end", async () => {
    const api = await wiki();
    mock = await startMockLlm({
      rules: [
        {
          match: "mercury",
          on: "last_user",
          times: 1,
          tool_calls: [
            { name: "tavily_search_0", arguments: { query: "mercury" } },
            { name: "wikipedia_search_1", arguments: { query: "mercury" } },
          ],
        },
        { match: "has no API key", on: "any", reply: "Tavily is not set up; Wikipedia says Mercury is the first planet." },
      ],
    });
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Agent:A"]),
      "Agent:A": node(
        "Agent",
        {
          llm_id: "mock@Mock",
          sys_prompt: "Answer with the tools.",
          prompts: [{ role: "user", content: "{sys.query}" }],
          max_rounds: 3,
          tools: [
            { component_name: "TavilySearch", name: "TavilySearch", params: { api_key: "" } },
            { component_name: "Wikipedia", name: "Wikipedia", params: { top_n: 1 } },
          ],
        },
        ["Message:M"],
      ),
      "Message:M": node("Message", { content: ["{Agent:A@content}"] }),
    });
    const canvas = await loadCanvas(dsl, {
      services: { llm: mock.provider, tools: { knowledgeBases: {}, endpoints: { Wikipedia: { baseURL: api.base } }, env: {} } },
    });
    const events = await canvas.runToEnd({ query: "tell me about mercury" });

    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["Tavily is not set up; Wikipedia says Mercury is the first planet."]);
    const offered = mock.chatRequests()[0].tools?.map((t) => t.function.name);
    expect(offered).toEqual(["tavily_search_0", "wikipedia_search_1"]);
    const toolMessages = mock.chatRequests()[1].messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(toolMessages).toHaveLength(2);
    expect(toolMessages[0]).toContain("TavilySearch has no API key: set api_key on the component or tools.TavilySearch.apiKeyEnv in canvasflow.config.json");
    expect(toolMessages[1]).toContain("├── Title: Mercury (planet)\n├── URL: https://en.wikipedia.org/wiki/Mercury_(planet)\n└── Content:\nMercury is the first planet from the Sun.");
    expect(api.requests.map((r) => r.query.list ?? r.query.prop)).toEqual(["search", "extracts|info|pageprops"]);
    const reference = messageEnd(events).reference as { chunks: Array<{ url: string }> } | undefined;
    expect(reference?.chunks.map((c) => c.url)).toEqual(["https://en.wikipedia.org/wiki/Mercury_(planet)"]);
  });
});
