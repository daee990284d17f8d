import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { builtinRegistry } from "../../src/components/builtins.js";
import { loadCanvas } from "../../src/api.js";
import { TextStream } from "../../src/components/text-stream.js";
import { mergeText, splitByDelimiters, StringTransform } from "../../src/components/string-transform.js";
import { canvasWithEnv, finished, messageText, node, outputsOf } from "../helpers/dsl.js";

describe("splitByDelimiters", () => {
  const table: Array<[string, string[], string[]]> = [
    ["a,b,c", [","], ["a", "b", "c"]],
    ["hello world ragflow", [" "], ["hello", "world", "ragflow"]],
    ["a,,b", [","], ["a", "", "b"]],
    [",a,", [","], ["", "a", ""]],
    ["", [","], [""]],
    ["no delimiter", [","], ["no delimiter"]],
    ["a;b,c", [",", ";"], ["a", "b", "c"]],
    ["1.5|2", ["."], ["1", "5|2"]],
    ["a|b", ["|"], ["a", "b"]],
    ["x(y)z", ["(", ")"], ["x", "y", "z"]],
    ["a\\b", ["\\"], ["a", "b"]],
    ["one<>two<>", ["<>"], ["one", "two", ""]],
    ["line1\nline2", ["\n"], ["line1", "line2"]],
    // Alternatives are tried in the given order at each position, as Python's re.split does.
    ["xaby", ["a", "ab"], ["x", "by"]],
    ["xaby", ["ab", "a"], ["x", "y"]],
  ];
  it.each(table)("split(%j, %j) = %j", (text, delimiters, expected) => {
    expect(splitByDelimiters(text, delimiters)).toEqual(expected);
  });

  it("refuses an empty delimiter list and empty delimiters", () => {
    expect(() => splitByDelimiters("a", [])).toThrow("delimiters is empty");
    expect(() => splitByDelimiters("a", [",", ""])).toThrow("delimiters[1] is empty");
  });

  it("round-trips with merge for one delimiter (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1, maxLength: 4 }), (text, delimiter) => {
        const pieces = splitByDelimiters(text, [delimiter]);
        expect(mergeText(pieces, delimiter)).toBe(text);
        for (const piece of pieces) expect(piece.includes(delimiter)).toBe(false);
      }),
    );
  });

  it("never leaves a delimiter inside a piece, whatever the delimiters (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", ",", ";", " ") }), fc.uniqueArray(fc.constantFrom(",", ";", " ", ",;"), { minLength: 1 }), (text, delimiters) => {
        const pieces = splitByDelimiters(text, delimiters);
        for (const piece of pieces) for (const d of delimiters) expect(piece.includes(d)).toBe(false);
        expect(pieces.join("").length).toBeLessThanOrEqual(text.length);
      }),
    );
  });
});

describe("mergeText", () => {
  it.each<[unknown, string, string]>([
    [["a", "b", "c"], "|", "a|b|c"],
    [[1, 2.5, true, null], ",", "1,2.5,true,"],
    [[{ a: 1 }, ["x"]], ";", '{"a":1};["x"]'],
    [[], ",", ""],
    ["text", ",", "text"],
    [42, ",", "42"],
    [null, ",", ""],
    [undefined, ",", ""],
    [{ a: [1, 2] }, ",", '{"a":[1,2]}'],
    [["a", "b"], "", "ab"],
  ])("mergeText(%j, %j) = %j", (value, delimiter, expected) => {
    expect(mergeText(value, delimiter)).toBe(expected);
  });

  it("renders download descriptors as a Message does (not in the text)", () => {
    expect(mergeText([{ doc_id: "d", filename: "f.pdf", mime_type: "application/pdf" }], ",")).toBe("");
  });
});

describe("StringTransform params", () => {
  const info = { id: "x", parentId: undefined, downstream: [], hasComponent: () => true, componentName: () => undefined, componentType: () => undefined, parentOf: () => undefined };

  it("says that an absent method means split", () => {
    const problems = StringTransform.check!({ script: "{begin@x}", delimiters: [","] }, info);
    expect(problems).toEqual([{ pointer: "/split_ref", message: 'split_ref must reference the text to split (cpn@var, sys.x or env.x) (method is absent, so it defaults to "split")' }]);
  });

  it("flags an unknown method, an empty delimiter list and empty split delimiters", () => {
    expect(StringTransform.check!({ method: "join", delimiters: [","] }, info)).toEqual([{ pointer: "/method", message: 'method must be "split" or "merge", not "join"' }]);
    expect(StringTransform.check!({ method: "merge", script: "", delimiters: [] }, info)).toEqual([{ pointer: "/delimiters", message: "delimiters must list at least one delimiter" }]);
    expect(StringTransform.check!({ method: "split", split_ref: "env.t", delimiters: [",", ""] }, info)).toEqual([{ pointer: "/delimiters/1", message: "a split delimiter must hold at least one character" }]);
  });

  it("reads only what the chosen method reads", () => {
    expect(StringTransform.references!({ method: "merge", script: "{a@x} {sys.query}", split_ref: "gone@y" }).map((r) => r.expr)).toEqual(["a@x", "sys.query"]);
    expect(StringTransform.references!({ method: "split", script: "{a@x}", split_ref: "{b@y}" }).map((r) => r.expr)).toEqual(["b@y"]);
    expect(StringTransform.references!({ script: "", split_ref: "env.text" }).map((r) => r.expr)).toEqual(["env.text"]);
  });
});

describe("StringTransform in a canvas", () => {
  it("splits and merges as all.json's SplitText → JoinText → TextDone does", async () => {
    // The params are all.json's (internal-agent-dsl-testdata), unchanged.
    const dsl = canvasWithEnv({
      begin: node("Begin", {}, ["UserFillUp:TextInput"]),
      "UserFillUp:TextInput": node("UserFillUp", { enable_tips: true, inputs: { text: { name: "Text", optional: false, options: [], type: "line" } }, tips: "Text:" }, ["StringTransform:SplitText"]),
      "StringTransform:SplitText": node(
        "StringTransform",
        { delimiters: [" "], method: "split", outputs: { result: { type: "Array<string>" } }, script: "", split_ref: "UserFillUp:TextInput@text" },
        ["StringTransform:JoinText"],
      ),
      "StringTransform:JoinText": node(
        "StringTransform",
        { delimiters: ["|"], method: "merge", outputs: { result: { type: "string" } }, script: "{StringTransform:SplitText@result}", split_ref: "" },
        ["Message:TextDone"],
      ),
      "Message:TextDone": node("Message", { content: ["原始: {UserFillUp:TextInput@text}\nsplit: {StringTransform:SplitText@result}\nmerge: {StringTransform:JoinText@result}"] }),
    });
    const c = await loadCanvas(dsl);
    expect((await c.runToEnd({ query: "go" })).at(-1)?.event).toBe("user_inputs");
    const events = await c.runToEnd({ inputs: { text: "hello world ragflow" } });
    expect(outputsOf(events, "StringTransform:SplitText")).toEqual({ result: ["hello", "world", "ragflow"] });
    expect(outputsOf(events, "StringTransform:JoinText")).toEqual({ result: "hello|world|ragflow" });
    expect(messageText(events)).toBe('原始: hello world ragflow\nsplit: ["hello","world","ragflow"]\nmerge: hello|world|ragflow');
    expect(finished(events).error).toBeUndefined();
  });

  it("formats each item of an Iteration as all.json's IterateList does", async () => {
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["StringTransform:SplitCSV"]),
        "StringTransform:SplitCSV": node("StringTransform", { delimiters: [","], method: "split", script: "", split_ref: "env.csv" }, ["Iteration:IterateList"]),
        "Iteration:IterateList": node("Iteration", { items_ref: "StringTransform:SplitCSV@result", outputs: { lines: { ref: "StringTransform:FmtItem@result", type: "Array<string>" } } }, ["Message:IterDone"]),
        "IterationItem:IterStart": node("IterationItem", { outputs: { index: { type: "integer" }, item: { type: "unknown" } } }, ["StringTransform:FmtItem"], { parent_id: "Iteration:IterateList" }),
        "StringTransform:FmtItem": node(
          "StringTransform",
          { delimiters: ["|"], method: "merge", outputs: { result: { type: "string" } }, script: "{IterationItem:IterStart@index}: {IterationItem:IterStart@item}", split_ref: "" },
          [],
          { parent_id: "Iteration:IterateList" },
        ),
        "StringTransform:Aliased": node("StringTransform", { delimiters: ["|"], method: "merge", script: "#{index}={item}" }, [], { parent_id: "Iteration:IterateList" }),
        "Message:IterDone": node("Message", { content: ["迭代结束。\n输入数组: {StringTransform:SplitCSV@result}\n格式化输出(lines):{Iteration:IterateList@lines}"] }),
      },
      { csv: "a,b,c" },
    );
    dsl.components["IterationItem:IterStart"].downstream = ["StringTransform:FmtItem"];
    dsl.components["StringTransform:FmtItem"].downstream = ["StringTransform:Aliased"];
    dsl.components["Iteration:IterateList"].obj.params.outputs = {
      lines: { ref: "StringTransform:FmtItem@result", type: "Array<string>" },
      aliased: { ref: "StringTransform:Aliased@result", type: "Array<string>" },
    };
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "go" });
    expect(outputsOf(events, "Iteration:IterateList")).toMatchObject({ lines: ["0: a", "1: b", "2: c"], aliased: ["#0=a", "#1=b", "#2=c"] });
    expect(messageText(events)).toBe('迭代结束。\n输入数组: ["a","b","c"]\n格式化输出(lines):["0: a","1: b","2: c"]');
  });

  it("uses split when method is absent (RAGFlow's backend default)", async () => {
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["StringTransform:S"]),
        "StringTransform:S": node("StringTransform", { split_ref: "{env.text}" }),
      },
      { text: "x,y" },
    );
    expect(outputsOf(await (await loadCanvas(dsl)).runToEnd({}), "StringTransform:S")).toEqual({ result: ["x", "y"] });
  });

  it("splits nothing as the empty text", async () => {
    // An optional Begin field left empty outputs null.
    const dsl = canvasWithEnv({
      begin: node("Begin", { inputs: { text: { name: "Text", type: "line", optional: true } } }, ["StringTransform:S"]),
      "StringTransform:S": node("StringTransform", { method: "split", split_ref: "begin@text", delimiters: [","] }),
    });
    expect(outputsOf(await (await loadCanvas(dsl)).runToEnd({}), "StringTransform:S")).toEqual({ result: [""] });
  });

  it("fails clearly when split_ref is not a text", async () => {
    const dsl = canvasWithEnv(
      { begin: node("Begin", {}, ["StringTransform:S"]), "StringTransform:S": node("StringTransform", { method: "split", split_ref: "env.rows", delimiters: [","] }) },
      { rows: [1, 2] },
    );
    const events = await (await loadCanvas(dsl)).runToEnd({});
    expect(finished(events).error).toContain('split_ref "env.rows" must be a text to split, got a list');
  });

  it("joins list values with the first delimiter and shows other values as a Message does", async () => {
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["StringTransform:M"]),
        "StringTransform:M": node("StringTransform", { method: "merge", delimiters: [", ", "|"], script: "{env.tags} / {env.n} / {env.obj} / {env.empty} / {env.tags}" }),
      },
      { tags: ["red", "green"], n: 3, obj: { k: "v" }, empty: "" },
    );
    expect(outputsOf(await (await loadCanvas(dsl)).runToEnd({}), "StringTransform:M")).toEqual({ result: 'red, green / 3 / {"k":"v"} /  / red, green' });
  });

  it("renders Jinja scripts, with references inside and outside {{ }}", async () => {
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["StringTransform:J"]),
        "StringTransform:J": node("StringTransform", {
          method: "merge",
          delimiters: ["+"],
          script: "{% if 1 < 2 %}{{env.tags}}{% endif %} and {env.tags}{{ '!' }}",
        }),
      },
      { tags: ["a", "b"] },
    );
    expect(outputsOf(await (await loadCanvas(dsl)).runToEnd({}), "StringTransform:J")).toEqual({ result: "a+b and a+b!" });
  });

  it("never re-reads a value as a template", async () => {
    const dsl = canvasWithEnv(
      {
        begin: node("Begin", {}, ["StringTransform:J"]),
        "StringTransform:J": node("StringTransform", { method: "merge", script: "{env.a}|{% raw %}{{x}}{% endraw %}|{env.b}" }),
      },
      { a: "{% if %}{env.b}", b: "{{ 7 * 6 }}" },
    );
    expect(outputsOf(await (await loadCanvas(dsl)).runToEnd({}), "StringTransform:J")).toEqual({ result: "{% if %}{env.b}|{{x}}|{{ 7 * 6 }}" });
  });

  it("fails clearly when the Jinja script is broken", async () => {
    const dsl = canvasWithEnv({ begin: node("Begin", {}, ["StringTransform:J"]), "StringTransform:J": node("StringTransform", { method: "merge", script: "{% if %}x" }) });
    const events = await (await loadCanvas(dsl)).runToEnd({});
    expect(finished(events).error).toContain("script could not be rendered as a Jinja template");
  });

  it("reads a streamed upstream output to its end (split and merge)", async () => {
    const registry = builtinRegistry();
    registry.register({
      name: "Streamer",
      invoke(ctx) {
        ctx.setOutput("content", new TextStream(["a,", "b", ",c"]));
      },
    });
    const dsl = canvasWithEnv({
      begin: node("Begin", {}, ["Streamer:S"]),
      "Streamer:S": node("Streamer", {}, ["StringTransform:Split"]),
      "StringTransform:Split": node("StringTransform", { method: "split", split_ref: "Streamer:S@content", delimiters: [","] }, ["StringTransform:Merge"]),
      "StringTransform:Merge": node("StringTransform", { method: "merge", script: "<{Streamer:S@content}>" }),
    });
    const events = await (await loadCanvas(dsl, { registry })).runToEnd({});
    expect(outputsOf(events, "StringTransform:Split")).toEqual({ result: ["a", "b", "c"] });
    expect(outputsOf(events, "StringTransform:Merge")).toEqual({ result: "<a,b,c>" });
  });

  it("refuses to load a split without split_ref, naming the default", async () => {
    const dsl = canvasWithEnv({ begin: node("Begin", {}, ["StringTransform:S"]), "StringTransform:S": node("StringTransform", { script: "{sys.query}" }) });
    await expect(loadCanvas(dsl)).rejects.toThrow('split_ref must reference the text to split (cpn@var, sys.x or env.x) (method is absent, so it defaults to "split")');
  });

  it("refuses to load a reference to a missing component", async () => {
    const dsl = canvasWithEnv({ begin: node("Begin", {}, ["StringTransform:M"]), "StringTransform:M": node("StringTransform", { method: "merge", script: "{Agent:Gone@content}" }) });
    await expect(loadCanvas(dsl)).rejects.toThrow('reference {Agent:Gone@content}: no component "Agent:Gone" in this canvas');
  });
});
