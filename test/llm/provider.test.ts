/**
 * From a RAGFlow llm_id to a model: config entries, the default, the environment, and the error
 * that says how to configure an unresolvable one.
 */
import { describe, expect, it } from "vitest";
import type { CanvasflowConfig } from "../../src/config/types.js";
import { bareModelName, createLlmProvider, modelPart, ModelResolutionError, OpenAIChatModel, resolveModel } from "../../src/llm/index.js";

const agent = { id: "Agent:Writer", type: "Agent" };

const config: CanvasflowConfig = {
  providers: {
    openai: { baseURL: "https://api.openai.com/v1/", apiKeyEnv: "MY_OPENAI_KEY" },
    ollama: { baseURL: "http://localhost:11434/v1", headers: { "x-team": "docs" } },
    vllm: { baseURL: "http://localhost:8000/v1" },
  },
  models: {
    "deepseek-chat@DeepSeek": { provider: "ollama", model: "qwen2.5:7b" },
    "qwen-max": { provider: "vllm", model: "Qwen/Qwen2.5-7B-Instruct" },
    "glm-4-flash": { provider: "vllm" },
    "": { provider: "ollama", model: "llama3.2" },
  },
  defaultModel: { provider: "openai", model: "gpt-4o-mini" },
};
const env = { MY_OPENAI_KEY: "sk-test" };

describe("llm_id parts", () => {
  it("takes the model part before the first @, and drops RAGFlow's ___ marker for the bare name", () => {
    expect(modelPart("deepseek-chat@DeepSeek")).toBe("deepseek-chat");
    expect(modelPart("Qwen/Qwen3-8B@default@SILICONFLOW")).toBe("Qwen/Qwen3-8B");
    expect(modelPart("gpt-4o")).toBe("gpt-4o");
    expect(modelPart("")).toBe("");
    expect(bareModelName("glm-4-flash___OpenAI-API@OpenAI-API-Compatible#admin")).toBe("glm-4-flash");
    expect(bareModelName("agnuxo/cajal-4b-p2pclaw@Ollama")).toBe("agnuxo/cajal-4b-p2pclaw");
  });
});

describe("resolveModel", () => {
  it("uses the exact llm_id first", () => {
    expect(resolveModel(config, "deepseek-chat@DeepSeek", agent, env)).toEqual({
      llmId: "deepseek-chat@DeepSeek",
      model: "qwen2.5:7b",
      provider: "ollama",
      baseURL: "http://localhost:11434/v1",
      apiKey: undefined,
      headers: { "x-team": "docs" },
      via: 'models["deepseek-chat@DeepSeek"]',
    });
  });

  it("then the model part before the first @", () => {
    const resolved = resolveModel(config, "qwen-max@Tongyi-Qianwen", agent, env);
    expect(resolved).toMatchObject({ provider: "vllm", model: "Qwen/Qwen2.5-7B-Instruct", via: 'models["qwen-max"]' });
  });

  it("then the bare name, and a route without a model uses it", () => {
    const resolved = resolveModel(config, "glm-4-flash___OpenAI-API@OpenAI-API-Compatible", agent, env);
    expect(resolved).toMatchObject({ provider: "vllm", model: "glm-4-flash", via: 'models["glm-4-flash"]' });
  });

  it("then the default model, with the key from the named environment variable", () => {
    const resolved = resolveModel(config, "kimi-k2.5@Moonshot", agent, env);
    expect(resolved).toMatchObject({ provider: "openai", model: "gpt-4o-mini", apiKey: "sk-test", baseURL: "https://api.openai.com/v1", via: "defaultModel" });
  });

  it("routes the empty llm_id through models[\"\"]", () => {
    expect(resolveModel(config, "", agent, env)).toMatchObject({ provider: "ollama", model: "llama3.2" });
  });

  it("falls back to OPENAI_BASE_URL / OPENAI_API_KEY, with CANVASFLOW_MODEL or the model part", () => {
    const local = { OPENAI_BASE_URL: "http://localhost:8000/v1" };
    expect(resolveModel({}, "deepseek-chat@DeepSeek", agent, local)).toMatchObject({ provider: "environment", baseURL: "http://localhost:8000/v1", model: "deepseek-chat", apiKey: undefined });
    expect(resolveModel({}, "deepseek-chat@DeepSeek", agent, { ...local, CANVASFLOW_MODEL: "llama3" })).toMatchObject({ model: "llama3" });
    expect(resolveModel({}, "gpt-4o", agent, { OPENAI_API_KEY: "sk-x" })).toMatchObject({ baseURL: "https://api.openai.com/v1", apiKey: "sk-x", model: "gpt-4o" });
    expect(resolveModel({}, "", agent, { OPENAI_API_KEY: "sk-x", CANVASFLOW_MODEL: "gpt-4o-mini" })).toMatchObject({ model: "gpt-4o-mini" });
  });

  it("prefers the config over the environment", () => {
    expect(resolveModel(config, "x", agent, { ...env, OPENAI_BASE_URL: "http://elsewhere/v1" }).provider).toBe("openai");
  });

  it("explains an unresolvable llm_id, naming it, the component and how to configure it", () => {
    let error: unknown;
    try {
      resolveModel({}, "deepseek-chat@DeepSeek", agent, {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ModelResolutionError);
    expect((error as ModelResolutionError).llmId).toBe("deepseek-chat@DeepSeek");
    expect((error as Error).message).toBe(
      'cannot resolve llm_id "deepseek-chat@DeepSeek" of component Agent:Writer (Agent): no model is configured for it. ' +
        'To configure one: add "deepseek-chat@DeepSeek" or "deepseek-chat" to "models" in canvasflow.config.json, or set "defaultModel" ' +
        '(see docs/configuration.md); or set OPENAI_BASE_URL and OPENAI_API_KEY (and CANVASFLOW_MODEL) in the environment; ' +
        "or run with --mock-llm to answer with the built-in mock",
    );
  });

  it("explains an empty llm_id with nothing configured", () => {
    expect(() => resolveModel({}, "", { id: "Categorize:Route", type: "Categorize" }, {})).toThrow(
      /^cannot resolve the empty llm_id of component Categorize:Route \(Categorize\): no model is configured for it\. To configure one: set "defaultModel"/,
    );
    expect(() => resolveModel({}, "", agent, { OPENAI_BASE_URL: "http://localhost:8000/v1" })).toThrow(
      "cannot resolve the empty llm_id of component Agent:Writer (Agent): CANVASFLOW_MODEL is not set",
    );
  });

  it("names a missing API key variable, an unknown provider and a bad base URL", () => {
    expect(() => resolveModel(config, "other", agent, {})).toThrow(
      'cannot resolve llm_id "other" of component Agent:Writer (Agent): provider "openai" takes its API key from the environment variable MY_OPENAI_KEY, which is not set',
    );
    expect(() => resolveModel({ providers: {}, models: { m: { provider: "nope", model: "m" } } }, "m@X", agent, {})).toThrow(
      'models["m"] names the provider "nope", which is not in "providers" (there are none)',
    );
    expect(() => resolveModel({ providers: { p: { baseURL: "localhost:8000" } }, defaultModel: { provider: "p", model: "m" } }, "m", agent, {})).toThrow(
      'providers["p"].baseURL must be an http:// or https:// URL, got "localhost:8000"',
    );
    expect(() => resolveModel({}, "m", agent, { OPENAI_BASE_URL: "not a url" })).toThrow('OPENAI_BASE_URL is not a URL: "not a url"');
  });
});

describe("createLlmProvider", () => {
  it("gives ChatModels with the resolved model name, cached per llm_id, one client per provider", () => {
    const provider = createLlmProvider(config, env);
    const a = provider.chatModel("deepseek-chat@DeepSeek", agent);
    const b = provider.chatModel("deepseek-chat@DeepSeek", { id: "Agent:Other", type: "Agent" });
    const c = provider.chatModel("qwen2", agent); // default route: openai
    const d = provider.chatModel("kimi@Moonshot", agent); // default route too
    expect(a).toBeInstanceOf(OpenAIChatModel);
    expect(a).toBe(b);
    expect(a.model).toBe("qwen2.5:7b");
    expect((a as OpenAIChatModel).baseURL).toBe("http://localhost:11434/v1");
    const clientOf = (m: unknown) => (m as { client: unknown }).client;
    expect(clientOf(c)).toBe(clientOf(d));
    expect(clientOf(c)).not.toBe(clientOf(a));
    expect(c.llmId).toBe("qwen2");
    expect(d.llmId).toBe("kimi@Moonshot");
  });

  it("throws the resolution error at chatModel time, for the component that asked", () => {
    const provider = createLlmProvider({}, {});
    expect(() => provider.chatModel("gpt-4o@OpenAI", { id: "LLM:Sum", type: "LLM" })).toThrow('cannot resolve llm_id "gpt-4o@OpenAI" of component LLM:Sum (LLM)');
  });
});
