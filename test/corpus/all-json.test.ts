/**
 * RAGFlow's richest fixture, internal-agent-dsl-testdata/all.json, driven through its menu
 * branches that need no LLM: each answer goes through a JSON snapshot, as a session file would.
 */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { corpusPath } from "../helpers/corpus.js";
import { expectFinished, lastEvent, messages, messageText, trace } from "../helpers/dsl.js";

const ALL = corpusPath("ragflow/head/fixtures/internal-agent-dsl-testdata", "all.json");

/** A conversation: each step loads the previous snapshot, runs, and keeps the new snapshot. */
class Session {
  private snapshot: object | string = ALL;
  events: CanvasEvent[] = [];

  async send(request: { query?: string; inputs?: Record<string, unknown> }): Promise<CanvasEvent[]> {
    const canvas = await loadCanvas(this.snapshot);
    this.events = await canvas.runToEnd(request);
    this.snapshot = JSON.parse(JSON.stringify(canvas.toJSON()));
    return this.events;
  }

  /** Start the conversation and pick a menu entry. */
  async pick(demo: string): Promise<CanvasEvent[]> {
    const opening = await this.send({ query: "start" });
    expect(lastEvent(opening)).toMatchObject({ event: "user_inputs", data: { tips: "请选择要演示的模块：" } });
    return this.send({ inputs: { demo } });
  }
}

function pausedFor(events: CanvasEvent[]): string[] {
  const last = lastEvent(events);
  return last.event === "user_inputs" ? Object.keys(last.data.inputs) : [];
}

describe("all.json", () => {
  it("opens with the menu form", async () => {
    const session = new Session();
    const events = await session.send({ query: "start" });
    expect(trace(events)).toEqual(["workflow_started", "node_started:begin", "node_finished:begin", "message:请选择要演示的模块：", "message_end", "user_inputs"]);
    const pause = lastEvent(events);
    expect(pause.event === "user_inputs" && pause.data.inputs.demo).toMatchObject({ name: "演示模块", type: "options", value: null });
  });

  it("Loop with ExitLoop: asks until the answer is 1, then leaves the loop", async () => {
    const session = new Session();
    expect(pausedFor(await session.pick("loop"))).toEqual(["value"]);
    const round1 = await session.send({ inputs: { value: "5" } });
    // Each round shows the reply, then asks again (the tips are shown as a message too).
    expect(messages(round1)).toEqual(["继续循环中，你输入的是：5", "请输入任意内容，输入 `1` 则退出循环："]);
    expect(pausedFor(round1)).toEqual(["value"]);
    const round2 = await session.send({ inputs: { value: "hello" } });
    expect(messages(round2)).toEqual(["继续循环中，你输入的是：hello", "请输入任意内容，输入 `1` 则退出循环："]);
    const exit = await session.send({ inputs: { value: "1" } });
    expect(messageText(exit)).toBe("循环结束。你最后一次输入为：1");
    expect(trace(exit)).toEqual([
      "node_started:UserFillUp:LoopInput",
      "node_finished:UserFillUp:LoopInput",
      "node_started:Switch:LoopCheck",
      "node_finished:Switch:LoopCheck",
      "node_started:ExitLoop:LoopExit",
      "node_finished:ExitLoop:LoopExit",
      "node_finished:Loop:InputUntil1",
      "node_started:Message:LoopDone",
      "message:循环结束。你最后一次输入为：",
      "message:1",
      "message_end",
      "node_finished:Message:LoopDone",
      "workflow_finished",
    ]);
    expectFinished(exit);
  });

  it("Iteration: splits the CSV and formats each item", async () => {
    const session = new Session();
    expect(pausedFor(await session.pick("iteration"))).toEqual(["csv"]);
    const done = await session.send({ inputs: { csv: "a,b,c" } });
    expect(messageText(done)).toBe('迭代结束。\n输入数组: ["a","b","c"]\n格式化输出(lines):["0: a","1: b","2: c"]');
    expect(trace(done).filter((t) => t === "node_started:StringTransform:FmtItem")).toHaveLength(3);
    expectFinished(done);
  });

  it("DataOperations → ListOperations: tags, sorts by score descending and keeps the first two", async () => {
    const session = new Session();
    const done = await session.pick("data_ops");
    const rows = '[{"id":2,"score":0.88,"title":"Beta","tag":"demo"},{"id":3,"score":0.76,"title":"Gamma","tag":"demo"},{"id":1,"score":0.91,"title":"Alpha","tag":"demo"}]';
    const sorted = '[{"id":1,"score":0.91,"title":"Alpha","tag":"demo"},{"id":2,"score":0.88,"title":"Beta","tag":"demo"},{"id":3,"score":0.76,"title":"Gamma","tag":"demo"}]';
    const head = '[{"id":1,"score":0.91,"title":"Alpha","tag":"demo"},{"id":2,"score":0.88,"title":"Beta","tag":"demo"}]';
    expect(messageText(done)).toBe(
      `DataOperations 输出: ${rows}\n\nListOperations Sort desc: ${sorted}\n\nListOperations Head2: ${head}\n\n` +
        'first={"id":1,"score":0.91,"title":"Alpha","tag":"demo"}\n\nlast={"id":2,"score":0.88,"title":"Beta","tag":"demo"}',
    );
    expectFinished(done);
  });

  it("StringTransform: splits on spaces and merges with |", async () => {
    const session = new Session();
    expect(pausedFor(await session.pick("text"))).toEqual(["text"]);
    const done = await session.send({ inputs: { text: "hello world ragflow" } });
    expect(messageText(done)).toBe('原始: hello world ragflow\nsplit: ["hello","world","ragflow"]\nmerge: hello|world|ragflow');
    expectFinished(done);
  });

  it("VariableAssigner: overwrite then += on a conversation variable, again on the next turn", async () => {
    const session = new Session();
    const first = await session.pick("var_assigner");
    expect(messageText(first)).toBe("env.counter=1");
    expectFinished(first);
    // The next turn starts at the menu again; the counter is overwritten to 0 before += 1.
    expect(pausedFor(await session.send({ query: "again" }))).toEqual(["demo"]);
    expect(messageText(await session.send({ inputs: { demo: "var_assigner" } }))).toBe("env.counter=1");
  });

  it("VariableAggregator: picks the first conversation variable that has a value", async () => {
    const session = new Session();
    const done = await session.pick("var_aggregator");
    expect(messageText(done)).toBe("picked=1 \n(a=1, \nb=2, \nc=c)");
    expectFinished(done);
  });

  it("Switch: routes yes to IF and anything else to ELSE", async () => {
    const yes = new Session();
    expect(pausedFor(await yes.pick("condition"))).toEqual(["x"]);
    expect(messageText(await yes.send({ inputs: { x: "yes" } }))).toBe("命中 IF: x==yes");
    const no = new Session();
    await no.pick("condition");
    expect(messageText(await no.send({ inputs: { x: "no" } }))).toBe("走 ELSE: x!=yes, x=no");
  });

  it("Message and wait_input", async () => {
    expect(messageText(await new Session().pick("message"))).toBe("这是 Message 节点演示。");
    const wait = new Session();
    expect(pausedFor(await wait.pick("wait_input"))).toEqual(["anything"]);
    expect(messageText(await wait.send({ inputs: { anything: "随便" } }))).toBe("你输入的是：随便");
  });

  it("an unknown menu value falls to the help message", async () => {
    const session = new Session();
    await session.send({ query: "start" });
    const done = await session.send({ inputs: { demo: "nothing-like-this" } });
    expect(messageText(done)).toContain("未匹配到分支");
    expectFinished(done);
  });
});
