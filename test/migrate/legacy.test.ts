/**
 * 003-legacy-v019: each v0.19 component family, the implicit inputs, the conversation turns,
 * the top-level keys and the graph.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { legacyV019 } from "../../migrations-dsl/003-legacy-v019.js";
import { loadCanvas } from "../../src/api.js";
import { migrateDsl } from "../../src/migrate/runner.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { corpusPath } from "../helpers/corpus.js";
import { node, validationErrors } from "../helpers/dsl.js";
import { fakeProviderRegistry } from "../helpers/fake-providers.js";

type Params = Record<string, unknown>;
interface Entry {
  obj: { component_name: string; params: Params };
  downstream: string[];
  upstream: string[];
  parent_id?: string;
}

function legacy(components: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { components, history: [], messages: [], path: [], reference: [], answer: [], ...extra };
}

function migrate(input: Record<string, unknown>) {
  const result = migrateDsl(input);
  return { ...result, c: result.dsl.components as Record<string, Entry> };
}

/** begin → answer → ...chain → answer: the usual v0.19 chat loop. */
function chat(chain: Record<string, unknown>, first: string, last: string[]) {
  return legacy({
    begin: node("Begin", { prologue: "Hi!" }, ["answer:0"]),
    "answer:0": node("Answer", {}, [first]),
    ...chain,
    ...Object.fromEntries(last.map((id) => [id, { ...(chain[id] as object), downstream: ["answer:0"] }])),
  });
}

describe("detection", () => {
  it("recognizes v0.19 components, a path of lists, or the answer/reference keys without globals", () => {
    expect(legacyV019.detect(legacy({ begin: node("Begin"), "answer:0": node("Answer") }))).toBe(true);
    expect(legacyV019.detect({ components: { begin: node("Begin") }, path: [["begin"]], globals: {} })).toBe(true);
    expect(legacyV019.detect({ components: { begin: node("Begin") }, answer: [] })).toBe(true);
    expect(legacyV019.detect({ components: { begin: node("Begin"), "Message:M": node("Message", { content: ["x"] }) }, globals: {}, path: [] })).toBe(false);
    expect(legacyV019.detect({ graph: { nodes: [{ id: "begin" }] } })).toBe(false);
  });
});

describe("Generate", () => {
  const input = () =>
    legacy({
      begin: node("Begin", { prologue: "", query: [{ key: "lang", name: "Language", type: "line", optional: false }] }, ["answer:0"]),
      "answer:0": node("Answer", {}, ["retrieval:0"]),
      "retrieval:0": node("Retrieval", { kb_ids: ["kb1"] }, ["generate:0"]),
      "generate:0": node(
        "Generate",
        {
          llm_id: "deepseek-chat@DeepSeek",
          prompt: "Answer in {begin@lang} using:\n{input}\nAlso {retrieval:0} and {answer:0}. Unknown {nope:1}, {user_input}, {jd}.",
          temperature: 0.1,
          top_p: 0,
          max_tokens: 512,
          presence_penalty: 0.4,
          frequency_penalty: 0.7,
          cite: false,
          message_history_window_size: 12,
          parameters: [{ key: "jd", component_id: "retrieval:0" }],
          output: null,
          output_var_name: "output",
        },
        ["answer:0"],
      ),
    });

  it("becomes an Agent without tools with an explicit prompt, the same model and sampling", () => {
    const { c, notes } = migrate(input());
    expect(c["generate:0"].obj).toEqual({
      component_name: "Agent",
      params: {
        llm_id: "deepseek-chat@DeepSeek",
        temperature: 0.1,
        temperatureEnabled: true,
        top_p: 0,
        topPEnabled: false,
        presence_penalty: 0.4,
        presencePenaltyEnabled: true,
        frequency_penalty: 0.7,
        frequencyPenaltyEnabled: true,
        max_tokens: 512,
        maxTokensEnabled: true,
        message_history_window_size: 12,
        sys_prompt:
          "Answer in {begin@lang} using:\n{retrieval:0@formalized_content}\nAlso {retrieval:0@formalized_content} and {sys.query}. Unknown {nope:1}, {user_input}, {retrieval:0@formalized_content}.",
        prompts: [{ role: "user", content: "{sys.query}" }],
        tools: [],
        mcp: [],
        max_rounds: 1,
        outputs: { content: { type: "string", value: "" } },
        cite: false,
      },
    });
    const mine = notes.filter((n) => n.component === "generate:0");
    expect(mine.map((n) => n.change)).toEqual([
      expect.stringContaining("Generate → Agent without tools"),
      "left {nope:1} as literal text",
      "left the placeholders {user_input} as literal text",
    ]);
    expect(mine[0].change).toContain("(parameters {jd} → {retrieval:0@formalized_content})");
  });

  it("reads the rewritten question after a RewriteQuestion, which v0.19 put into the history", () => {
    const { c } = migrate(
      chat(
        {
          "rewrite:0": node("RewriteQuestion", { llm_id: "m", language: "French" }, ["retrieval:0"]),
          "retrieval:0": node("Retrieval", { kb_ids: ["kb"] }, ["generate:0"]),
          "generate:0": node("Generate", { llm_id: "m", prompt: "Use {input}" }),
        },
        "rewrite:0",
        ["generate:0"],
      ),
    );
    expect(c["rewrite:0"].obj.component_name).toBe("Agent");
    expect(c["rewrite:0"].obj.params).toMatchObject({ prompts: [{ role: "user", content: "{sys.query}" }], temperature: 0.9, temperatureEnabled: true, sys_prompt: expect.stringContaining("Write the question in French.") });
    expect(c["retrieval:0"].obj.params.query).toBe("{rewrite:0@content}");
    expect(c["generate:0"].obj.params).toMatchObject({ sys_prompt: "Use {retrieval:0@formalized_content}", prompts: [{ role: "user", content: "{rewrite:0@content}" }] });
  });
});

describe("KeywordExtract and the web tools", () => {
  const input = () =>
    chat(
      {
        "keyword:0": node("KeywordExtract", { llm_id: "m", top_n: 3 }, ["baidu:0", "bing:0", "google:0", "wiki:0"]),
        "baidu:0": node("Baidu", { top_n: 5 }, ["generate:0"]),
        "bing:0": node("Bing", { api_key: "k", channel: "News", top_n: 4 }, ["generate:0"]),
        "google:0": node("Google", { api_key: "g", country: "us", language: "en", top_n: 7 }, ["generate:0"]),
        "wiki:0": node("Wikipedia", { top_n: 2, language: "en", query: [{ component_id: "answer:0", type: "reference" }] }, ["generate:0"]),
        "generate:0": node("Generate", { llm_id: "m", prompt: "{baidu:0} {wiki:0}" }),
      },
      "keyword:0",
      ["generate:0"],
    );

  it("KeywordExtract becomes an Agent listing top_n keywords of its input", () => {
    const { c } = migrate(input());
    expect(c["keyword:0"].obj).toMatchObject({
      component_name: "Agent",
      params: { llm_id: "m", prompts: [{ role: "user", content: "{sys.query}" }], message_history_window_size: 1, sys_prompt: expect.stringContaining("3 most important keywords") },
    });
  });

  it("tools read their input explicitly; Baidu and Bing become DuckDuckGo; failures give empty results as in v0.19", () => {
    const { c, notes } = migrate(input());
    expect(c["baidu:0"].obj).toEqual({ component_name: "DuckDuckGo", params: { top_n: 5, channel: "text", query: "{keyword:0@content}", exception_method: "comment", exception_default_value: "" } });
    expect(c["bing:0"].obj.params).toEqual({ top_n: 4, channel: "news", query: "{keyword:0@content}", exception_method: "comment", exception_default_value: "" });
    expect(c["google:0"].obj).toEqual({
      component_name: "Google",
      params: { api_key: "g", country: "us", language: "en", start: "0", num: "7", q: "{keyword:0@content}", exception_method: "comment", exception_default_value: "" },
    });
    // An explicit query list wins over the implicit input; an Answer there is the user's message.
    expect(c["wiki:0"].obj.params.query).toBe("{sys.query}");
    expect(c["generate:0"].obj.params.sys_prompt).toBe("{baidu:0@formalized_content} {wiki:0@formalized_content}");
    expect(notes.find((n) => n.component === "bing:0")?.reason).toContain("api_key, country and language dropped");
    expect(validationErrors(migrate(input()).dsl)).toEqual([]);
  });
});

describe("Relevant", () => {
  it("becomes a grading Agent and a Switch that routes on yes", () => {
    const { c } = migrate(
      chat(
        {
          "retrieval:0": node("Retrieval", { kb_ids: ["kb"] }, ["relevant:0"]),
          "relevant:0": node("Relevant", { llm_id: "m", yes: "generate:0", no: "message:0" }),
          "generate:0": node("Generate", { llm_id: "m", prompt: "{input}" }),
          "message:0": node("Message", { messages: ["Sorry"] }),
        },
        "retrieval:0",
        ["generate:0", "message:0"],
      ),
    );
    expect(c["relevant:0"].obj.params).toMatchObject({ prompts: [{ role: "user", content: "Question: {sys.query}\nDocuments:\n{retrieval:0@formalized_content}" }] });
    expect(c["relevant:0"].downstream).toEqual(["Switch:relevant_0_grade"]);
    expect(c["Switch:relevant_0_grade"]).toMatchObject({
      obj: {
        component_name: "Switch",
        params: { conditions: [{ logical_operator: "and", items: [{ cpn_id: "relevant:0@content", operator: "contains", value: "yes" }], to: ["generate:0"] }], end_cpn_ids: ["message:0"] },
      },
      downstream: ["generate:0", "message:0"],
    });
    // {input} of a Generate after Relevant is what Relevant graded (v0.19 looked past it).
    expect(c["generate:0"].obj.params.sys_prompt).toBe("{retrieval:0@formalized_content}");
  });
});

describe("Categorize, Switch, Message, Concentrator", () => {
  const input = () =>
    chat(
      {
        "categorize:0": node("Categorize", {
          llm_id: "m",
          message_history_window_size: 8,
          category_description: {
            product: { description: "About the product", examples: "How?\n\nWhy?\n", to: "concentrator:0" },
            other: { description: "Anything else", to: "message:0" },
          },
        }),
        "concentrator:0": node("Concentrator", {}, ["generate:0", "generate:1"]),
        "generate:0": node("Generate", { llm_id: "m", prompt: "a" }, ["switch:0"]),
        "generate:1": node("Generate", { llm_id: "m", prompt: "b" }),
        "switch:0": node("Switch", {
          conditions: [{ logical_operator: "", items: [{ cpn_id: "generate:0", operator: "contains", value: "yes" }, { cpn_id: "begin@x", operator: "empty" }], to: "message:1" }],
          end_cpn_id: "answer:0",
          output_var_name: "output",
          query: [],
        }),
        "message:0": node("Message", { messages: ["One", "Two", 3] }),
        "message:1": node("Message", { messages: ["Yes!"] }),
      },
      "categorize:0",
      ["message:0", "message:1", "generate:1"],
    );

  it("Categorize: examples one per line, `to` lists, the input as query; a Concentrator target becomes its downstream", () => {
    const { c, notes } = migrate(input());
    expect(c["categorize:0"].obj.params).toMatchObject({
      llm_id: "m",
      message_history_window_size: 8,
      query: "sys.query",
      category_description: {
        product: { description: "About the product", examples: ["How?", "Why?"], to: ["generate:0", "generate:1"] },
        other: { description: "Anything else", examples: [], to: ["message:0"] },
      },
    });
    expect(c).not.toHaveProperty(["concentrator:0"]);
    expect(notes).toContainEqual(expect.objectContaining({ component: "concentrator:0", change: "removed; what led to it now leads to generate:0, generate:1" }));
  });

  it("Switch: lists, end_cpn_ids, outputs as references, any operator but and is or", () => {
    const { c } = migrate(input());
    expect(c["switch:0"].obj.params).toEqual({
      conditions: [
        {
          logical_operator: "or",
          items: [
            { cpn_id: "generate:0@content", operator: "contains", value: "yes" },
            { cpn_id: "begin@x", operator: "empty" },
          ],
          to: ["message:1"],
        },
      ],
      end_cpn_ids: ["answer:0"],
    });
  });

  it("Message: messages → content; the reply of the Answer looks past the Switch", () => {
    const { c } = migrate(input());
    expect(c["message:0"].obj).toEqual({ component_name: "Message", params: { content: ["One", "Two"] } });
    // switch:0's else branch reached the Answer, which showed what came before the Switch.
    expect(c["answer:0"].obj).toEqual({ component_name: "Message", params: { content: ["{generate:1@content}{generate:0@content}"] } });
    expect(c["message:0"].downstream).toEqual([]);
    expect(validationErrors(migrate(input()).dsl)).toEqual([]);
  });
});

describe("Template, Iteration, Code, ExeSQL, Invoke, Begin", () => {
  it("Template → StringTransform merge; Iteration → a split and an Iteration collecting its body's output", () => {
    const { c, dsl } = migrate(
      legacy({
        begin: node("Begin", { query: [{ key: "title", name: "Title", type: "line", optional: true, value: "T" }] }, ["generate:0"]),
        "generate:0": node("Generate", { llm_id: "m", prompt: "list" }, ["iteration:0"]),
        "iteration:0": node("Iteration", { delimiter: "lineBreak", query: [{ component_id: "generate:0", type: "reference" }] }, ["template:0"]),
        "IterationItem:S": node("IterationItem", { output_var_name: "output" }, ["baidu:0"], { parent_id: "iteration:0" }),
        "baidu:0": node("Baidu", {}, ["generate:1"], { parent_id: "iteration:0" }),
        "generate:1": node("Generate", { llm_id: "m", prompt: "Write about {IterationItem:S} from {baidu:0}" }, [], { parent_id: "iteration:0" }),
        "template:0": node("Template", { content: "<h1>{begin@title}</h1>{iteration:0}" }, ["answer:0"]),
        "answer:0": node("Answer", {}),
      }),
    );
    expect(c["StringTransform:iteration_0_items"]).toEqual({
      obj: { component_name: "StringTransform", params: { method: "split", split_ref: "generate:0@content", delimiters: ["\n"], outputs: { result: { type: "Array<string>", value: [] } } } },
      downstream: ["iteration:0"],
      upstream: ["generate:0"],
    });
    expect(c["generate:0"].downstream).toEqual(["StringTransform:iteration_0_items"]);
    expect(c["iteration:0"].obj.params).toEqual({ items_ref: "StringTransform:iteration_0_items@result", variable: {}, outputs: { content: { ref: "generate:1@content", type: "Array<string>" } } });
    expect(c["IterationItem:S"].obj.params).toEqual({});
    expect(c["baidu:0"].obj.params.query).toBe("{IterationItem:S@item}");
    expect(c["generate:1"].obj.params.sys_prompt).toBe("Write about {IterationItem:S@item} from {baidu:0@formalized_content}");
    expect(c["template:0"].obj).toEqual({
      component_name: "StringTransform",
      params: { method: "merge", script: "<h1>{begin@title}</h1>{iteration:0@content}", delimiters: ["\n"], outputs: { result: { type: "string", value: "" } } },
    });
    expect(c["answer:0"].obj.params.content).toEqual(["{template:0@result}"]);
    expect(c.begin.obj.params).toEqual({ mode: "conversational", prologue: "", enablePrologue: false, inputs: { title: { name: "Title", type: "line", value: "T", optional: true } }, outputs: {} });
    expect(validationErrors(dsl)).toEqual([]);
  });

  it("Code → CodeExec, ExeSQL reads the SQL from before it, Invoke variables read references", () => {
    const { c, dsl } = migrate(
      chat(
        {
          "generate:0": node("Generate", { llm_id: "m", prompt: "write SQL" }, ["exesql:0"]),
          "exesql:0": node("ExeSQL", { db_type: "postgresql", database: "d", username: "u", host: "h", port: 5432, password: "p", top_n: 30, loop: 3, llm_id: "m" }, ["code:0"]),
          "code:0": node("Code", { lang: "nodejs", script: "function main(a) { return a }", arguments: [{ name: "a", component_id: "exesql:0" }, { name: "q", component_id: "answer:0" }, { name: "t", component_id: "begin@topic" }] }, ["invoke:0"]),
          "invoke:0": node("Invoke", { url: "http://example.com", method: "post", variables: [{ key: "x", component_id: "code:0" }, { key: "y", value: "1" }] }),
        },
        "generate:0",
        ["invoke:0"],
      ),
    );
    expect(c["exesql:0"].obj.params).toEqual({
      database: "d",
      username: "u",
      host: "h",
      port: 5432,
      password: "p",
      db_type: "postgres",
      max_records: 30,
      sql: "{generate:0@content}",
      exception_method: "comment",
      exception_default_value: "**ERROR**: the SQL query failed.",
    });
    expect(c["code:0"].obj).toEqual({
      component_name: "CodeExec",
      params: { lang: "javascript", script: "function main(a) { return a }", arguments: { a: "exesql:0@formalized_content", q: "sys.query", t: "begin@topic" }, outputs: { result: { value: "", type: "String" } } },
    });
    expect(c["invoke:0"].obj.params).toEqual({ url: "http://example.com", method: "post", variables: [{ key: "x", ref: "code:0@result" }, { key: "y", value: "1" }] });
    expect(c["answer:0"].obj.params.content).toEqual(["{invoke:0@result}"]);
    expect(validationErrors(dsl)).toEqual([]);
  });

  it("Begin: the form moves to inputs, every field optional (v0.19 never asked), the prologue stays", () => {
    const { c, notes } = migrate(legacy({ begin: node("Begin", { prologue: "Hello", query: [{ key: "a", name: "A", type: "paragraph", optional: false }, { key: "b", name: "B", type: "file", optional: true }, { bad: 1 }] }, ["answer:0"]), "answer:0": node("Answer") }));
    expect(c.begin.obj.params).toEqual({
      mode: "conversational",
      prologue: "Hello",
      enablePrologue: true,
      inputs: { a: { name: "A", type: "paragraph", optional: true }, b: { name: "B", type: "file", optional: true } },
      outputs: {},
    });
    expect(notes.find((n) => n.component === "begin")?.change).toBe("prologue kept; the form (a, b) moved from query to inputs; a made optional");
  });
});

describe("components already in the current shape", () => {
  it("keep their explicit inputs: a query string, a selector, a Begin form keyed by field", () => {
    const { c } = migrate(
      legacy({
        begin: node("Begin", { inputs: { q: { name: "Question", type: "line", optional: false } } }, ["answer:0"]),
        "answer:0": node("Answer", {}, ["categorize:0"]),
        "categorize:0": node("Categorize", { llm_id: "m", query: "begin@q", category_description: { a: { to: ["retrieval:0"] } } }),
        "retrieval:0": node("Retrieval", { dataset_ids: ["d"], query: "{begin@q} please" }, ["answer:0"]),
      }),
    );
    expect(c["categorize:0"].obj.params.query).toBe("begin@q");
    expect(c["retrieval:0"].obj.params).toMatchObject({ query: "{begin@q} please", dataset_ids: ["d"] });
    expect(c.begin.obj.params.inputs).toEqual({ q: { name: "Question", type: "line", optional: true } });
  });
});

describe("unconvertible components", () => {
  it("are kept as Unsupported with the original inside, reported, and fail validation naming the original", () => {
    const input = chat({ "jin10:0": node("Jin10", { type: "flash", secret_key: "s" }, []) }, "jin10:0", []);
    const result = migrateDsl(input);
    const c = result.dsl.components as Record<string, Entry>;
    expect(c["jin10:0"].obj).toEqual({ component_name: "Unsupported", params: { component_name: "Jin10", params: { type: "flash", secret_key: "s" }, reason: expect.stringContaining("no runnable Jin10") } });
    expect(result.unsupported).toEqual([{ component: "jin10:0", componentType: "Jin10", reason: expect.stringContaining("Jin10") }]);
    expect(validationErrors(result.dsl)).toEqual([
      expect.objectContaining({ componentId: "jin10:0", componentType: "Unsupported", pointer: "/components/jin10:0/obj/params/component_name", message: expect.stringMatching(/^"Jin10" could not be migrated: .*replace this component/) }),
    ]);
    // Idempotent: a second migration finds nothing to do, but still reports what is unsupported.
    const again = migrateDsl(result.dsl);
    expect(again.applied).toEqual([]);
    expect(again.unsupported).toEqual(result.unsupported);
  });

  it("a name no RAGFlow version has is kept the same way", () => {
    const { c } = migrate(chat({ "x:0": node("Teleporter", { a: 1 }) }, "x:0", []));
    expect(c["x:0"].obj.params).toEqual({ component_name: "Teleporter", params: { a: 1 }, reason: 'no RAGFlow component, old or current, is called "Teleporter"' });
  });
});

describe("conversation turns", () => {
  it("an Answer after Begin: the run starts past it; the Answer that ends the loop shows the reply", () => {
    const { c, notes } = migrate(chat({ "generate:0": node("Generate", { llm_id: "m", prompt: "p" }) }, "generate:0", ["generate:0"]));
    expect(c.begin.downstream).toEqual(["generate:0"]);
    expect(c["generate:0"].downstream).toEqual(["answer:0"]);
    expect(c["answer:0"]).toMatchObject({ obj: { component_name: "Message", params: { content: ["{generate:0@content}"] } }, downstream: [], upstream: ["generate:0"] });
    expect(notes).toContainEqual(expect.objectContaining({ component: "begin", change: "starts the flow at generate:0 (after answer:0)" }));
  });

  it("post_answers become alternative endings of the reply", () => {
    const input = chat({ "generate:0": node("Generate", { llm_id: "m", prompt: "p" }) }, "generate:0", ["generate:0"]);
    (input.components["answer:0"] as { obj: { params: Params } }).obj.params.post_answers = [" Bye.", " See you."];
    expect(migrate(input).c["answer:0"].obj.params.content).toEqual(["{generate:0@content} Bye.", "{generate:0@content} See you."]);
  });

  it("an Answer reached only from Messages is removed: the Messages show their text themselves", () => {
    const { c } = migrate(
      chat(
        {
          "categorize:0": node("Categorize", { llm_id: "m", category_description: { a: { to: "message:0" }, b: { to: "message:1" } } }),
          "message:0": node("Message", { messages: ["A"] }),
          "message:1": node("Message", { messages: ["B"] }),
        },
        "categorize:0",
        ["message:0", "message:1"],
      ),
    );
    expect(Object.keys(c)).toEqual(["begin", "categorize:0", "message:0", "message:1"]);
    expect(c["message:0"].downstream).toEqual([]);
  });

  it("an Answer in the middle of the flow: a Switch after Begin resumes after it on the next turn", () => {
    const { c, dsl } = migrate(JSON.parse(readFileSync(corpusPath("ragflow/head/fixtures", "agent-test-dsl_examples/headhunter_zh.json"), "utf8")));
    expect(c.begin.downstream).toEqual(["Switch:ResumeConversation"]);
    expect(c["Switch:ResumeConversation"].obj.params).toEqual({
      conditions: [{ logical_operator: "and", items: [{ cpn_id: "env.resume_at", operator: "=", value: "answer:1" }], to: ["categorize:1"] }],
      end_cpn_ids: ["categorize:0"],
    });
    expect(c["answer:1"].downstream).toEqual(["VariableAssigner:answer_1_resume"]);
    expect(c["VariableAssigner:answer_1_resume"].obj.params).toEqual({ variables: [{ variable: "env.resume_at", operator: "set", parameter: "answer:1" }] });
    expect(c["message:reject"].downstream).toEqual(["VariableAssigner:answer_0_resume"]);
    expect(c["VariableAssigner:answer_0_resume"].obj.params).toEqual({ variables: [{ variable: "env.resume_at", operator: "set", parameter: "" }] });
    expect(dsl).toMatchObject({ globals: { "env.resume_at": "" }, variables: { resume_at: { name: "resume_at", type: "string", value: "" } } });
    expect(validationErrors(dsl)).toEqual([]);
  });

  it("runs the headhunter conversation turn by turn, continuing where v0.19 would", async () => {
    const { dsl } = migrate(JSON.parse(readFileSync(corpusPath("ragflow/head/fixtures", "agent-test-dsl_examples/headhunter_zh.json"), "utf8")));
    const canvas = await loadCanvas(dsl, { registry: fakeProviderRegistry(), random: () => 0 });
    const turn = async (query: string) => {
      const events: CanvasEvent[] = await canvas.runToEnd({ query });
      expect(events.at(-1)?.event).toBe("workflow_finished");
      const ran = events.flatMap((e) => (e.event === "node_finished" ? [e.data.component_id] : []));
      const text = events.flatMap((e) => (e.event === "message" ? [e.data.content] : [])).join("");
      return { ran, text };
    };
    // "answer" is categorize:0's rejection category: a goodbye, and the next turn starts over.
    const reject = await turn("answer");
    expect(reject.ran).toContain("message:reject");
    expect(reject.text).toBe("好的，祝您生活愉快，工作顺利。");
    expect(canvas.globals["env.resume_at"]).toBe("");
    // Interested: the introduction, then the conversation waits after answer:1.
    const interested = await turn("interested");
    expect(interested.ran.slice(0, 4)).toEqual(["begin", "Switch:ResumeConversation", "categorize:0", "message:introduction"]);
    expect(canvas.globals["env.resume_at"]).toBe("answer:1");
    // The next message goes to categorize:1, as v0.19 continued after answer:1.
    const wechat = await turn("wechat ok");
    expect(wechat.ran.slice(0, 4)).toEqual(["begin", "Switch:ResumeConversation", "categorize:1", "generate:get_wechat"]);
    expect(wechat.text).toBe("[generate:get_wechat] wechat ok");
    expect(canvas.globals["env.resume_at"]).toBe("answer:1");
  });

  it("an Answer that continues where every turn starts needs no Switch", () => {
    const input = legacy({
      begin: node("Begin", {}, ["answer:0"]),
      "answer:0": node("Answer", {}, ["generate:0"]),
      "generate:0": node("Generate", { llm_id: "m", prompt: "p" }, ["answer:1"]),
      "answer:1": node("Answer", {}, ["generate:0"]),
    });
    const { c, dsl } = migrate(input);
    // answer:0 only waited for the user (nothing came before it but Begin): gone.
    expect(Object.keys(c)).toEqual(["begin", "generate:0", "answer:1"]);
    expect(c.begin.downstream).toEqual(["generate:0"]);
    expect(c["answer:1"].obj.params.content).toEqual(["{generate:0@content}"]);
    expect(dsl.variables).toEqual({});
  });
});

describe("top-level keys and the graph", () => {
  it("drops v0.19's keys, empties the path of lists, and adds what the current format expects", () => {
    const { dsl, notes } = migrate({
      ...chat({ "generate:0": node("Generate", { llm_id: "m", prompt: "p" }) }, "generate:0", ["generate:0"]),
      path: [["begin"], ["answer:0"]],
      history: [["user", "hi"], ["assistant", "hello"], "junk"],
      embed_id: "e",
      title: "kept",
    });
    expect(Object.keys(dsl).sort()).toEqual(["components", "globals", "graph", "history", "memory", "messages", "path", "retrieval", "title", "variables"]);
    expect(dsl).toMatchObject({
      path: [],
      history: [["user", "hi"], ["assistant", "hello"]],
      retrieval: [],
      memory: [],
      title: "kept",
      globals: { "sys.query": "", "sys.user_id": "", "sys.conversation_turns": 0, "sys.files": [], "sys.history": [], "sys.date": "" },
    });
    expect(notes.map((n) => n.change)).toEqual(
      expect.arrayContaining(["path emptied (it was a list of lists)", "dropped the top-level keys reference, answer, embed_id", "added the top-level keys retrieval, memory, globals, variables"]),
    );
  });

  it("drops downstream ids that name no component, with a note", () => {
    const { c, notes } = migrate(chat({ "generate:0": node("Generate", { llm_id: "m", prompt: "p" }, ["ghost:1"]) }, "generate:0", []));
    expect(c["generate:0"].downstream).toEqual([]);
    expect(notes).toContainEqual(expect.objectContaining({ component: "generate:0", change: "dropped the downstream ghost:1", reason: expect.stringContaining("editor leftover") }));
  });

  it("rebuilds the graph: old positions and names, editor handles for Categorize and Switch, notes kept", () => {
    const input = {
      ...chat(
        {
          "categorize:0": node("Categorize", { llm_id: "m", category_description: { a: { to: "generate:0" }, b: { to: "switch:0" } } }),
          "generate:0": node("Generate", { llm_id: "m", prompt: "p" }),
          "switch:0": node("Switch", { conditions: [{ logical_operator: "and", items: [{ cpn_id: "answer:0", operator: "empty" }], to: "generate:0" }], end_cpn_id: "generate:0" }),
        },
        "categorize:0",
        ["generate:0"],
      ),
      graph: {
        nodes: [
          { id: "categorize:0", type: "categorizeNode", position: { x: 10, y: 20 }, data: { label: "Categorize", name: "Sort it", form: {} } },
          { id: "note:0", type: "noteNode", position: { x: 0, y: 0 }, data: { label: "Note", name: "n", form: { text: "keep me" } } },
          { id: "gone:0", type: "ragNode", data: { label: "Baidu", name: "old" } },
        ],
        edges: [],
      },
    };
    const { dsl, notes } = migrate(input);
    const graph = dsl.graph as { nodes: Array<{ id: string; type: string; position: { x: number; y: number }; data: { label: string; name: string; form: Params } }>; edges: Array<Record<string, unknown>> };
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    expect([...byId.keys()]).toEqual(["begin", "answer:0", "categorize:0", "generate:0", "switch:0", "note:0"]);
    expect(byId.get("categorize:0")).toMatchObject({ type: "categorizeNode", position: { x: 10, y: 20 }, data: { label: "Categorize", name: "Sort it" } });
    expect(byId.get("answer:0")).toMatchObject({ type: "messageNode", data: { label: "Message" } });
    const items = byId.get("categorize:0")!.data.form.items as Array<{ name: string; uuid: string }>;
    expect(items.map((i) => i.name)).toEqual(["a", "b"]);
    expect(graph.edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: "categorize:0", sourceHandle: items[0].uuid, target: "generate:0" }),
        expect.objectContaining({ source: "switch:0", sourceHandle: "Case 1", target: "generate:0" }),
        expect.objectContaining({ source: "switch:0", sourceHandle: "end_cpn_ids", target: "generate:0" }),
        expect.objectContaining({ source: "begin", sourceHandle: "start", target: "categorize:0", targetHandle: "end" }),
      ]),
    );
    expect(byId.get("note:0")?.data.form).toEqual({ text: "keep me" });
    expect(notes).toContainEqual(expect.objectContaining({ change: "dropped the graph nodes gone:0" }));
    // The same input gives the same graph (stable uuids), so migrating twice is stable.
    expect(migrate(input).dsl.graph).toEqual(dsl.graph);
  });
});
