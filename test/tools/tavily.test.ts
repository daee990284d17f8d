/**
 * TavilySearch and TavilyExtract against a loopback stand-in of api.tavily.com (POST /search and
 * POST /extract, JSON bodies, Bearer key), through `run` and as canvas nodes.
 */
import { describe, expect, it } from "vitest";
import { finished, messageEnd, messages, nodeFinished } from "../helpers/dsl.js";
import { closedPort, sendJson, standIn } from "../helpers/http.js";
import { builtinDefinition } from "../helpers/registry.js";
import { runToolCanvas, toolCanvas, toolContext, unavailableError } from "../helpers/tools.js";

const search = builtinDefinition("TavilySearch").tool!;
const extract = builtinDefinition("TavilyExtract").tool!;

/** Tavily's answer for two pages, the second with raw content (which wins over the snippet). */
const RESULTS = [
  { title: "Page A", url: "https://example.com/a", content: "Alpha snippet.", score: 0.91, raw_content: null },
  { title: "Page B", url: "https://example.com/b", content: "Beta snippet.", score: 0.5, raw_content: "Beta raw\ncontent." },
];
// hash_str2int of the URLs, as RAGFlow computes them (Python: int(sha1(url).hexdigest(), 16) % 10**8).
const ID_A = "87470947";
const ID_B = "76408480";

const EXPECTED_PROMPT = [
  `\nID: ${ID_A}\n├── Title: Page A\n├── URL: https://example.com/a\n└── Content:\nAlpha snippet.`,
  `\nID: ${ID_B}\n├── Title: Page B\n├── URL: https://example.com/b\n└── Content:\nBeta raw\ncontent.`,
].join("\n");

async function tavily() {
  return standIn((request, res) => {
    if (request.headers.authorization !== "Bearer tvly-key") return sendJson(res, 401, { detail: { error: "Unauthorized: missing or invalid API key." } });
    if (request.path === "/search") return sendJson(res, 200, { query: JSON.parse(request.body).query, answer: null, images: [], results: RESULTS, response_time: 0.5 });
    if (request.path === "/extract") {
      return sendJson(res, 200, {
        results: [{ url: "https://example.com/a", raw_content: "# A\n\nThe whole page.", images: [] }],
        failed_results: [{ url: "https://bad.example", error: "Failed to fetch url" }],
        response_time: 1.2,
      });
    }
    sendJson(res, 404, { detail: "Not Found" });
  });
}

describe("TavilySearch run", () => {
  it("posts the search as tavily-python does and lists the hits as chunks", async () => {
    const api = await tavily();
    const { ctx, references } = toolContext({ params: { ...builtinDefinition("TavilySearch").defaults, api_key: "tvly-key" }, endpoints: { TavilySearch: { baseURL: api.base } } });
    const output = await search.run({ query: "ragflow agents", topic: "news", include_domains: ["example.com"] }, ctx);

    expect(api.requests).toHaveLength(1);
    const [request] = api.requests;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/search");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual({
      query: "ragflow agents",
      topic: "news",
      search_depth: "basic",
      max_results: 6,
      include_domains: ["example.com"],
      exclude_domains: [],
      include_answer: false,
      include_raw_content: false,
      include_images: false,
      include_image_descriptions: false,
      days: 14,
    });
    expect(output).toEqual({ formalized_content: EXPECTED_PROMPT, json: RESULTS });
    expect(references).toEqual([
      {
        chunks: [
          { id: ID_A, content: "Alpha snippet.", document_id: ID_A, document_name: "Page A", similarity: 0.91, url: "https://example.com/a" },
          { id: ID_B, content: "Beta raw\ncontent.", document_id: ID_B, document_name: "Page B", similarity: 0.5, url: "https://example.com/b" },
        ],
        documents: [
          { doc_id: ID_A, doc_name: "Page A", count: 1, url: "https://example.com/a" },
          { doc_id: ID_B, doc_name: "Page B", count: 1, url: "https://example.com/b" },
        ],
      },
    ]);
  });

  it("sends no days for general searches and reads the configured params", async () => {
    const api = await tavily();
    const { ctx } = toolContext({
      params: { api_key: "tvly-key", search_depth: "advanced", max_results: "3", exclude_domains: "spam.example, ads.example" },
      endpoints: { TavilySearch: { baseURL: `${api.base}/` } },
    });
    await search.run({ query: "q" }, ctx);
    expect(JSON.parse(api.requests[0].body)).toMatchObject({ topic: "general", search_depth: "advanced", max_results: 3, exclude_domains: ["spam.example", "ads.example"] });
    expect(JSON.parse(api.requests[0].body)).not.toHaveProperty("days");
  });

  it("takes the key from the env var that tools.TavilySearch.apiKeyEnv names", async () => {
    const api = await tavily();
    const { ctx } = toolContext({ endpoints: { TavilySearch: { baseURL: api.base, apiKeyEnv: "TAVILY_API_KEY" } }, env: { TAVILY_API_KEY: "tvly-key" } });
    const output = await search.run({ query: "q" }, ctx);
    expect(output.formalized_content).toBe(EXPECTED_PROMPT);
    expect(api.requests[0].headers.authorization).toBe("Bearer tvly-key");
  });

  it("an empty query gives empty content and sends nothing (as RAGFlow)", async () => {
    const api = await tavily();
    const { ctx, references } = toolContext({ params: { api_key: "tvly-key" }, endpoints: { TavilySearch: { baseURL: api.base } } });
    expect(await search.run({ query: "  " }, ctx)).toEqual({ formalized_content: "", json: [] });
    expect(api.requests).toEqual([]);
    expect(references).toEqual([]);
  });

  it("without a key fails with an error saying how to give one", async () => {
    const { ctx } = toolContext();
    await expect(search.run({ query: "q" }, ctx)).rejects.toThrow(
      "TavilySearch has no API key: set api_key on the component or tools.TavilySearch.apiKeyEnv in canvasflow.config.json",
    );
    const unset = toolContext({ endpoints: { TavilySearch: { apiKeyEnv: "TAVILY_API_KEY" } }, env: {} });
    await expect(search.run({ query: "q" }, unset.ctx)).rejects.toThrow(
      "TavilySearch has no API key: api_key is empty on the component and the environment variable TAVILY_API_KEY (tools.TavilySearch.apiKeyEnv) is not set",
    );
  });

  it("quotes Tavily's own words on an HTTP error", async () => {
    const api = await tavily();
    const { ctx } = toolContext({ params: { api_key: "wrong" }, endpoints: { TavilySearch: { baseURL: api.base } } });
    await expect(search.run({ query: "q" }, ctx)).rejects.toThrow(`TavilySearch: ${api.host} answered HTTP 401: Unauthorized: missing or invalid API key.`);
  });

  it("a refused connection names the host", async () => {
    const port = await closedPort();
    const { ctx } = toolContext({ params: { api_key: "k" }, endpoints: { TavilySearch: { baseURL: `http://127.0.0.1:${port}` } } });
    await expect(search.run({ query: "q" }, ctx)).rejects.toThrow(`TavilySearch could not reach 127.0.0.1:${port}: the connection was refused (ECONNREFUSED)`);
  });

  it("stops when the signal aborts, with the signal's reason", async () => {
    const api = await standIn(() => undefined);
    const controller = new AbortController();
    const { ctx } = toolContext({ params: { api_key: "k" }, endpoints: { TavilySearch: { baseURL: api.base } }, signal: controller.signal });
    const running = search.run({ query: "q" }, ctx);
    while (api.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("run cancelled by the user"));
    await expect(running).rejects.toThrow("run cancelled by the user");
  });

  it("offers RAGFlow's function schema to a model", () => {
    const schema = search.schema(builtinDefinition("TavilySearch").defaults ?? {});
    expect(schema.function.name).toBe("tavily_search");
    expect(schema.function.description?.startsWith("Tavily is a search engine optimized for LLMs")).toBe(true);
    expect(schema.function.parameters).toEqual({
      type: "object",
      properties: {
        query: {
          type: "string",
          description:
            "The search keywords to execute with Tavily. The keywords should be the most important words/terms(includes synonyms) from the original request.",
        },
        topic: {
          type: "string",
          description:
            "default:general. The category of the search.news is useful for retrieving real-time updates, particularly about politics, sports, and major current events covered by mainstream media sources. general is for broader, more general-purpose searches that may include a wide range of sources.",
          enum: ["general", "news"],
        },
        include_domains: {
          type: "array",
          description: "default:[]. A list of domains only from which the search results can be included.",
          items: { type: "string", description: "Domain name that must be included, e.g. www.yahoo.com" },
        },
        exclude_domains: {
          type: "array",
          description: "default:[]. A list of domains from which the search results can not be included",
          items: { type: "string", description: "Domain name that must be excluded, e.g. www.yahoo.com" },
        },
      },
      required: ["query"],
    });
  });
});

describe("TavilySearch as a canvas node", () => {
  const dsl = (params: Record<string, unknown>) => toolCanvas("TavilySearch", "TavilySearch:Web", { query: "sys.query", ...params }, "Found:{TavilySearch:Web@formalized_content}");

  it("searches for sys.query and hands the chunks to the Message, with references at message_end", async () => {
    const api = await tavily();
    const events = await runToolCanvas(dsl({}), { endpoints: { TavilySearch: { baseURL: api.base, apiKeyEnv: "TAVILY_API_KEY" } }, env: { TAVILY_API_KEY: "tvly-key" } }, "what is ragflow?");
    expect(finished(events).error).toBeUndefined();
    expect(JSON.parse(api.requests[0].body).query).toBe("what is ragflow?");
    expect(messages(events)).toEqual([`Found:${EXPECTED_PROMPT}`]);
    expect(nodeFinished(events, "TavilySearch:Web").outputs.json).toEqual(RESULTS);
    const reference = messageEnd(events).reference as { chunks: Array<{ id: string }>; doc_aggs: Array<{ doc_id: string }> };
    expect(reference.chunks.map((c) => c.id)).toEqual([ID_A, ID_B]);
    expect(reference.doc_aggs.map((d) => d.doc_id)).toEqual([ID_A, ID_B]);
  });

  it("without a key the run goes on and the tool reports the key error", async () => {
    const events = await runToolCanvas(dsl({ api_key: "" }), {}, "q");
    expect(unavailableError(events, "TavilySearch:Web")).toContain(
      "TavilySearch has no API key: set api_key on the component or tools.TavilySearch.apiKeyEnv in canvasflow.config.json",
    );
    expect(nodeFinished(events, "TavilySearch:Web").error).toBe(
      "TavilySearch has no API key: set api_key on the component or tools.TavilySearch.apiKeyEnv in canvasflow.config.json",
    );
    // The Message downstream shows what the tool reported.
    expect(messages(events)).toEqual(["Found:TavilySearch has no API key: set api_key on the component or tools.TavilySearch.apiKeyEnv in canvasflow.config.json"]);
  });

  it("without a key and with exception_method comment, the default value flows on", async () => {
    const events = await runToolCanvas(dsl({ api_key: "", exception_method: "comment", exception_default_value: "search is offline" }), {}, "q");
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["Found:search is offline"]);
  });

  it("with no network the run goes on and the tool reports an error naming the host", async () => {
    const port = await closedPort();
    const events = await runToolCanvas(dsl({ api_key: "k" }), { endpoints: { TavilySearch: { baseURL: `http://127.0.0.1:${port}` } } }, "q");
    expect(unavailableError(events, "TavilySearch:Web")).toContain(`TavilySearch could not reach 127.0.0.1:${port}: the connection was refused (ECONNREFUSED)`);
  });
});

describe("TavilyExtract", () => {
  it("posts the URLs (a comma-separated string is split) and lists pages and failures", async () => {
    const api = await tavily();
    const { ctx, references } = toolContext({ params: { api_key: "tvly-key" }, endpoints: { TavilyExtract: { baseURL: api.base } } });
    const output = await extract.run({ urls: "https://example.com/a, https://bad.example", extract_depth: "advanced", format: "text" }, ctx);
    expect(api.requests[0].path).toBe("/extract");
    expect(JSON.parse(api.requests[0].body)).toEqual({ urls: ["https://example.com/a", "https://bad.example"], extract_depth: "advanced", format: "text", include_images: false });
    expect(output).toEqual({
      formalized_content: `\nID: ${ID_A}\n├── Title: https://example.com/a\n├── URL: https://example.com/a\n└── Content:\n# A\n\nThe whole page.\n\nCould not extract https://bad.example: Failed to fetch url`,
      json: [{ url: "https://example.com/a", raw_content: "# A\n\nThe whole page.", images: [] }],
    });
    expect(references[0].chunks.map((c) => c.id)).toEqual([ID_A]);
  });

  it("no URLs gives empty content and sends nothing", async () => {
    const api = await tavily();
    const { ctx } = toolContext({ params: { api_key: "tvly-key" }, endpoints: { TavilyExtract: { baseURL: api.base } } });
    expect(await extract.run({ urls: [] }, ctx)).toEqual({ formalized_content: "", json: [] });
    expect(api.requests).toEqual([]);
  });

  it("refuses URLs that are not strings", async () => {
    const { ctx } = toolContext({ params: { api_key: "tvly-key" } });
    await expect(extract.run({ urls: [{ href: "x" }] }, ctx)).rejects.toThrow('urls must be a list of strings, but one item is {"href":"x"}');
  });

  it("as a canvas node reads its URLs from a reference", async () => {
    const api = await tavily();
    const dsl = toolCanvas("TavilyExtract", "TavilyExtract:Read", { urls: "sys.query", api_key: "tvly-key" }, "{TavilyExtract:Read@formalized_content}");
    const events = await runToolCanvas(dsl, { endpoints: { TavilyExtract: { baseURL: api.base } } }, "https://example.com/a");
    expect(finished(events).error).toBeUndefined();
    expect(JSON.parse(api.requests[0].body).urls).toEqual(["https://example.com/a"]);
    expect(messages(events)[0]).toContain("└── Content:\n# A\n\nThe whole page.");
  });

  it("offers RAGFlow's function schema with urls required", () => {
    const schema = extract.schema({});
    expect(schema.function.name).toBe("tavily_extract");
    expect(schema.function.parameters.required).toEqual(["urls"]);
    expect((schema.function.parameters.properties as Record<string, { enum?: unknown }>).format.enum).toEqual(["markdown", "text"]);
  });
});
