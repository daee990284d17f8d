/**
 * CodeExec: the output contract (RAGFlow's test_code_exec_contract_unit.py), the JavaScript
 * sandbox (worker thread + vm context, time and memory limits) and the Python subprocess, as a
 * canvas node and as an Agent's tool.
 */
import { readFile } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/index.js";
import { paramsWithDefaults } from "../../src/components/params.js";
import { UnavailableError } from "../../src/components/unavailable.js";
import { CodeExec, normalizeLanguage } from "../../src/tools/code-exec.js";
import { buildContract, businessOutput, canonicalContent, inferActualType } from "../../src/tools/code/contract.js";
import { runJavaScript } from "../../src/tools/code/javascript.js";
import { runPython } from "../../src/tools/code/python.js";
import { sandboxLimits } from "../../src/tools/code/options.js";
import type { ToolContext } from "../../src/tools/types.js";
import { canvasDsl, lastEvent, messageText, node, nodeFinished } from "../helpers/dsl.js";

const JS = { timeoutMs: 20_000, memoryMb: 64 };
const PY = { timeoutMs: 20_000, memoryMb: 256, python: "python3" };

/** Whether a process is gone: it no longer exists, or is a zombie waiting to be reaped. */
async function processState(pid: number): Promise<"gone" | "running"> {
  try {
    process.kill(pid, 0);
  } catch {
    return "gone";
  }
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "State: X");
  return /State:\s+Z/.test(status) ? "gone" : "running";
}

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

describe("the JavaScript sandbox", () => {
  it("calls main(args), sync or async, declared or exported", async () => {
    expect(await runJavaScript("function main(args) { return { double: args.n * 2 }; }", { n: 21 }, JS)).toEqual({ double: 42 });
    expect(await runJavaScript("const main = async ({ words }) => words.map((w) => w.toUpperCase());", { words: ["a", "b"] }, JS)).toEqual(["A", "B"]);
    expect(await runJavaScript("module.exports = { main: () => 'exported' };", {}, JS)).toBe("exported");
    expect(await runJavaScript("function main() { console.log('ignored'); }", {}, JS)).toBeNull();
  });

  it("gives the script no require, process, timers or string evaluation", async () => {
    expect(await runJavaScript("function main() { return [typeof require, typeof process, typeof setTimeout, typeof globalThis.Buffer, typeof fetch]; }", {}, JS)).toEqual([
      "undefined",
      "undefined",
      "undefined",
      "undefined",
      "undefined",
    ]);
    await expect(runJavaScript("const fs = require('fs'); function main() { return 1; }", {}, JS)).rejects.toThrow("JavaScript error: ReferenceError: require is not defined (script.js, line 1)");
    await expect(runJavaScript("function main() { return console.log.constructor('return process')().pid; }", {}, JS)).rejects.toThrow("EvalError: Code generation from strings disallowed");
    await expect(runJavaScript("function main() { return eval('1 + 1'); }", {}, JS)).rejects.toThrow("EvalError");
  });

  it("reports script errors with their line, and results that are not JSON data", async () => {
    await expect(runJavaScript("function main() {\n  return missing.value;\n}", {}, JS)).rejects.toThrow("JavaScript error: ReferenceError: missing is not defined (script.js, line 2)");
    await expect(runJavaScript("function main( {", {}, JS)).rejects.toThrow("JavaScript error: SyntaxError");
    await expect(runJavaScript("const x = 1;", {}, JS)).rejects.toThrow("the script defines no main function");
    await expect(runJavaScript("function main() { return new Map(); }", {}, JS)).rejects.toThrow("unsupported top-level result type: Map");
    await expect(runJavaScript("function main() { return 1 / 0; }", {}, JS)).rejects.toThrow("main returned Infinity: a number result must be finite");
    await expect(runJavaScript("function main() { return 10n; }", {}, JS)).rejects.toThrow("unsupported top-level result type: bigint");
    await expect(runJavaScript("async function main() { await new Promise(() => {}); }", {}, JS)).rejects.toThrow("JavaScript main returned a promise that never settled");
  });

  it("stops a script that runs too long or outgrows its heap", async () => {
    await expect(runJavaScript("function main() { for (;;) {} }", {}, { timeoutMs: 300, memoryMb: 64 })).rejects.toThrow("JavaScript main did not finish within 0.3 s: the script was stopped");
    await expect(runJavaScript("function main() { const keep = []; for (;;) keep.push(new Array(100000).fill(keep.length)); }", {}, { timeoutMs: 60_000, memoryMb: 32 })).rejects.toThrow(
      "JavaScript ran out of memory (limit 32 MB): the script was stopped",
    );
  });

  it("stops when the run is cancelled", async () => {
    const controller = new AbortController();
    const running = runJavaScript("function main() { for (;;) {} }", {}, JS, controller.signal);
    controller.abort(new Error("cancelled by the user"));
    await expect(running).rejects.toThrow("cancelled by the user");
  });
});

describe("the Python subprocess", () => {
  it("calls main(**args) and returns its value; prints are not the result", async () => {
    expect(await runPython("def main(x, y):\n    print('noise')\n    return {'sum': x + y, 'pair': (x, y)}", { x: 1, y: 2 }, PY)).toEqual({ sum: 3, pair: [1, 2] });
    expect(await runPython("async def main():\n    return 'awaited'", {}, PY)).toBe("awaited");
    expect(await runPython("def main():\n    pass\nif __name__ == '__main__':\n    raise SystemExit('not run')", {}, PY)).toBeNull();
  });

  it("reports errors with their line, missing main, and results that are not JSON data", async () => {
    await expect(runPython("def main():\n    return 1 / 0", {}, PY)).rejects.toThrow("Python error: ZeroDivisionError: division by zero (script.py, line 2)");
    await expect(runPython("def main(:\n    pass", {}, PY)).rejects.toThrow("Python error: SyntaxError");
    await expect(runPython("x = 1", {}, PY)).rejects.toThrow("the script defines no main function");
    await expect(runPython("def main():\n    return {1, 2}", {}, PY)).rejects.toThrow("unsupported top-level result type: set");
    await expect(runPython("def main():\n    return float('nan')", {}, PY)).rejects.toThrow("the result cannot be turned into JSON");
    await expect(runPython("def main(a):\n    return a", { b: 1 }, PY)).rejects.toThrow("TypeError: main() got an unexpected keyword argument 'b'");
  });

  it("kills the whole process group when the time limit passes", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "canvasflow-py-"));
    try {
      const pidFile = path.join(dir, "child.pid");
      const script = "import subprocess, time\ndef main(pid_file):\n    child = subprocess.Popen(['sleep', '60'])\n    with open(pid_file, 'w') as f:\n        f.write(str(child.pid))\n    time.sleep(60)";
      await expect(runPython(script, { pid_file: pidFile }, { ...PY, timeoutMs: 5000 })).rejects.toThrow("Python main did not finish within 5 s: the process was killed");
      const pid = Number(await readFile(pidFile, "utf8"));
      // The grandchild got SIGKILL with its group: it is gone, or a zombie waiting to be reaped.
      await expect.poll(() => processState(pid)).toBe("gone");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("stops a memory bomb at the memory limit, and leaves nothing running", async () => {
    const limited = { ...PY, memoryMb: 128 };
    const dir = await mkdtemp(path.join(tmpdir(), "canvasflow-py-"));
    try {
      const pidFile = path.join(dir, "bomb.pid");
      // One huge allocation (about 9.8 GB without a limit).
      const bomb = "import os\ndef main(pid_file):\n    with open(pid_file, 'w') as f:\n        f.write(str(os.getpid()))\n    return len(' ' * 10**10)";
      await expect(runPython(bomb, { pid_file: pidFile }, limited)).rejects.toThrow("Python ran out of memory (limit 128 MB): the script was stopped (script.py, line 5)");
      const pid = Number(await readFile(pidFile, "utf8"));
      await expect.poll(() => processState(pid)).toBe("gone");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // Many small allocations that are all kept.
    const creeping = "def main():\n    kept = []\n    while True:\n        kept.append(bytearray(1 << 20))";
    await expect(runPython(creeping, {}, limited)).rejects.toThrow("Python ran out of memory (limit 128 MB): the script was stopped (script.py, line 4)");
  });

  it("reports the memory limit when the interpreter dies of it before answering", async () => {
    // The script replaces the runner with an interpreter that inherits the limit and dies of a MemoryError nobody catches.
    const script = "import os, sys\ndef main():\n    os.execv(sys.executable, [sys.executable, '-c', 'x = bytes(10**10)'])";
    await expect(runPython(script, {}, { ...PY, memoryMb: 64 })).rejects.toThrow(/^Python ran out of memory \(limit 64 MB\): the script was stopped: .*MemoryError/);
  });

  it("lets ordinary scripts (imports, threads, tens of MB) run under the memory limit", async () => {
    const script = [
      "import asyncio, collections, decimal, json, re, statistics",
      "from concurrent.futures import ThreadPoolExecutor",
      "def main():",
      "    block = bytearray(64 << 20)",
      "    with ThreadPoolExecutor(4) as pool:",
      "        sizes = list(pool.map(lambda n: len(bytes(n << 20)), range(1, 9)))",
      "    return [len(block) >> 20, sum(sizes) >> 20, statistics.mean([1, 2, 3])]",
    ].join("\n");
    expect(await runPython(script, {}, { ...PY, memoryMb: 128 })).toEqual([64, 36, 2]);
  });

  it("answers when main returns, even while a program it started holds stdout open", async () => {
    const script = "import subprocess\ndef main():\n    subprocess.Popen(['sleep', '60'])\n    return 'done'";
    expect(await runPython(script, {}, { ...PY, timeoutMs: 10_000 })).toBe("done");
  });

  it("gives the script none of this process's API keys", async () => {
    process.env.CANVASFLOW_TEST_SECRET = "s3cret";
    try {
      expect(await runPython("import os\ndef main():\n    return os.environ.get('CANVASFLOW_TEST_SECRET')", {}, PY)).toBeNull();
    } finally {
      delete process.env.CANVASFLOW_TEST_SECRET;
    }
  });

  it("names a Python interpreter that cannot be found", async () => {
    await expect(runPython("def main():\n    return 1", {}, { ...PY, python: "python-that-does-not-exist" })).rejects.toThrow(
      "python-that-does-not-exist was not found: install Python 3, or set the codeExec service's python option",
    );
    await expect(runPython("def main():\n    return 1", {}, { ...PY, python: "python-that-does-not-exist" })).rejects.toBeInstanceOf(UnavailableError);
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
    expect(sandboxLimits({ timeoutMs: 200, memoryMb: "bad" })).toEqual({ timeoutMs: 200, memoryMb: 256, python: "python3" });
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
