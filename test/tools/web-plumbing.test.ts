/**
 * What the web tools share: web hits as chunks and prompt text, the HTTP client's errors, the
 * endpoint and API key resolution, and the argument readers.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TextStream } from "../../src/components/text-stream.js";
import { choice, flag, listArgument, textArgument, toolTimeoutMs, wholeNumber } from "../../src/tools/web/args.js";
import { chunksPrompt, hashStr2Int, MAX_CHUNK_CHARS, webChunks } from "../../src/tools/web/chunks.js";
import { apiUrl, requireApiKey, toolBaseUrl } from "../../src/tools/web/endpoint.js";
import { ApiClient, apiErrorMessage } from "../../src/tools/web/http-json.js";
import { sendJson, standIn } from "../helpers/http.js";
import { toolContext } from "../helpers/tools.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("web hits as chunks", () => {
  it("hashes as RAGFlow's hash_str2int (values computed with Python)", () => {
    expect(hashStr2Int("hello")).toBe(45743181);
    expect(hashStr2Int("https://example.com/a")).toBe(87470947);
  });

  it("drops hits without content, inline base64 images, and a page listed twice", () => {
    const { chunks, documents } = webChunks([
      { title: "Empty", url: "https://e.example", content: "   " },
      { title: "Img", url: "https://i.example", content: "Before ![image](data:image/png;base64,iVBORw0KGgo=) after" },
      { title: "Only image", url: "https://o.example", content: "![png](data:image/png;base64,AAAA)" },
      { title: "Img again", url: "https://i.example", content: "Other text" },
      { title: "No URL", url: "", content: "Text without a page" },
    ]);
    expect(chunks.map((c) => [c.document_name, c.content, c.id])).toEqual([
      ["Img", "Before  after", String(hashStr2Int("https://i.example"))],
      ["No URL", "Text without a page", String(hashStr2Int("Text without a page"))],
    ]);
    expect(documents.map((d) => d.doc_name)).toEqual(["Img", "No URL"]);
  });

  it("caps content at 10 000 characters, counting an emoji as one", () => {
    const content = `${"a".repeat(MAX_CHUNK_CHARS - 1)}😀😀tail`;
    const [chunk] = webChunks([{ title: "T", url: "u", content }]).chunks;
    expect(Array.from(chunk.content)).toHaveLength(MAX_CHUNK_CHARS);
    expect(chunk.content.endsWith("a😀")).toBe(true);
  });

  it("never exceeds the cap nor splits a surrogate pair, and ids depend only on the URL", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 12_000 }), fc.webUrl(), (content, url) => {
        const [chunk] = webChunks([{ title: "T", url, content }]).chunks;
        if (!chunk) return content.trim() === "" || content.replace(/!?\[[a-z]+\]\(data:image\/png;base64,[ 0-9A-Za-z/_=+-]+\)/g, "").trim() === "";
        expect(Array.from(chunk.content).length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
        expect(chunk.content).not.toMatch(/[\uD800-\uDBFF]$/);
        expect(chunk.id).toBe(webChunks([{ title: "Other", url, content: "x" }]).chunks[0].id);
        return true;
      }),
      { numRuns: 50 },
    );
  });

  it("lists chunks as kb_prompt does, leaving out empty lines and flattening newlines", () => {
    expect(
      chunksPrompt([
        { id: "1", content: "Body\none", document_name: "Title\n\nsplit", url: "" },
        { id: "2", content: "Two", document_name: "", url: "https://x.example" },
      ]),
    ).toBe("\nID: 1\n├── Title: Title split\n└── Content:\nBody\none\n\nID: 2\n├── URL: https://x.example\n└── Content:\nTwo");
    expect(chunksPrompt([])).toBe("");
  });
});

describe("the HTTP client", () => {
  it("names the host and the reason when DNS fails (no network)", async () => {
    const cause = Object.assign(new Error("getaddrinfo ENOTFOUND api.tavily.com"), { code: "ENOTFOUND", hostname: "api.tavily.com" });
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("fetch failed", { cause });
    });
    const api = new ApiClient("TavilySearch", new AbortController().signal, 1000);
    await expect(api.json({ url: new URL("https://api.tavily.com/search?api_key=secret") })).rejects.toThrow(
      "TavilySearch could not reach api.tavily.com: the host name could not be resolved (no DNS or no network) (ENOTFOUND)",
    );
  });

  it("gives up at its deadline, shared by all the requests of one call", async () => {
    const server = await standIn(() => undefined);
    const api = new ApiClient("Wikipedia", new AbortController().signal, 50);
    await expect(api.text({ url: new URL(`${server.base}/slow`) })).rejects.toThrow(`Wikipedia gave up on ${server.host}: no answer within its 0.05s timeout`);
    await expect(api.text({ url: new URL(`${server.base}/slow`) })).rejects.toThrow("no answer within its 0.05s timeout");
  });

  it("an already aborted signal sends nothing", async () => {
    const server = await standIn((_r, res) => sendJson(res, 200, {}));
    const controller = new AbortController();
    controller.abort(new Error("cancelled before it began"));
    const api = new ApiClient("Google", controller.signal, 1000);
    await expect(api.json({ url: new URL(server.base) })).rejects.toThrow("cancelled before it began");
  });

  it("says when an answer is not JSON", async () => {
    const server = await standIn((_r, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Maintenance</body></html>"));
    const api = new ApiClient("YahooFinance", new AbortController().signal, 1000);
    await expect(api.json({ url: new URL(server.base) })).rejects.toThrow(
      `YahooFinance: ${server.host} did not answer with JSON (the body starts with "<html><body>Maintenance</body></html>")`,
    );
  });

  it("sends forms and JSON with their content types, and decodes the declared charset", async () => {
    const server = await standIn((request, res) => {
      res.writeHead(200, { "content-type": "application/json; charset=iso-8859-1" });
      res.end(Buffer.from(JSON.stringify({ type: request.headers["content-type"], body: request.body, word: "café" }), "latin1"));
    });
    const api = new ApiClient("T", new AbortController().signal, 1000, { "user-agent": "ua" });
    expect(await api.json({ url: new URL(server.base), form: { q: "a b&c" } })).toEqual({ type: "application/x-www-form-urlencoded", body: "q=a+b%26c", word: "café" });
    expect(await api.json({ url: new URL(server.base), json: { q: 1 } })).toEqual({ type: "application/json", body: '{"q":1}', word: "café" });
    expect(server.requests.map((r) => [r.method, r.headers["user-agent"]])).toEqual([
      ["POST", "ua"],
      ["POST", "ua"],
    ]);
  });

  it("reads an API's error message from the usual shapes", () => {
    expect(apiErrorMessage('{"detail":{"error":"Unauthorized"}}')).toBe("Unauthorized");
    expect(apiErrorMessage('{"error":"Invalid API key."}')).toBe("Invalid API key.");
    expect(apiErrorMessage('{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}')).toBe("No data found");
    expect(apiErrorMessage("<h1>Bad   gateway</h1>")).toBe("Bad gateway");
    expect(apiErrorMessage("x".repeat(400))).toHaveLength(300);
  });
});

describe("endpoints and API keys", () => {
  it("uses the public base URL unless one is configured (without trailing slashes)", () => {
    expect(toolBaseUrl(toolContext({ noToolServices: true }).ctx, "Google", "https://serpapi.com")).toBe("https://serpapi.com");
    expect(toolBaseUrl(toolContext({ endpoints: { Google: { baseURL: "http://127.0.0.1:9/serp//" } } }).ctx, "Google", "https://serpapi.com")).toBe("http://127.0.0.1:9/serp");
    expect(() => toolBaseUrl(toolContext({ endpoints: { Google: { baseURL: "serpapi.com" } } }).ctx, "Google", "x")).toThrow('tools.Google.baseURL "serpapi.com" is not an absolute URL');
  });

  it("builds URLs below a base, leaving out undefined query values", () => {
    expect(apiUrl("http://h/base", "/search", { q: "a b", n: 2, none: undefined }).href).toBe("http://h/base/search?q=a+b&n=2");
  });

  it("prefers the DSL's api_key, then the configured env var", () => {
    const both = toolContext({ params: { api_key: " own " }, endpoints: { Google: { apiKeyEnv: "K" } }, env: { K: "from-env" } });
    expect(requireApiKey(both.ctx, "Google")).toBe("own");
    const envOnly = toolContext({ params: { api_key: "" }, endpoints: { Google: { apiKeyEnv: "K" } }, env: { K: "from-env" } });
    expect(requireApiKey(envOnly.ctx, "Google")).toBe("from-env");
    expect(() => requireApiKey(toolContext({ noToolServices: true }).ctx, "Google")).toThrow(
      "Google has no API key: set api_key on the component or tools.Google.apiKeyEnv in canvasflow.config.json",
    );
  });
});

describe("argument readers", () => {
  it("reads text from strings, numbers, objects and streamed text", async () => {
    expect(await textArgument("  q  ")).toBe("q");
    expect(await textArgument(42)).toBe("42");
    expect(await textArgument(null)).toBe("");
    expect(await textArgument({ a: 1 })).toBe('{"a":1}');
    expect(await textArgument(new TextStream(["strea", "med"]))).toBe("streamed");
  });

  it("reads lists from lists and comma-separated text", async () => {
    expect(await listArgument(["a", " ", 3, null], "urls")).toEqual(["a", "3"]);
    expect(await listArgument("a, b,,c", "urls")).toEqual(["a", "b", "c"]);
    expect(await listArgument(undefined, "urls")).toEqual([]);
    await expect(listArgument(7, "urls")).rejects.toThrow("urls must be a list of strings or a comma-separated string, not 7");
  });

  it("reads numbers, choices, flags and timeouts", () => {
    expect(wholeNumber("6", "num", 1, 1)).toBe(6);
    expect(wholeNumber("", "num", 4, 1)).toBe(4);
    expect(() => wholeNumber(1.5, "num", 4, 1)).toThrow("num must be a whole number of 1 or more, not 1.5");
    expect(choice(" news ", "topic", ["general", "news"], "general")).toBe("news");
    expect(() => choice("sports", "topic", ["general", "news"], "general")).toThrow('topic must be one of "general", "news", not "sports"');
    expect([flag(undefined, "info", true), flag("false", "info", true), flag(true, "info", false)]).toEqual([true, false, true]);
    expect(() => flag("yes", "info", true)).toThrow('info must be true or false, not "yes"');
    expect([toolTimeoutMs({}, 12), toolTimeoutMs({ exec_timeout: "30" }, 12), toolTimeoutMs({ exec_timeout: 0 }, 12)]).toEqual([12_000, 30_000, 12_000]);
  });
});
