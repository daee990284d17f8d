/**
 * The examples from the command line, as the built CLI runs them (child processes: `canvasflow
 * run examples/<name>.json --register examples/<name>.mjs --mock-llm …`, the module importing
 * the built "canvasflow/graph"): each one's events, exit code and final state (read from the
 * session file); rag-approval's pause, a rejection and the approval on one --session. Also: the
 * JSON files are what the modules compile to (`npm run examples:build`), and the diagrams in
 * docs/graph.md are what `canvasflow graph` draws. `npm test` builds dist first.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CanvasEvent } from "../../src/engine/events.js";
import { spawnCli } from "../helpers/cli-process.js";
import { splitMarkdown } from "../docs/doc-check.js";
import { ASK, EXAMPLES, FEEDBACK, handbookCopy, messageText, QUESTION, REWRITTEN, stateOf, SUMMARIES, SUMMARY, TEXTS, toolLoopMessages, updates, VACATION_PASSAGE, WORDS_QUESTION } from "./helpers.js";

interface Ran {
  code: number | null;
  events: CanvasEvent[];
  stderr: string;
}

/** `canvasflow <args>` as a child process, to its exit; stdout read as ndjson events. */
async function canvasflow(args: string[]): Promise<Ran> {
  const proc = spawnCli(args);
  const { code } = await proc.exited;
  const lines = proc.stdout().trim().split("\n").filter(Boolean);
  return { code, events: lines.map((line) => JSON.parse(line) as CanvasEvent), stderr: proc.stderr() };
}

/** `canvasflow run examples/<name>.json --register examples/<name>.mjs --mock-llm …`. */
function runExample(name: string, ...flags: string[]): Promise<Ran> {
  return canvasflow(["run", `examples/${name}.json`, "--register", `examples/${name}.mjs`, "--mock-llm", "--events", "ndjson", ...flags]);
}

function sessionState(file: string): Record<string, unknown> {
  return stateOf((JSON.parse(readFileSync(file, "utf8")) as { globals: Record<string, unknown> }).globals);
}

describe("the examples from the CLI", () => {
  it("rag-approval: retrieves, drafts, pauses for the review; a rejection rewrites the question and asks again; the approval shows the answer", async () => {
    const dir = handbookCopy();
    const session = join(dir, "session.json");
    const flags = ["--kb", `handbook=${join(dir, "handbook")}`, "--session", session];

    const first = await runExample("rag-approval", ...flags, "--inputs", JSON.stringify({ question: QUESTION }));
    expect(first.code, first.stderr).toBe(3);
    expect(updates(first.events).map(([id]) => id)).toEqual(["retrieve", "retrieve__state", "answer", "answer__state"]);
    expect(first.events.at(-1)).toMatchObject({
      event: "user_inputs",
      data: { inputs: { resume: { name: "resume", type: "object" } }, interrupts: [{ id: "review:0", component_id: "review", value: { question: QUESTION, answer: `[mock reply] You said: ${QUESTION}`, ask: ASK } }] },
    });
    expect(sessionState(session)).toEqual({ question: QUESTION, context: VACATION_PASSAGE, answer: `[mock reply] You said: ${QUESTION}`, approved: false, feedback: "", rewrites: 0 });

    const rejected = await runExample("rag-approval", ...flags, "--inputs", JSON.stringify({ resume: { approved: false, feedback: FEEDBACK } }));
    expect(rejected.code, rejected.stderr).toBe(3);
    // A resumed run starts again at the node that paused.
    expect(rejected.events[0]).toMatchObject({ event: "node_started", data: { component_id: "review" } });
    expect(updates(rejected.events).map(([id, update]) => (id.startsWith("retrieve") || id === "answer" ? id : [id, update]))).toEqual([
      ["review", { approved: false, feedback: FEEDBACK }],
      ["rewrite", { question: REWRITTEN, rewrites: 1 }],
      "retrieve",
      "retrieve__state",
      "answer",
      ["answer__state", { answer: `[mock reply] You said: ${REWRITTEN}` }],
    ]);
    expect(rejected.events.at(-1)).toMatchObject({ event: "user_inputs", data: { interrupts: [{ id: "review:0", value: { question: REWRITTEN, answer: `[mock reply] You said: ${REWRITTEN}` } }] } });

    const approved = await runExample("rag-approval", ...flags, "--inputs", JSON.stringify({ resume: { approved: true } }));
    expect(approved.code, approved.stderr).toBe(0);
    expect(updates(approved.events).map(([id]) => id)).toEqual(["review", "show", "show__state"]);
    expect(messageText(approved.events)).toBe(`[mock reply] You said: ${REWRITTEN}`);
    const finished = approved.events.at(-1)!;
    expect(finished.event === "workflow_finished" && [finished.data.error, finished.data.outputs]).toEqual([undefined, {}]);
    expect(sessionState(session)).toEqual({ question: REWRITTEN, context: VACATION_PASSAGE, answer: `[mock reply] You said: ${REWRITTEN}`, approved: true, feedback: FEEDBACK, rewrites: 1 });
  });

  it("map-reduce: one summarise per text (Sends), the summaries in the texts' order, then combine once", async () => {
    const session = join(handbookCopy(), "session.json");
    const run = await runExample("map-reduce", "--session", session, "--inputs", JSON.stringify({ texts: TEXTS }));
    expect(run.code, run.stderr).toBe(0);
    expect(updates(run.events).map(([id]) => id)).toEqual(["summarise__send", "combine"]);
    expect(run.events.at(-1)).toMatchObject({ event: "workflow_finished", data: { outputs: { summary: SUMMARY }, usage: { calls: 3 } } });
    expect(sessionState(session)).toEqual({ texts: TEXTS, summaries: SUMMARIES, summary: SUMMARY });
  });

  it("tool-loop: the model calls word_count, the tool answers, the model answers; the messages hold all four", async () => {
    const session = join(handbookCopy(), "session.json");
    const run = await runExample("tool-loop", "--session", session, "--inputs", JSON.stringify({ messages: [{ role: "user", content: WORDS_QUESTION }] }));
    expect(run.code, run.stderr).toBe(0);
    const [user, ...rest] = toolLoopMessages(expect.any(String));
    expect(updates(run.events)).toEqual([
      ["agent", { messages: rest[0] }],
      ["tools", { messages: [rest[1]] }],
      ["agent", { messages: rest[2] }],
    ]);
    expect(run.events.at(-1)).toMatchObject({ event: "workflow_finished", data: { outputs: { messages: rest[2] }, usage: { calls: 2 } } });
    expect(sessionState(session)).toEqual({ messages: [user, ...rest] });
  });
});

describe("the examples' files", () => {
  it("examples/<name>.json is what examples/<name>.mjs compiles to (else run `npm run examples:build`)", async () => {
    const child = spawn(process.execPath, ["examples/build.mjs", "--check"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("docs/graph.md's Examples section shows each example's diagram as `canvasflow graph … --format mermaid` draws it", async () => {
    const doc = readFileSync("docs/graph.md", "utf8");
    const section = doc.slice(doc.indexOf("\n## Examples"));
    const diagrams = splitMarkdown(section).blocks.filter((block) => block.lang === "mermaid").map((block) => block.lines.join("\n"));
    expect(diagrams).toHaveLength(EXAMPLES.length);
    for (const [index, name] of EXAMPLES.entries()) {
      const drawn = await canvasflowText(["graph", `examples/${name}.json`, "--register", `examples/${name}.mjs`, "--format", "mermaid"]);
      expect(drawn.trimEnd(), name).toBe(diagrams[index]);
    }
  });
});

async function canvasflowText(args: string[]): Promise<string> {
  const proc = spawnCli(args);
  const { code } = await proc.exited;
  expect(code, proc.stderr()).toBe(0);
  return proc.stdout();
}
