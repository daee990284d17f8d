import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { MockLlmScript } from "../../src/llm/index.js";
import { categorizeSystemPrompt, categorizeUserPrompt, categorySpecs, pickCategory } from "../../src/components/llm/categorize-prompt.js";
import { canvasDsl, lastEvent, messageText, node, nodeFinished, trace } from "../helpers/dsl.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";

const CATEGORIES = {
  Billing: { description: "Payments, invoices and refunds.", examples: ["I want a refund", "Where is my\ninvoice?"], to: ["Message:Billing"] },
  Technical: { description: "Something does not work.", examples: [], to: ["Message:Tech"] },
  Other: { description: "", to: ["Message:Other"] },
};

describe("Categorize prompts and choice", () => {
  const specs = categorySpecs(CATEGORIES);

  it("lists the categories, their descriptions and one line per example", () => {
    expect(categorizeSystemPrompt(specs)).toBe(
      [
        "You are a classification system. Put the user's input into exactly ONE of these categories:",
        " - Billing",
        " - Technical",
        " - Other",
        "",
        "What each category means:",
        "------\nCategory: Billing\nDescription: Payments, invoices and refunds.",
        "------\nCategory: Technical\nDescription: Something does not work.",
        "",
        "---- Instructions ----",
        " - Consider both explicit mentions and implied context.",
        " - Prefer the most specific category that applies.",
        " - Answer with the category name only, without explanation.",
        "",
        "---- Examples ----",
        'USER: "I want a refund" → Billing',
        'USER: "Where is my    invoice?" → Billing',
      ].join("\n"),
    );
  });

  it("reads examples written as one string with one example per line (older DSLs)", () => {
    expect(categorySpecs({ A: { examples: "one\n\ntwo", to: "X" } })).toEqual([{ name: "A", description: "", examples: ["one", "two"], to: ["X"] }]);
  });

  it("writes the conversation on one line, newlines removed", () => {
    expect(
      categorizeUserPrompt([
        { role: "assistant", content: "How can I help?" },
        { role: "user", content: "my printer\nis broken" },
      ]),
    ).toBe('---- Real Data ----\nASSISTANT: "How can I help?" | USER: "my printeris broken" →');
  });

  it("picks the category named most often (case-insensitive), the first on a tie, the last when none is named", () => {
    expect(pickCategory("technical", specs).name).toBe("Technical");
    expect(pickCategory("Billing? No: TECHNICAL, technical.", specs).name).toBe("Technical");
    expect(pickCategory("billing or technical", specs).name).toBe("Billing");
    expect(pickCategory("I cannot tell", specs).name).toBe("Other");
    expect(pickCategory("<think>maybe Billing</think>Technical", specs).name).toBe("Technical");
  });

  it("always picks one of the categories, and a category whose name is the whole answer (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 2 }), (answer, i) => {
        expect(specs).toContain(pickCategory(answer, specs));
        expect(pickCategory(specs[i].name.toUpperCase(), specs)).toBe(specs[i]);
      }),
    );
  });
});

describe("Categorize end to end", () => {
  let mock: MockLlm | undefined;

  const dsl = (params: Record<string, unknown> = {}) =>
    canvasDsl({
      begin: node("Begin", {}, ["Categorize:C"]),
      "Categorize:C": node("Categorize", { llm_id: "mock@Mock", category_description: CATEGORIES, ...params }, ["Message:Billing", "Message:Tech", "Message:Other"]),
      "Message:Billing": node("Message", { content: ["Billing team here."] }),
      "Message:Tech": node("Message", { content: ["Tech support here."] }),
      "Message:Other": node("Message", { content: ["Someone will answer."] }),
    });

  const script: MockLlmScript = { rules: [{ match: "printer", reply: "Technical" }, { match: "refund", reply: "billing" }] };

  it("routes to the chosen category's targets and outputs its name", async () => {
    mock = await startMockLlm(script);
    const canvas = await loadCanvas(dsl(), { services: { llm: mock.provider } });
    const events = await canvas.runToEnd({ query: "my printer is broken" });
    expect(trace(events)).toEqual([
      "workflow_started",
      "node_started:begin",
      "node_finished:begin",
      "node_started:Categorize:C",
      "node_finished:Categorize:C",
      "node_started:Message:Tech",
      "message:Tech support here.",
      "message_end",
      "node_finished:Message:Tech",
      "workflow_finished",
    ]);
    expect(nodeFinished(events, "Categorize:C")).toMatchObject({ inputs: { "sys.query": "my printer is broken" }, outputs: { category_name: "Technical", _next: ["Message:Tech"] } });
    const [request] = mock.chatRequests();
    expect(request.messages).toEqual([
      { role: "system", content: categorizeSystemPrompt(categorySpecs(CATEGORIES)) },
      { role: "user", content: '---- Real Data ----\nUSER: "my printer is broken" →' },
    ]);
    const end = lastEvent(events);
    expect(end.event === "workflow_finished" && end.data.usage.calls).toBe(1);

    // Next turn: window 1 holds the last answer and this query (RAGFlow's get_history(1)).
    const second = await canvas.runToEnd({ query: "I want a refund" });
    expect(messageText(second)).toBe("Billing team here.");
    expect(mock.chatRequests()[1].messages[1].content).toBe('---- Real Data ----\nASSISTANT: "Tech support here." | USER: "I want a refund" →');
  });

  it("classifies the value its query selector names, and falls back to the last category", async () => {
    mock = await startMockLlm(script);
    const dslWithEnv = { ...dsl({ query: "env.ticket" }), variables: { ticket: { name: "ticket", type: "string", value: "printer on fire" } } };
    const events = await (await loadCanvas(dslWithEnv, { services: { llm: mock.provider } })).runToEnd({ query: "hello" });
    expect(nodeFinished(events, "Categorize:C").outputs).toMatchObject({ category_name: "Technical" });
    expect(mock.chatRequests()[0].messages[1].content).toBe('---- Real Data ----\nUSER: "printer on fire" →');

    const unsure = await (await loadCanvas(dsl(), { services: { llm: mock.provider } })).runToEnd({ query: "what time is it?" });
    expect(nodeFinished(unsure, "Categorize:C").outputs).toMatchObject({ category_name: "Other", _next: ["Message:Other"] });
    expect(messageText(unsure)).toBe("Someone will answer.");
  });
});
