/**
 * `canvasflow mock-llm`, and `canvasflow run` with --mock-llm, --mock-llm-script, --config and
 * --kb. Everything runs in this process through main(); no server is left behind.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerComponent } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { main } from "../../src/cli/main.js";
import { mockLlmConfig, parseKbFlag } from "../../src/cli/services.js";
import type { ToolServices } from "../../src/config/types.js";
import type { LlmProvider } from "../../src/llm/types.js";
import { startMockLlmServer } from "../../src/llm/index.js";
import { cli, liveIO } from "../helpers/cli.js";
import { canvasDsl, messageText, node } from "../helpers/dsl.js";
import { closedPort } from "../helpers/http.js";
import { scratchDir } from "../helpers/scratch.js";

async function until<T>(probe: () => T | undefined): Promise<T> {
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const { dir, write } = scratchDir("canvasflow-mockllm-cli-");

// A probe component that asks the run's LLM provider for its llm_id and reports the knowledge bases it was given.
registerComponent({
  name: "ProbeModel",
  paramsSchema: { type: "object" },
  async invoke(ctx) {
    const llm = ctx.services.llm as LlmProvider;
    const model = llm.chatModel(String(ctx.params.llm_id ?? ""), { id: ctx.id, type: ctx.componentName });
    const result = await model.complete({ messages: [{ role: "user", content: ctx.query }], signal: ctx.signal });
    ctx.setOutput("content", `${model.model}: ${result.content}`);
    ctx.setOutput("kbs", Object.keys((ctx.services.tools as ToolServices).knowledgeBases).join(","));
  },
});

const probeDsl = write(
  "probe.json",
  canvasDsl({
    begin: node("Begin", {}, ["ProbeModel:P"]),
    "ProbeModel:P": node("ProbeModel", { llm_id: "deepseek-chat@DeepSeek" }, ["Message:Out"]),
    "Message:Out": node("Message", { content: ["{ProbeModel:P@content} [kbs: {ProbeModel:P@kbs}]"] }),
  }),
);

describe("canvasflow mock-llm", () => {
  it("prints its base URL and how to use it, answers the openai client, and stops on shutdown", async () => {
    const live = liveIO();
    const running = main(["mock-llm"], live.io);
    const url = await until(() => /listening at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(live.stdout())?.[1]);
    expect(live.stdout()).toContain(`OPENAI_BASE_URL=${url} OPENAI_API_KEY=mock canvasflow run FILE`);
    expect(live.stdout()).toContain(`{"providers": {"mock": {"baseURL": "${url}"}}, "defaultModel": {"provider": "mock"}}`);
    const client = new OpenAI({ baseURL: url, apiKey: "mock", maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: "any", messages: [{ role: "user", content: "ping" }] });
    expect(reply.choices[0].message.content).toBe("[mock reply] You said: ping");
    expect(live.stderr()).toContain("POST /v1/chat/completions model=any → answer (echo)");
    live.stop();
    expect(await running).toBe(0);
    expect(live.stderr()).toContain("mock LLM stopped");
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });

  it("serves a script given with --script on the --port asked for", async () => {
    const port = await closedPort();
    const script = write("greet.json", { rules: [{ match: "hello", reply: "Hi from the script" }] });
    const live = liveIO();
    const running = main(["mock-llm", "--port", String(port), "--script", script], live.io);
    await until(() => (live.stdout().includes("listening at") ? true : undefined));
    expect(live.stdout()).toContain(`listening at http://127.0.0.1:${port}/v1`);
    expect(live.stdout()).toContain("(1 rule, 0 embedding rules, 0 rerank rules)");
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "mock", maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hello" }] });
    expect(reply.choices[0].message.content).toBe("Hi from the script");
    live.stop();
    expect(await running).toBe(0);
  });

  it("rejects a bad script, a bad port, a busy port and stray arguments", async () => {
    const bad = write("bad.json", { rules: [{ reply: "no match" }] });
    const badScript = await cli(["mock-llm", "--script", bad]);
    expect(badScript.code).toBe(2);
    expect(badScript.stderr).toContain(`${bad}: /rules/0: missing the required property "match"`);
    const badPort = await cli(["mock-llm", "--port", "http"]);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be a decimal integer from 0 to 65535, got "http"');
    for (const port of ["-1", "0x10", "1e3", " 80", "", "65536", "8.0"]) {
      const r = await cli(["mock-llm", "--port", port]);
      expect(r.code, port).toBe(2);
      expect(r.stderr, port).toContain(`canvasflow: --port must be a decimal integer from 0 to 65535, got ${JSON.stringify(port)}\n`);
    }
    expect((await cli(["mock-llm", "-p", "-1"])).stderr).toContain('--port must be a decimal integer from 0 to 65535, got "-1"');
    const busy = await startMockLlmServer();
    try {
      const inUse = await cli(["mock-llm", "--port", String(busy.port)]);
      expect(inUse.code).toBe(1);
      expect(inUse.stderr).toContain(`cannot start the mock LLM on 127.0.0.1:${busy.port}: the port is in use`);
    } finally {
      await busy.close();
    }
    expect((await cli(["mock-llm", "extra"])).code).toBe(2);
  });
});

describe("canvasflow run with the mock LLM", () => {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    // The machine's OpenAI settings must not decide where these runs go.
    for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "CANVASFLOW_MODEL"]) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
  });
  afterAll(() => {
    for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
  });

  it("still runs a canvas without models", async () => {
    const r = await cli(["run", "fixtures/hello.json", "--query", "Ada", "--events", "ndjson", "--mock-llm"]);
    expect(r.code).toBe(0);
    expect(messageText(r.events)).toBe("Hello, Ada! This is turn 1.");
  });

  it("routes every llm_id to the in-process mock and stops it when the run ends", async () => {
    const r = await cli(["run", probeDsl, "--query", "what is up", "--events", "ndjson", "--mock-llm"]);
    expect(r.code).toBe(0);
    expect(messageText(r.events)).toBe("deepseek-chat: [mock reply] You said: what is up [kbs: ]");
    const url = /answered by the mock LLM at (\S+)/.exec(r.stderr)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });

  it("answers from --mock-llm-script", async () => {
    const script = write("up.json", { rules: [{ match: "what is up", reply: "the sky" }] });
    const r = await cli(["run", probeDsl, "-q", "what is up", "--events", "ndjson", "--mock-llm-script", script]);
    expect(r.code).toBe(0);
    expect(messageText(r.events)).toBe("deepseek-chat: the sky [kbs: ]");
  });

  it("reports a bad --mock-llm-script with its pointer, exit 2", async () => {
    const bad = write("bad-run-script.json", { rules: [{ match: "x", status: 99 }] });
    const r = await cli(["run", probeDsl, "-q", "x", "--mock-llm-script", bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}: /rules/0/status: must be >= 400`);
  });

  it("fails the run with the resolution error when no model is configured", async () => {
    const r = await cli(["run", probeDsl, "-q", "hi", "--events", "ndjson"]);
    expect(r.code).toBe(1);
    const finished = r.events.at(-1) as Extract<CanvasEvent, { event: "workflow_finished" }>;
    expect(finished.data.error).toContain('cannot resolve llm_id "deepseek-chat@DeepSeek" of component ProbeModel:P (ProbeModel)');
    expect(finished.data.error).toContain("--mock-llm");
  });

  it("uses the model map of --config, and reports a bad config with pointers (exit 2)", async () => {
    const mock = await startMockLlmServer();
    try {
      const config = write("cfg.json", { providers: { local: { baseURL: mock.url } }, models: { "deepseek-chat": { provider: "local", model: "qwen2.5:7b" } } });
      const r = await cli(["run", probeDsl, "-q", "hey", "--events", "ndjson", "--config", config]);
      expect(r.code).toBe(0);
      expect(messageText(r.events)).toBe("qwen2.5:7b: [mock reply] You said: hey [kbs: ]");
      expect((mock.requests.at(-1)?.body as { model: string }).model).toBe("qwen2.5:7b");
    } finally {
      await mock.close();
    }
    const bad = write("bad-cfg.json", { providers: { local: { baseURL: "x" } }, models: { m: { provider: "other" } } });
    const r = await cli(["run", probeDsl, "-q", "hey", "--config", bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}: /providers/local/baseURL: must be an http:// or https:// URL, got "x"`);
    expect(r.stderr).toContain(`${bad}: /models/m/provider: names the provider "other"`);
    const missing = await cli(["run", probeDsl, "--config", join(dir, "absent.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("absent.json: cannot be read");
  });

  it("adds --kb ID=DIR knowledge bases to the services", async () => {
    mkdirSync(join(dir, "docs"), { recursive: true });
    mkdirSync(join(dir, "faq"), { recursive: true });
    const r = await cli(["run", probeDsl, "-q", "x", "--events", "ndjson", "--mock-llm", "--kb", `docs=${join(dir, "docs")}`, "--kb", `faq=${join(dir, "faq")}`]);
    expect(r.code).toBe(0);
    expect(messageText(r.events)).toContain("[kbs: docs,faq]");
    const bad = await cli(["run", probeDsl, "--mock-llm", "--kb", `docs=${join(dir, "nowhere")}`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--kb docs=${join(dir, "nowhere")}: ${join(dir, "nowhere")} is not a folder`);
    expect((await cli(["run", probeDsl, "--kb", "docs"])).stderr).toContain('--kb expects ID=DIR, got "docs"');
  });
});

describe("service helpers", () => {
  it("resolves --kb folders against the working folder", () => {
    mkdirSync(join(dir, "rel"), { recursive: true });
    expect(parseKbFlag("k1=rel", dir)).toEqual({ id: "k1", dir: join(dir, "rel") });
  });

  it("routes the empty llm_id and every other id to the mock", () => {
    expect(mockLlmConfig("http://127.0.0.1:1/v1")).toEqual({
      providers: { "mock-llm": { baseURL: "http://127.0.0.1:1/v1" } },
      models: { "": { provider: "mock-llm", model: "canvasflow-mock" } },
      defaultModel: { provider: "mock-llm" },
    });
  });
});
