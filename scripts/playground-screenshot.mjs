#!/usr/bin/env node
/**
 * Takes docs/images/playground.png: the playground mid-chat, its diagram lit. A real server on
 * loopback (in-memory store, a new key, the mock LLM), one agent that drafts with an LLM and then
 * waits on a form, Debian's Chromium (playwright-core) driving the page as a user would.
 *
 *   npm run build && node scripts/playground-screenshot.mjs [OUT.png]
 *
 * CANVASFLOW_CHROMIUM names another Chromium (default /usr/bin/chromium).
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { createApiKey, createServer, InProcessServerStore } from "../dist/src/index.js";
import { createLlmProvider, startMockLlmServer } from "../dist/src/llm/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(process.argv[2] ?? join(root, "docs/images/playground.png"));
const executablePath = process.env.CANVASFLOW_CHROMIUM ?? "/usr/bin/chromium";
if (!existsSync(executablePath)) throw new Error(`Chromium is needed at ${executablePath}: apt-get install -y chromium (or set CANVASFLOW_CHROMIUM)`);

const entry = (name, params, downstream, upstream) => ({ obj: { component_name: name, params }, downstream, upstream });
const named = { begin: "Begin", "LLM:Draft": "Draft a plan", "Message:Draft": "Show the draft", "UserFillUp:Prefs": "Ask for preferences", "Switch:Budget": "Budget?", "LLM:Thrifty": "Thrifty plan", "LLM:Lavish": "Lavish plan", "Message:Plan": "Final plan" };
const dsl = {
  components: {
    begin: entry("Begin", { mode: "conversational", prologue: "Where would you like to go?" }, ["LLM:Draft"], []),
    "LLM:Draft": entry("LLM", { llm_id: "mock@Mock", sys_prompt: "Draft a short trip plan.", prompts: [{ role: "user", content: "{sys.query}" }] }, ["Message:Draft"], ["begin"]),
    "Message:Draft": entry("Message", { content: ["{LLM:Draft@content}"] }, ["UserFillUp:Prefs"], ["LLM:Draft"]),
    "UserFillUp:Prefs": entry("UserFillUp", {
      enable_tips: true,
      tips: "A few details to finish the plan:",
      inputs: {
        travellers: { name: "Travellers", type: "integer", optional: false },
        pace: { name: "Pace", type: "options", optional: false, options: ["relaxed", "balanced", "packed"] },
        budget: { name: "On a budget", type: "boolean", optional: true },
        notes: { name: "Anything else", type: "paragraph", optional: true },
      },
    }, ["Switch:Budget"], ["Message:Draft"]),
    "Switch:Budget": entry("Switch", {
      conditions: [{ logical_operator: "and", items: [{ cpn_id: "UserFillUp:Prefs@budget", operator: "=", value: "true" }], to: ["LLM:Thrifty"] }],
      end_cpn_ids: ["LLM:Lavish"],
    }, ["LLM:Thrifty", "LLM:Lavish"], ["UserFillUp:Prefs"]),
    "LLM:Thrifty": entry("LLM", { llm_id: "mock@Mock", prompts: [{ role: "user", content: "Cheap plan for {UserFillUp:Prefs@travellers}" }] }, ["Message:Plan"], ["Switch:Budget"]),
    "LLM:Lavish": entry("LLM", { llm_id: "mock@Mock", prompts: [{ role: "user", content: "Lavish plan for {UserFillUp:Prefs@travellers}" }] }, ["Message:Plan"], ["Switch:Budget"]),
    "Message:Plan": entry("Message", { content: ["{LLM:Thrifty@content}{LLM:Lavish@content}"] }, [], ["LLM:Thrifty", "LLM:Lavish"]),
  },
  globals: {},
  history: [],
  path: [],
  retrieval: [],
  graph: { nodes: Object.entries(named).map(([id, name], i) => ({ id, type: "ragNode", data: { label: id.split(":")[0], name, form: {} }, position: { x: i * 200, y: 0 } })), edges: [] },
};

const mock = await startMockLlmServer({ script: { rules: [{ match: "Lisbon", reply: "Day 1: Alfama and the castle at sunset.\nDay 2: Belém, pastéis de nata, the river.\nDay 3: a train to Sintra's palaces.", chunk_delay_ms: 15 }] } });
const store = new InProcessServerStore();
const { key } = await createApiKey(store, { tenant: "demo", name: "screenshot" });
const llm = createLlmProvider({ providers: { mock: { baseURL: mock.url } }, defaultModel: { provider: "mock", model: "mock" } }, {});
const app = createServer({ store, canvas: { services: { llm } } });
let browser;
try {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const created = await (await fetch(`${base}/api/v1/agents`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ title: "Trip planner", description: "drafts, asks, plans", dsl }) })).json();
  if (created.code !== 0) throw new Error(`the agent was refused: ${created.message}`);
  await fetch(`${base}/api/v1/agents`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ title: "Badge maker", description: "fixtures/user-fill-up.json", dsl: JSON.parse(await (await import("node:fs/promises")).readFile(join(root, "fixtures/user-fill-up.json"), "utf8")) }) });

  browser = await chromium.launch({ executablePath, headless: true, args: ["--disable-dev-shm-usage", "--no-first-run", "--disable-extensions"] });
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(`${base}/`);
  await page.fill("#pg-key", key);
  await page.click("#pg-login-form button[type=submit]");
  await page.click(`#pg-agents button[data-agent-id="${created.data.id}"]`);
  await page.waitForSelector('#pg-diagram g.node[data-id="Message:Plan"]');
  await page.fill("#pg-query", "Three days in Lisbon, please.");
  await page.click("#pg-send");
  await page.waitForSelector(".pg-form [data-field=travellers]", { timeout: 60_000 });
  await page.waitForSelector('#pg-diagram g.node[data-id="UserFillUp:Prefs"][data-run-state="paused"]', { timeout: 60_000 });
  await page.fill(".pg-form [data-field=travellers]", "2");
  await page.selectOption(".pg-form [data-field=pace]", "balanced");
  await page.check(".pg-form [data-field=budget]");
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser?.close();
  await app.close();
  await store.close();
  await mock.close();
}
