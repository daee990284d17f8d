/**
 * canvasflow.config.json: schema errors with JSON pointers and the file, the checks a schema
 * cannot make, relative knowledge-base folders, and the services built from a config.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildServices, ConfigError, loadConfig, loadConfigFile, validateConfig } from "../../src/config/load.js";

const dir = mkdtempSync(join(tmpdir(), "canvasflow-config-"));

function issuesOf(value: unknown): Array<{ pointer: string; message: string }> {
  try {
    validateConfig(value, "cfg.json", dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error("expected the config to be rejected");
}

describe("validateConfig", () => {
  it("accepts a full config and resolves relative local knowledge-base folders against the config's folder", () => {
    const config = validateConfig(
      {
        $schema: "../schemas/config.schema.json",
        providers: { openai: { baseURL: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY" }, ollama: { baseURL: "http://localhost:11434/v1", headers: { "x-a": "b" } } },
        models: { "deepseek-chat@DeepSeek": { provider: "ollama", model: "qwen2.5:7b" }, "gpt-4o": { provider: "openai" } },
        defaultModel: { provider: "openai", model: "gpt-4o-mini" },
        knowledgeBases: { docs: { type: "local", dir: "kb/docs" }, abs: { type: "local", dir: "/srv/kb" }, remote: { type: "ragflow", baseURL: "http://localhost:9380", apiKeyEnv: "RAGFLOW_KEY" } },
        tools: { TavilySearch: { apiKeyEnv: "TAVILY_API_KEY" }, Google: { baseURL: "http://127.0.0.1:9999" } },
      },
      join(dir, "canvasflow.config.json"),
    );
    expect(config.knowledgeBases?.docs).toEqual({ type: "local", dir: join(dir, "kb/docs") });
    expect(config.knowledgeBases?.abs).toEqual({ type: "local", dir: "/srv/kb" });
    expect(config.models?.["gpt-4o"]).toEqual({ provider: "openai" });
  });

  it("resolves a relative memories folder or SQLite file against the config's folder; URLs stay as they are", () => {
    const at = (location: string) => validateConfig({ memories: { location } }, join(dir, "canvasflow.config.json")).memories?.location;
    expect(at("mem")).toBe(join(dir, "mem"));
    expect(at("sqlite:./data/runs.db")).toBe(`sqlite:${join(dir, "data/runs.db")}`);
    expect(at("sqlite:runs.db#chat")).toBe(`sqlite:${join(dir, "runs.db")}#chat`);
    expect(at("sqlite:/srv/runs.db")).toBe("sqlite:/srv/runs.db");
    expect(at("redis://127.0.0.1:6379/0")).toBe("redis://127.0.0.1:6379/0");
  });

  it("reports schema errors with their JSON pointers", () => {
    expect(
      issuesOf({
        providers: { openai: { baseUrl: "https://api.openai.com/v1" }, local: { baseURL: 8000 } },
        models: { "a/b@X": { model: "m" } },
        knowledgeBases: { kb1: { type: "local" }, kb2: { type: "s3", dir: "x" } },
        defaultModels: {},
      }),
    ).toEqual([
      { pointer: "/defaultModels", message: 'has the unknown property "defaultModels"' },
      { pointer: "/providers/openai", message: 'missing the required property "baseURL"' },
      { pointer: "/providers/openai/baseUrl", message: 'has the unknown property "baseUrl"' },
      { pointer: "/providers/local/baseURL", message: "must be string" },
      { pointer: "/models/a~1b@X", message: 'missing the required property "provider"' },
      { pointer: "/knowledgeBases/kb1", message: 'missing the required property "dir"' },
      { pointer: "/knowledgeBases/kb2/type", message: 'must be one of "local", "ragflow"' },
    ]);
  });

  it("checks that routes name known providers and URLs are http(s)", () => {
    expect(
      issuesOf({
        providers: { p: { baseURL: "localhost:11434" } },
        models: { x: { provider: "q" } },
        defaultModel: { provider: "r" },
        tools: { Google: { baseURL: "ftp://x" } },
      }),
    ).toEqual([
      { pointer: "/providers/p/baseURL", message: 'must be an http:// or https:// URL, got "localhost:11434"' },
      { pointer: "/models/x/provider", message: 'names the provider "q", which is not in "providers" (it has p)' },
      { pointer: "/defaultModel/provider", message: 'names the provider "r", which is not in "providers" (it has p)' },
      { pointer: "/tools/Google/baseURL", message: 'must be an http:// or https:// URL, got "ftp://x"' },
    ]);
  });

  it("names the file and each pointer in the error message", () => {
    expect(() => validateConfig({ providers: { p: {} } }, "my/canvasflow.config.json", dir)).toThrow(
      'invalid configuration:\nmy/canvasflow.config.json: /providers/p: missing the required property "baseURL"',
    );
    expect(() => validateConfig([], "c.json", dir)).toThrow("c.json: must be object");
  });
});

describe("loading config files", () => {
  it("reads canvasflow.config.json from the working folder when present, else gives an empty config", async () => {
    const here = mkdtempSync(join(dir, "cwd-"));
    expect(await loadConfig({ cwd: here })).toEqual({ config: {}, file: undefined });
    writeFileSync(join(here, "canvasflow.config.json"), JSON.stringify({ knowledgeBases: { k: { type: "local", dir: "docs" } } }));
    const loaded = await loadConfig({ cwd: here });
    expect(loaded.file).toBe(join(here, "canvasflow.config.json"));
    expect(loaded.config.knowledgeBases?.k).toEqual({ type: "local", dir: join(here, "docs") });
  });

  it("reads --config FILE relative to the working folder, and its folders relative to the file", async () => {
    const sub = join(dir, "conf");
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, "alt.json"), JSON.stringify({ knowledgeBases: { k: { type: "local", dir: "../data" } } }));
    const loaded = await loadConfig({ cwd: dir, configFile: "conf/alt.json" });
    expect(loaded.config.knowledgeBases?.k).toEqual({ type: "local", dir: join(dir, "data") });
  });

  it("reports a missing file and broken JSON with the file name", async () => {
    await expect(loadConfig({ cwd: dir, configFile: "nope.json" })).rejects.toThrow(`${join(dir, "nope.json")}: cannot be read: ENOENT`);
    writeFileSync(join(dir, "bad.json"), "{ providers: ");
    await expect(loadConfigFile(join(dir, "bad.json"))).rejects.toThrow(`${join(dir, "bad.json")}: is not valid JSON`);
  });
});

describe("buildServices", () => {
  it("gives llm, tools (knowledge bases, endpoints, env) and http", () => {
    const env = { TAVILY_API_KEY: "t" };
    const services = buildServices(
      {
        providers: { p: { baseURL: "http://localhost:8000/v1" } },
        defaultModel: { provider: "p", model: "m" },
        knowledgeBases: { kb: { type: "local", dir: "/kb" } },
        tools: { TavilySearch: { apiKeyEnv: "TAVILY_API_KEY" } },
      },
      { env, http: { allowPrivateNetwork: true } },
    );
    expect(services.tools).toEqual({
      knowledgeBases: { kb: { type: "local", dir: "/kb" } },
      knowledgeModels: expect.any(Object),
      endpoints: { TavilySearch: { apiKeyEnv: "TAVILY_API_KEY" } },
      env,
      pipelineChunker: expect.any(Function),
    });
    // No embedding model configured: the folder is searched by keywords only.
    expect(services.tools?.knowledgeModels?.embeddingFor({ type: "local", dir: "/kb" }, "kb")).toBeUndefined();
    expect(services.http).toEqual({ allowPrivateNetwork: true });
    expect(services.llm?.chatModel("anything@X", { id: "A", type: "Agent" }).model).toBe("m");
  });

  it("gives empty tools and an llm that explains itself for an empty config", () => {
    const services = buildServices({}, { env: {} });
    expect(services.tools).toEqual({ knowledgeBases: {}, knowledgeModels: expect.any(Object), endpoints: {}, env: {}, pipelineChunker: expect.any(Function) });
    expect(() => services.llm?.chatModel("gpt-4o", { id: "A", type: "Agent" })).toThrow("no model is configured for it");
  });
});
