/**
 * `canvasflow serve --config FILE`: the config's `server` section reaches the server (limits, rate
 * limits, the private-network guard, /metrics, the log level), `--log-level` overrides the
 * config's, and a bad section or level is a usage error naming it.
 */
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { cli, liveIO } from "../helpers/cli.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { standIn } from "../helpers/http.js";
import { newKey, SERVING, waitFor } from "../helpers/serve-banner.js";
import { scratchDir } from "../helpers/scratch.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const body = async (response: Response): Promise<any> => response.json();
const headers = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

describe("canvasflow serve --config FILE", () => {
  it("applies the server section: rate limits, DSL cap, the guard turned off, /metrics off, log level", async () => {
    const scratch = scratchDir("cf-serve-config-");
    const key = await newKey(scratch.dir);
    const config = scratch.write(
      "canvasflow.config.json",
      JSON.stringify({ server: { rateLimits: { requestsPerMinute: 3 }, limits: { dslComponents: 3 }, allowPrivateNetwork: true, metrics: { enabled: false }, logLevel: "warn" } }),
    );
    const target = await standIn((_request, res) => res.end("reached"));
    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", scratch.dir, "--config", config], live.io);
    try {
      const base = await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
      const invoke = canvasDsl({
        begin: node("Begin", {}, ["Invoke:Local"]),
        "Invoke:Local": node("Invoke", { url: `${target.base}/ping`, method: "get", timeout: 5 }, ["Message:Show"]),
        "Message:Show": node("Message", { content: ["{Invoke:Local@result}"] }),
      });
      const created = await body(await fetch(`${base}/api/v1/agents`, { method: "POST", headers: headers(key), body: JSON.stringify({ title: "invoke", dsl: invoke }) }));
      expect(created.code).toBe(0);
      const tooMany = canvasDsl({ begin: node("Begin", {}, ["Message:A", "Message:B", "Message:C"]), "Message:A": node("Message", { content: ["a"] }), "Message:B": node("Message", { content: ["b"] }), "Message:C": node("Message", { content: ["c"] }) });
      const refused = await body(await fetch(`${base}/api/v1/agents`, { method: "POST", headers: headers(key), body: JSON.stringify({ title: "big", dsl: tooMany }) }));
      expect(refused.message).toContain("server.limits.dslComponents");
      const turn = await body(await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers: headers(key), body: JSON.stringify({ agent_id: created.data.id, query: "go" }) }));
      expect(turn.data.data.content).toBe("reached");
      // Two requests so far count against requestsPerMinute (the completion does not): one more, then 429.
      expect((await fetch(`${base}/api/v1/agents`, { headers: headers(key) })).status).toBe(200);
      const limited = await fetch(`${base}/api/v1/agents`, { headers: headers(key) });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      // At warn, requests are not logged.
      expect(live.stderr()).not.toContain('"msg":"incoming request"');
    } finally {
      live.stop();
    }
    expect(await running).toBe(0);
  });

  it("reads the top-level egress section: a listed address is reached, another is refused with the server's hint", async () => {
    const scratch = scratchDir("cf-serve-egress-");
    const key = await newKey(scratch.dir);
    const listed = await standIn((_request, res) => res.end("listed"));
    const other = await standIn((_request, res) => res.end("other"));
    const config = scratch.write("canvasflow.config.json", JSON.stringify({ egress: { allow: [`127.0.0.1:${listed.port}`] } }));
    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", scratch.dir, "--config", config], live.io);
    try {
      const base = await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
      const answers: string[] = [];
      for (const target of [listed, other]) {
        const invoke = canvasDsl({
          begin: node("Begin", {}, ["Invoke:Local"]),
          "Invoke:Local": node("Invoke", { url: `${target.base}/ping`, method: "get", timeout: 5 }, ["Message:Show"]),
          "Message:Show": node("Message", { content: ["{Invoke:Local@result}"] }),
        });
        const created = await body(await fetch(`${base}/api/v1/agents`, { method: "POST", headers: headers(key), body: JSON.stringify({ title: `invoke ${target.port}`, dsl: invoke }) }));
        const turn = await body(await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers: headers(key), body: JSON.stringify({ agent_id: created.data.id, query: "go" }) }));
        answers.push(turn.code === 0 ? turn.data.data.content : turn.message);
      }
      expect(answers[0]).toBe("listed");
      expect(answers[1]).toContain(`non-public address (loopback): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; the server allows it only when its config says so: add "127.0.0.1:${other.port}" to egress.allow`);
      expect(other.requests).toEqual([]);
    } finally {
      live.stop();
    }
    expect(await running).toBe(0);
  });

  it("--log-level overrides the config's: JSON lines with request ids, never the key", async () => {
    const scratch = scratchDir("cf-serve-loglevel-");
    const key = await newKey(scratch.dir);
    const config = scratch.write("canvasflow.config.json", JSON.stringify({ server: { logLevel: "error" } }));
    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", scratch.dir, "--config", config, "--log-level", "info"], live.io);
    try {
      const base = await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
      const answer = await fetch(`${base}/api/v1/agents`, { headers: headers(key) });
      expect(answer.status).toBe(200);
      const id = answer.headers.get("x-request-id")!;
      const line = await waitFor("the request's log line", () => live.stderr().split("\n").find((l) => l.includes('"msg":"request completed"')));
      expect(JSON.parse(line)).toMatchObject({ level: 30, reqId: id, res: { statusCode: 200 } });
      expect(live.stderr()).not.toContain(key);
    } finally {
      live.stop();
    }
    expect(await running).toBe(0);
  });

  it("applies the server's component policy; a name in it that is no component is a config error naming its key (exit 2)", async () => {
    const scratch = scratchDir("cf-serve-policy-");
    const key = await newKey(scratch.dir);
    const config = scratch.write("canvasflow.config.json", JSON.stringify({ server: { policy: { components: { deny: ["Invoke", "code"] } } } }));
    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", scratch.dir, "--config", config], live.io);
    try {
      const base = await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
      const invoke = canvasDsl({ begin: node("Begin", {}, ["Invoke:Out"]), "Invoke:Out": node("Invoke", { url: "https://example.com", method: "get" }) });
      const refused = await body(await fetch(`${base}/api/v1/agents`, { method: "POST", headers: headers(key), body: JSON.stringify({ title: "invoke", dsl: invoke }) }));
      expect(refused).toMatchObject({ code: 103, data: { denied: [{ component_id: "Invoke:Out", rule: "server.policy.components.deny" }] } });
    } finally {
      live.stop();
    }
    expect(await running).toBe(0);

    const bad = scratch.write("bad.json", JSON.stringify({ server: { policy: { components: { deny: ["CodeExe"] }, tenants: { acme: { mcpServers: { allow: ["github"] } } } } } }));
    const refusedConfig = await cli(["serve", "--port", "0", "--data", scratch.dir, "--config", bad]);
    expect(refusedConfig.code).toBe(2);
    expect(refusedConfig.stderr).toContain(`${bad}: /server/policy/components/deny/0: names "CodeExe", which is no component type, Dify node type or Dify tool of this server (did you mean "CodeExec"?)`);
    expect(refusedConfig.stderr).toContain(`${bad}: /server/policy/tenants/acme/mcpServers/allow/0: names the MCP server "github", which is not configured (no mcpServers are configured)`);
    // A queue worker reads the same section of its config, and refuses it the same way.
    const worker = await cli(["worker", "--redis", "redis://127.0.0.1:6379", "--config", bad]);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain(`${bad}: /server/policy/components/deny/0: names "CodeExe"`);
  });

  it("a bad server section or --log-level is a usage error naming it (exit 2)", async () => {
    const scratch = scratchDir("cf-serve-badconfig-");
    const config = scratch.write("bad.json", JSON.stringify({ server: { limits: { bodyBytes: "1MB" }, rateLimits: { perMinute: 5 } } }));
    const bad = await cli(["serve", "--port", "0", "--data", scratch.dir, "--config", config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${config}: /server/limits/bodyBytes: must be integer`);
    expect(bad.stderr).toContain(`${config}: /server/rateLimits/perMinute: has the unknown property "perMinute"`);
    const contradicting = scratch.write("contradicting.json", JSON.stringify({ server: { limits: { wsHighWaterBytes: 2097152, wsMaxQueuedBytes: 1048576 } } }));
    const refused = await cli(["serve", "--port", "0", "--data", scratch.dir, "--config", contradicting]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${contradicting}: /server/limits/wsMaxQueuedBytes: is 1048576, less than limits.wsHighWaterBytes (2097152)`);
    const egress = scratch.write("bad-egress.json", JSON.stringify({ egress: { allow: ["127.0.0.1", "http://db.internal"] } }));
    const badEgress = await cli(["serve", "--port", "0", "--data", scratch.dir, "--config", egress]);
    expect(badEgress.code).toBe(2);
    expect(badEgress.stderr).toContain(`${egress}: /egress/allow/1: "http://db.internal": write a host name, an IP address or a CIDR range, optionally with :PORT; not a URL`);
    const level = await cli(["serve", "--port", "0", "--data", scratch.dir, "--log-level", "loud"]);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain('--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "loud"');
  });
});
