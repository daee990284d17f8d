/**
 * Invoke (HTTP request): pure helpers, then end-to-end runs against real loopback servers.
 */
import { createServer, request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadCanvas, validateDsl, type LoadOptions } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { formBody, jsonArgument, withQuery } from "../../src/components/http/arguments.js";
import { htmlToText } from "../../src/components/http/html-to-text.js";
import { decodeBody } from "../../src/components/http/request.js";
import { httpServiceOptions, privateNetworkAllowed } from "../../src/sandbox/egress/service.js";
import { checkEgress, createEgressPolicy, nonPublicKind, pinnedLookup, PRIVATE_NETWORK_HINT, type HostResolver, type ResolvedAddress } from "../../src/sandbox/egress/guard.js";
import {
  endpointUrl,
  ENGINE_TIMEOUT_MARGIN_MS,
  Invoke,
  parseHeaders,
  parseMethod,
  proxyUrl,
  renderHeaderValue,
  timeoutSeconds,
} from "../../src/components/invoke.js";
import { canvasDsl, finished, lastEvent, messageText, node, nodeFinished, trace } from "../helpers/dsl.js";
import { closedPort, listenForTest, sendJson, standIn, type RequestHandler } from "../helpers/http.js";

// ---------------------------------------------------------------------------------------------
// Loopback servers
// ---------------------------------------------------------------------------------------------

/** A plain forwarding proxy for http:// targets: records the absolute-URI request line and relays it. */
async function startProxy(): Promise<{ base: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "");
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: { ...req.headers, via: "test-proxy" } },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const port = await listenForTest(server);
  return { base: `http://127.0.0.1:${port}`, seen };
}

/** Echoes what it received as JSON. */
const echo: RequestHandler = (recorded, res) => sendJson(res, 200, { method: recorded.method, url: recorded.url, body: recorded.body });

beforeEach(() => {
  vi.stubEnv("CANVASFLOW_ALLOW_PRIVATE_NETWORK", "");
});

afterEach(() => {
  vi.unstubAllEnvs();
});

// ---------------------------------------------------------------------------------------------
// DSL helpers
// ---------------------------------------------------------------------------------------------

const ALLOW: LoadOptions = { services: { http: { allowPrivateNetwork: true } } };

/** begin (form: city, user) → Invoke:Fetch → Message:Show "{Invoke:Fetch@result}". */
function invokeCanvas(params: Record<string, unknown>, extra: Record<string, ReturnType<typeof node>> = {}, variables: Array<{ name: string; type: string; value: unknown }> = []) {
  return canvasDsl(
    {
      begin: node("Begin", { inputs: { city: { name: "City", type: "line", optional: true }, user: { name: "User", type: "line", optional: true } } }, ["Invoke:Fetch"]),
      "Invoke:Fetch": node("Invoke", params, ["Message:Show"]),
      "Message:Show": node("Message", { content: ["{Invoke:Fetch@result}"] }),
      ...extra,
    },
    { variables },
  );
}

async function run(dsl: object, options: LoadOptions = ALLOW, request: { query?: string; inputs?: Record<string, unknown> } = {}): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(dsl, options);
  return canvas.runToEnd(request);
}

// ---------------------------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------------------------

describe("SSRF address classification", () => {
  it("names the non-public range of an address", () => {
    expect(nonPublicKind("127.0.0.1")).toBe("loopback");
    expect(nonPublicKind("::1")).toBe("loopback");
    expect(nonPublicKind("0.0.0.0")).toBe("unspecified");
    expect(nonPublicKind("::")).toBe("unspecified");
    expect(nonPublicKind("10.1.2.3")).toBe("private");
    expect(nonPublicKind("172.31.255.255")).toBe("private");
    expect(nonPublicKind("192.168.0.10")).toBe("private");
    expect(nonPublicKind("fd12::1")).toBe("private");
    expect(nonPublicKind("169.254.169.254")).toMatch(/^link-local.*metadata/);
    expect(nonPublicKind("fe80::1")).toMatch(/^link-local/);
    expect(nonPublicKind("100.64.0.1")).toBe("shared (carrier-grade NAT)");
    expect(nonPublicKind("224.0.0.1")).toBe("multicast");
    expect(nonPublicKind("255.255.255.255")).toBe("reserved");
    expect(nonPublicKind("::ffff:127.0.0.1")).toBe("loopback");
    expect(nonPublicKind("::ffff:a9fe:a9fe")).toMatch(/^link-local/);
  });

  it("lets public addresses through", () => {
    for (const address of ["8.8.8.8", "93.184.216.34", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(nonPublicKind(address), address).toBeUndefined();
    }
    expect(nonPublicKind("example.com")).toBe("not an IP address");
  });

  it("judges an IPv4-mapped IPv6 address as its IPv4 address", () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(nonPublicKind(`::ffff:${v4}`)).toBe(nonPublicKind(v4));
      }),
    );
  });

  it("checks every resolved address, and returns them all for pinning", async () => {
    const resolver: HostResolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    const url = (host: string) => ({ host, port: 80, role: "url host" });
    await expect(checkEgress(url("rebind.example"), createEgressPolicy({ resolver }))).rejects.toThrow(
      'url host "rebind.example" resolves to 10.0.0.7, a non-public address (private): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; ' +
        PRIVATE_NETWORK_HINT.replace("{entry}", "rebind.example:80"),
    );
    await expect(checkEgress(url("rebind.example"), createEgressPolicy({ resolver, allowPrivateNetwork: true }))).resolves.toHaveLength(2);
    await expect(checkEgress({ host: "[::1]", port: 3128, role: "proxy host" }, createEgressPolicy({ resolver }))).rejects.toThrow('proxy host "::1" is ::1, a non-public address (loopback)');
    const failing: HostResolver = async () => {
      throw new Error("getaddrinfo ENOTFOUND nowhere.invalid");
    };
    await expect(checkEgress(url("nowhere.invalid"), createEgressPolicy({ resolver: failing }))).rejects.toThrow(
      'url host "nowhere.invalid" could not be resolved: getaddrinfo ENOTFOUND nowhere.invalid',
    );
  });

  it("refuses names spelled with a trailing dot, naming the host, without resolving them", async () => {
    const asked: string[] = [];
    const publicResolver: HostResolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: "93.184.216.34", family: 4 }];
    };
    // An allow-list entry for the name does not let the dotted spelling through.
    const policy = createEgressPolicy({ resolver: publicResolver, allow: ["localhost", "metadata.google.internal"] });
    const url = (host: string) => ({ host, port: 80, role: "url host" });
    for (const host of ["LOCALHOST.", "localhost.", "127.0.0.1.", "0x7f.1.", "metadata.google.internal.", "api.example.com..", "[::1]."]) {
      await expect(checkEgress(url(host), policy)).rejects.toThrow(
        `url host "${host}" ends with a dot: a name spelled with a trailing dot is refused, because it can slip past checks made on the name ("localhost." is localhost); write it without the final dot`,
      );
    }
    await expect(checkEgress({ host: "proxy.example.", port: 3128, role: "proxy host" }, policy)).rejects.toThrow('proxy host "proxy.example." ends with a dot');
    expect(asked).toEqual([]);
    // The private-network switch turns the whole guard off, this rule included.
    await expect(checkEgress(url("api.example.com."), createEgressPolicy({ resolver: publicResolver, allowPrivateNetwork: true }))).resolves.toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it("refuses a name when any one of its addresses is not public, whatever the order and the family", async () => {
    const answers: ResolvedAddress[][] = [
      [{ address: "93.184.216.34", family: 4 }, { address: "127.0.0.1", family: 4 }],
      [{ address: "127.0.0.1", family: 4 }, { address: "93.184.216.34", family: 4 }],
      [{ address: "2606:2800:220:1::1", family: 6 }, { address: "::ffff:169.254.169.254", family: 6 }],
      [{ address: "2606:2800:220:1::1", family: 6 }, { address: "93.184.216.34", family: 4 }, { address: "fd00::1", family: 6 }],
    ];
    for (const answer of answers) {
      const bad = answer.find((entry) => nonPublicKind(entry.address) !== undefined)!;
      await expect(checkEgress({ host: "mixed.example", port: 443, role: "url host" }, createEgressPolicy({ resolver: async () => answer }))).rejects.toThrow(
        `url host "mixed.example" resolves to ${bad.address}, a non-public address`,
      );
    }
  });

  it("pins lookups to the checked addresses, whatever name is asked", async () => {
    const lookup = pinnedLookup([
      { address: "203.0.113.5", family: 4 },
      { address: "2001:db8::5", family: 6 },
    ]);
    const one = await new Promise<[string, number]>((resolve) => lookup("evil.example", {}, (_e, address, family) => resolve([address as string, family as number])));
    expect(one).toEqual(["203.0.113.5", 4]);
    const six = await new Promise<[string, number]>((resolve) => lookup("evil.example", { family: 6 }, (_e, address, family) => resolve([address as string, family as number])));
    expect(six).toEqual(["2001:db8::5", 6]);
    const all = await new Promise<unknown>((resolve) => lookup("evil.example", { all: true }, (_e, addresses) => resolve(addresses)));
    expect(all).toEqual([
      { address: "203.0.113.5", family: 4 },
      { address: "2001:db8::5", family: 6 },
    ]);
  });
});

describe("services.http", () => {
  it("reads allowPrivateNetwork, with the environment as the fallback", () => {
    expect(privateNetworkAllowed({}, {})).toBe(false);
    expect(privateNetworkAllowed({}, { CANVASFLOW_ALLOW_PRIVATE_NETWORK: "1" })).toBe(true);
    expect(privateNetworkAllowed({}, { CANVASFLOW_ALLOW_PRIVATE_NETWORK: "true" })).toBe(true);
    expect(privateNetworkAllowed({}, { CANVASFLOW_ALLOW_PRIVATE_NETWORK: "0" })).toBe(false);
    expect(privateNetworkAllowed({ allowPrivateNetwork: false }, { CANVASFLOW_ALLOW_PRIVATE_NETWORK: "1" })).toBe(false);
    expect(privateNetworkAllowed({ allowPrivateNetwork: true }, {})).toBe(true);
  });

  it("rejects a malformed services.http", () => {
    expect(httpServiceOptions({})).toEqual({});
    expect(() => httpServiceOptions({ http: true })).toThrow("services.http must be an object");
    expect(() => httpServiceOptions({ http: { allowPrivateNetwork: "yes" } })).toThrow("services.http.allowPrivateNetwork must be true or false");
    expect(() => httpServiceOptions({ http: { lookup: "8.8.8.8" } })).toThrow("services.http.lookup must be a function");
  });
});

describe("Invoke params", () => {
  it("reads method, timeout, url and proxy like RAGFlow", () => {
    expect(parseMethod("POST")).toBe("POST");
    expect(parseMethod(" put ")).toBe("PUT");
    expect(parseMethod(undefined)).toBe("GET");
    expect(parseMethod("delete")).toBeUndefined();
    expect(timeoutSeconds(undefined)).toBe(60);
    expect(timeoutSeconds("2.5")).toBe(2.5);
    expect(timeoutSeconds(0)).toBeUndefined();
    expect(timeoutSeconds("soon")).toBeUndefined();
    expect(endpointUrl("api.example.com/v1?x=1").href).toBe("http://api.example.com/v1?x=1");
    expect(endpointUrl("HTTPS://api.example.com").href).toBe("https://api.example.com/");
    expect(() => endpointUrl("ftp://files.example.com")).toThrow('url "ftp://files.example.com" uses ftp; only http and https are supported');
    expect(() => endpointUrl("http://")).toThrow('url "http://" is not a valid URL');
    expect(proxyUrl("")).toBeUndefined();
    expect(proxyUrl("http://")).toBeUndefined();
    expect(proxyUrl(null)).toBeUndefined();
    expect(proxyUrl("proxy.local:3128")?.href).toBe("http://proxy.local:3128/");
    expect(() => proxyUrl("socks5://proxy.local:1080")).toThrow('proxy "socks5://proxy.local:1080" uses socks5; only http and https are supported');
  });

  it("reads headers from JSON text or an object", () => {
    expect(parseHeaders("")).toEqual({});
    expect(parseHeaders('{"Accept": "*/*", "X-N": 3}')).toEqual({ Accept: "*/*", "X-N": 3 });
    expect(parseHeaders({ A: "b" })).toEqual({ A: "b" });
    expect(() => parseHeaders("{nope")).toThrow(/^headers is not valid JSON/);
    expect(() => parseHeaders("[1]")).toThrow("headers must be a JSON object");
    expect(() => parseHeaders({ A: { b: 1 } })).toThrow('headers: the value of "A" must be text, not an object');
  });

  it("replaces header tokens that resolve and blanks the others", () => {
    const values: Record<string, unknown> = { "env.token": "s3cret", "begin@user": "ada", "Agent:Fast@content": "hi" };
    const resolve = (ref: { expr: string }) => {
      if (!(ref.expr in values)) throw new Error(`reference {${ref.expr}}: missing`);
      return values[ref.expr];
    };
    expect(renderHeaderValue("Bearer {env.token}", resolve)).toBe("Bearer s3cret");
    expect(renderHeaderValue("{begin@user}/{Agent:Fast@content}", resolve)).toBe("ada/hi");
    expect(renderHeaderValue("a{nonexistent}b{env.nope}c", resolve)).toBe("abc");
    expect(renderHeaderValue("{ not a token }", resolve)).toBe("{ not a token }");
  });

  it("keeps header text without placeholders exactly", () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !/\{[a-zA-Z_][a-zA-Z0-9_:.@-]*\}/.test(s)), (text) => {
        expect(renderHeaderValue(text, () => "X")).toBe(text);
      }),
    );
  });

  it("declares an engine timeout of the HTTP timeout plus a margin, never RAGFlow's 3 s", () => {
    const timeoutMs = Invoke.timeoutMs as (params: Record<string, unknown>) => number;
    expect(timeoutMs({ timeout: 60 })).toBe(60_000 + ENGINE_TIMEOUT_MARGIN_MS);
    expect(timeoutMs({ timeout: 0.5 })).toBe(500 + ENGINE_TIMEOUT_MARGIN_MS);
    expect(timeoutMs({})).toBe(60_000 + ENGINE_TIMEOUT_MARGIN_MS);
  });

  it("lists the references it reads: url and values (templates), refs (selectors), header tokens", () => {
    const refs = Invoke.references!({
      url: "{begin@base}/x",
      headers: '{"A": "{env.token}", "B": "{Agent:Fast@content}", "C": "{plain}"}',
      variables: [{ key: "a", ref: "begin@city" }, { key: "b", value: "{sys.query}" }, { key: "c", ref: "" }],
      description: "{ignored@x}",
    }).map((r) => r.expr);
    expect(refs.sort()).toEqual(["Agent:Fast@content", "begin@base", "begin@city", "env.token", "sys.query"]);
  });
});

describe("argument encoding", () => {
  it("adds GET arguments to the existing query; lists repeat, nulls are left out", () => {
    const url = withQuery(new URL("http://h/p?fixed=1"), { a: "x y", n: 2, list: ["u", null, 3], none: null, obj: { k: true } });
    expect(url.search).toBe("?fixed=1&a=x+y&n=2&list=u&list=3&obj=%7B%22k%22%3Atrue%7D");
  });

  it("round-trips text arguments through a form body", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.string()), (args) => {
        const parsed = Object.fromEntries(new URLSearchParams(formBody(args)));
        expect(parsed).toEqual(args);
      }),
    );
  });

  it("sends JSON-looking text as JSON in json mode", () => {
    expect(jsonArgument("n", "5")).toBe(5);
    expect(jsonArgument("o", '{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(jsonArgument("t", "hello")).toBe("hello");
    expect(jsonArgument("z", "007")).toBe("007");
    expect(() => jsonArgument("big", 10n)).toThrow(/^variables: argument "big" cannot be sent as JSON/);
    expect(() => jsonArgument("nan", Number.NaN)).toThrow('variables: argument "nan" is NaN, which JSON cannot carry');
  });

  it("decodes the body with the declared charset", () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]).buffer;
    expect(decodeBody(latin1, "text/plain; charset=ISO-8859-1")).toBe("café");
    expect(decodeBody(new TextEncoder().encode("café").buffer as ArrayBuffer, "text/plain")).toBe("café");
    expect(decodeBody(new TextEncoder().encode("ok").buffer as ArrayBuffer, "text/plain; charset=klingon")).toBe("ok");
  });

  it("turns HTML into its readable text", () => {
    const html =
      "<html><head><title>T</title><style>p{color:red}</style><script>var x = 1;</script></head>" +
      '<body><h1>Weather</h1><p>Sunny in <a href="http://x/paris">Paris</a></p><img src="a.png" alt="pic"><ul><li>one</li></ul></body></html>';
    expect(htmlToText(html)).toBe("Weather\n\nSunny in Paris\n\n * one");
  });
});

describe("Invoke validation", () => {
  it("reports bad params with their pointers", () => {
    const report = validateDsl(
      invokeCanvas({
        url: " ",
        method: "delete",
        datatype: "xml",
        timeout: -1,
        headers: "{oops",
        proxy: "ftp://p",
        variables: [{ key: "", ref: "x" }, { key: "a", ref: "not a ref" }],
      }),
    );
    const issues = report.issues.map((i) => [i.severity, i.pointer, i.message]);
    const at = "/components/Invoke:Fetch/obj/params";
    expect(issues).toEqual(
      expect.arrayContaining([
        ["error", `${at}/url`, "url is required: the endpoint to call (references such as {begin@endpoint} are allowed)"],
        ["error", `${at}/method`, 'method must be get, post or put, not "delete"'],
        ["error", `${at}/datatype`, 'datatype must be json or formdata, not "xml"'],
        ["error", `${at}/timeout`, "timeout must be a positive number of seconds, not -1"],
        ["error", `${at}/headers`, expect.stringMatching(/^headers is not valid JSON/)],
        ["error", `${at}/proxy`, 'proxy "ftp://p" uses ftp; only http and https are supported'],
        ["warning", `${at}/variables/0/key`, "this argument has no key: it is not sent"],
        ["error", `${at}/variables/1/ref`, 'argument "a": "not a ref" is not a reference (expected cpn@var, sys.x or env.x)'],
      ]),
    );
    expect(report.valid).toBe(false);
  });

  it("accepts the editor's defaults (upper-case method, bare http:// proxy, JSON header text)", () => {
    const report = validateDsl(
      invokeCanvas({
        url: "http://api.example.com",
        method: "GET",
        timeout: 60,
        headers: '{\n  "Accept": "*/*",\n  "Cache-Control": "no-cache",\n  "Connection": "keep-alive"\n}',
        proxy: "http://",
        clean_html: false,
        datatype: "json",
        variables: [],
        outputs: { result: { value: "", type: "string" } },
      }),
    );
    expect(report.issues).toEqual([]);
  });

  it("rejects a header reference to a component that does not exist", () => {
    const report = validateDsl(invokeCanvas({ url: "http://h", headers: '{"A": "{Nope:X@y}"}' }));
    expect(report.issues.map((i) => i.message)).toContain('reference {Nope:X@y}: no component "Nope:X" in this canvas');
  });
});

// ---------------------------------------------------------------------------------------------
// End to end
// ---------------------------------------------------------------------------------------------

describe("Invoke requests", () => {
  it("GETs with query arguments from references, templated values and fallbacks", async () => {
    const server = await standIn((_request, res) => sendJson(res, 200, { temp: 21 }));
    const events = await run(
      invokeCanvas({
        url: `${server.base}/weather?lang=en`,
        method: "get",
        variables: [
          { key: "city", ref: "begin@city", value: "" },
          { key: "who", ref: "begin@user", value: "anonymous" },
          { key: "q", value: "about {sys.query}" },
          { key: "units", value: "metric" },
          { key: "", value: "unfilled row" },
        ],
      }),
      ALLOW,
      { query: "rain", inputs: { city: "Paris" } },
    );
    expect(finished(events).error).toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /weather?lang=en&city=Paris&who=anonymous&q=about+rain&units=metric"]);
    expect(messageText(events)).toBe('{"temp":21}');
    expect(nodeFinished(events, "Invoke:Fetch").outputs).toEqual({ result: '{"temp":21}', status_code: 200 });
    expect(nodeFinished(events, "Invoke:Fetch").inputs).toMatchObject({ "begin@city": "Paris", "begin@user": null, "sys.query": "rain" });
  });

  it("sends the step's idempotency key when asked (idempotency_key: true), and none by default", async () => {
    const server = await standIn((_request, res) => res.end("ok"));
    const canvas = await loadCanvas(invokeCanvas({ url: `${server.base}/charge`, method: "post", idempotency_key: true }), { ...ALLOW, taskId: "task-7" });
    await canvas.runToEnd({ query: "one" });
    await canvas.runToEnd({ query: "two" });
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual(["task-7:1:Invoke:Fetch:1", "task-7:2:Invoke:Fetch:1"]);
    await run(invokeCanvas({ url: `${server.base}/plain` }), ALLOW, {});
    expect(server.requests.at(-1)?.headers["idempotency-key"]).toBeUndefined();
  });

  it("renders references in the url and adds http:// when there is no scheme", async () => {
    const server = await standIn((_request, res) => res.end("pong"));
    const events = await run(
      invokeCanvas({ url: `127.0.0.1:${server.port}/{begin@city}/ping` }),
      ALLOW,
      { inputs: { city: "lyon" } },
    );
    expect(server.requests.map((r) => r.url)).toEqual(["/lyon/ping"]);
    expect(messageText(events)).toBe("pong");
  });

  it("POSTs JSON: JSON-looking text becomes JSON, other values keep their type", async () => {
    const server = await standIn(echo);
    await run(
      invokeCanvas(
        {
          url: `${server.base}/items`,
          method: "POST",
          headers: '{"Accept": "application/json", "Connection": "keep-alive"}',
          variables: [
            { key: "count", value: "5" },
            { key: "filter", value: '{"tags": ["a", "b"]}' },
            { key: "name", ref: "begin@city" },
            { key: "flag", value: true },
            { key: "vars", ref: "env.limits" },
          ],
        },
        {},
        [{ name: "limits", type: "object", value: { max: 3 } }],
      ),
      ALLOW,
      { inputs: { city: "Oslo" } },
    );
    const [req] = server.requests;
    expect(req.method).toBe("POST");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers.accept).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ count: 5, filter: { tags: ["a", "b"] }, name: "Oslo", flag: true, vars: { max: 3 } });
  });

  it("POSTs formdata as a urlencoded body, and keeps a Content-Type the user set", async () => {
    const server = await standIn(echo);
    await run(
      invokeCanvas({
        url: `${server.base}/form`,
        method: "post",
        datatype: "FormData",
        variables: [
          { key: "city", ref: "begin@city" },
          { key: "count", value: "5" },
          { key: "note", value: "a&b=c" },
        ],
      }),
      ALLOW,
      { inputs: { city: "São Paulo" } },
    );
    expect(server.requests[0].headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(server.requests[0].body).toBe("city=S%C3%A3o+Paulo&count=5&note=a%26b%3Dc");

    const custom = await standIn(echo);
    await run(invokeCanvas({ url: custom.base, method: "post", datatype: "json", headers: { "content-type": "application/vnd.api+json" }, variables: [{ key: "a", value: "1" }] }));
    expect(custom.requests[0].headers["content-type"]).toBe("application/vnd.api+json");
    expect(custom.requests[0].body).toBe('{"a":1}');
  });

  it("PUTs JSON", async () => {
    const server = await standIn(echo);
    const events = await run(invokeCanvas({ url: `${server.base}/items/7`, method: "put", variables: [{ key: "done", value: "true" }] }));
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([["PUT", "/items/7", '{"done":true}']]);
    expect(JSON.parse(messageText(events))).toEqual({ method: "PUT", url: "/items/7", body: '{"done":true}' });
  });

  it("interpolates header tokens: env, component outputs (ids with ':'), sys, and blanks the rest", async () => {
    const tokens = await standIn((_request, res) => res.end("tok-from-upstream"));
    const server = await standIn(echo);
    const dsl = canvasDsl(
      {
        begin: node("Begin", { inputs: { user: { name: "User", type: "line" } } }, ["Invoke:Token"]),
        "Invoke:Token": node("Invoke", { url: `${tokens.base}/token` }, ["Invoke:Fetch"]),
        "Invoke:Fetch": node("Invoke", {
          url: `${server.base}/me`,
          headers: JSON.stringify({
            Authorization: "Bearer {env.token}",
            "X-User": "{begin@user}",
            "X-Upstream": "{Invoke:Token@result}",
            "X-Query": "{sys.query}",
            "X-Missing": "a{nonexistent}b",
            "X-Unset": "[{begin@nothing}]",
            "X-Number": 42,
          }),
        }),
      },
      { variables: [{ name: "token", type: "string", value: "s3cret" }] },
    );
    const events = await run(dsl, ALLOW, { query: "hello", inputs: { user: "ada" } });
    expect(finished(events).error).toBeUndefined();
    expect(server.requests[0].headers).toMatchObject({
      authorization: "Bearer s3cret",
      "x-user": "ada",
      "x-upstream": "tok-from-upstream",
      "x-query": "hello",
      "x-missing": "ab",
      "x-unset": "[]",
      "x-number": "42",
    });
  });

  it("converts an HTML response to text with clean_html", async () => {
    const server = await standIn((_request, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><body><script>alert(1)</script><h2>Hello</h2><p>world &amp; more</p></body></html>");
    });
    const events = await run(invokeCanvas({ url: server.base, clean_html: true }));
    expect(messageText(events)).toBe("Hello\n\nworld & more");
  });
});

describe("Invoke failures", () => {
  it("fails on a non-2xx status, naming the status and the request (without its query)", async () => {
    const server = await standIn((_request, res) => sendJson(res, 404, { detail: "no such city" }));
    const events = await run(invokeCanvas({ url: `${server.base}/cities?key=secret`, variables: [{ key: "city", value: "Atlantis" }] }));
    const message = `HTTP 404 Not Found from GET ${server.base}/cities: {"detail":"no such city"}`;
    expect(finished(events).error).toBe(`Invoke:Fetch (Invoke:Fetch): ${message}`);
    expect(nodeFinished(events, "Invoke:Fetch")).toMatchObject({ error: message, outputs: { status_code: 404, _ERROR: message } });
    expect(trace(events)).not.toContain("node_started:Message:Show");
  });

  it("does not follow redirects", async () => {
    const server = await standIn((request, res) => {
      if (request.url === "/old") res.writeHead(302, { location: "/new" }).end();
      else res.end("moved here");
    });
    const events = await run(invokeCanvas({ url: `${server.base}/old` }));
    expect(finished(events).error).toBe(`Invoke:Fetch (Invoke:Fetch): HTTP 302 Found from GET ${server.base}/old (redirects are not followed; Location: /new)`);
    expect(server.requests.map((r) => r.url)).toEqual(["/old"]);
  });

  it("times out on its own timeout, with a clear error, well before the engine's", async () => {
    const server = await standIn(() => {
      /* never answers */
    });
    const started = performance.now();
    const events = await run(invokeCanvas({ url: `${server.base}/slow`, timeout: 0.3 }));
    const elapsed = performance.now() - started;
    expect(finished(events).error).toBe(`Invoke:Fetch (Invoke:Fetch): GET ${server.base}/slow timed out after 0.3s (the timeout param)`);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
  });

  it("reports a refused connection", async () => {
    const port = await closedPort();
    const events = await run(invokeCanvas({ url: `http://127.0.0.1:${port}/x` }));
    expect(finished(events).error).toMatch(new RegExp(`^Invoke:Fetch \\(Invoke:Fetch\\): GET http://127\\.0\\.0\\.1:${port}/x failed: .*ECONNREFUSED`));
  });

  it("is retried by the engine (max_retries), not internally", async () => {
    const server = await standIn((_request, res) => sendJson(res, 503, { busy: true }));
    await run(invokeCanvas({ url: server.base }));
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    const events = await run(invokeCanvas({ url: server.base, max_retries: 2, delay_after_error: 0 }));
    expect(server.requests).toHaveLength(3);
    expect(finished(events).error).toMatch(/HTTP 503 Service Unavailable/);
  });

  it("exception_method comment: the default value stands in for the result", async () => {
    const server = await standIn((_request, res) => res.writeHead(500).end("boom"));
    const events = await run(invokeCanvas({ url: server.base, exception_method: "comment", exception_default_value: "weather unavailable" }));
    expect(finished(events).error).toBeUndefined();
    expect(messageText(events)).toBe("weather unavailable");
  });

  it("exception_method goto: the error path runs and can read the error and the status", async () => {
    const server = await standIn((_request, res) => res.writeHead(500).end("boom"));
    const dsl = invokeCanvas(
      { url: `${server.base}/api`, exception_method: "goto", exception_goto: ["Message:Failed"] },
      { "Message:Failed": node("Message", { content: ["Failed ({Invoke:Fetch@status_code}): {Invoke:Fetch@_ERROR}"] }) },
    );
    const events = await run(dsl);
    expect(finished(events).error).toBeUndefined();
    const error = `HTTP 500 Internal Server Error from GET ${server.base}/api: boom`;
    expect(trace(events).filter((t) => !t.startsWith("message:"))).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:Invoke:Fetch",
      `node_finished:Invoke:Fetch!${error}`,
      "node_started:Message:Failed",
      "message_end",
      "node_finished:Message:Failed",
      "workflow_finished",
    ]);
    expect(messageText(events)).toBe(`Failed (500): ${error}`);
  });
});

describe("Invoke SSRF guard", () => {
  const refused = "connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them";
  const hint = (entry: string) => PRIVATE_NETWORK_HINT.replace("{entry}", entry);

  it("blocks loopback targets unless allowed, before connecting", async () => {
    const server = await standIn(echo);
    const events = await run(invokeCanvas({ url: `${server.base}/admin` }), {});
    expect(finished(events).error).toBe(
      `Invoke:Fetch (Invoke:Fetch): url host "127.0.0.1" is 127.0.0.1, a non-public address (loopback): ${refused}; ${hint(`127.0.0.1:${server.port}`)}`,
    );
    expect(server.requests).toEqual([]);
  });

  it("lets through what services.egress.allow lists, for that address and port only", async () => {
    const server = await standIn((_request, res) => res.end("ok"));
    const allowed = await run(invokeCanvas({ url: `${server.base}/a` }), { services: { egress: { allow: [`127.0.0.1:${server.port}`] } } });
    expect(finished(allowed).error).toBeUndefined();
    expect(messageText(allowed)).toBe("ok");
    const otherPort = await run(invokeCanvas({ url: `${server.base}/b` }), { services: { egress: { allow: [`127.0.0.1:${server.port + 1}`] } } });
    expect(finished(otherPort).error).toMatch(/url host "127\.0\.0\.1" is 127\.0\.0\.1, a non-public address \(loopback\)/);
    expect(server.requests.map((request) => request.path)).toEqual(["/a"]);
  });

  it("refuses a bad allow-list entry, naming it", async () => {
    const events = await run(invokeCanvas({ url: "http://example.com/" }), { services: { egress: { allow: ["10.0.0.0/40"] } } });
    expect(finished(events).error).toBe('Invoke:Fetch (Invoke:Fetch): services.egress.allow[0] "10.0.0.0/40": the prefix length 40 is outside 0-32');
  });

  it("blocks cloud metadata and names that resolve to loopback", async () => {
    const metadata = await run(invokeCanvas({ url: "http://169.254.169.254/latest/meta-data/" }), {});
    expect(finished(metadata).error).toMatch(/url host "169\.254\.169\.254" is 169\.254\.169\.254, a non-public address \(link-local \(this includes cloud metadata/);
    const local = await run(invokeCanvas({ url: "localhost:9/x" }), {});
    expect(finished(local).error).toMatch(/url host "localhost" resolves to (127\.0\.0\.1|::1), a non-public address \(loopback\)/);
  });

  it("can be allowed by the environment, and an explicit false in services wins over it", async () => {
    const server = await standIn((_request, res) => res.end("ok"));
    vi.stubEnv("CANVASFLOW_ALLOW_PRIVATE_NETWORK", "1");
    expect(messageText(await run(invokeCanvas({ url: server.base }), {}))).toBe("ok");
    const denied = await run(invokeCanvas({ url: server.base }), { services: { http: { allowPrivateNetwork: false } } });
    expect(finished(denied).error).toMatch(/a non-public address \(loopback\)/);
    expect(server.requests).toHaveLength(1);
  });

  it("resolves a name once and connects to the checked address (DNS pinning)", async () => {
    const server = await standIn(echo);
    const asked: string[] = [];
    const lookup: HostResolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const events = await run(invokeCanvas({ url: `http://api.example.test:${server.port}/v1` }), { services: { http: { allowPrivateNetwork: true, lookup } } });
    expect(finished(events).error).toBeUndefined();
    expect(asked).toEqual(["api.example.test"]);
    expect(server.requests.map((r) => [r.url, r.headers.host])).toEqual([["/v1", `api.example.test:${server.port}`]]);
  });

  it("blocks a name when any of its addresses is private", async () => {
    const lookup: HostResolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const events = await run(invokeCanvas({ url: "http://api.example.test/v1" }), { services: { http: { lookup } } });
    expect(finished(events).error).toBe(
      `Invoke:Fetch (Invoke:Fetch): url host "api.example.test" resolves to 127.0.0.1, a non-public address (loopback): ${refused}; ${hint("api.example.test:80")}`,
    );
  });

  it("refuses trailing-dot names before resolving or connecting", async () => {
    const server = await standIn(echo);
    const asked: string[] = [];
    // Loopback, so that a guard that let the name through could reach nothing but the stand-in.
    const lookup: HostResolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    for (const url of [`http://LOCALHOST.:${server.port}/admin`, "http://metadata.google.internal./computeMetadata/v1/"]) {
      const host = new URL(url).hostname;
      const events = await run(invokeCanvas({ url }), { services: { http: { lookup } } });
      expect(finished(events).error).toBe(
        `Invoke:Fetch (Invoke:Fetch): url host "${host}" ends with a dot: a name spelled with a trailing dot is refused, because it can slip past checks made on the name ("localhost." is localhost); write it without the final dot`,
      );
    }
    const proxied = await run(invokeCanvas({ url: "http://api.example.test/v1", proxy: "http://proxy.example.:3128" }), { services: { http: { lookup } } });
    expect(finished(proxied).error).toMatch(/proxy host "proxy\.example\." ends with a dot/);
    expect(asked).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it("checks the proxy's address too", async () => {
    const lookup: HostResolver = async () => [{ address: "93.184.216.34", family: 4 }];
    const events = await run(invokeCanvas({ url: "http://api.example.test/v1", proxy: "http://127.0.0.1:3128" }), { services: { http: { lookup } } });
    expect(finished(events).error).toBe(
      `Invoke:Fetch (Invoke:Fetch): proxy host "127.0.0.1" is 127.0.0.1, a non-public address (loopback): ${refused}; ${hint("127.0.0.1:3128")}`,
    );
  });
});

describe("Invoke proxy and cancellation", () => {
  it("sends http:// requests through the proxy", async () => {
    const server = await standIn((recorded, res) => res.end(`via=${recorded.headers.via}`));
    const proxy = await startProxy();
    const events = await run(invokeCanvas({ url: `${server.base}/data`, proxy: proxy.base, variables: [{ key: "q", value: "1" }] }));
    expect(finished(events).error).toBeUndefined();
    expect(proxy.seen).toEqual([`GET ${server.base}/data?q=1`]);
    expect(messageText(events)).toBe("via=test-proxy");
  });

  it("aborts the request when the run is cancelled", async () => {
    const controller = new AbortController();
    let closed!: Promise<void>;
    const server = await standIn((_request, _res, req) => {
      closed = new Promise((resolve) => req.socket.once("close", () => resolve()));
      controller.abort();
    });
    const canvas = await loadCanvas(invokeCanvas({ url: `${server.base}/long`, timeout: 30 }), ALLOW);
    const started = performance.now();
    const events: CanvasEvent[] = [];
    for await (const event of canvas.run({ signal: controller.signal })) events.push(event);
    expect(lastEvent(events)).toMatchObject({ event: "workflow_finished", data: { error: "cancelled" } });
    expect(nodeFinished(events, "Invoke:Fetch").error).toBe("cancelled");
    await closed;
    expect(performance.now() - started).toBeLessThan(5000);
    expect(canvas.status).toBe("cancelled");
  });
});
