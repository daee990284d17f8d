/** Crawler: a loopback page fetched through the SSRF guard (loopback allowed explicitly) and turned into Markdown. */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { finished, messages, nodeFinished } from "../helpers/dsl.js";
import { sendHtml, standIn } from "../helpers/http.js";
import { builtinDefinition } from "../helpers/registry.js";
import { toolCanvas, toolContext } from "../helpers/tools.js";

const PAGE = `<!doctype html><html><head><title>Release notes</title><style>body{color:red}</style><script>alert("x")</script></head>
<body><h1>Release 2.0</h1><p>The <strong>new</strong> engine is <a href="https://example.org/engine">here</a>.</p>
<ul><li>Faster</li><li>Smaller</li></ul><!-- hidden --><table><tr><th>Part</th><th>Size</th></tr><tr><td>core</td><td>2 MB</td></tr></table></body></html>`;

const crawler = builtinDefinition("Crawler");

function allowLoopback(ctx: ReturnType<typeof toolContext>["ctx"]) {
  return { ...ctx, services: { ...ctx.services, http: { allowPrivateNetwork: true } } };
}

describe("Crawler", () => {
  it("gives the page's Markdown, without scripts or styles", async () => {
    const site = await standIn((_r, res) => sendHtml(res, 200, PAGE));
    const { ctx } = toolContext({ params: { extract_type: "markdown" } });
    const out = await crawler.tool!.run({ query: `${site.base}/notes` }, allowLoopback(ctx));
    expect(out.formalized_content).toBe(
      ["# Release 2.0", "", "The **new** engine is [here](https://example.org/engine).", "", "* Faster", "* Smaller", "", "| Part | Size |", "| ---- | ---- |", "| core | 2 MB |"].join("\n"),
    );
    expect(site.requests[0].path).toBe("/notes");
  });

  it("gives the cleaned HTML or the plain text when extract_type says so", async () => {
    const site = await standIn((_r, res) => sendHtml(res, 200, PAGE));
    const html = await crawler.tool!.run({ query: site.base }, allowLoopback(toolContext({ params: { extract_type: "html" } }).ctx));
    expect(html.formalized_content).toContain("<h1>Release 2.0</h1>");
    expect(html.formalized_content).not.toMatch(/<script|<style|hidden/);
    const text = await crawler.tool!.run({ query: site.base }, allowLoopback(toolContext({ params: { extract_type: "content" } }).ctx));
    expect(text.formalized_content).toContain("Release 2.0");
    expect(text.formalized_content).not.toContain("<");
  });

  it("follows a redirect, checking its target too", async () => {
    const site = await standIn((request, res) => {
      if (request.path === "/old") return res.writeHead(301, { location: "/new" }).end();
      sendHtml(res, 200, "<p>moved here</p>");
    });
    const out = await crawler.tool!.run({ query: `${site.base}/old` }, allowLoopback(toolContext().ctx));
    expect(out.formalized_content).toBe("moved here");
    expect(site.requests.map((r) => r.path)).toEqual(["/old", "/new"]);
  });

  it("refuses loopback by default (SSRF guard) and a URL that is not http(s)", async () => {
    const site = await standIn((_r, res) => sendHtml(res, 200, PAGE));
    await expect(crawler.tool!.run({ query: site.base }, toolContext().ctx)).rejects.toThrow(/non-public address \(loopback\)/);
    expect(site.requests).toEqual([]);
    await expect(crawler.tool!.run({ query: "file:///etc/passwd" }, toolContext().ctx)).rejects.toThrow('query (the page URL) must be an http:// or https:// URL, not "file:///etc/passwd"');
  });

  it("runs as a canvas node on the user's URL", async () => {
    const site = await standIn((_r, res) => sendHtml(res, 200, PAGE));
    const canvas = await loadCanvas(toolCanvas("Crawler", "Crawler:C", {}, "{Crawler:C@formalized_content}"), { services: { http: { allowPrivateNetwork: true } } });
    const events = await canvas.runToEnd({ query: `${site.base}/notes` });
    expect(finished(events).error).toBeUndefined();
    expect(nodeFinished(events, "Crawler:C").outputs).toMatchObject({ formalized_content: expect.stringContaining("# Release 2.0") });
    expect(messages(events)[0]).toContain("* Faster");
  });
});
