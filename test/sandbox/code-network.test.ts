/**
 * Network for sandboxed code: none by default; with codeExec.networkAllow, the listed hosts only,
 * through a proxy of the run's own that the egress guard stands behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeSandboxSettings } from "../../src/sandbox/code/options.js";
import { runCode } from "../../src/sandbox/code/run-code.js";
import { createEgressPolicy } from "../../src/sandbox/egress/guard.js";
import { loadCanvas } from "../../src/api.js";
import { canvasDsl, node, nodeFinished } from "../helpers/dsl.js";
import { startLoopbackServer, type LoopbackServer } from "../helpers/http.js";

let api: LoopbackServer;
let other: LoopbackServer;

beforeAll(async () => {
  api = await startLoopbackServer((request, res) => res.end(`api saw ${request.method} ${request.url}`));
  other = await startLoopbackServer((_request, res) => res.end("the other server"));
});

afterAll(async () => {
  await api.close();
  await other.close();
});

const fetchScript = (url: string) =>
  ["import urllib.request", "def main():", `    with urllib.request.urlopen(${JSON.stringify(url)}, timeout=5) as answer:`, "        return answer.read().decode()"].join("\n");

describe("network for sandboxed Python", () => {
  it("reaches a listed host through the proxy, when the egress guard allows it too", async () => {
    const host = `127.0.0.1:${api.port}`;
    const settings = codeSandboxSettings({ networkAllow: [host], timeoutMs: 20_000 });
    const egress = () => createEgressPolicy({ allow: [host] });
    expect(await runCode("python", fetchScript(`${api.base}/hello?x=1`), {}, settings, { egress })).toBe("api saw GET /hello?x=1");
  });

  it("refuses a host that is not listed, before any connection to it", async () => {
    const settings = codeSandboxSettings({ networkAllow: [`127.0.0.1:${api.port}`], timeoutMs: 20_000 });
    const egress = () => createEgressPolicy({ allow: [`127.0.0.1:${api.port}`, `127.0.0.1:${other.port}`] });
    const before = other.requests.length;
    await expect(runCode("python", fetchScript(`${other.base}/secret`), {}, settings, { egress })).rejects.toThrow(/HTTP Error 403/);
    expect(other.requests.length).toBe(before);
  });

  it("a listed host is still held to the egress guard: loopback needs the operator's egress.allow too", async () => {
    const settings = codeSandboxSettings({ networkAllow: [`127.0.0.1:${api.port}`], timeoutMs: 20_000 });
    const before = api.requests.length;
    await expect(runCode("python", fetchScript(`${api.base}/x`), {}, settings, { egress: () => createEgressPolicy() })).rejects.toThrow(/HTTP Error 403/);
    expect(api.requests.length).toBe(before);
  });

  it("has no network at all without networkAllow: no proxy, and its own loopback is empty", async () => {
    const script = ["import os, socket", "def main():", `    proxies = [k for k in os.environ if 'proxy' in k.lower()]`, "    try:", `        socket.create_connection(('127.0.0.1', ${api.port}), timeout=2)`, "        return [proxies, 'connected']", "    except OSError as error:", "        return [proxies, type(error).__name__]"].join("\n");
    expect(await runCode("python", script, {}, codeSandboxSettings({ timeoutMs: 20_000 }), { egress: () => createEgressPolicy({ allowPrivateNetwork: true }) })).toEqual([[], "ConnectionRefusedError"]);
  });

  it("a CodeExec node gets its network from the codeExec and egress services; a bad entry is named", async () => {
    const host = `127.0.0.1:${api.port}`;
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["CodeExec:Fetch"]),
      "CodeExec:Fetch": node("CodeExec", { lang: "python", script: fetchScript(`${api.base}/from-canvas`), arguments: {}, outputs: { result: { type: "String", value: "" } } }),
    });
    const canvas = await loadCanvas(dsl, { services: { codeExec: { networkAllow: [host] }, egress: { allow: [host] } } });
    await canvas.runToEnd({ query: "" });
    expect(canvas.outputs("CodeExec:Fetch")).toMatchObject({ result: "api saw GET /from-canvas" });
    const bad = await loadCanvas(dsl, { services: { codeExec: { networkAllow: ["http://example.com"] } } });
    const events = await bad.runToEnd({ query: "" });
    expect(nodeFinished(events, "CodeExec:Fetch").error).toContain('codeExec.networkAllow');
    expect(nodeFinished(events, "CodeExec:Fetch").error).toContain("not a URL");
  });
});
