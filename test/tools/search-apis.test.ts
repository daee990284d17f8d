/**
 * The search and data API tools (PubMed, ArXiv, GoogleScholar, GitHub, SearXNG, KeenableSearch,
 * QueritSearch, QueritContents, BGPT, DeepL, QWeather, AkShare, WenCai), each against a loopback
 * stand-in that answers what the real API answers (the shapes are documented beside each one),
 * each run three ways: through `run` (the request it sends, its outputs), as a canvas node, and
 * as an Agent's tool under the mock LLM.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { ToolEndpointConfig } from "../../src/config/types.js";
import { canvasDsl, finished, messages, node, nodeFinished } from "../helpers/dsl.js";
import { sendJson, standIn, type RecordedRequest } from "../helpers/http.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { builtinDefinition } from "../helpers/registry.js";
import { idOf, runToolCanvas, toolCanvas, toolContext, unavailableError } from "../helpers/tools.js";

function sendXml(res: ServerResponse, xml: string): void {
  res.writeHead(200, { "content-type": "text/xml; charset=utf-8" }).end(xml);
}

interface ToolCase {
  tool: string;
  /** The function name RAGFlow gives it (an Agent offers `<name>_0`). */
  functionName: string;
  params: Record<string, unknown>;
  args: Record<string, unknown>;
  /** The stand-in: answers as the real API does. */
  handler: (request: RecordedRequest, res: ServerResponse) => void;
  /** The endpoint config pointing at the stand-in (default: baseURL). */
  endpoint?: (base: string) => ToolEndpointConfig;
  env?: Record<string, string>;
  /** Checks the requests the stand-in received. */
  requests: (requests: RecordedRequest[], base: string) => void;
  /** Checks the outputs of one call. */
  outputs: (outputs: Record<string, unknown>) => void;
  /** Text the model must read in the tool result. */
  modelReads: string;
}

// ---- PubMed: esearch.fcgi answers eSearchResult XML, efetch.fcgi a PubmedArticleSet. ----
const PUBMED_SEARCH = `<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd">
<eSearchResult><Count>2</Count><RetMax>2</RetMax><RetStart>0</RetStart><IdList>
<Id>38000001</Id>
<Id>38000002</Id>
</IdList><TranslationSet/><QueryTranslation>aspirin[All Fields]</QueryTranslation></eSearchResult>`;
const pubmedArticle = (pmid: string, title: string, abstract: string) => `<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">${pmid}</PMID>
<Article PubModel="Print"><Journal><ISSN IssnType="Electronic">1533-4406</ISSN><JournalIssue CitedMedium="Internet"><Volume>389</Volume><Issue>12</Issue><PubDate><Year>2023</Year></PubDate></JournalIssue><Title>The New England journal of medicine</Title></Journal>
<ArticleTitle>${title}</ArticleTitle><Pagination><MedlinePgn>1101-1110</MedlinePgn></Pagination>
<Abstract><AbstractText>${abstract}</AbstractText></Abstract>
<AuthorList CompleteYN="Y"><Author ValidYN="Y"><LastName>Smith</LastName><ForeName>Jane</ForeName><Initials>J</Initials></Author><Author ValidYN="Y"><LastName>Doe</LastName><ForeName>John</ForeName></Author></AuthorList>
</Article></MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">${pmid}</ArticleId><ArticleId IdType="doi">10.1056/NEJMoa${pmid}</ArticleId></ArticleIdList></PubmedData></PubmedArticle>`;
const PUBMED_FETCH = `<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">
<PubmedArticleSet>${pubmedArticle("38000001", "Aspirin for <i>primary</i> prevention", "Aspirin lowered events.")}${pubmedArticle("38000002", "Aspirin and bleeding", "Bleeding rose.")}</PubmedArticleSet>`;

// ---- arXiv: an Atom feed with one <entry> per paper. ----
const ARXIV_FEED = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dall%3Aagents" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=all:agents</title>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2401.00001v1</id>
    <updated>2024-01-01T00:00:00Z</updated>
    <published>2024-01-01T00:00:00Z</published>
    <title>Agents That
      Plan</title>
    <summary>  We study planning
      agents.
    </summary>
    <author><name>Ada Lovelace</name></author>
    <link href="http://arxiv.org/abs/2401.00001v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.00001v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.AI" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>`;

const CASES: ToolCase[] = [
  {
    tool: "PubMed",
    functionName: "pubmed_search",
    params: { top_n: 2, email: "me@example.org" },
    args: { query: "aspirin" },
    handler: (request, res) => sendXml(res, request.path.endsWith("/esearch.fcgi") ? PUBMED_SEARCH : PUBMED_FETCH),
    endpoint: (base) => ({ baseURL: `${base}/entrez/eutils` }),
    requests: (requests) => {
      expect(requests.map((r) => r.path)).toEqual(["/entrez/eutils/esearch.fcgi", "/entrez/eutils/efetch.fcgi"]);
      expect(requests[0].query).toEqual({ db: "pubmed", retmax: "2", term: "aspirin", tool: "canvasflow", email: "me@example.org" });
      expect(requests[1].query).toMatchObject({ db: "pubmed", id: "38000001,38000002", retmode: "xml" });
    },
    outputs: (outputs) => {
      expect(outputs.formalized_content).toContain(
        [
          `ID: ${idOf("https://pubmed.ncbi.nlm.nih.gov/38000001")}`,
          "├── Title: Aspirin for primary prevention",
          "├── URL: https://pubmed.ncbi.nlm.nih.gov/38000001",
          "└── Content:",
          "Title: Aspirin for primary prevention\nAuthors: Jane Smith, John Doe\nJournal: The New England journal of medicine\nVolume: 389\nIssue: 12\nPages: 1101-1110\nDOI: 10.1056/NEJMoa38000001\nAbstract: Aspirin lowered events.",
        ].join("\n"),
      );
      expect(outputs.formalized_content).toContain("Abstract: Bleeding rose.");
    },
    modelReads: "Aspirin lowered events.",
  },
  {
    tool: "ArXiv",
    functionName: "arxiv_search",
    params: { top_n: 5, sort_by: "relevance" },
    args: { query: "all:agents" },
    handler: (_request, res) => res.writeHead(200, { "content-type": "application/atom+xml; charset=utf-8" }).end(ARXIV_FEED),
    requests: (requests) => {
      expect(requests[0].path).toBe("/api/query");
      expect(requests[0].query).toEqual({ search_query: "all:agents", id_list: "", sortBy: "relevance", sortOrder: "descending", start: "0", max_results: "5" });
    },
    outputs: (outputs) =>
      expect(outputs.formalized_content).toBe(`\nID: ${idOf("http://arxiv.org/pdf/2401.00001v1")}\n├── Title: Agents That Plan\n├── URL: http://arxiv.org/pdf/2401.00001v1\n└── Content:\nWe study planning agents.`),
    modelReads: "We study planning agents.",
  },
  {
    tool: "GoogleScholar",
    functionName: "google_scholar_search",
    params: { top_n: 3, sort_by: "date", year_low: 2020, patents: false },
    args: { query: "retrieval augmented generation" },
    // SerpApi's google_scholar engine: organic_results with title, link, snippet, publication_info.
    handler: (_request, res) =>
      sendJson(res, 200, {
        search_metadata: { status: "Success" },
        organic_results: [
          {
            position: 0,
            title: "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
            result_id: "abc",
            link: "https://arxiv.org/abs/2005.11401",
            snippet: "Large pre-trained language models have been shown to store factual knowledge…",
            publication_info: { summary: "P Lewis, E Perez - NeurIPS, 2020", authors: [{ name: "P Lewis" }, { name: "E Perez" }] },
          },
        ],
      }),
    env: { SERPAPI_KEY: "serp-key" },
    endpoint: (base) => ({ baseURL: base, apiKeyEnv: "SERPAPI_KEY" }),
    requests: (requests) => {
      expect(requests[0].path).toBe("/search.json");
      expect(requests[0].query).toEqual({ engine: "google_scholar", q: "retrieval augmented generation", api_key: "serp-key", num: "3", as_ylo: "2020", scisbd: "1", as_sdt: "0" });
    },
    outputs: (outputs) => {
      expect(outputs.formalized_content).toContain("└── Content:\n\n author: P Lewis,E Perez\n Abstract: Large pre-trained language models");
      expect((outputs.json as unknown[]).length).toBe(1);
    },
    modelReads: "author: P Lewis,E Perez",
  },
  {
    tool: "GitHub",
    functionName: "github_search",
    params: { top_n: 2 },
    args: { query: "agent canvas" },
    // GitHub's search API: {total_count, incomplete_results, items: [repository…]}.
    handler: (_request, res) =>
      sendJson(res, 200, {
        total_count: 2,
        incomplete_results: false,
        items: [
          { id: 1, name: "ragflow", full_name: "infiniflow/ragflow", html_url: "https://github.com/infiniflow/ragflow", description: "RAG engine", watchers: 70000, stargazers_count: 70000 },
          { id: 2, name: "nodesc", full_name: "x/nodesc", html_url: "https://github.com/x/nodesc", description: null, watchers: 3, stargazers_count: 3 },
        ],
      }),
    requests: (requests) => {
      expect(requests[0].path).toBe("/search/repositories");
      expect(requests[0].query).toEqual({ q: "agent canvas", sort: "stars", order: "desc", per_page: "2" });
      expect(requests[0].headers["x-github-api-version"]).toBe("2022-11-28");
      expect(requests[0].headers.authorization).toBeUndefined();
    },
    outputs: (outputs) => {
      expect(outputs.formalized_content).toContain("├── Title: ragflow\n├── URL: https://github.com/infiniflow/ragflow\n└── Content:\nRAG engine\n stars:70000");
      expect(outputs.formalized_content).toContain("└── Content:\nNone\n stars:3");
    },
    modelReads: "RAG engine\n stars:70000",
  },
  {
    tool: "SearXNG",
    functionName: "searxng_search",
    params: { top_n: 1 },
    args: { query: "canvas" },
    // SearXNG's /search?format=json: {query, number_of_results, results: [{url, title, content, engine, score}], …}.
    handler: (_request, res) =>
      sendJson(res, 200, {
        query: "canvas",
        number_of_results: 0,
        results: [
          { url: "https://example.org/a", title: "Canvas A", content: "About canvases.", engine: "duckduckgo", score: 2.5, category: "general" },
          { url: "https://example.org/b", title: "Canvas B", content: "More.", engine: "bing", score: 1.0, category: "general" },
        ],
        answers: [],
        suggestions: [],
      }),
    requests: (requests) => {
      expect(requests[0].path).toBe("/search");
      expect(requests[0].query).toEqual({ q: "canvas", format: "json", categories: "general", language: "auto", safesearch: "1", pageno: "1" });
    },
    outputs: (outputs) => {
      expect(outputs.formalized_content).toBe(`\nID: ${idOf("https://example.org/a")}\n├── Title: Canvas A\n├── URL: https://example.org/a\n└── Content:\nAbout canvases.`);
      expect(outputs.json).toHaveLength(1);
    },
    modelReads: "About canvases.",
  },
  {
    tool: "KeenableSearch",
    functionName: "keenable_search",
    params: { top_n: 5, mode: "pro" },
    args: { query: "ai agents", site: "techcrunch.com" },
    // Keenable: {results: [{title, url, snippet, description}]}.
    handler: (_request, res) => sendJson(res, 200, { results: [{ title: "Agents", url: "https://techcrunch.com/agents", snippet: "Agents are\n  everywhere.", description: "" }] }),
    requests: (requests) => {
      expect(requests[0].method).toBe("POST");
      expect(requests[0].path).toBe("/v1/search/public");
      expect(JSON.parse(requests[0].body)).toEqual({ query: "ai agents", mode: "pro", site: "techcrunch.com" });
      expect(requests[0].headers["x-api-key"]).toBeUndefined();
    },
    outputs: (outputs) => expect(outputs.formalized_content).toContain("└── Content:\nAgents are everywhere."),
    modelReads: "Agents are everywhere.",
  },
  {
    tool: "QueritSearch",
    functionName: "querit_search",
    params: { api_key: "q-key" },
    args: { query: "llm", count: 2, site_include: ["example.com"], time_range: "w1" },
    // Querit /v1/search: {took, error_code, search_id, query_context, results: {result: [{url, title, snippet, …}]}}.
    handler: (_request, res) =>
      sendJson(res, 200, { took: "12ms", error_code: 200, search_id: 7, results: { result: [{ url: "https://example.com/llm", title: "LLMs", snippet: "Large language models.", page_age: "2024-01-01" }] } }),
    requests: (requests) => {
      expect(requests[0].path).toBe("/v1/search");
      expect(requests[0].headers.authorization).toBe("Bearer q-key");
      expect(JSON.parse(requests[0].body)).toEqual({ query: "llm", count: 2, chunksPerDoc: 3, filters: { sites: { include: ["example.com"] }, timeRange: { date: "w1" } } });
    },
    outputs: (outputs) => {
      expect(outputs.formalized_content).toContain("├── Title: LLMs\n├── URL: https://example.com/llm\n└── Content:\nLarge language models.");
      expect(outputs.json).toMatchObject({ search_id: 7 });
    },
    modelReads: "Large language models.",
  },
  {
    tool: "QueritContents",
    functionName: "querit_contents",
    params: { api_key: "q-key" },
    args: { urls: ["https://example.com/a", "https://example.com/b"], format: "markdown", crawl_timeout: 5 },
    // Querit /v1/contents: {results: [{url, title, content}], statuses: [{url, status, error?}]}.
    handler: (_request, res) =>
      sendJson(res, 200, {
        results: [{ url: "https://example.com/a", title: "A", content: "# A\n\nPage A." }],
        statuses: [
          { url: "https://example.com/a", status: "success" },
          { url: "https://example.com/b", status: "error", error: "crawl timeout" },
        ],
      }),
    requests: (requests) => expect(JSON.parse(requests[0].body)).toEqual({ urls: ["https://example.com/a", "https://example.com/b"], format: "markdown", crawlTimeout: 5, extrasMeta: false }),
    outputs: (outputs) => {
      expect(outputs.formalized_content).toContain("└── Content:\n# A\n\nPage A.");
      expect(outputs.formalized_content).toContain("Could not read https://example.com/b: crawl timeout");
    },
    modelReads: "Page A.",
  },
  {
    tool: "BGPT",
    functionName: "bgpt_search",
    params: { top_n: 1, days_back: 30 },
    args: { query: "statins" },
    // BGPT /api/mcp-search: {results: [paper with structured evidence fields]}.
    handler: (_request, res) =>
      sendJson(res, 200, {
        results: [
          { title: "Statins trial", authors: ["A. B."], journal: "Lancet", year: 2021, doi: "10.1/x", url: "https://doi.org/10.1/x", abstract: "Statins help.", methods: "RCT", sample_size_and_population: "n=1000", results: "Lower LDL.", limitations: "Short follow-up" },
        ],
      }),
    requests: (requests) => {
      expect(requests[0].path).toBe("/api/mcp-search");
      expect(JSON.parse(requests[0].body)).toEqual({ query: "statins", num_results: 1, days_back: 30 });
    },
    outputs: (outputs) =>
      expect(outputs.formalized_content).toContain(
        "Title: Statins trial\nAuthors: ['A. B.']\nJournal: Lancet\nYear: 2021\nDOI: 10.1/x\nAbstract: Statins help.\nMethods: RCT\nSample size / population: n=1000\nResults: Lower LDL.\nLimitations: Short follow-up\nConflicts of interest: -",
      ),
    modelReads: "Results: Lower LDL.",
  },
  {
    tool: "DeepL",
    functionName: "deepl_translate",
    params: { auth_key: "deepl-key:fx", source_lang: "ZH", target_lang: "EN-US" },
    args: { query: "你好，世界" },
    // DeepL /v2/translate: {translations: [{detected_source_language, text}]}.
    handler: (_request, res) => sendJson(res, 200, { translations: [{ detected_source_language: "ZH", text: "Hello, world" }] }),
    requests: (requests) => {
      expect(requests[0].path).toBe("/v2/translate");
      expect(requests[0].headers.authorization).toBe("DeepL-Auth-Key deepl-key:fx");
      expect(JSON.parse(requests[0].body)).toEqual({ text: ["你好，世界"], source_lang: "ZH", target_lang: "EN-US" });
    },
    outputs: (outputs) => expect(outputs).toEqual({ formalized_content: "Hello, world" }),
    modelReads: "Hello, world",
  },
  {
    tool: "QWeather",
    functionName: "qweather",
    params: { web_apikey: "qw-key", lang: "en", type: "weather", time_period: "now" },
    args: { query: "Beijing" },
    // GeoAPI /v2/city/lookup: {code: "200", location: [{name, id, …}]}; /v7/weather/now: {code: "200", now: {…}}.
    handler: (request, res) => {
      if (request.path === "/v2/city/lookup") return sendJson(res, 200, { code: "200", location: [{ name: "Beijing", id: "101010100", lat: "39.90", lon: "116.40", adm1: "Beijing", country: "China" }] });
      sendJson(res, 200, { code: "200", updateTime: "2024-01-01T10:00+08:00", now: { obsTime: "2024-01-01T09:50+08:00", temp: "-3", text: "Sunny", windDir: "N", humidity: "20" } });
    },
    requests: (requests) => {
      expect(requests.map((r) => r.path)).toEqual(["/v2/city/lookup", "/v7/weather/now"]);
      expect(requests[0].query).toEqual({ location: "Beijing", key: "qw-key" });
      expect(requests[1].query).toEqual({ location: "101010100", key: "qw-key", lang: "en" });
    },
    outputs: (outputs) => expect(outputs.formalized_content).toBe("{'obsTime': '2024-01-01T09:50+08:00', 'temp': '-3', 'text': 'Sunny', 'windDir': 'N', 'humidity': '20'}"),
    modelReads: "'text': 'Sunny'",
  },
  {
    tool: "AkShare",
    functionName: "akshare_stock_news",
    params: { top_n: 1 },
    args: { query: "600519" },
    // East Money's search API (what akshare.stock_news_em reads): JSONP around {code, result: {cmsArticleWebOld: […]}}.
    handler: (request, res) => {
      const body = { code: 0, msg: "ok", result: { cmsArticleWebOld: [{ date: "2024-01-02 09:00:00", title: "<em>600519</em> 贵州茅台公告", content: "茅台发布<em>公告</em>。", mediaName: "东方财富网", code: "202401020001" }, { date: "2024-01-01 09:00:00", title: "older", content: "x", mediaName: "y", code: "1" }] } };
      res.writeHead(200, { "content-type": "application/javascript" }).end(`${request.query.cb}(${JSON.stringify(body)})`);
    },
    requests: (requests) => {
      expect(requests[0].path).toBe("/search/jsonp");
      expect(JSON.parse(requests[0].query.param)).toMatchObject({ keyword: "600519", type: ["cmsArticleWebOld"] });
    },
    outputs: (outputs) =>
      expect(outputs.formalized_content).toBe('<a href="http://finance.eastmoney.com/a/202401020001.html">600519 贵州茅台公告</a>\n 新闻内容: 茅台发布公告。 \n发布时间:2024-01-02 09:00:00 \n文章来源: 东方财富网'),
    modelReads: "贵州茅台公告",
  },
  {
    tool: "WenCai",
    functionName: "iwencai",
    params: { top_n: 5, query_type: "stock" },
    args: { query: "市盈率小于10的银行股" },
    // iwencai get-robot-data: data.answer[0].txt[0].content.components, tables in data.datas.
    handler: (_request, res) =>
      sendJson(res, 200, {
        status_code: 0,
        data: {
          answer: [
            {
              txt: [
                {
                  content: {
                    components: [
                      { show_type: "xuangu_tableV1", title: "选股结果", data: { columns: [{ key: "股票代码" }, { key: "股票简称" }, { key: "市盈率" }], datas: [{ 股票代码: "601398.SH", 股票简称: "工商银行", 市盈率: 5.1 }] } },
                      { show_type: "txt", title: "说明", data: { content: "共1只股票" } },
                    ],
                  },
                },
              ],
            },
          ],
        },
      }),
    requests: (requests) => {
      expect(requests[0].path).toBe("/customized/chart/get-robot-data");
      expect(JSON.parse(requests[0].body)).toMatchObject({ question: "市盈率小于10的银行股", perpage: 5, page: 1, secondary_intent: "stock", source: "Ths_iwencai_Xuangu" });
    },
    outputs: (outputs) => {
      expect(outputs.report).toMatch(/^选股结果\n\| 股票代码 +\| 股票简称 +\| 市盈率 +\|\n/);
      expect(outputs.report).toMatch(/\| 601398\.SH +\| 工商银行 +\| +5\.1 +\|/);
      expect(outputs.report).toContain("\n\n说明\n共1只股票");
    },
    modelReads: "工商银行",
  },
];

describe.each(CASES)("$tool against a loopback stand-in of its API", (c) => {
  const def = builtinDefinition(c.tool);
  const endpointFor = (base: string) => ({ [c.tool]: c.endpoint ? c.endpoint(base) : { baseURL: base } });

  it("sends the real request and reads the real answer (run)", async () => {
    const api = await standIn(c.handler);
    const { ctx } = toolContext({ params: { ...def.defaults, ...c.params }, endpoints: endpointFor(api.base), env: c.env ?? {} });
    const outputs = await def.tool!.run(c.args, ctx);
    c.requests(api.requests, api.base);
    c.outputs(outputs);
  });

  it("runs as a canvas node, its outputs set", async () => {
    const api = await standIn(c.handler);
    const params: Record<string, unknown> = { ...c.params };
    for (const [key, value] of Object.entries(c.args)) params[key] = value;
    // The query comes from the user, as RAGFlow's {sys.query} default.
    const query = typeof c.args.query === "string" ? c.args.query : "";
    if (query !== "") params.query = "{sys.query}";
    const primary = def.primaryOutput ?? "formalized_content";
    const events = await runToolCanvas(toolCanvas(c.tool, `${c.tool}:N`, params, `{${c.tool}:N@${primary}}`), { endpoints: endpointFor(api.base), env: c.env }, query || "q");
    expect(finished(events).error).toBeUndefined();
    const outputs = nodeFinished(events, `${c.tool}:N`).outputs as Record<string, unknown>;
    expect(nodeFinished(events, `${c.tool}:N`).error ?? undefined).toBeUndefined();
    c.outputs(outputs);
    expect(messages(events)[0]).toContain(c.modelReads);
  });

  it("is offered to an Agent with RAGFlow's function name, and the model reads its result", async () => {
    const api = await standIn(c.handler);
    const fn = `${c.functionName}_0`;
    const mock = await startMockLlm({
      rules: [
        { match: "use the tool", on: "last_user", times: 1, tool_calls: [{ name: fn, arguments: c.args }] },
        { match: c.modelReads.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), on: "tool", reply: "found it" },
        { match: ".", on: "any", reply: "the tool result was not what the API said" },
      ],
    });
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Agent:A"]),
      "Agent:A": node("Agent", { llm_id: "mock@Mock", prompts: [{ role: "user", content: "{sys.query}" }], max_rounds: 2, tools: [{ component_name: c.tool, name: c.tool, params: c.params }] }, ["Message:M"]),
      "Message:M": node("Message", { content: ["{Agent:A@content}"] }),
    });
    const canvas = await loadCanvas(dsl, { services: { llm: mock.provider, tools: { knowledgeBases: {}, endpoints: endpointFor(api.base), env: c.env ?? {} } } });
    const events = await canvas.runToEnd({ query: "please use the tool" });
    expect(finished(events).error).toBeUndefined();
    expect(mock.chatRequests()[0].tools?.map((t) => t.function.name)).toEqual([fn]);
    expect(messages(events)).toEqual(["found it"]);
  });
});

describe("the API tools when their service cannot be used", () => {
  it("a missing key is an UnavailableError the run records and goes on from", async () => {
    for (const [tool, params, text] of [
      ["GoogleScholar", {}, "GoogleScholar has no API key"],
      ["QueritSearch", {}, "QueritSearch has no API key"],
      ["DeepL", { auth_key: "" }, "DeepL has no authentication key"],
      ["QWeather", { web_apikey: "" }, "QWeather has no API key"],
      ["SearXNG", {}, "SearXNG has no instance: set searxng_url on the component or tools.SearXNG.baseURL"],
    ] as const) {
      const events = await runToolCanvas(toolCanvas(tool, `${tool}:N`, { ...params, query: "{sys.query}" }, `{${tool}:N@formalized_content}`), {}, "something");
      expect(unavailableError(events, `${tool}:N`)).toContain(text);
    }
  });

  it("GitHub quotes the API's message when it returns no items (rate limit)", async () => {
    const api = await standIn((_r, res) => sendJson(res, 403, { message: "API rate limit exceeded for 127.0.0.1.", documentation_url: "https://docs.github.com/rest" }));
    const { ctx } = toolContext({ endpoints: { GitHub: { baseURL: api.base } } });
    await expect(builtinDefinition("GitHub").tool!.run({ query: "x" }, ctx)).rejects.toThrow("API rate limit exceeded for 127.0.0.1.");
  });

  it("QWeather reports the API's code through error_code, as RAGFlow does", async () => {
    const api = await standIn((_r, res) => sendJson(res, 200, { code: "401" }));
    const { ctx } = toolContext({ params: { web_apikey: "bad", error_code: { "401": "Wrong key" } }, endpoints: { QWeather: { baseURL: api.base } } });
    expect(await builtinDefinition("QWeather").tool!.run({ query: "x" }, ctx)).toEqual({ formalized_content: "**Error** Wrong key" });
  });

  it("a searxng_url from the DSL passes the SSRF guard: loopback is refused unless allowed", async () => {
    const api = await standIn((_r, res) => sendJson(res, 200, { results: [{ title: "T", url: "https://e.org", content: "C" }] }));
    const blocked = toolContext({ params: { searxng_url: api.base } });
    await expect(builtinDefinition("SearXNG").tool!.run({ query: "x" }, blocked.ctx)).rejects.toThrow(/non-public address \(loopback\)/);
    expect(api.requests).toEqual([]);
    const allowed = toolContext({ params: { searxng_url: api.base } });
    const ctx = { ...allowed.ctx, services: { ...allowed.ctx.services, http: { allowPrivateNetwork: true } } };
    const out = await builtinDefinition("SearXNG").tool!.run({ query: "x" }, ctx);
    expect(out.formalized_content).toContain("└── Content:\nC");
  });
});
