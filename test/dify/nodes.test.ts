/**
 * The Dify node types beyond the fixtures: question-classifier, parameter-extractor (both on the
 * mock LLM), knowledge-retrieval (a local knowledge base), list-operator, document-extractor,
 * the agent with a built-in strategy, the time tool's strftime, and Python-style rendering.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { markdownOf, pythonJson, textOf } from "../../src/dify/render.js";
import { strftime } from "../../src/dify/components/tool.js";
import { difyApp, edge, finished, startedIds, type NodeSpec } from "../helpers/dify.js";
import { startMockLlm } from "../helpers/mock-llm.js";

const KB_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/kb");
const MODEL = { provider: "langgenius/openai/openai", name: "gpt-4o", mode: "chat", completion_params: {} };
const start: NodeSpec = { id: "start", type: "start", variables: [{ variable: "text", label: "Text", type: "paragraph", required: false }] };
const end = (outputs: Array<[string, string[]]>): NodeSpec => ({ id: "end", type: "end", outputs: outputs.map(([variable, value_selector]) => ({ variable, value_selector })) });
const template = (id: string, text: string): NodeSpec => ({ id, type: "template-transform", template: text, variables: [] });

async function run(document: Record<string, unknown>, request: { inputs?: Record<string, unknown>; query?: string }, services: Record<string, unknown> = {}): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(document, { services });
  return canvas.runToEnd(request);
}

describe("question-classifier", () => {
  const classifier: NodeSpec = {
    id: "qc",
    type: "question-classifier",
    model: MODEL,
    query_variable_selector: ["start", "text"],
    classes: [
      { id: "1", name: "billing" },
      { id: "2", name: "shipping" },
    ],
    instruction: "",
  };
  const document = difyApp([start, classifier, template("bill", "to billing"), template("ship", "to shipping"), end([["bill", ["bill", "output"]], ["ship", ["ship", "output"]], ["name", ["qc", "class_name"]]])], [
    edge("start", "qc"),
    edge("qc", "bill", "1"),
    edge("qc", "ship", "2"),
    edge("bill", "end"),
    edge("ship", "end"),
  ]);

  it("takes the port of the class the model names; the other class is skipped", async () => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: "parcel", reply: '{"category_id": "2", "category_name": "shipping"}' }] });
    const events = await run(document, { inputs: { text: "where is my parcel?" } }, { llm: mock.provider });
    expect(finished(events).outputs).toEqual({ bill: null, ship: "to shipping", name: "shipping" });
    expect(startedIds(events)).not.toContain("bill");
    // The categories went to the model.
    expect(JSON.stringify(mock.chatRequests()[0].messages)).toContain("2: shipping");
  });

  it("an answer that names no class takes the first", async () => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: ".", reply: "I cannot tell." }] });
    const events = await run(document, { inputs: { text: "hello" } }, { llm: mock.provider });
    expect(finished(events).outputs).toMatchObject({ bill: "to billing", ship: null, name: "billing" });
  });
});

describe("parameter-extractor", () => {
  const extractor: NodeSpec = {
    id: "pe",
    type: "parameter-extractor",
    model: MODEL,
    query: ["start", "text"],
    reasoning_mode: "prompt",
    parameters: [
      { name: "city", type: "string", description: "the city", required: true },
      { name: "days", type: "number", description: "how many days", required: false },
    ],
  };
  const document = difyApp([start, extractor, end([["city", ["pe", "city"]], ["days", ["pe", "days"]], ["ok", ["pe", "__is_success"]], ["why", ["pe", "__reason"]]])], [edge("start", "pe"), edge("pe", "end")]);

  it("reads the parameters from the model's JSON (in a fence), typed", async () => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: ".", reply: '```json\n{"city": "Lyon", "days": "3"}\n```' }] });
    const result = finished(await run(document, { inputs: { text: "3 days in Lyon" } }, { llm: mock.provider }));
    expect(result.outputs).toEqual({ city: "Lyon", days: 3, ok: 1, why: null });
  });

  it("an answer it cannot read does not fail the node: __is_success 0 and the reason", async () => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: ".", reply: "no idea" }] });
    const result = finished(await run(document, { inputs: { text: "?" } }, { llm: mock.provider }));
    expect(result.status).toBe("succeeded");
    expect(result.outputs).toMatchObject({ city: "", days: 0, ok: 0, why: "the model's answer is not JSON" });
  });
});

describe("knowledge-retrieval", () => {
  it("searches the knowledge base configured for its dataset and gives Dify's result records", async () => {
    const retrieval: NodeSpec = { id: "kr", type: "knowledge-retrieval", query_variable_selector: ["start", "text"], dataset_ids: ["docs"], retrieval_mode: "multiple", multiple_retrieval_config: { top_k: 2 } };
    const document = difyApp([start, retrieval, end([["result", ["kr", "result"]]])], [edge("start", "kr"), edge("kr", "end")]);
    const services = { tools: { knowledgeBases: { docs: { type: "local", dir: KB_DIR } }, endpoints: {}, env: {} } };
    const result = finished(await run(document, { inputs: { text: "express delivery cost" } }, services));
    const records = result.outputs.result as Array<{ content: string; title: string; metadata: Record<string, unknown> }>;
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThanOrEqual(2);
    expect(records[0].content).toContain("Express delivery");
    expect(records[0].metadata).toMatchObject({ document_name: expect.stringContaining("shipping") });
    expect(typeof records[0].metadata.score).toBe("number");
  });
});

describe("list-operator", () => {
  const numbers: NodeSpec = { id: "nums", type: "code", code_language: "javascript", code: "function main() { return { xs: [5, 3, 9, 1, 7] } }", variables: [], outputs: { xs: { type: "array[number]", children: null } } };
  const operate = (fields: Record<string, unknown>): Record<string, unknown> =>
    difyApp([start, numbers, { id: "op", type: "list-operator", variable: ["nums", "xs"], ...fields }, end([["result", ["op", "result"]], ["first", ["op", "first_record"]], ["last", ["op", "last_record"]]])], [
      edge("start", "nums"),
      edge("nums", "op"),
      edge("op", "end"),
    ]);

  it("filters, orders and limits", async () => {
    const result = finished(
      await run(
        operate({ filter_by: { enabled: true, conditions: [{ comparison_operator: ">", value: "2" }] }, order_by: { enabled: true, value: "desc" }, limit: { enabled: true, size: 3 } }),
        {},
      ),
    );
    expect(result.outputs).toEqual({ result: [9, 7, 5], first: 9, last: 5 });
  });

  it("extracts one item by its 1-based serial (before ordering)", async () => {
    expect(finished(await run(operate({ extract_by: { enabled: true, serial: "2" } }), {})).outputs).toEqual({ result: [3], first: 3, last: 3 });
  });
});

describe("document-extractor", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("reads text files, inline or from their URL", async () => {
    server = createServer((_req, res) => {
      res.setHeader("content-type", "text/markdown; charset=utf-8");
      res.end("# Notes\n\nFetched text.");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes.md`;
    const files: NodeSpec = {
      id: "files",
      type: "code",
      code_language: "javascript",
      code: `function main() { return { files: [{ filename: "a.txt", text: "Inline text." }, { filename: "notes.md", mime_type: "text/markdown", url: ${JSON.stringify(url)} }] } }`,
      variables: [],
      outputs: { files: { type: "array[object]", children: null } },
    };
    const document = difyApp([start, files, { id: "read", type: "document-extractor", variable_selector: ["files", "files"], is_array_file: true }, end([["text", ["read", "text"]]])], [
      edge("start", "files"),
      edge("files", "read"),
      edge("read", "end"),
    ]);
    const result = finished(await run(document, {}, { http: { allowPrivateNetwork: true } }));
    expect(result.outputs).toEqual({ text: ["Inline text.", "# Notes\n\nFetched text."] });
  });

  it("refuses a file that is not text, naming it", async () => {
    const files: NodeSpec = {
      id: "files",
      type: "code",
      code_language: "javascript",
      code: 'function main() { return { file: { filename: "scan.pdf", mime_type: "application/pdf", url: "https://example.com/scan.pdf" } } }',
      variables: [],
      outputs: { file: { type: "object", children: null } },
    };
    const document = difyApp([start, files, { id: "read", type: "document-extractor", variable_selector: ["files", "file"] }, end([["text", ["read", "text"]]])], [edge("start", "files"), edge("files", "read"), edge("read", "end")]);
    const result = finished(await run(document, {}));
    expect(result.status).toBe("failed");
    expect(result.error).toContain("scan.pdf is not a text, markdown, JSON, CSV or HTML file");
  });
});

describe("agent (built-in strategies)", () => {
  it("answers the instruction and query on the model; plugin strategies are not run", async () => {
    const mock = await startMockLlm({ rules: [{ on: "system", match: "terse", reply: "Short answer." }] });
    const agent: NodeSpec = {
      id: "agent",
      type: "agent",
      agent_strategy_provider_name: "langgenius/agent/agent",
      agent_strategy_name: "function_calling",
      agent_parameters: {
        model: { type: "constant", value: { provider: "langgenius/openai/openai", model: "gpt-4o", mode: "chat" } },
        instruction: { type: "constant", value: "Be terse." },
        query: { type: "mixed", value: "{{#start.text#}}" },
        tools: { type: "array[tools]", value: [] },
      },
    };
    const document = difyApp([start, agent, end([["text", ["agent", "text"]]])], [edge("start", "agent"), edge("agent", "end")]);
    const result = finished(await run(document, { inputs: { text: "What is 2+2?" } }, { llm: mock.provider }));
    expect(result.outputs).toEqual({ text: "Short answer." });
    expect(mock.chatRequests()[0].messages).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: "What is 2+2?" },
    ]);
  });
});

describe("rendering values as Dify does", () => {
  it(".text: Python's str for lists of non-strings, JSON for objects and lists of strings, True/False, '' for nothing", () => {
    expect(textOf([{ a: 1 }, 2])).toBe("[{'a': 1}, 2]");
    expect(textOf(["a", "b"])).toBe('["a", "b"]');
    expect(textOf({ a: 1, b: "é" })).toBe('{"a": 1, "b": "é"}');
    expect(textOf(true)).toBe("True");
    expect(textOf(null)).toBe("");
    expect(textOf([])).toBe("");
    expect(textOf(1.5)).toBe("1.5");
  });

  it(".markdown: lists as bullets, objects as indented JSON", () => {
    expect(markdownOf(["x", 2])).toBe("- x\n- 2");
    expect(markdownOf({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(pythonJson({ a: [1, 2] })).toBe('{"a": [1, 2]}');
  });

  it("an unknown reference renders as its own text; a prompt shows what is there", async () => {
    const answer: NodeSpec = { id: "say", type: "answer", answer: "[{{#nowhere.value#}}] [{{#start.text#}}]" };
    const document = difyApp([start, answer], [edge("start", "say")], { mode: "advanced-chat" });
    expect(finished(await run(document, { inputs: { text: "here" } })).outputs).toEqual({ answer: "[nowhere.value] [here]" });
  });
});

describe("the time tool's strftime", () => {
  it("formats in the asked time zone", () => {
    const instant = new Date(Date.UTC(2024, 0, 15, 23, 5, 9));
    expect(strftime(instant, "%Y-%m-%d %H:%M:%S", "UTC")).toBe("2024-01-15 23:05:09");
    expect(strftime(instant, "%Y-%m-%d %H:%M %A %j", "Asia/Shanghai")).toBe("2024-01-16 07:05 Tuesday 016");
    expect(strftime(instant, "%I %p %b %z", "America/New_York")).toBe("06 PM Jan -0500");
    expect(() => strftime(instant, "%Y", "Mars/Base")).toThrow(/not a known time zone/);
  });
});
