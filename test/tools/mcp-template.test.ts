/**
 * RAGFlow's stock-market research template, whose information-extraction Agent reaches an MCP
 * server (mcp_id 30d6ef8ea8d511f0828382e3548809fa, `tools: {}`: every tool). Bound to
 * server-everything over stdio in the config, the branch runs: the Agent calls an MCP tool and
 * its result flows through the analyst Agent into the final message.
 */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { McpHub } from "../../src/tools/mcp/hub.js";
import { corpusPath } from "../helpers/corpus.js";
import { finished, messages, nodeFinished } from "../helpers/dsl.js";
import { closedPort } from "../helpers/http.js";
import { everythingStdio } from "../helpers/mcp.js";
import { startMockLlm } from "../helpers/mock-llm.js";

const TEMPLATE = corpusPath("ragflow/head", "stock_market_research_assistant.json");
const MCP_ID = "30d6ef8ea8d511f0828382e3548809fa";

describe("the stock-market template's MCP branch", () => {
  it(
    "runs against a configured stdio MCP server",
    async () => {
      const mock = await startMockLlm({
        rules: [
          { match: "identify and extract the stock name", on: "system", reply: "NVDA (NVIDIA Corporation)" },
          { match: "Echo: NVDA quarterly revenue", on: "tool", reply: "Investoday says: Echo: NVDA quarterly revenue" },
          { match: "information extraction agent", on: "system", times: 1, tool_calls: [{ name: "echo", arguments: { message: "NVDA quarterly revenue" } }] },
          { match: "senior investment banking", on: "system", reply: "REPORT based on the extraction." },
        ],
      });
      const hub = new McpHub({ [MCP_ID]: everythingStdio() }, {});
      const yahoo = await closedPort();
      const canvas = await loadCanvas(TEMPLATE, {
        services: { llm: mock.provider, mcp: hub, tools: { knowledgeBases: {}, endpoints: { YahooFinance: { baseURL: `http://127.0.0.1:${yahoo}` } }, env: {} } },
      });
      const events = await canvas.runToEnd({ query: "How is NVIDIA doing?" });
      await hub.close();

      expect(finished(events).error).toBeUndefined();
      expect(nodeFinished(events, "Agent:SadDodosRescue").outputs).toMatchObject({ content: "Investoday says: Echo: NVDA quarterly revenue" });
      const extraction = mock.chatRequests().find((r) => r.messages.some((m) => m.role === "tool"));
      expect(extraction?.messages.find((m) => m.role === "tool")?.content).toBe("Echo: NVDA quarterly revenue");
      // The analyst read the MCP branch's answer.
      const analyst = mock.chatRequests().find((r) => String(r.messages[0].content).includes("senior investment banking"));
      expect(JSON.stringify(analyst?.messages)).toContain("Investoday says: Echo: NVDA quarterly revenue");
      expect(messages(events).join("\n")).toContain("REPORT based on the extraction.");
    },
    90_000,
  );
});
