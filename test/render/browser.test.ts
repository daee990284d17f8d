/**
 * The HTML views in a real browser. The trace page (Debian's Chromium): the trace of
 * fixtures/loop-iteration-switch.json opens offline, its timeline has a row for every component,
 * and clicking a step shows that step's outputs. The graph page shows a component's params on
 * click. Screenshots go to test-output/trace/.
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { cli } from "../helpers/cli.js";
import { launchTestBrowser, testOutputDir } from "../helpers/chromium.js";
import { scratchDir } from "../helpers/scratch.js";
import { missing } from "../helpers/system-tools.js";

const FIXTURE = "fixtures/loop-iteration-switch.json";
const { dir } = scratchDir("canvasflow-trace-browser-");
const shots = testOutputDir("trace");
const noChromium = missing("chromium", "the trace and graph pages' browser tests");
let browser: Browser;
let page: Page;
/** Every request the page made that was not for the trace file itself. */
const outside: string[] = [];

beforeAll(async () => {
  if (noChromium) return;
  const out = join(dir, "trace.html");
  const run = await cli(["run", FIXTURE, "--trace", out]);
  expect(run.code).toBe(0);
  browser = await launchTestBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url === `file://${out}`) return route.continue();
    outside.push(url);
    return route.abort();
  });
  await page.goto(`file://${out}`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(noChromium)("the trace page of loop-iteration-switch.json", () => {
  it("opens with nothing fetched from outside the file", () => {
    expect(outside).toEqual([]);
  });

  it("shows a timeline row for every component, with a bar per run", async () => {
    const canvas = await loadCanvas(FIXTURE);
    const rows = await page.locator(".gantt .row[data-component]").evaluateAll((els) => els.map((e) => e.getAttribute("data-component")));
    expect([...rows].sort()).toEqual([...canvas.componentIds].sort());
    expect(await page.locator('.gantt .row[data-component="Switch:Size"] .bar').count()).toBe(4);
    for (const id of canvas.componentIds) await expect(page.locator(`.gantt .row[data-component="${id}"] .bar`).first().isVisible()).resolves.toBe(true);
    await page.screenshot({ path: join(shots, "trace-timeline.png"), fullPage: true });
  });

  it("shows a step's outputs when its bar is clicked", async () => {
    await page.locator('.gantt .row[data-component="StringTransform:Labels"] .bar').first().click();
    const panel = page.locator("#cf-panel");
    await expect(panel.locator("h2").textContent()).resolves.toBe("Join labels");
    const outputs = await panel.locator("h3:text('outputs') + pre").textContent();
    expect(JSON.parse(outputs!)).toEqual({ result: "3 is small; 8 is big; 1 is small; 12 is big" });
    await page.screenshot({ path: join(shots, "trace-step.png"), fullPage: true });
  });

  it("shows the round a step belongs to: the fourth Switch run saw the fourth item", async () => {
    await page.locator('.gantt .row[data-component="Switch:Size"] .bar').nth(3).click();
    const panel = page.locator("#cf-panel");
    await expect(panel.locator(".muted").first().textContent()).resolves.toContain("run 4");
    expect(JSON.parse((await panel.locator("h3:text('inputs') + pre").textContent())!)).toEqual({ "IterationItem:Each@item": "12" });
  });

  it("highlights the path taken on the diagram, and a component click shows its last step", async () => {
    expect(await page.locator(".cf-graph .node.ran").count()).toBe(16);
    await page.locator('.cf-graph .node[data-id="Message:Summary"]').dispatchEvent("click");
    await expect(page.locator("#cf-panel h2").textContent()).resolves.toBe("Summary");
  });

  it("lists the streamed messages in order", async () => {
    const texts = await page.locator(".messages .msg").allTextContents();
    expect(texts.length).toBeGreaterThan(1);
    expect(texts[0]).toContain("attempt 1");
  });
});

describe.skipIf(noChromium)("the graph page (canvasflow graph --format html)", () => {
  it("opens offline, pans and zooms, and shows a component's params on click", async () => {
    const out = join(dir, "graph.html");
    const run = await cli(["graph", FIXTURE, "--format", "html", "-o", out]);
    expect(run.code).toBe(0);
    const graph = await browser.newPage({ viewport: { width: 1400, height: 800 } });
    const fetched: string[] = [];
    graph.on("request", (r) => {
      if (r.url() !== `file://${out}`) fetched.push(r.url());
    });
    await graph.goto(`file://${out}`);
    expect(fetched).toEqual([]);
    const stage = graph.locator(".cf-stage");
    const before = await stage.evaluate((el) => (el as unknown as { style: { transform: string } }).style.transform);
    await graph.locator(".cf-zoom button").first().click();
    const after = await stage.evaluate((el) => (el as unknown as { style: { transform: string } }).style.transform);
    expect(after).not.toBe(before);
    await graph.locator('.cf-graph .node[data-id="Switch:Size"]').dispatchEvent("click");
    await expect(graph.locator("#cf-panel h2").textContent()).resolves.toBe("Big or small?");
    const params = JSON.parse((await graph.locator("#cf-panel pre").textContent())!);
    expect(params.end_cpn_ids).toEqual(["StringTransform:Small"]);
    await graph.screenshot({ path: join(shots, "graph.png") });
    await graph.close();
  });
});
