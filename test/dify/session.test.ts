/**
 * Dify chatflows over several turns: the session keeps `conversation.*` and counts
 * `sys.dialogue_count`, through the CLI's --session file and through snapshots of the library.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { cli } from "../helpers/cli.js";
import { corpusPath } from "../helpers/corpus.js";
import { scratchDir } from "../helpers/scratch.js";

const scratch = scratchDir("cf-dify-session-");
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

const CHATFLOW = corpusPath("dify", "test_streaming_conversation_variables.yml");

function startOutputs(events: CanvasEvent[]): Record<string, unknown> {
  const start = events.find((e) => e.event === "node_finished" && e.data.component_type === "DifyStart");
  if (start?.event !== "node_finished") throw new Error("no Start node_finished");
  return start.data.outputs;
}

function answer(events: CanvasEvent[]): unknown {
  const last = events.at(-1);
  return last?.event === "workflow_finished" ? last.data.outputs.answer : undefined;
}

describe("a Dify chatflow over two turns", () => {
  it("with --session: conversation.* is kept between turns, and sys.dialogue_count is 2 on the second", async () => {
    const session = join(scratch.dir, "chat.json");
    const first = await cli(["run", CHATFLOW, "--query", "first message", "--session", session, "--events", "ndjson"]);
    expect(first.code).toBe(0);
    expect(answer(first.events)).toBe("first message");
    expect(startOutputs(first.events)["sys.dialogue_count"]).toBe(1);
    const saved = JSON.parse(readFileSync(session, "utf8")) as { globals: Record<string, unknown> };
    expect(saved.globals["conversation.str"]).toBe("first message");

    const second = await cli(["run", CHATFLOW, "--query", "second message", "--session", session, "--events", "ndjson"]);
    expect(second.code).toBe(0);
    expect(startOutputs(second.events)["sys.dialogue_count"]).toBe(2);
    expect(answer(second.events)).toBe("second message");
    // The conversation id stays the session's.
    expect(startOutputs(second.events)["sys.conversation_id"]).toBe(startOutputs(first.events)["sys.conversation_id"]);
    const history = (JSON.parse(readFileSync(session, "utf8")) as { history: unknown[] }).history;
    expect(history).toEqual([
      ["user", "first message"],
      ["assistant", "first message"],
      ["user", "second message"],
      ["assistant", "second message"],
    ]);
  });

  it("through snapshots: a conversation variable written in one turn is read by the next before it is written again", async () => {
    // The answer reads conversation.str; the assigner before it writes the query. A chatflow whose
    // answer comes first shows the value the last turn left.
    const document = {
      app: { mode: "advanced-chat", name: "memory" },
      kind: "app",
      version: "0.3.1",
      workflow: {
        conversation_variables: [{ name: "last", value: "none yet", value_type: "string" }],
        graph: {
          nodes: [
            { id: "start", data: { type: "start", title: "Start", variables: [] } },
            { id: "say", data: { type: "answer", title: "Say", answer: "before: {{#conversation.last#}}" } },
            { id: "keep", data: { type: "assigner", version: "2", title: "Keep", items: [{ variable_selector: ["conversation", "last"], input_type: "variable", operation: "over-write", value: ["sys", "query"] }] } },
          ],
          edges: [
            { source: "start", target: "say" },
            { source: "say", target: "keep" },
          ],
        },
      },
    };
    let canvas = await loadCanvas(document);
    expect(answer(await canvas.runToEnd({ query: "one" }))).toBe("before: none yet");
    canvas = await loadCanvas(JSON.parse(JSON.stringify(canvas.toJSON())));
    expect(answer(await canvas.runToEnd({ query: "two" }))).toBe("before: one");
    canvas = await loadCanvas(JSON.parse(JSON.stringify(canvas.toJSON())));
    const third = await canvas.runToEnd({ query: "three" });
    expect(answer(third)).toBe("before: two");
    expect(startOutputs(third)["sys.dialogue_count"]).toBe(3);
  });
});
