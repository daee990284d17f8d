/**
 * `{{ sys.query }}` and `{ sys.query }` (spaces inside the braces) are the same reference as
 * `{sys.query}` everywhere references are read: rendering, Message streaming and its Jinja path,
 * validation, and the readiness dependencies of the graph. Before, the spaced form rendered as
 * an empty string, silently (issue 8).
 */
import { describe, expect, it } from "vitest";
import { loadCanvas, validateDsl } from "../../src/api.js";
import { builtinRegistry } from "../../src/components/builtins.js";
import { compileGraph } from "../../src/engine/graph.js";
import { canvasDsl, canvasWithEnv, expectFinished, messages, node } from "../helpers/dsl.js";
import { FRONTIER_POLICY } from "../../src/engine/frontier.js";

const messageCanvas = (content: string, stream: boolean) =>
  canvasDsl({ begin: node("Begin", {}, ["Message:A"]), "Message:A": node("Message", { content: [content], stream }) });

async function shown(content: string, stream: boolean): Promise<string[]> {
  const events = await (await loadCanvas(messageCanvas(content, stream))).runToEnd({ query: "hi" });
  expectFinished(events);
  return messages(events);
}

describe("a Message shows a spaced reference's value", () => {
  it.each([true, false])("stream=%s: doubled and single braces with spaces", async (stream) => {
    expect(await shown("[{{ sys.query }}] [{{sys.query}}] [{ sys.query }] [{{\tsys.query  }}]", stream)).toEqual(["[hi] [hi] [hi] [hi]"]);
  });

  it("inside a Jinja template, a spaced reference is the Jinja variable of that reference", async () => {
    expect(await shown("{% if true %}<{{ sys.query }}>{% endif %} { sys.query }", true)).toEqual(["<hi> hi"]);
    expect(await shown("{% for c in ['a', 'b'] %}{{ c }}{{ sys.query }}{% endfor %}", false)).toEqual(["ahibhi"]);
  });

  it("streams an upstream component's output read through a spaced reference", async () => {
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["StringTransform:T"]),
        "StringTransform:T": node("StringTransform", { method: "merge", script: "{ env.a }-{{ sys.query }}" }, ["Message:A"]),
        "Message:A": node("Message", { content: ["<{ StringTransform:T@result }>"] }),
      },
      { a: "x" },
    );
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "hi" });
    expectFinished(events);
    expect(messages(events)).toEqual(["<x-hi>"]);
  });
});

describe("validation reads spaced references", () => {
  it("names an unknown global or component written with spaces, at the text that holds it", () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Message:A"]),
      "Message:A": node("Message", { content: ["{{ sys.nope }} and { Ghost@content }"] }),
    });
    const issues = validateDsl(dsl).issues.filter((i) => i.code === "unknown-reference");
    expect(issues.map((i) => [i.pointer, i.message])).toEqual([
      ["/components/Message:A/obj/params/content/0", 'reference {sys.nope}: "sys.nope" is not a system variable (known: sys.query, sys.user_id, sys.conversation_turns, sys.files, sys.history, sys.date)'],
      ["/components/Message:A/obj/params/content/0", 'reference {Ghost@content}: no component "Ghost" in this canvas'],
    ]);
  });
});

describe("readiness reads spaced references", () => {
  it("a component referencing another with spaces waits for it", () => {
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Message:A", "Message:B"]),
      "Message:A": node("Message", { content: ["a"] }),
      "Message:B": node("Message", { content: ["{{ Message:A@content }}"] }),
    });
    expect(compileGraph(dsl, builtinRegistry(), FRONTIER_POLICY).nodes.get("Message:B")?.dependencies).toEqual(["Message:A"]);
  });
});
