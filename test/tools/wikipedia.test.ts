/**
 * Wikipedia against a loopback stand-in of the MediaWiki action API (/w/api.php): list=search,
 * then prop=extracts|info|pageprops for the titles found, twenty per request.
 */
import { describe, expect, it } from "vitest";
import { finished, messages } from "../helpers/dsl.js";
import { closedPort, type RecordedRequest, sendJson, standIn } from "../helpers/http.js";
import { builtinDefinition } from "../helpers/registry.js";
import { idOf, runToolCanvas, toolCanvas, toolContext, unavailableError } from "../helpers/tools.js";

const wikipedia = builtinDefinition("Wikipedia").tool!;

/** A small wiki: pages by title; "Mercury" is a disambiguation page, "Gone" is missing. */
const PAGES: Record<string, { extract: string; disambiguation?: boolean }> = {
  "Mercury (planet)": { extract: "Mercury is the first planet from the Sun.\n\nIt is the smallest." },
  Mercury: { extract: "Mercury may refer to:", disambiguation: true },
  "Mercury (element)": { extract: "Mercury is a chemical element." },
};
const SEARCH_HITS = ["Mercury (planet)", "Mercury", "Gone", "Mercury (element)"];

function wikiPage(title: string) {
  const page = PAGES[title];
  if (!page) return { ns: 0, title, missing: true };
  return {
    pageid: title.length,
    ns: 0,
    title,
    extract: page.extract,
    fullurl: `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, "_"))}`,
    ...(page.disambiguation ? { pageprops: { disambiguation: "" } } : {}),
  };
}

function mediaWiki(request: RecordedRequest, hits: readonly string[]) {
  const q = request.query;
  if (q.list === "search") return { batchcomplete: true, query: { searchinfo: { totalhits: hits.length }, search: hits.slice(0, Number(q.srlimit)).map((title) => ({ ns: 0, title })) } };
  if (q.prop === "extracts|info|pageprops") return { batchcomplete: true, query: { pages: q.titles.split("|").map(wikiPage) } };
  return { error: { code: "badvalue", info: "Unrecognized parameters." } };
}

async function wiki(hits: readonly string[] = SEARCH_HITS) {
  return standIn((request, res) => {
    if (!request.path.endsWith("/w/api.php")) return sendJson(res, 404, { error: { code: "notfound", info: "No such path" } });
    sendJson(res, 200, mediaWiki(request, hits));
  });
}

const PLANET_URL = "https://en.wikipedia.org/wiki/Mercury_(planet)";
const ELEMENT_URL = "https://en.wikipedia.org/wiki/Mercury_(element)";
const EXPECTED = [
  `\nID: ${idOf(PLANET_URL)}\n├── Title: Mercury (planet)\n├── URL: ${PLANET_URL}\n└── Content:\nMercury is the first planet from the Sun.\n\nIt is the smallest.`,
  `\nID: ${idOf(ELEMENT_URL)}\n├── Title: Mercury (element)\n├── URL: ${ELEMENT_URL}\n└── Content:\nMercury is a chemical element.`,
].join("\n");

describe("Wikipedia run", () => {
  it("searches, reads the introductions, and skips missing and disambiguation pages", async () => {
    const api = await wiki();
    const { ctx, references } = toolContext({ params: { top_n: 4, language: "en" }, endpoints: { Wikipedia: { baseURL: api.base } } });
    const output = await wikipedia.run({ query: "mercury" }, ctx);
    expect(api.requests.map((r) => [r.method, r.path])).toEqual([
      ["GET", "/w/api.php"],
      ["GET", "/w/api.php"],
    ]);
    expect(api.requests[0].query).toEqual({ action: "query", format: "json", formatversion: "2", list: "search", srsearch: "mercury", srlimit: "4", srprop: "" });
    expect(api.requests[1].query).toEqual({
      action: "query",
      format: "json",
      formatversion: "2",
      prop: "extracts|info|pageprops",
      exintro: "1",
      explaintext: "1",
      exlimit: "20",
      inprop: "url",
      ppprop: "disambiguation",
      redirects: "1",
      titles: "Mercury (planet)|Mercury|Gone|Mercury (element)",
    });
    expect(api.requests[0].headers["user-agent"]).toMatch(/^canvasflow\//);
    expect(output).toEqual({
      formalized_content: EXPECTED,
      json: [
        { title: "Mercury (planet)", url: PLANET_URL, summary: "Mercury is the first planet from the Sun.\n\nIt is the smallest." },
        { title: "Mercury (element)", url: ELEMENT_URL, summary: "Mercury is a chemical element." },
      ],
    });
    expect(references[0].documents.map((d) => d.doc_name)).toEqual(["Mercury (planet)", "Mercury (element)"]);
  });

  it("asks for introductions twenty titles at a time, keeping the search order", async () => {
    const titles = Array.from({ length: 25 }, (_, i) => `Topic ${i}`);
    for (const title of titles) PAGES[title] = { extract: `About ${title}.` };
    const api = await wiki(titles);
    const { ctx } = toolContext({ params: { top_n: 25 }, endpoints: { Wikipedia: { baseURL: api.base } } });
    const output = await wikipedia.run({ query: "topic" }, ctx);
    expect(api.requests.map((r) => r.query.titles?.split("|").length ?? 0)).toEqual([0, 20, 5]);
    expect((output.json as Array<{ title: string }>).map((p) => p.title)).toEqual(titles);
  });

  it("puts the language into the host, or into a configured base URL's {language}", async () => {
    const api = await wiki();
    const { ctx } = toolContext({ params: { language: "de", top_n: 1 }, endpoints: { Wikipedia: { baseURL: `${api.base}/{language}` } } });
    await wikipedia.run({ query: "Merkur" }, ctx);
    expect(api.requests[0].path).toBe("/de/w/api.php");
  });

  it("quotes a MediaWiki error answer", async () => {
    const api = await standIn((_request, res) => sendJson(res, 200, { error: { code: "maxlag", info: "Waiting for a database server: 5 seconds lagged." } }));
    const { ctx } = toolContext({ endpoints: { Wikipedia: { baseURL: api.base } } });
    await expect(wikipedia.run({ query: "x" }, ctx)).rejects.toThrow(`Wikipedia: ${api.host} refused the request: Waiting for a database server: 5 seconds lagged.`);
  });

  it("an empty query gives empty content and sends nothing", async () => {
    const api = await wiki();
    const { ctx } = toolContext({ endpoints: { Wikipedia: { baseURL: api.base } } });
    expect(await wikipedia.run({ query: "" }, ctx)).toEqual({ formalized_content: "", json: [] });
    expect(api.requests).toEqual([]);
  });

  it("a configured base URL must be an http(s) URL", async () => {
    const { ctx } = toolContext({ endpoints: { Wikipedia: { baseURL: "ftp://wiki.example" } } });
    await expect(wikipedia.run({ query: "x" }, ctx)).rejects.toThrow('tools.Wikipedia.baseURL must be an http(s) URL, not "ftp://wiki.example"');
  });

  it("offers RAGFlow's function schema", () => {
    expect(wikipedia.schema({ description: "Look things up." })).toEqual({
      type: "function",
      function: {
        name: "wikipedia_search",
        description: "Look things up.",
        parameters: {
          type: "object",
          properties: {
            query: { type: "string", description: "The search keyword to execute with wikipedia. The keyword MUST be a specific subject that can match the title." },
          },
          required: ["query"],
        },
      },
    });
  });
});

describe("Wikipedia as a canvas node", () => {
  const dsl = toolCanvas("Wikipedia", "Wikipedia:Look", { query: "sys.query", top_n: 4 }, "{Wikipedia:Look@formalized_content}");

  it("needs no key: searches and shows the pages", async () => {
    const api = await wiki();
    const events = await runToolCanvas(dsl, { endpoints: { Wikipedia: { baseURL: api.base } } }, "mercury");
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual([EXPECTED]);
  });

  it("with no network the run goes on and the tool reports an error naming the host", async () => {
    const port = await closedPort();
    const events = await runToolCanvas(dsl, { endpoints: { Wikipedia: { baseURL: `http://127.0.0.1:${port}` } } }, "mercury");
    expect(unavailableError(events, "Wikipedia:Look")).toContain(`Wikipedia could not reach 127.0.0.1:${port}: the connection was refused (ECONNREFUSED)`);
  });
});
