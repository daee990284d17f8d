/**
 * What the playground is served with and calls, over HTTP on loopback: the page and its assets
 * (no key, a strict Content-Security-Policy that still lets a trace's scripts run, nothing fetched
 * from elsewhere), and the read-only keyed routes: an agent's diagram, a run's trace, a session's
 * pending form, with their errors.
 */
import { describe, expect, it } from "vitest";
import { inlineScriptHashes, PLAYGROUND_PAGE, PLAYGROUND_SCRIPT, PLAYGROUND_STYLE } from "../../src/server/playground/index.js";
import { createServer } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { addKey, call, createAgent, injectTestServer } from "../helpers/server.js";
import { hello, userFillUp } from "./canvases.js";

describe("the playground's page", () => {
  it("is served at / without a key, with its script and style under /playground/, and a CSP", async () => {
    const server = await injectTestServer();
    const page = await call(server, "/", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toContain('<script src="/playground/app.js"></script>');
    const policy = page.headers.get("content-security-policy")!;
    expect(policy).toMatch(/(^|; )default-src 'none'(;|$)/);
    expect(policy).toMatch(/(^|; )script-src 'self' 'sha256-/);
    expect(policy).toContain("connect-src 'self'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const script = await call(server, "/playground/app.js", { key: null });
    expect([script.status, script.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect(script.text).toBe(PLAYGROUND_SCRIPT);
    const style = await call(server, "/playground/app.css", { key: null });
    expect([style.status, style.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
    expect((await call(server, "/playground/nothing.js", { key: null })).status).toBe(404);
  });

  it("playground.enabled: false takes the page away (its API routes stay); a bad value is named", async () => {
    const server = await injectTestServer({ playground: { enabled: false } });
    expect((await call(server, "/", { key: null })).json).toEqual({ code: 404, message: "Not Found: /", data: null, error: "Not Found" });
    expect((await call(server, "/playground/app.js", { key: null })).status).toBe(404);
    const agentId = await createAgent(server, hello(), "Hello");
    expect((await call(server, `/api/v1/agents/${agentId}/graph`)).json.code).toBe(0);
    expect(() => createServer({ store: new InProcessServerStore(), playground: { enabled: "no" as unknown as boolean } })).toThrow(/\/playground\/enabled/);
  });

  it("is one script that parses, and names no other host", () => {
    expect(() => new Function(PLAYGROUND_SCRIPT)).not.toThrow();
    for (const asset of [PLAYGROUND_PAGE, PLAYGROUND_SCRIPT, PLAYGROUND_STYLE]) expect(asset).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    // Values reach the page as text: the script never parses HTML from data.
    expect(PLAYGROUND_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });
});

describe("the playground's routes", () => {
  it("GET /api/v1/agents/{id}/graph: the agent's SVG and components, under the key", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, userFillUp(), "Badge");
    const graph = await call(server, `/api/v1/agents/${agentId}/graph`);
    expect(graph.json.code).toBe(0);
    expect(graph.json.data.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="cf-graph"/);
    expect(graph.json.data.svg).toContain('data-id="UserFillUp:Details"');
    expect(graph.json.data.components).toEqual([
      { id: "begin", name: "Begin", type: "Begin" },
      { id: "UserFillUp:Details", name: "Ask for details", type: "UserFillUp" },
      { id: "Message:Badge", name: "Badge", type: "Message" },
    ]);
    // Flowing right by default (a wide chain), down when asked (a tall one), as the playground asks.
    const size = (svg: string) => svg.match(/viewBox="0 0 (\d+) (\d+)"/)!.slice(1).map(Number);
    const [wideW, wideH] = size(graph.json.data.svg);
    expect(wideW).toBeGreaterThan(wideH);
    const down = await call(server, `/api/v1/agents/${agentId}/graph?direction=DOWN`);
    const [tallW, tallH] = size(down.json.data.svg);
    expect(tallH).toBeGreaterThan(wideH);
    expect(tallW).toBeLessThan(wideW);
    const sideways = await call(server, `/api/v1/agents/${agentId}/graph?direction=UP`);
    expect(sideways.json).toMatchObject({ code: 101, message: 'The query parameter `direction` must be RIGHT or DOWN, got "UP".' });
    const refused = await call(server, `/api/v1/agents/${agentId}/graph`, { key: null });
    expect([refused.status, refused.json.code]).toEqual([401, 401]);
    const other = await addKey(server.store, "t2");
    expect((await call(server, `/api/v1/agents/${agentId}/graph`, { key: other })).json).toMatchObject({ code: 102, message: "Agent not found." });
  });

  it("GET /api/v1/sessions/{id}/pending and /trace: a paused run's form and components, each run's trace", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, userFillUp(), "Badge");
    const paused = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "hi" } });
    expect(paused.json.data.event).toBe("user_inputs");
    const sessionId: string = paused.json.data.session_id;
    const firstRun: string = paused.json.data.message_id;

    const pending = await call(server, `/api/v1/sessions/${sessionId}/pending`);
    expect(pending.json.code).toBe(0);
    expect(pending.json.data.components).toEqual(["UserFillUp:Details"]);
    expect(Object.keys(pending.json.data.inputs)).toEqual(["name", "colour", "note"]);
    expect(pending.json.data.tips).toBe('You said "hi". Who is the badge for?');

    const pausedTrace = await call(server, `/api/v1/sessions/${sessionId}/trace`);
    expect([pausedTrace.status, pausedTrace.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect(pausedTrace.text).toContain('data-component="begin"');
    expect(pausedTrace.text).toContain('class="node f-input paused" data-id="UserFillUp:Details"');
    // The page's policy lets the trace's own scripts run in its frame.
    const policy = (await call(server, "/", { key: null })).headers.get("content-security-policy")!;
    for (const hash of inlineScriptHashes(pausedTrace.text)) expect(policy).toContain(hash);

    const resumed = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, session_id: sessionId, inputs: { name: { value: "Ada" }, colour: { value: "red" } } } });
    expect(resumed.json.data.data.content).toBe("[red] Ada ");
    expect((await call(server, `/api/v1/sessions/${sessionId}/pending`)).json).toEqual({ code: 0, message: "success", data: null });
    const latest = await call(server, `/api/v1/sessions/${sessionId}/trace`);
    expect(latest.text).toContain('data-component="Message:Badge"');
    expect(latest.text).not.toContain('data-component="begin"');
    const first = await call(server, `/api/v1/sessions/${sessionId}/trace?message_id=${firstRun}`);
    expect(first.text).toContain('data-component="begin"');
    expect(first.text).not.toContain('data-component="Message:Badge"');
  });

  it("names what is wrong: a bad or unknown message_id, a session with no run, another tenant's session, no key", async () => {
    const server = await injectTestServer();
    const agentId = await createAgent(server, hello(), "Hello");
    const done = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada" } });
    const sessionId: string = done.json.data.session_id;

    const bad = await call(server, `/api/v1/sessions/${sessionId}/trace?message_id=${encodeURIComponent("a b")}`);
    expect(bad.json.code).toBe(101);
    expect(bad.json.message).toContain("`message_id`");
    const unknown = await call(server, `/api/v1/sessions/${sessionId}/trace?message_id=nope`);
    expect(unknown.json).toMatchObject({ code: 102, message: `Session ${sessionId} has no run with message_id nope in its event log (it keeps the latest events only).` });

    const created = await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} });
    const fresh: string = created.json.data.id;
    expect((await call(server, `/api/v1/sessions/${fresh}/trace`)).json).toMatchObject({ code: 102, message: `Session ${fresh} has no run in its event log yet.` });
    expect((await call(server, `/api/v1/sessions/${fresh}/pending`)).json.data).toBeNull();

    const other = await addKey(server.store, "t2");
    for (const path of [`/api/v1/sessions/${sessionId}/trace`, `/api/v1/sessions/${sessionId}/pending`]) {
      expect((await call(server, path, { key: other })).json).toMatchObject({ code: 103, message: "Only authorized users can access this agent session." });
      const refused = await call(server, path, { key: null });
      expect([refused.status, refused.json.code]).toEqual([401, 401]);
    }
  });
});
