/**
 * The order of Dify's stream on the service API: a workflow's End streams `text_chunk` events and
 * a chatflow's Answer streams `message` events as Dify's response coordinator sends them, each
 * segment when its value exists (before the node whose success released it finishes).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { difyApp, edge } from "../helpers/dify.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { scratchDir } from "../helpers/scratch.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const scratch = scratchDir("cf-dify-streaming-");
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

function agentsDir(name: string, document: Record<string, unknown>): string {
  const dir = join(scratch.dir, `agents-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.yml`), stringify(document));
  return dir;
}

type Sent = Record<string, unknown> & { event: string; data?: Record<string, unknown> };

/** POST a streaming run through inject() and read its `data:` frames (pings left out). */
async function stream(server: TestServer, url: string, payload: Record<string, unknown>): Promise<Sent[]> {
  const response = await server.app.inject({ method: "POST", url, headers: { authorization: `Bearer ${server.key}` }, payload: { ...payload, response_mode: "streaming", user: "ada" } });
  expect(response.statusCode).toBe(200);
  return response.body
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: "))
    .map((frame) => JSON.parse(frame.slice("data: ".length)) as Sent);
}

/** Each frame as `event`, `event:node id` for node events, `text_chunk:text` / `message:answer`. */
function sequence(sent: Sent[]): string[] {
  return sent.map((e) => {
    if (e.event === "node_started" || e.event === "node_finished") return `${e.event}:${e.data!.node_id}`;
    if (e.event === "text_chunk") return `text_chunk:${e.data!.text}`;
    if (e.event === "message") return `message:${e.answer}`;
    return e.event;
  });
}

describe("Dify's service API streams Answer and End templates in Dify's order", () => {
  it("a workflow's End: the text_chunk comes with the Start node, before the End starts (Dify's simple passthrough)", async () => {
    const document = difyApp(
      [
        { id: "start", type: "start", variables: [{ variable: "query", label: "query", type: "text-input", required: true }] },
        { id: "end", type: "end", outputs: [{ variable: "query", value_selector: ["start", "query"], value_type: "string" }] },
      ],
      [edge("start", "end")],
    );
    const server = await startTestServer({ agentsDir: agentsDir("echo", document), difyApp: "echo" });
    const sent = await stream(server, "/v1/workflows/run", { inputs: { query: "test event sequence" } });
    expect(sequence(sent)).toEqual([
      "workflow_started",
      "node_started:start",
      "text_chunk:test event sequence",
      "node_finished:start",
      "node_started:end",
      "node_finished:end",
      "workflow_finished",
    ]);
    expect(sent.at(-1)!.data).toMatchObject({ status: "succeeded", outputs: { query: "test event sequence" } });
  });

  it("a chatflow's Answer: a template node's output, the text after it, then the model's chunks while it runs", async () => {
    const mock = await startMockLlm({ rules: [{ on: "any", match: ".", reply: "one two three" }] });
    const document = difyApp(
      [
        { id: "start", type: "start", variables: [] },
        { id: "tt", type: "template-transform", template: "T", variables: [] },
        {
          id: "llm",
          type: "llm",
          model: { provider: "langgenius/openai/openai", name: "gpt-4o", mode: "chat", completion_params: {} },
          prompt_template: [{ role: "user", text: "{{#sys.query#}}" }],
          context: { enabled: false },
        },
        { id: "ans", type: "answer", answer: "{{#tt.output#}} A={{#llm.text#}}" },
      ],
      [edge("start", "tt"), edge("tt", "llm"), edge("llm", "ans")],
      { mode: "advanced-chat" },
    );
    const server = await startTestServer({ agentsDir: agentsDir("chat", document), difyApp: "chat", canvas: { services: { llm: mock.provider } } });
    const sent = await stream(server, "/v1/chat-messages", { inputs: {}, query: "hi" });
    expect(sequence(sent)).toEqual([
      "workflow_started",
      "node_started:start",
      "node_finished:start",
      "node_started:tt",
      "message:T",
      "message: A=",
      "node_finished:tt",
      "node_started:llm",
      "message:one ",
      "message:two ",
      "message:three",
      "node_finished:llm",
      "node_started:ans",
      "node_finished:ans",
      "workflow_finished",
      "message_end",
    ]);
  });
});
