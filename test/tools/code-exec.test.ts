/**
 * CodeExec: the output contract (RAGFlow's test_code_exec_contract_unit.py), and the component as
 * a canvas node and as an Agent's tool. The sandboxes it runs scripts in are tested in
 * test/sandbox/.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { paramsWithDefaults } from "../../src/components/params.js";
import { CodeExec, normalizeLanguage } from "../../src/tools/code-exec.js";
import { buildContract, businessOutput, canonicalContent, inferActualType } from "../../src/tools/code/contract.js";
import type { ToolContext } from "../../src/tools/types.js";
import { canvasDsl, lastEvent, messageText, node, nodeFinished } from "../helpers/dsl.js";


describe("the output contract", () => {
  it("chooses the one business output besides the system outputs", () => {
    const outputs = Object.fromEntries(["content", "actual_type", "_ERROR", "_ARTIFACTS", "_ATTACHMENT_CONTENT", "raw_result", "_created_time", "_elapsed_time", "result"].map((k) => [k, {}]));
    expect(businessOutput(outputs)).toEqual({ name: "result" });
    expect(businessOutput({ result: {}, answer: {}, _ERROR: {} })).toEqual({ problem: expect.stringContaining("exactly one business output") });
    for (const name of ["content", "actual_type", "_ERROR", "_ARTIFACTS", "_ATTACHMENT_CONTENT", "raw_result"]) {
      expect(() => buildContract({ [name]: { type: "String" } }, "ok")).toThrow(`"${name}" is reserved`);
    }
    expect(() => buildContract({ "payload.items": { type: "Array<String>" } }, ["a"])).toThrow('must not contain "."');
  });

  it("keeps arrays and objects whole, and renders canonical sorted-key JSON", () => {
    expect(buildContract({ result: { type: "Array<Number>" } }, [1, 2, 3])).toEqual({ businessOutput: "result", value: [1, 2, 3], actualType: "Array<Number>", content: "[\n  1,\n  2,\n  3\n]" });
    expect(buildContract({ result: { type: "Object" } }, { foo: "bar", n: 1 }).content).toBe('{\n  "foo": "bar",\n  "n": 1\n}');
    expect(canonicalContent({ b: 1, a: 2 })).toBe('{\n  "a": 2,\n  "b": 1\n}');
    expect(canonicalContent("hello")).toBe("hello");
    expect(canonicalContent(null)).toBe("");
    expect(canonicalContent(1.5)).toBe("1.5");
    expect(canonicalContent({ x: [1, 2] })).toBe('{\n  "x": [\n    1,\n    2\n  ]\n}');
  });

  it("validates types case-insensitively and without coercion", () => {
    expect(buildContract({ result: { type: "object" } }, { foo: "bar" }).actualType).toBe("Object");
    expect(buildContract({ result: { type: "array<number>" } }, [1, 2, 3]).actualType).toBe("Array<Number>");
    expect(buildContract({ result: { type: "array<string>" } }, ["a", "b"]).actualType).toBe("Array<String>");
    expect(() => buildContract({ result: { type: "Number" } }, "not-a-number")).toThrow("expected type Number, got String");
    expect(() => buildContract({ result: { type: "Array<Number>" } }, ["1", 2])).toThrow("CodeExec contract mismatch at [0]: expected type Number, got String");
    expect(() => buildContract({ result: { type: "Boolean" } }, "true")).toThrow("expected type Boolean, got String");
    for (const schema of ["Array<>", "Array< >", "array<>", "array< >", "Integer"]) {
      expect(() => buildContract({ result: { type: schema } }, [1, 2])).toThrow("Unsupported expected type");
    }
    for (const type of ["Any", "", null]) expect(buildContract({ result: { type } }, { foo: "bar" }).value).toEqual({ foo: "bar" });
  });

  it("infers the actual type of any JSON value", () => {
    expect([null, true, 1, "s", {}, [], [1, "a"], [[1], [2]]].map(inferActualType)).toEqual(["Null", "Boolean", "Number", "String", "Object", "Array<Any>", "Array<Any>", "Array<Array<Number>>"]);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // Whatever a script returns, checking it against its own inferred type succeeds.
        expect(buildContract({ result: { type: inferActualType(value) } }, value).value).toEqual(value);
      }),
    );
  });
});

describe("CodeExec on a canvas", () => {
  function codeCanvas(params: Record<string, unknown>) {
    return canvasDsl({
      begin: node("Begin", { inputs: { x: { name: "x", type: "line", optional: false } } }, ["CodeExec:Double"]),
      "CodeExec:Double": node("CodeExec", { arguments: { x: "begin@x" }, ...params }, ["Message:Out"]),
      "Message:Out": node("Message", { content: ["result={CodeExec:Double@result} type={CodeExec:Double@actual_type}"] }),
    });
  }

  it.each([
    ["python", "def main(x):\n    return int(x) * 2\n"],
    ["javascript", "function main({ x }) { return Number(x) * 2; }"],
  ])("%s: arguments come from references and the typed result reaches the Message", async (lang, script) => {
    const canvas = await loadCanvas(codeCanvas({ lang, script, outputs: { result: { type: "Number", value: "" } } }));
    const events = await canvas.runToEnd({ query: "", inputs: { x: { value: "21" } } });
    expect(lastEvent(events).data).not.toHaveProperty("error");
    expect(messageText(events)).toBe("result=42 type=Number");
    expect(canvas.outputs("CodeExec:Double")).toMatchObject({ result: 42, content: "42", actual_type: "Number", raw_result: 42, attachments: [], formalized_content: "42" });
  });

  it("a result that breaks the declared type fails the node, keeping raw_result and actual_type", async () => {
    const canvas = await loadCanvas(codeCanvas({ lang: "python", script: "def main(x):\n    return [x, x]", outputs: { result: { type: "Number" } } }));
    const events = await canvas.runToEnd({ query: "", inputs: { x: { value: "a" } } });
    expect(lastEvent(events).data).toMatchObject({ error: "CodeExec:Double (CodeExec:Double): CodeExec contract mismatch at value: expected type Number, got Array<String>" });
    expect(canvas.outputs("CodeExec:Double")).toMatchObject({ result: null, raw_result: ["a", "a"], actual_type: "Array<String>", _ERROR: "CodeExec contract mismatch at value: expected type Number, got Array<String>" });
  });

  it("a script error goes through exception_method like any component error", async () => {
    const dsl = codeCanvas({ lang: "javascript", script: "function main() { throw new Error('bad input'); }", exception_method: "comment", exception_default_value: "fallback" });
    const events = await (await loadCanvas(dsl)).runToEnd({ query: "", inputs: { x: { value: "1" } } });
    expect(lastEvent(events).data).not.toHaveProperty("error");
    expect(messageText(events)).toBe("result=fallback type=");
  });

  it("the codeExec service sets the sandbox limits", async () => {
    const dsl = codeCanvas({ lang: "javascript", script: "function main() { for (;;) {} }" });
    const events = await (await loadCanvas(dsl, { services: { codeExec: { timeoutMs: 200 } } })).runToEnd({ query: "", inputs: { x: { value: "1" } } });
    expect(lastEvent(events).data).toMatchObject({ error: "CodeExec:Double (CodeExec:Double): JavaScript main did not finish within 0.2 s: the script was stopped" });
  });

  it("the codeExec service's memoryMb limits Python too; the failure is a component error like any other", async () => {
    const dsl = codeCanvas({ lang: "python", script: "def main(x):\n    return len(' ' * 10**10)", exception_method: "comment", exception_default_value: "too big" });
    const canvas = await loadCanvas(dsl, { services: { codeExec: { memoryMb: 64 } } });
    const events = await canvas.runToEnd({ query: "", inputs: { x: { value: "1" } } });
    expect(lastEvent(events).data).not.toHaveProperty("error");
    expect(messageText(events)).toBe("result=too big type=");
    expect(nodeFinished(events, "CodeExec:Double").error).toBe("Python ran out of memory (limit 64 MB): the script was stopped (script.py, line 2)");
  });

  it("refuses an unknown language", async () => {
    expect(() => normalizeLanguage("ruby")).toThrow('lang must be "python" or "javascript", not "ruby"');
    expect(["python3", "nodejs", "JavaScript"].map(normalizeLanguage)).toEqual(["python", "javascript", "javascript"]);
  });
});

describe("CodeExec as an Agent's tool", () => {
  function toolContext(params: Record<string, unknown>): ToolContext {
    return {
      signal: new AbortController().signal,
      services: {},
      params: paramsWithDefaults(CodeExec, params),
      label: "Agent:A → execute_code",
      addReferences: () => undefined,
      addUsage: () => undefined,
    };
  }

  it("offers RAGFlow's function schema: lang (python or javascript) and script, both required", () => {
    const schema = CodeExec.tool!.schema(paramsWithDefaults(CodeExec, {}));
    expect(schema.function.name).toBe("execute_code");
    expect(schema.function.description).toContain("`main` MUST be defined");
    expect(schema.function.parameters).toEqual({
      type: "object",
      properties: {
        lang: { type: "string", description: "The programming language of this piece of code.", enum: ["python", "javascript"] },
        script: { type: "string", description: "A piece of code in right format. There MUST be main function." },
      },
      required: ["lang", "script"],
    });
  });

  it("runs the model's script; with no outputs declared (as in RAGFlow's templates) the result may be any value", async () => {
    const ctx = toolContext({ outputs: null });
    const out = await CodeExec.tool!.run({ lang: "python", script: "def main():\n    return {'mean': sum([1, 2, 3]) / 3}" }, ctx);
    expect(out).toEqual({ result: { mean: 2 }, content: '{\n  "mean": 2\n}', actual_type: "Object", raw_result: { mean: 2 }, attachments: [], formalized_content: '{\n  "mean": 2\n}' });
    const js = await CodeExec.tool!.run({ lang: "javascript", script: "function main() { return 'plain text'; }" }, ctx);
    expect(js.formalized_content).toBe("plain text");
  });

  it("says that argument references need a canvas", async () => {
    await expect(CodeExec.tool!.run({ lang: "python", script: "def main(x):\n    return x" }, toolContext({ arguments: { x: "begin@x" } }))).rejects.toThrow(
      'argument "x" refers to begin@x, which can only be read when CodeExec runs inside a canvas',
    );
    await expect(CodeExec.tool!.run({ lang: "python", script: "  " }, toolContext({}))).rejects.toThrow("script is empty: CodeExec needs a script that defines main");
  });
});
