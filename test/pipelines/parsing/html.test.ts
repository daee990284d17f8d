/**
 * The html file type. The expected sections of the first cases are what RAGFlow's Python
 * HtmlParser (deepdoc/parser/html_parser.py at b1b8cd6) gives for the same HTML when its
 * tokenizer is replaced by whitespace tokens, the counter these cases pass in.
 */
import { describe, expect, it } from "vitest";
import { htmlToSections, parseHtml } from "../../../src/pipelines/parsing/html.js";

const LIMITS = { maxFileBytes: 1 << 20, maxInflatedBytes: 1 << 20, maxTextChars: 1_000_000, maxRows: 1000 };
const whitespaceTokens = { count: (text: string) => text.split(/\s+/).filter(Boolean).length, truncate: (text: string) => text };

function source(name: string, bytes: Uint8Array) {
  return {
    name,
    size: bytes.length,
    bytes: async () => bytes,
    async *stream() {
      yield bytes;
    },
  };
}

async function parse(name: string, content: string | Uint8Array, setup: Record<string, unknown> = {}, limits = LIMITS) {
  const warnings: string[] = [];
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const result = await parseHtml({
    source: source(name, bytes),
    setup: { output_format: "json", ...setup },
    limits,
    progress: () => {},
    warn: (message) => warnings.push(message),
    signal: new AbortController().signal,
  });
  return { result, warnings, texts: result.json?.map((item) => item.text) };
}

describe("htmlToSections (RAGFlow's HtmlParser)", () => {
  const cases: [string, number, string[]][] = [
    [
      '<html><head><title>T</title></head><body><h1>Title <b>x</b></h1><p>a  b<br>c<span>d</span></p>loose<table style="x"><tr><td>1 &lt; 2</td></tr></table><pre>  x\n  y</pre><div>é&amp;<br><br>z</div></body></html>',
      512,
      ["# Title x\na b\ncdloose\n  x\n  y\né&\n\nz", "<table><tr><td>1 < 2</td></tr></table>"],
    ],
    ["<p>one</p><p>two <em>three</em></p><ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>", 512, ["one\ntwo three\na\nb\nc"]],
    ["<div>x<script>alert(1)</script><style>p{}</style><!-- hidden -->y</div><h2>H2</h2><h3><a href=#>link</a> tail</h3>", 512, ["xy\n## H2\nlink### tail"]],
    ["<body><div>before<br><span>after<br></span><br>third</div><p>\n\n   spaced \t out   \n</p><textarea>  keep\n  this </textarea></body>", 512, ["before\nafter\nthird\nspaced out keep this"]],
    ["text before any block<p>block</p> text after <div>inner <p>nested p</p> tail of div</div>", 512, ["text before any block\nblock text after\ninner\nnested p\ntail of div"]],
    ["<blockquote>q1<br/>q2</blockquote><figure><img src=x><figcaption>cap</figcaption></figure><code>c  o  d  e</code>", 512, ["q1\nq2\ncap\nc o d e"]],
    [
      "<table><tr><th>h</th></tr><tr><td>v &amp; w</td></tr></table><p>after table</p><table><tr><td>2</td></tr></table>",
      512,
      ["after table", "<table><tr><th>h</th></tr><tr><td>v & w</td></tr></table>", "<table><tr><td>2</td></tr></table>"],
    ],
    ["<p>one two three</p><p>four five</p><p>six seven eight nine ten eleven twelve</p><p>a</p>", 4, ["one two three", "four five", "six seven eight nine ", "ten eleven twelve", "a"]],
    ["<div>这是一个很长的中文段落没有空格需要按字切分这是一个很长的中文段落</div><p>x y</p>", 4, ["这是一个很长的中文段落没有空格需要按字切分这是一个很长的中文段落\nx y"]],
    ["<p>averyveryverylongwordwithoutanyspaces and more words here to split</p>", 4, ["averyveryverylongwordwithoutanyspaces and more words ", "here to split"]],
    ["<h1>T</h1><p>w1 w2 w3 w4 w5 w6</p>", 4, ["# T", "w1 w2 w3 w4 ", "w5 w6"]],
  ];
  cases.forEach(([html, budget, expected], index) => {
    it(`gives RAGFlow's sections for case ${index + 1}`, async () => {
      expect(await htmlToSections(html, { chunkTokenNum: budget, tokens: whitespaceTokens })).toEqual(expected);
    });
  });

  it("cuts an atom over the budget every budget characters", async () => {
    expect(await htmlToSections("<p>abcdefghij</p>", { chunkTokenNum: 4, tokens: { count: (t) => t.length, truncate: (t) => t } })).toEqual(["abcd", "efgh", "ij"]);
  });

  it("drops header and footer only when asked", async () => {
    const html = '<body><header>Site</header><div role="banner">Banner</div><p>Body</p><footer>Foot</footer><div role="contentinfo">Info</div></body>';
    expect(await htmlToSections(html, { tokens: whitespaceTokens })).toEqual(["Site\nBanner\nBodyFoot\nInfo"]);
    expect(await htmlToSections(html, { removeHeaderFooter: true, tokens: whitespaceTokens })).toEqual(["Body"]);
  });

  it("walks a page nested far deeper than the call stack allows", async () => {
    const depth = 50_000;
    const html = "<div>".repeat(depth) + "deep" + "</div>".repeat(depth);
    expect(await htmlToSections(html, { tokens: whitespaceTokens })).toEqual(["deep"]);
  });
});

describe("parseHtml", () => {
  it("gives json items, counting cl100k tokens", async () => {
    const { result } = await parse("page.html", "<h1>Hello</h1><p>World</p>");
    expect(result).toEqual({ output_format: "json", json: [{ text: "# Hello\nWorld", doc_type_kwd: "text" }] });
  });

  it("gives text joined with a newline, sized by chunk_token_num", async () => {
    const paragraphs = Array.from({ length: 4 }, (_, i) => `<p>${`para${i} `.repeat(30)}</p>`).join("");
    const { result } = await parse("page.htm", paragraphs, { output_format: "text", chunk_token_num: 70 });
    expect(result.text?.split("\n")).toHaveLength(4);
    const { texts } = await parse("page.htm", paragraphs, { chunk_token_num: 70 });
    expect(texts!.length).toBeGreaterThan(1);
  });

  it("removes a table of contents when remove_toc is set", async () => {
    // Three cl100k tokens a paragraph against a budget of 3: one section each.
    const html = ["contents", "Alpha beta gamma", "Delta beta gamma", "Alpha beta gamma", "Body text here", "Delta beta gamma", "More body text"].map((p) => `<p>${p}</p>`).join("");
    const { texts: kept } = await parse("toc.html", html, { chunk_token_num: 3 });
    expect(kept).toHaveLength(7);
    const { texts } = await parse("toc.html", html, { chunk_token_num: 3, remove_toc: true });
    expect(texts).toEqual(["Alpha beta gamma", "Body text here", "Delta beta gamma", "More body text"]);
  });

  it("decodes a GBK page", async () => {
    // "<p>中文网页</p>" with the text in GBK.
    const bytes = Uint8Array.from([...Buffer.from("<p>"), ...Buffer.from("d6d0cec4cdf8d2b3", "hex"), ...Buffer.from("</p>")]);
    expect((await parse("gbk.html", bytes)).texts).toEqual(["中文网页"]);
  });

  it("fails a binary document and one over maxFileBytes, and names a bad param", async () => {
    await expect(parse("x.html", new Uint8Array([0x3c, 0, 0, 0x3e, 0xff, 0]))).rejects.toMatchObject({ name: "DocumentParseError", document: "x.html" });
    await expect(parse("x.html", "<p>too big</p>", {}, { ...LIMITS, maxFileBytes: 5 })).rejects.toThrow(/maxFileBytes/);
    await expect(parse("x.html", "<p>x</p>", { chunk_token_num: "many" })).rejects.toThrow(/chunk_token_num/);
    await expect(parse("x.html", "<p>x</p>", { remove_toc: "yes" })).rejects.toThrow(/remove_toc/);
  });

  it("keeps the text under maxTextChars, with a warning", async () => {
    const { texts, warnings } = await parse("long.html", `<p>${"word ".repeat(200)}</p>`, { chunk_token_num: 20 }, { ...LIMITS, maxTextChars: 150 });
    expect(texts!.join("").length).toBeLessThanOrEqual(150);
    expect(warnings.join()).toMatch(/maxTextChars/);
  });
});
