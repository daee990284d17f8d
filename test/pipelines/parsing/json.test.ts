/** The json file type: arrays streamed by element, JSON Lines, single values, bad input and limits. */
import { describe, expect, it } from "vitest";
import { parseJson } from "../../../src/pipelines/parsing/json.js";

const LIMITS = { maxFileBytes: 1 << 20, maxInflatedBytes: 1 << 20, maxTextChars: 1_000_000, maxRows: 1000 };

function source(name: string, bytes: Uint8Array, pieceSize: number) {
  return {
    name,
    size: bytes.length,
    bytes: async () => bytes,
    async *stream() {
      for (let i = 0; i < bytes.length; i += pieceSize) yield bytes.subarray(i, i + pieceSize);
    },
  };
}

async function parse(name: string, content: string | Uint8Array, setup: Record<string, unknown> = {}, limits = LIMITS, pieceSize = 3) {
  const warnings: string[] = [];
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const result = await parseJson({
    source: source(name, bytes, pieceSize),
    setup: { output_format: "json", ...setup },
    limits,
    progress: () => {},
    warn: (message) => warnings.push(message),
    signal: new AbortController().signal,
  });
  return { texts: result.json?.map((item) => item.text), result, warnings };
}

describe("parseJson", () => {
  it("gives one item per element of a top-level array, strings as themselves", async () => {
    const { texts, result } = await parse("a.json", '[ "plain, with [brackets] and \\"quotes\\"", {"b": [1, {"c": "]"}]}, 3, null ]');
    expect(texts).toEqual(['plain, with [brackets] and "quotes"', '{"b":[1,{"c":"]"}]}', "3", "null"]);
    expect(result.json?.[0].doc_type_kwd).toBe("text");
  });

  it("reads the same items whatever the stream's piece size", async () => {
    const doc = JSON.stringify([{ k: "é€😀" }, "x\\y", [1, 2]]);
    for (const pieceSize of [1, 2, 5, 1000]) expect((await parse("a.json", doc, {}, LIMITS, pieceSize)).texts).toEqual(['{"k":"é€😀"}', "x\\y", "[1,2]"]);
  });

  it("gives one item for a single object, in its key order", async () => {
    expect((await parse("o.json", '\n{"z": 1, "a": {"b": true}}\n')).texts).toEqual(['{"z":1,"a":{"b":true}}']);
  });

  it("reads JSON Lines by suffix, and a .json file of object lines as JSON Lines", async () => {
    const lines = '{"a":1}\n\n"two"\r\n[3]\n';
    expect((await parse("log.jsonl", lines)).texts).toEqual(['{"a":1}', "two", "[3]"]);
    expect((await parse("log.ldjson", lines)).texts).toEqual(['{"a":1}', "two", "[3]"]);
    expect((await parse("log.json", '{"a":1}\n{"b":2}\n')).texts).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("outputs text as the items joined with a newline", async () => {
    expect((await parse("a.json", '["x", {"y": 1}]', { output_format: "text" })).result).toEqual({ output_format: "text", text: 'x\n{"y":1}' });
  });

  it("reads UTF-16 with a byte-order mark", async () => {
    const text = '["é"]';
    const bytes = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Uint16Array.from([...text].map((c) => c.charCodeAt(0))).buffer)]);
    expect((await parse("u.json", bytes)).texts).toEqual(["é"]);
  });

  it("fails on malformed JSON, naming the document and where", async () => {
    const bad = async (name: string, content: string | Uint8Array, pattern: RegExp) =>
      expect(parse(name, content)).rejects.toMatchObject({ name: "DocumentParseError", document: name, message: expect.stringMatching(pattern) });
    await bad("a.json", '[1,\n{"a": }]', /element 2 of the top-level array \(line 2\) is not valid JSON/);
    await bad("b.json", "[1, 2,]", /missing/);
    await bad("c.json", "[1, 2", /not closed/);
    await bad("d.json", "[1] x", /after the top-level array/);
    await bad("e.json", "{nope", /not valid JSON/);
    await bad("f.jsonl", '{"a":1}\n{oops}\n', /line 2 is not valid JSON/);
    await bad("g.json", new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]), /not valid UTF-8/);
  });

  it("warns on an empty document", async () => {
    const { texts, warnings } = await parse("empty.json", "  \n ");
    expect(texts).toEqual([]);
    expect(warnings.join()).toMatch(/no JSON record/);
  });

  it("stops at maxTextChars with a warning, and refuses a file over maxFileBytes", async () => {
    const doc = JSON.stringify(Array.from({ length: 50 }, (_, i) => `item ${i}`));
    const { texts, warnings } = await parse("big.json", doc, {}, { ...LIMITS, maxTextChars: 30 });
    expect(texts).toEqual(["item 0", "item 1", "item 2", "item 3", "item 4"]);
    expect(warnings.join()).toMatch(/maxTextChars/);
    await expect(parse("big.json", doc, {}, { ...LIMITS, maxFileBytes: 100 })).rejects.toThrow(/maxFileBytes/);
  });

  it("names a bad output_format", async () => {
    await expect(parse("a.json", "[]", { output_format: "html" })).rejects.toThrow(/json setup's output_format/);
  });
});
