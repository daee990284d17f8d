/**
 * Browser: the model drives Debian's Chromium (playwright-core, /usr/bin/chromium) on a loopback
 * page under the mock LLM. The page's text is written by JavaScript, so only a real browser reads
 * it. Loopback is allowed explicitly; by default the egress guard blocks it: every connection the
 * browser makes goes through a guarded proxy.
 */
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { canvasDsl, finished, messages, node, nodeFinished } from "../helpers/dsl.js";
import { sendHtml, standIn } from "../helpers/http.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import { missing } from "../helpers/system-tools.js";

const noChromium = missing("chromium", "the Browser component's tests in Chromium");

const PAGE = `<!doctype html><html><head><title>Weather station</title></head><body>
<h1>Station 7</h1><p id="reading">loading…</p>
<script>document.getElementById("reading").textContent = "Rendered by JavaScript: 21.5 degrees";</script>
</body></html>`;

function browserCanvas(): ReturnType<typeof canvasDsl> {
  return canvasDsl({
    begin: node("Begin", {}, ["Browser:B"]),
    "Browser:B": node("Browser", { llm_id: "mock@Mock", prompts: "{sys.query}", max_steps: 3 }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{Browser:B@content}"] }),
  });
}

function toolResults(mock: MockLlm): string[] {
  return (mock.chatRequests().at(-1)?.messages ?? []).filter((m) => m.role === "tool").map((m) => String(m.content));
}

describe("Browser", () => {
  it.skipIf(noChromium)(
    "loads a loopback page in Chromium and returns its text",
    async () => {
      const site = await standIn((_r, res) => sendHtml(res, 200, PAGE));
      const mock = await startMockLlm({
        rules: [
          { match: "station", on: "last_user", times: 1, tool_calls: [{ name: "go_to_url", arguments: { url: `${site.base}/station` } }] },
          { match: "Rendered by JavaScript: 21\\.5 degrees", on: "tool", reply: "Station 7 reads 21.5 degrees." },
          { match: ".", on: "any", reply: "the page text was not read" },
        ],
      });
      const canvas = await loadCanvas(browserCanvas(), { services: { llm: mock.provider, http: { allowPrivateNetwork: true } } });
      const events = await canvas.runToEnd({ query: "What does the station page say?" });
      expect(finished(events).error).toBeUndefined();
      expect(messages(events)).toEqual(["Station 7 reads 21.5 degrees."]);
      const [result] = toolResults(mock);
      expect(result).toContain(`URL: ${site.base}/station`);
      expect(result).toContain("Title: Weather station");
      expect(result).toContain("Station 7\n\nRendered by JavaScript: 21.5 degrees");
      expect(mock.chatRequests()[0].tools?.map((t) => t.function.name)).toEqual(["go_to_url", "get_page_text", "click", "type_text", "go_back"]);
      expect(nodeFinished(events, "Browser:B").outputs).toMatchObject({ content: "Station 7 reads 21.5 degrees.", downloaded_files: [] });
      expect(site.requests.map((r) => r.path)).toEqual(["/station"]);
    },
    90_000,
  );

  it.skipIf(noChromium)(
    "the egress guard refuses a loopback page by default: the model reads why",
    async () => {
      const site = await standIn((_r, res) => sendHtml(res, 200, PAGE));
      const mock = await startMockLlm({
        rules: [
          { match: "station", on: "last_user", times: 1, tool_calls: [{ name: "go_to_url", arguments: { url: `${site.base}/station` } }] },
          { match: "non-public address", on: "tool", reply: "That address is blocked." },
        ],
      });
      const canvas = await loadCanvas(browserCanvas(), { services: { llm: mock.provider } });
      const events = await canvas.runToEnd({ query: "open the station page" });
      expect(messages(events)).toEqual(["That address is blocked."]);
      expect(toolResults(mock)[0]).toMatch(/^Tool go_to_url failed: could not open .*blocked: url host "127\.0\.0\.1" .*non-public address \(loopback\)/);
      expect(site.requests).toEqual([]);
    },
    90_000,
  );

  it.skipIf(noChromium)(
    "every connection goes through the guarded proxy: a listed page loads, what it asks of an unlisted address is refused",
    async () => {
      const inner = await standIn((_r, res) => {
        res.setHeader("access-control-allow-origin", "*");
        res.end("inner secret");
      });
      // A synchronous XHR runs before the page's text is read: what it got is on the page.
      const page = `<!doctype html><html><head><title>Outer</title></head><body><p id="r"></p><script>
        var x = new XMLHttpRequest(); var said;
        try { x.open("GET", "${inner.base}/secret", false); x.send(); said = "xhr got " + x.status + " " + x.responseText; } catch (e) { said = "xhr failed"; }
        document.getElementById("r").textContent = said;
      </script></body></html>`;
      const site = await standIn((_r, res) => sendHtml(res, 200, page));
      const run = async (allow: string[]) => {
        const mock = await startMockLlm({
          rules: [
            { match: "outer", on: "last_user", times: 1, tool_calls: [{ name: "go_to_url", arguments: { url: `${site.base}/outer` } }] },
            { match: ".", on: "any", reply: "done" },
          ],
        });
        const canvas = await loadCanvas(browserCanvas(), { services: { llm: mock.provider, egress: { allow } } });
        const events = await canvas.runToEnd({ query: "open the outer page" });
        expect(finished(events).error).toBeUndefined();
        return toolResults(mock)[0];
      };
      expect(await run([`127.0.0.1:${site.port}`, `127.0.0.1:${inner.port}`])).toContain("xhr got 200 inner secret");
      expect(inner.requests).toHaveLength(1);
      const refused = await run([`127.0.0.1:${site.port}`]);
      expect(refused).toContain("Title: Outer");
      expect(refused).toContain("xhr failed");
      expect(inner.requests).toHaveLength(1);
    },
    90_000,
  );

  it.skipIf(noChromium)(
    "a WebSocket, which page routing never sees, is held to the guard too",
    async () => {
      // Counts the TCP connections it gets: a WebSocket that got past the guard would be one.
      let connections = 0;
      const inner = createNetServer((socket) => {
        connections++;
        socket.destroy();
      });
      const innerPort = await new Promise<number>((resolve) => inner.listen(0, "127.0.0.1", () => resolve((inner.address() as AddressInfo).port)));
      // The page opens the WebSocket, then waits on a script that answers once the attempt is
      // settled either way (the guard's refusal comes back in milliseconds), so its text says how it went.
      const page = `<!doctype html><html><head><title>Socket</title></head><body><p id="r">pending</p><script>
        var ws = new WebSocket("ws://127.0.0.1:${innerPort}/");
        ws.onopen = function () { document.getElementById("r").textContent = "ws open"; };
        ws.onerror = function () { document.getElementById("r").textContent = "ws refused"; };
      </script><script src="/settled.js"></script></body></html>`;
      const site = await standIn(async (request, res) => {
        if (request.path === "/settled.js") {
          for (let i = 0; i < 50 && connections === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
          res.setHeader("content-type", "text/javascript");
          return res.end("");
        }
        sendHtml(res, 200, page);
      });
      const mock = await startMockLlm({
        rules: [
          { match: "socket", on: "last_user", times: 1, tool_calls: [{ name: "go_to_url", arguments: { url: `${site.base}/socket` } }] },
          { match: ".", on: "any", reply: "done" },
        ],
      });
      try {
        const canvas = await loadCanvas(browserCanvas(), { services: { llm: mock.provider, egress: { allow: [`127.0.0.1:${site.port}`] } } });
        await canvas.runToEnd({ query: "open the socket page" });
        expect(toolResults(mock)[0]).toContain("ws refused");
        expect(connections).toBe(0);
      } finally {
        inner.close();
      }
    },
    90_000,
  );

  it.skipIf(noChromium)(
    "Chromium does not resolve names itself: a name only the guard's resolver knows opens, at the address it checked",
    async () => {
      const site = await standIn((_r, res) => sendHtml(res, 200, PAGE));
      const url = `http://station.example.test:${site.port}/station`;
      const mock = await startMockLlm({
        rules: [
          { match: "station", on: "last_user", times: 1, tool_calls: [{ name: "go_to_url", arguments: { url } }] },
          { match: "Rendered by JavaScript", on: "tool", reply: "read it" },
          { match: ".", on: "any", reply: "not read" },
        ],
      });
      const lookup = async () => [{ address: "127.0.0.1", family: 4 as const }];
      const canvas = await loadCanvas(browserCanvas(), { services: { llm: mock.provider, egress: { allow: ["station.example.test"], lookup } } });
      const events = await canvas.runToEnd({ query: "What does the station page say?" });
      expect(messages(events)).toEqual(["read it"]);
      expect(site.requests.map((r) => [r.path, r.headers.host])).toEqual([["/station", `station.example.test:${site.port}`]]);
    },
    90_000,
  );

  it("without Chromium it fails clearly, and the run goes on", async () => {
    const mock = await startMockLlm();
    const canvas = await loadCanvas(browserCanvas(), { services: { llm: mock.provider, tools: { knowledgeBases: {}, endpoints: {}, env: {}, browser: { executablePath: "/nonexistent/chromium" } } } });
    const events = await canvas.runToEnd({ query: "open something" });
    expect(nodeFinished(events, "Browser:B").error).toBe("Browser: the Chromium at /nonexistent/chromium (browser.executablePath or CANVASFLOW_CHROMIUM) does not exist");
    expect(finished(events).error).toBeUndefined();
  });
});
