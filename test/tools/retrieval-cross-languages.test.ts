/**
 * Retrieval's cross_languages: the query is translated by the run's default chat model (the mock
 * LLM here) and a local knowledge base is searched with the translations.
 */
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { parseTranslations, TRANSLATOR_PROMPT, translationRequest } from "../../src/tools/retrieval/cross-languages.js";
import { canvasDsl, finished, messageText, node } from "../helpers/dsl.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { scratchDir } from "../helpers/scratch.js";

describe("cross_languages: the parts", () => {
  it("asks for the query in each language and reads one translation per part", () => {
    expect(translationRequest("reset a password", ["French", "German"])).toBe("Input: reset a password\n===\nFrench, German");
    expect(parseTranslations("réinitialiser le mot de passe\n###\nPasswort zurücksetzen\n")).toBe("réinitialiser le mot de passe\nPasswort zurücksetzen");
    expect(parseTranslations("<think>hmm</think>Output: un\n  deux\n###\n\n###\ndrei")).toBe("un deux\ndrei");
  });
});

describe("cross_languages in a Retrieval over a local knowledge base", () => {
  function setup() {
    const kb = scratchDir("cf-kb-cross-");
    kb.write("motdepasse.md", "# Aide\n\nPour réinitialiser le mot de passe, ouvrez les réglages du compte.");
    kb.write("shipping.md", "# Shipping\n\nParcels leave the warehouse every Monday.");
    const dsl = (params: Record<string, unknown>) =>
      canvasDsl({
        begin: node("Begin", {}, ["Retrieval:R"]),
        "Retrieval:R": node("Retrieval", { query: "sys.query", kb_ids: ["help"], ...params }, ["Message:M"]),
        "Message:M": node("Message", { content: ["{Retrieval:R@formalized_content}"] }),
      });
    const tools = { knowledgeBases: { help: { type: "local" as const, dir: kb.dir } }, endpoints: {}, env: {} };
    return { dsl, tools };
  }

  it("searches with the translations: a French document answers an English question", async () => {
    const { dsl, tools } = setup();
    const mock = await startMockLlm({ rules: [{ match: "translate search queries", on: "system", reply: "réinitialiser le mot de passe\n###\nPasswort zurücksetzen" }] });
    const plain = await loadCanvas(dsl({}), { services: { llm: mock.provider, tools } });
    expect(messageText(await plain.runToEnd({ query: "how to reset a password" }))).toBe('Nothing relevant to "how to reset a password" was found in the knowledge base.');
    expect(mock.chatRequests()).toHaveLength(0);

    const crossed = await loadCanvas(dsl({ cross_languages: ["French", "German"] }), { services: { llm: mock.provider, tools } });
    const events = await crossed.runToEnd({ query: "how to reset a password" });
    expect(messageText(events)).toContain("Pour réinitialiser le mot de passe");
    expect(messageText(events)).not.toContain("warehouse");
    const [request] = mock.chatRequests();
    expect(request.messages).toEqual([
      { role: "system", content: TRANSLATOR_PROMPT },
      { role: "user", content: "Input: how to reset a password\n===\nFrench, German" },
    ]);
    expect(request.temperature).toBe(0.2);
    // The translation is a model call of the run.
    expect(finished(events).usage.calls).toBe(1);
  });

  it("a failing model leaves the query as it is", async () => {
    const { dsl, tools } = setup();
    const mock = await startMockLlm({ rules: [{ match: "translate search queries", on: "system", status: 500, message: "down" }] });
    const crossed = await loadCanvas(dsl({ cross_languages: ["French"] }), { services: { llm: mock.provider, tools } });
    const events = await crossed.runToEnd({ query: "warehouse shipping days" });
    expect(messageText(events)).toContain("Parcels leave the warehouse every Monday.");
    expect(finished(events).error).toBeUndefined();
  });
});
