/**
 * DuckDuckGo against a loopback stand-in of its keyless endpoints: the HTML results page
 * (POST /html/, form fields, "Next" form) and the news JSON (vqd token from POST /, then
 * GET /news.js).
 */
import { describe, expect, it } from "vitest";
import { extractVqd, parseDuckDuckGoHtml, resultUrl } from "../../src/tools/web/duckduckgo-html.js";
import { finished, messageEnd, messages } from "../helpers/dsl.js";
import { closedPort, sendHtml, sendJson, standIn } from "../helpers/http.js";
import { builtinDefinition } from "../helpers/registry.js";
import { idOf, runToolCanvas, toolCanvas, toolContext, unavailableError } from "../helpers/tools.js";

const duckduckgo = builtinDefinition("DuckDuckGo").tool!;

function result(title: string, url: string, snippet: string, extraClass = ""): string {
  const href = `//duckduckgo.com/l/?uddg=${encodeURIComponent(url)}&amp;rut=abc123`;
  return `
  <div class="result results_links results_links_deep web-result ${extraClass}">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="${href}">${title}</a></h2>
      <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="${href}">${url}</a></div></div>
      <a class="result__snippet" href="${href}">${snippet}</a>
      <div class="clear"></div>
    </div>
  </div>`;
}

const AD = `
  <div class="result results_links results_links_deep result--ad">
    <h2 class="result__title"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=shop.example&amp;u3=x">Buy now</a></h2>
    <a class="result__snippet" href="#">Sponsored.</a>
  </div>`;

function nextForm(offset: number): string {
  return `
  <div class="nav-link">
    <form action="/html/" method="post">
      <input type="submit" class="btn btn--alt" value="Next" />
      <input type="hidden" name="q" value="python" />
      <input type="hidden" name="s" value="${offset}" />
      <input type="hidden" name="nextParams" value="" />
      <input type="hidden" name="v" value="l" />
      <input type="hidden" name="o" value="json" />
      <input type="hidden" name="dc" value="${offset + 1}" />
      <input type="hidden" name="api" value="d.js" />
      <input type="hidden" name="vqd" value="4-111" />
      <input type="hidden" name="kl" value="wt-wt" />
    </form>
  </div>`;
}

function page(body: string): string {
  return `<!DOCTYPE html><html><head><title>python at DuckDuckGo</title></head><body><div id="links" class="results">${body}</div></body></html>`;
}

const PAGE_ONE = page(
  AD +
    result("Welcome to <b>Python</b>.org", "https://www.python.org/", "The official home of the <b>Python</b> Programming Language &amp; its docs.") +
    result("Python (programming language) - Wikipedia", "https://en.wikipedia.org/wiki/Python_(programming_language)", "Python is a high-level,\n general-purpose programming language.") +
    nextForm(10),
);
const PAGE_TWO = page(
  result("Welcome to <b>Python</b>.org", "https://www.python.org/", "Listed again on page two.") + result("Learn Python", "https://learn.example/python", "A tutorial."),
);

function form(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

async function ddg() {
  return standIn((request, res) => {
    if (request.method === "POST" && request.path === "/html/") {
      const fields = form(request.body);
      if (fields.q === "blocked") return sendHtml(res, 202, page('<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>'));
      if (fields.q === "nothing") return sendHtml(res, 200, page('<div class="no-results">No results.</div>'));
      return sendHtml(res, 200, fields.s === "10" ? PAGE_TWO : PAGE_ONE);
    }
    if (request.method === "POST" && request.path === "/") return sendHtml(res, 200, `<script>DDG.deep.initialize('/d.js?q=x&amp;vqd="4-2222"&amp;l=wt-wt');</script>`);
    if (request.path === "/news.js") {
      if (request.query.vqd !== "4-2222") return sendJson(res, 403, { error: "bad vqd" });
      if (request.query.s !== "0") return sendJson(res, 200, { results: [] });
      return sendJson(res, 200, {
        results: [
          { date: 1717200000, title: "Python 3.13 released", excerpt: "The <b>Python</b> team &amp; friends announce…", url: "https://news.example/py313", image: "https://img.example/1.jpg", source: "News Example", relative_time: "1 day ago" },
          { date: 1717100000, title: "PyCon recap", excerpt: "Talks and sprints.", url: "https://news.example/pycon", image: "", source: "Conf Daily" },
        ],
        next: "news.js?q=python&s=2",
      });
    }
    sendHtml(res, 404, "not found");
  });
}

const PYTHON_ORG = "https://www.python.org/";
const WIKI = "https://en.wikipedia.org/wiki/Python_(programming_language)";

describe("DuckDuckGo HTML page", () => {
  it("reads titles, real URLs and snippets, and skips ads", () => {
    const parsed = parseDuckDuckGoHtml(PAGE_ONE);
    expect(parsed.blocked).toBe(false);
    expect(parsed.hits).toEqual([
      { title: "Welcome to Python.org", href: PYTHON_ORG, body: "The official home of the Python Programming Language & its docs." },
      { title: "Python (programming language) - Wikipedia", href: WIKI, body: "Python is a high-level, general-purpose programming language." },
    ]);
    expect(parsed.next).toEqual({ q: "python", s: "10", nextParams: "", v: "l", o: "json", dc: "11", api: "d.js", vqd: "4-111", kl: "wt-wt" });
  });

  it("unwraps redirect links and keeps direct ones", () => {
    expect(resultUrl("//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&rut=z")).toBe("https://a.example/x?y=1");
    expect(resultUrl("https://b.example/page")).toBe("https://b.example/page");
  });

  it("finds the vqd token in its spellings", () => {
    expect(extractVqd(`vqd="4-123"`)).toBe("4-123");
    expect(extractVqd(`vqd='4-456'`)).toBe("4-456");
    expect(extractVqd(`x&vqd=4-789&y`)).toBe("4-789");
    expect(extractVqd("nothing here")).toBeUndefined();
  });
});

describe("DuckDuckGo run", () => {
  it("web search: posts the form, follows Next until top_n, drops repeats", async () => {
    const api = await ddg();
    const { ctx, references } = toolContext({ params: { top_n: 3 }, endpoints: { DuckDuckGo: { baseURL: api.base } } });
    const output = await duckduckgo.run({ query: "python", channel: "general" }, ctx);
    expect(api.requests.map((r) => [r.method, r.path, form(r.body).q, form(r.body).s])).toEqual([
      ["POST", "/html/", "python", undefined],
      ["POST", "/html/", "python", "10"],
    ]);
    expect(form(api.requests[0].body)).toEqual({ q: "python", b: "", kl: "wt-wt" });
    expect(api.requests[0].headers["user-agent"]).toMatch(/^Mozilla\/5\.0/);
    expect(output.json).toEqual([
      { title: "Welcome to Python.org", href: PYTHON_ORG, body: "The official home of the Python Programming Language & its docs." },
      { title: "Python (programming language) - Wikipedia", href: WIKI, body: "Python is a high-level, general-purpose programming language." },
      { title: "Learn Python", href: "https://learn.example/python", body: "A tutorial." },
    ]);
    expect(output.formalized_content).toBe(
      [
        `\nID: ${idOf(PYTHON_ORG)}\n├── Title: Welcome to Python.org\n├── URL: ${PYTHON_ORG}\n└── Content:\nThe official home of the Python Programming Language & its docs.`,
        `\nID: ${idOf(WIKI)}\n├── Title: Python (programming language) - Wikipedia\n├── URL: ${WIKI}\n└── Content:\nPython is a high-level, general-purpose programming language.`,
        `\nID: ${idOf("https://learn.example/python")}\n├── Title: Learn Python\n├── URL: https://learn.example/python\n└── Content:\nA tutorial.`,
      ].join("\n"),
    );
    expect(references[0].chunks).toHaveLength(3);
  });

  it("stops after the first page when it holds enough hits", async () => {
    const api = await ddg();
    const { ctx } = toolContext({ params: { top_n: 1 }, endpoints: { DuckDuckGo: { baseURL: api.base } } });
    const output = await duckduckgo.run({ query: "python" }, ctx);
    expect(api.requests).toHaveLength(1);
    expect((output.json as unknown[]).length).toBe(1);
  });

  it("news: gets the vqd token, then the news JSON", async () => {
    const api = await ddg();
    const { ctx } = toolContext({ params: { top_n: 10 }, endpoints: { DuckDuckGo: { baseURL: api.base } } });
    const output = await duckduckgo.run({ query: "python", channel: "news" }, ctx);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /", "GET /news.js", "GET /news.js"]);
    expect(form(api.requests[0].body)).toEqual({ q: "python" });
    expect(api.requests[1].query).toEqual({ l: "wt-wt", o: "json", noamp: "1", q: "python", vqd: "4-2222", p: "-1", s: "0" });
    expect(api.requests[2].query.s).toBe("2");
    expect(output.json).toEqual([
      { date: "2024-06-01T00:00:00.000Z", title: "Python 3.13 released", body: "The Python team & friends announce…", url: "https://news.example/py313", image: "https://img.example/1.jpg", source: "News Example" },
      { date: "2024-05-30T20:13:20.000Z", title: "PyCon recap", body: "Talks and sprints.", url: "https://news.example/pycon", image: "", source: "Conf Daily" },
    ]);
    expect(output.formalized_content).toContain(`\nID: ${idOf("https://news.example/py313")}\n├── Title: Python 3.13 released\n├── URL: https://news.example/py313\n└── Content:\nThe Python team & friends announce…`);
  });

  it("news: a page with nothing new ends the paging even when it offers a next page", async () => {
    const api = await standIn((request, res) => {
      if (request.path === "/") return sendHtml(res, 200, `vqd="4-9"`);
      sendJson(res, 200, { results: [{ date: 0, title: "Same", excerpt: "Same item.", url: "https://news.example/same" }], next: "news.js?s=1" });
    });
    const { ctx } = toolContext({ params: { top_n: 10 }, endpoints: { DuckDuckGo: { baseURL: api.base } } });
    const output = await duckduckgo.run({ query: "x", channel: "news" }, ctx);
    expect(api.requests.map((r) => `${r.method} ${r.path} ${r.query.s ?? ""}`)).toEqual(["POST / ", "GET /news.js 0", "GET /news.js 1"]);
    expect(output.json).toHaveLength(1);
  });

  it("no results is an empty result; the bot check is a clear error", async () => {
    const api = await ddg();
    const { ctx } = toolContext({ endpoints: { DuckDuckGo: { baseURL: api.base } } });
    expect(await duckduckgo.run({ query: "nothing" }, ctx)).toEqual({ formalized_content: "", json: [] });
    await expect(duckduckgo.run({ query: "blocked" }, ctx)).rejects.toThrow(
      `DuckDuckGo: ${api.host} answered with its bot check instead of results (too many searches from this address); try again later`,
    );
  });

  it("refuses an unknown channel", async () => {
    const { ctx } = toolContext();
    await expect(duckduckgo.run({ query: "x", channel: "images" }, ctx)).rejects.toThrow('channel must be one of "text", "general", "news", not "images"');
  });

  it("offers RAGFlow's function schema", () => {
    const schema = duckduckgo.schema({});
    expect(schema.function.name).toBe("duckduckgo_search");
    expect(schema.function.parameters.required).toEqual(["query"]);
    expect((schema.function.parameters.properties as Record<string, { enum?: unknown }>).channel.enum).toEqual(["general", "news"]);
  });
});

describe("DuckDuckGo as a canvas node", () => {
  const dsl = toolCanvas("DuckDuckGo", "DuckDuckGo:Web", { query: "sys.query", top_n: 2 }, "{DuckDuckGo:Web@formalized_content}");

  it("needs no key: searches and shows the hits with their references", async () => {
    const api = await ddg();
    const events = await runToolCanvas(dsl, { endpoints: { DuckDuckGo: { baseURL: api.base } } }, "python");
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)[0]).toContain("├── Title: Welcome to Python.org");
    const reference = messageEnd(events).reference as { chunks: Array<{ url: string }> };
    expect(reference.chunks.map((c) => c.url)).toEqual([PYTHON_ORG, WIKI]);
  });

  it("with no network the run goes on and the tool reports an error naming the host", async () => {
    const port = await closedPort();
    const events = await runToolCanvas(dsl, { endpoints: { DuckDuckGo: { baseURL: `http://127.0.0.1:${port}` } } }, "python");
    expect(unavailableError(events, "DuckDuckGo:Web")).toContain(`DuckDuckGo could not reach 127.0.0.1:${port}: the connection was refused (ECONNREFUSED)`);
  });
});
