/**
 * Browser: the model drives Debian's Chromium (playwright-core, /usr/bin/chromium) on a loopback
 * page under the mock LLM. The page's text is written by JavaScript, so only a real browser reads
 * it. Loopback is allowed explicitly; by default the SSRF guard blocks it.
 */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/index.js";
import { canvasDsl, finished, messages, node, nodeFinished } from "../helpers/dsl.js";
import { sendHtml, standIn } from "../helpers/http.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";

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
  it(
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

  it(
    "the SSRF guard blocks loopback by default: the model reads why",
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

  it("without Chromium it fails clearly, and the run goes on", async () => {
    const mock = await startMockLlm();
    const canvas = await loadCanvas(browserCanvas(), { services: { llm: mock.provider, tools: { knowledgeBases: {}, endpoints: {}, env: {}, browser: { executablePath: "/nonexistent/chromium" } } } });
    const events = await canvas.runToEnd({ query: "open something" });
    expect(nodeFinished(events, "Browser:B").error).toBe("Browser: the Chromium at /nonexistent/chromium (browser.executablePath or CANVASFLOW_CHROMIUM) does not exist");
    expect(finished(events).error).toBeUndefined();
  });
});
