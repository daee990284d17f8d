/**
 * `canvasflow serve`: flags, the banner (where it listens, how to make a key), the store it shares
 * with `canvasflow keys`, the listen guard, and stopping: in this process through io.shutdown, and
 * as a real process on SIGTERM in the middle of a streaming run.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { cli, liveIO } from "../helpers/cli.js";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { corpusPath } from "../helpers/corpus.js";
import { scratchDir } from "../helpers/scratch.js";
import { newKey, SERVING, waitFor } from "../helpers/serve-banner.js";
import { llmCanvas } from "../server/canvases.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const body = async (response: Response): Promise<any> => response.json();
const json = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

describe("canvasflow serve", () => {
  it("serves the store's agents and the --agents folder, says where and how to make a key, and stops on shutdown", async () => {
    const data = scratchDir("cf-serve-").dir;
    const key = await newKey(data);
    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", data, "--agents", "fixtures", "--mock-llm"], live.io);
    const base = await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
    expect(live.stderr()).toContain(`(store: sqlite:${join(data, "canvasflow.db")})`);
    expect(live.stderr()).toContain(`API keys: 1 in the store; make another with: canvasflow keys create --tenant T --name N --data ${data}`);
    expect(live.stderr()).toContain(`OpenAI clients: baseURL ${base}/api/v1/agents_openai/<agent id>`);
    expect(live.stderr()).toContain(`playground: open ${base}/ in a browser and log in with an API key`);
    // The built package serves the playground's page and script.
    const page = await fetch(`${base}/`);
    expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect(await page.text()).toContain('<script src="/playground/app.js"></script>');
    expect((await fetch(`${base}/playground/app.js`)).status).toBe(200);

    const listed = await body(await fetch(`${base}/api/v1/agents`, { headers: json(key) }));
    expect(listed.data.canvas.map((a: { id: string }) => a.id)).toContain("hello");
    const turn = await body(await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers: json(key), body: JSON.stringify({ agent_id: "hello", query: "Ada" }) }));
    expect(turn.data.data.content).toBe("Hello, Ada! This is turn 1.");
    expect((await fetch(`${base}/api/v1/agents`, { headers: json("cf-wrong") })).status).toBe(401);

    live.stop();
    expect(await running).toBe(0);
    expect(live.stderr()).toContain("canvasflow: stopped");
  });

  it("--dify-app ID serves that agent of the --agents folder (a Dify YAML file) on Dify's service API under /v1", async () => {
    const data = scratchDir("cf-serve-dify-").dir;
    const agents = scratchDir("cf-serve-dify-agents-").dir;
    copyFileSync(corpusPath("dify", "conditional_hello_branching_workflow.yml"), join(agents, "hello.yml"));
    const key = await newKey(data);
    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", data, "--agents", agents, "--dify-app", "hello"], live.io);
    const base = await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
    expect(live.stderr()).toContain(`Dify clients: base URL ${base}/v1 (the app is the agent hello)`);
    const run = await fetch(`${base}/v1/workflows/run`, { method: "POST", headers: json(key), body: JSON.stringify({ inputs: { query: "hello there" }, user: "ada", response_mode: "blocking" }) });
    expect(run.status).toBe(200);
    expect((await body(run)).data).toMatchObject({ status: "succeeded", outputs: { true: "hello there" } });
    live.stop();
    expect(await running).toBe(0);
  });

  it("with no key, refuses a non-loopback host, naming the ways out; listens on loopback serving the tenant default", async () => {
    const data = scratchDir("cf-serve-nokey-").dir;
    const refused = await cli(["serve", "--host", "0.0.0.0", "--port", "0", "--data", data]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^canvasflow: refusing to listen on 0\.0\.0\.0: no API key is configured/m);
    expect(refused.stderr).toContain("--insecure-no-auth");

    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", data], live.io);
    await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
    expect(live.stderr()).toContain(`no API key is configured: every request is served as the tenant "default", on this loopback address only; to require keys: canvasflow keys create --tenant T --name N --data ${data}, then restart`);
    live.stop();
    expect(await running).toBe(0);
  });

  it("--api-key-env NAME accepts the key in $NAME as the tenant default", async () => {
    const data = scratchDir("cf-serve-env-").dir;
    process.env.CF_SERVE_TEST_KEY = "cf-from-the-environment";
    try {
      const live = liveIO();
      const running = main(["serve", "--port", "0", "--data", data, "--api-key-env", "CF_SERVE_TEST_KEY"], live.io);
      const base = await waitFor("the banner", () => SERVING.exec(live.stderr())?.[1]);
      expect(live.stderr()).toContain('API keys: the key in $CF_SERVE_TEST_KEY (tenant "default") and 0 in the store');
      expect((await fetch(`${base}/api/v1/agents`, { headers: json("cf-from-the-environment") })).status).toBe(200);
      expect((await fetch(`${base}/api/v1/agents`)).status).toBe(401);
      live.stop();
      expect(await running).toBe(0);
    } finally {
      delete process.env.CF_SERVE_TEST_KEY;
    }
  });

  it("usage errors name the flag: exit 2", async () => {
    const data = scratchDir("cf-serve-usage-").dir;
    const cases: Array<[string[], RegExp]> = [
      [["--port", "http"], /--port must be a decimal integer from 0 to 65535, got "http"/],
      [["--port", "-1"], /--port must be a decimal integer from 0 to 65535, got "-1"/],
      [["--api-key-env", "CF_SURELY_UNSET_VARIABLE"], /--api-key-env CF_SURELY_UNSET_VARIABLE: the environment variable CF_SURELY_UNSET_VARIABLE is not set/],
      [["--data", data, "--redis", "redis://127.0.0.1:6379"], /--data .*not both/],
      [["agents.json"], /serve takes no arguments, got "agents.json"/],
      [["--data", data, "--agents", "/nonexistent/agents"], /--agents \/nonexistent\/agents: no such folder/],
      [["--data", data, "--mock-llm-script", "/nonexistent/script.json"], /script/],
      [["--data", data, "--grace", "soon"], /--grace must be a number of seconds from 0 to 86400 \(digits, with a decimal part if needed, such as 2\.5\), got "soon"/],
      [["--data", data, "--grace", "-1"], /--grace must be a number of seconds from 0 to 86400/],
      [["--data", data, "--redis-prefix", "mine:"], /--redis-prefix is a Redis key prefix: give it with --redis/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(["serve", "--port", "0", ...args]);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(message);
    }
  });
});

describe("canvasflow serve as a process", () => {
  it("SIGTERM during a streaming run that outlasts --grace: the stream ends with a cancelled workflow_finished and [DONE]; after a restart the session goes on", async () => {
    const folder = scratchDir("cf-serve-sigterm-");
    const data = folder.dir;
    const script = folder.write("script.json", { rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "after the restart" }] });
    const key = await newKey(data);
    const start = async (): Promise<{ proc: CliProcess; base: string }> => {
      const proc = spawnCli(["serve", "--port", "0", "--data", data, "--mock-llm-script", script, "--grace", "1"]);
      const base = await waitFor("the banner", () => SERVING.exec(proc.stderr())?.[1]);
      return { proc, base };
    };
    let { proc, base } = await start();
    const agent = await body(await fetch(`${base}/api/v1/agents`, { method: "POST", headers: json(key), body: JSON.stringify({ title: "slow", dsl: llmCanvas() }) }));
    const response = await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers: json(key), body: JSON.stringify({ agent_id: agent.data.id, query: "slow", stream: true }) });
    const reader = response.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    const sessionId = JSON.parse(text.split("\n\n")[0].slice(5)).session_id;
    // The LLM has started (its model answers in a minute): the run is under way.
    while (!text.includes('"event":"node_started"') || !text.includes('"component_id":"LLM:A"')) text += new TextDecoder().decode((await reader.read()).value);
    proc.child.kill("SIGTERM");
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toContain("canvasflow: stopping: no new requests; runs going on get 1 s to finish, then are cancelled");
    expect(proc.stderr()).toContain("canvasflow: stopped");
    const frames = text.split("\n\n").filter((f) => f !== "");
    expect(frames.at(-1)).toBe("data:[DONE]");
    expect(JSON.parse(frames.at(-2)!.slice(5))).toMatchObject({ event: "workflow_finished", session_id: sessionId, data: { error: "cancelled" } });

    ({ proc, base } = await start());
    try {
      const next = await body(await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers: json(key), body: JSON.stringify({ agent_id: agent.data.id, session_id: sessionId, query: "again" }) }));
      expect(next.code).toBe(0);
      expect(next.data.data.content).toBe("after the restart");
    } finally {
      proc.child.kill("SIGTERM");
      expect(await proc.exited).toEqual({ code: 0, signal: null });
    }
  }, 120_000);

  it("SIGTERM during a streaming run that ends within the grace (default 30 s): the run finishes, new connections are refused meanwhile; after a restart the session goes on", async () => {
    const folder = scratchDir("cf-serve-grace-");
    const data = folder.dir;
    const words = "one two three four five six seven eight nine ten eleven twelve";
    const script = folder.write("script.json", { rules: [{ match: "slow", reply: words, chunk_delay_ms: 200 }, { match: ".", reply: "after the restart" }] });
    const key = await newKey(data);
    const start = async (): Promise<{ proc: CliProcess; base: string }> => {
      const proc = spawnCli(["serve", "--port", "0", "--data", data, "--mock-llm-script", script]);
      const base = await waitFor("the banner", () => SERVING.exec(proc.stderr())?.[1]);
      return { proc, base };
    };
    let { proc, base } = await start();
    const agent = await body(await fetch(`${base}/api/v1/agents`, { method: "POST", headers: json(key), body: JSON.stringify({ title: "slow", dsl: llmCanvas() }) }));
    const response = await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers: json(key), body: JSON.stringify({ agent_id: agent.data.id, query: "slow", stream: true }) });
    const reader = response.body!.getReader();
    let text = "";
    let ended = false;
    // The model has started streaming its reply: the run is under way.
    while (!text.includes('"event":"message"')) text += new TextDecoder().decode((await reader.read()).value);
    const rest = (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
      ended = true;
    })();
    proc.child.kill("SIGTERM");
    await waitFor("the stopping line", () => (proc.stderr().includes("canvasflow: stopping") ? true : undefined));
    expect(proc.stderr()).toContain("canvasflow: stopping: no new requests; runs going on get 30 s to finish, then are cancelled");
    // While the run goes on, a new connection is refused.
    let turnedAway = false;
    for (let i = 0; i < 100 && !turnedAway && !ended; i++) {
      turnedAway = await fetch(`${base}/api/v1/system/ping`).then(
        () => false,
        () => true,
      );
      if (!turnedAway) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(turnedAway).toBe(true);
    expect(ended).toBe(false);
    await rest;
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const frames = text.split("\n\n").filter((f) => f !== "");
    expect(frames.at(-1)).toBe("data:[DONE]");
    const events = frames.slice(0, -1).map((f) => JSON.parse(f.slice(5)));
    const sessionId = events[0].session_id;
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished", session_id: sessionId });
    expect(events.at(-1).data.error).toBeUndefined();
    expect(events.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe(words);

    ({ proc, base } = await start());
    try {
      const next = await body(await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers: json(key), body: JSON.stringify({ agent_id: agent.data.id, session_id: sessionId, query: "again" }) }));
      expect(next.code).toBe(0);
      expect(next.data.data.content).toBe("after the restart");
    } finally {
      proc.child.kill("SIGTERM");
      expect(await proc.exited).toEqual({ code: 0, signal: null });
    }
  }, 120_000);
});
