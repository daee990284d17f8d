/**
 * What the example tests share: the examples' expected texts (the mock LLM's echoes), a copy of
 * the handbook per test (a knowledge base writes its index into its folder), and readers of a
 * run's events and of a saved session's state.
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CanvasEvent } from "../../src/engine/events.js";
import { scratchDir } from "../helpers/scratch.js";

/** The examples, as `examples/<name>.json` and `examples/<name>.mjs`. */
export const EXAMPLES = ["rag-approval", "map-reduce", "tool-loop"] as const;
export type ExampleName = (typeof EXAMPLES)[number];

export const QUESTION = "How many vacation days do I get?";
export const FEEDBACK = "and how many carry over";
export const REWRITTEN = `${QUESTION} (${FEEDBACK})`;
/**
 * The Retrieval's formalized_content for the vacation page, its citation id as `<n>`: that id is a
 * hash of the chunk's id, which holds the knowledge base's folder (see `withoutCitationIds`).
 */
export const VACATION_PASSAGE =
  "\nID: <n>\n├── Title: vacation.md\n├── Section: Vacation\n└── Content:\n# Vacation\n\nEvery employee gets 25 days of paid vacation a year. Up to 5 unused days carry over to the next\nyear; the rest lapse on 31 March.\n\nAsk for vacation in the HR portal at least two weeks ahead. Your manager approves it.";
export const ASK = "Approve this answer? Resume with {approved: true} or {approved: false, feedback}";

export const TEXTS = ["Cats sleep most of the day.", "Dogs like long walks."];
export const SUMMARIES = TEXTS.map((text) => `[mock reply] You said: Summarise in one sentence: ${text}`);
export const SUMMARY = `[mock reply] You said: 1. ${SUMMARIES[0]} 2. ${SUMMARIES[1]}`;

export const WORDS_QUESTION = "How many words are in this sentence?";
/** The tool-loop's messages after the run; the user's message gets a random id from the messages reducer. */
export function toolLoopMessages(userId: unknown): unknown[] {
  return [
    { id: userId, role: "user", content: WORDS_QUESTION },
    { id: "ai-1", role: "assistant", content: "", tool_calls: [{ id: "call_mock_1_0", name: "word_count", args: { text: WORDS_QUESTION } }] },
    { id: "tool-call_mock_1_0", role: "tool", tool_call_id: "call_mock_1_0", name: "word_count", content: "7" },
    { id: "ai-3", role: "assistant", content: `[mock reply] You said: ${WORDS_QUESTION} | tool word_count returned: 7` },
  ];
}

/** A folder holding a copy of examples/handbook (as `handbook/`) and of examples/canvasflow.config.json. */
export function handbookCopy(): string {
  const { dir } = scratchDir("canvasflow-examples-");
  cpSync("examples/handbook", join(dir, "handbook"), { recursive: true, filter: (source) => !source.includes(".canvasflow-index") });
  cpSync("examples/canvasflow.config.json", join(dir, "canvasflow.config.json"));
  return dir;
}

/** The DSL of an example, as its JSON file holds it. */
export function exampleDsl(name: ExampleName): Record<string, unknown> {
  return JSON.parse(readFileSync(`examples/${name}.json`, "utf8")) as Record<string, unknown>;
}

/** A text with its chunks' citation ids (`ID: 172985`) as `ID: <n>`. */
export function withoutCitationIds(text: unknown): unknown {
  return typeof text === "string" ? text.replace(/^ID: \d+$/gm, "ID: <n>") : text;
}

/** The graph's state in a canvas's globals (`env.<key>`), without the hidden Send variables. */
export function stateOf(globals: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(globals)
      .filter(([key]) => key.startsWith("env.") && !key.startsWith("env.__sends_"))
      .map(([key, value]) => [key.slice("env.".length), key === "env.context" ? withoutCitationIds(value) : value]),
  );
}

/** Each node's update, in order (LangGraph's `updates` stream): the graph's own plumbing left out. */
export function updates(events: readonly CanvasEvent[]): Array<[string, Record<string, unknown>]> {
  return events.flatMap((event) => {
    if (event.event !== "node_finished" || event.data.error) return [];
    const id = event.data.component_id;
    if (id === "begin" || id === "__start__") return [];
    return [[id, event.data.outputs as Record<string, unknown>] as [string, Record<string, unknown>]];
  });
}

/** The text of the message events. */
export function messageText(events: readonly CanvasEvent[]): string {
  return events.flatMap((event) => (event.event === "message" ? [event.data.content] : [])).join("");
}
