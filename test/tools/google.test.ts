/**
 * Google through a loopback stand-in of SerpApi (GET /search.json?engine=google&q=…&api_key=…).
 */
import { describe, expect, it } from "vitest";
import { finished, messages, nodeFinished } from "../helpers/dsl.js";
import { closedPort, sendJson, standIn } from "../helpers/http.js";
import { builtinDefinition } from "../helpers/registry.js";
import { runToolCanvas, toolCanvas, toolContext, unavailableError } from "../helpers/tools.js";

const google = builtinDefinition("Google").tool!;

const ORGANIC = [
  {
    position: 1,
    title: "Page A",
    link: "https://example.com/a",
    snippet: "A snippet.",
    about_this_result: { source: { description: "About A, from its source." } },
  },
  { position: 2, title: "Page B", link: "https://example.com/b", snippet: "B snippet." },
  { position: 3, title: "No text", link: "https://example.com/c" },
];
const ID_A = "87470947";
const ID_B = "76408480";
const EXPECTED = [
  `\nID: ${ID_A}\n├── Title: Page A\n├── URL: https://example.com/a\n└── Content:\nAbout A, from its source.`,
  `\nID: ${ID_B}\n├── Title: Page B\n├── URL: https://example.com/b\n└── Content:\nB snippet.`,
].join("\n");

async function serpApi() {
  return standIn((request, res) => {
    if (request.path !== "/search.json") return sendJson(res, 404, { error: "Not found" });
    if (request.query.api_key !== "serp-key") return sendJson(res, 401, { error: "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key" });
    if (request.query.q === "nothing at all") return sendJson(res, 200, { search_metadata: { status: "Success" }, error: "Google hasn't returned any results for this query." });
    if (request.query.q === "broken") return sendJson(res, 200, { error: "Your account has run out of searches." });
    sendJson(res, 200, { search_metadata: { status: "Success" }, organic_results: ORGANIC });
  });
}

describe("Google run", () => {
  it("asks SerpApi with RAGFlow's parameters plus start and num, and lists the organic results", async () => {
    const api = await serpApi();
    const { ctx, references } = toolContext({ params: { ...builtinDefinition("Google").defaults, api_key: "serp-key", country: "us" }, endpoints: { Google: { baseURL: api.base } } });
    const output = await google.run({ q: "ragflow", start: "10", num: 3 }, ctx);
    expect(api.requests[0].method).toBe("GET");
    expect(api.requests[0].query).toEqual({
      engine: "google",
      q: "ragflow",
      api_key: "serp-key",
      google_domain: "google.com",
      gl: "us",
      hl: "en",
      start: "10",
      num: "3",
    });
    expect(output).toEqual({ formalized_content: EXPECTED, json: ORGANIC });
    expect(references[0].chunks.map((c) => [c.id, c.similarity])).toEqual([
      [ID_A, 1],
      [ID_B, 1],
    ]);
  });

  it("SerpApi's 'no results' answer is an empty result, other errors fail", async () => {
    const api = await serpApi();
    const { ctx } = toolContext({ params: { api_key: "serp-key" }, endpoints: { Google: { baseURL: api.base } } });
    expect(await google.run({ q: "nothing at all" }, ctx)).toEqual({ formalized_content: "", json: [] });
    await expect(google.run({ q: "broken" }, ctx)).rejects.toThrow(`Google: ${api.host} refused the search: Your account has run out of searches.`);
  });

  it("quotes SerpApi on a bad key, without showing the key", async () => {
    const api = await serpApi();
    const { ctx } = toolContext({ params: { api_key: "secret-wrong-key" }, endpoints: { Google: { baseURL: api.base } } });
    const failure = await google.run({ q: "x" }, ctx).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toBe(`Google: ${api.host} answered HTTP 401: Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key`);
    expect(failure).not.toContain("secret-wrong-key");
  });

  it("checks start and num", async () => {
    const { ctx } = toolContext({ params: { api_key: "serp-key" } });
    await expect(google.run({ q: "x", start: -1 }, ctx)).rejects.toThrow("start must be a whole number of 0 or more, not -1");
    await expect(google.run({ q: "x", num: "many" }, ctx)).rejects.toThrow('num must be a whole number of 1 or more, not "many"');
  });

  it("an empty q gives empty content without a key", async () => {
    const { ctx } = toolContext();
    expect(await google.run({ q: "" }, ctx)).toEqual({ formalized_content: "", json: [] });
  });

  it("offers RAGFlow's function schema", () => {
    const schema = google.schema({});
    expect(schema.function.name).toBe("google_search");
    expect(schema.function.parameters.required).toEqual(["q"]);
    const properties = schema.function.parameters.properties as Record<string, { type: string }>;
    expect([properties.q.type, properties.start.type, properties.num.type]).toEqual(["string", "integer", "integer"]);
  });
});

describe("Google as a canvas node", () => {
  const dsl = (params: Record<string, unknown>) => toolCanvas("Google", "Google:Search", { q: "{sys.query}", ...params }, "{Google:Search@formalized_content}");

  it("searches and shows the results", async () => {
    const api = await serpApi();
    const events = await runToolCanvas(dsl({}), { endpoints: { Google: { baseURL: api.base, apiKeyEnv: "SERPAPI_KEY" } }, env: { SERPAPI_KEY: "serp-key" } }, "ragflow");
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual([EXPECTED]);
    expect(nodeFinished(events, "Google:Search").inputs).toMatchObject({ q: "ragflow" });
  });

  it("without a key: the error, or the default value with exception_method comment", async () => {
    const failed = await runToolCanvas(dsl({}), {}, "ragflow");
    expect(unavailableError(failed, "Google:Search")).toContain("Google has no API key: set api_key on the component or tools.Google.apiKeyEnv in canvasflow.config.json");
    const commented = await runToolCanvas(dsl({ exception_method: "comment", exception_default_value: "no search" }), {}, "ragflow");
    expect(finished(commented).error).toBeUndefined();
    expect(messages(commented)).toEqual(["no search"]);
  });

  it("a refused connection names the host", async () => {
    const port = await closedPort();
    const events = await runToolCanvas(dsl({ api_key: "k" }), { endpoints: { Google: { baseURL: `http://127.0.0.1:${port}` } } }, "q");
    expect(unavailableError(events, "Google:Search")).toContain(`Google could not reach 127.0.0.1:${port}: the connection was refused (ECONNREFUSED)`);
  });
});
