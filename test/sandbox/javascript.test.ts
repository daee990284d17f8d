/**
 * CodeExec's JavaScript sandbox: QuickJS in worker threads. main's calling convention and
 * results, its limits (time, memory, stack, result size), cancellation, and the ways out of a
 * `vm` context that must lead nowhere here.
 */
import { describe, expect, it } from "vitest";
import { runJavaScript } from "../../src/sandbox/code/javascript.js";
import { codeSandboxSettings } from "../../src/sandbox/code/options.js";

const JS = codeSandboxSettings({ timeoutMs: 20_000, memoryMb: 64 });

describe("the JavaScript sandbox", () => {
  it("calls main(args), sync or async, declared or exported", async () => {
    expect(await runJavaScript("function main(args) { return { double: args.n * 2 }; }", { n: 21 }, JS)).toEqual({ double: 42 });
    expect(await runJavaScript("const main = async ({ words }) => words.map((w) => w.toUpperCase());", { words: ["a", "b"] }, JS)).toEqual(["A", "B"]);
    expect(await runJavaScript("let main = () => 'let';", {}, JS)).toBe("let");
    expect(await runJavaScript("module.exports = { main: () => 'exported' };", {}, JS)).toBe("exported");
    expect(await runJavaScript("module.exports = () => 'the module itself';", {}, JS)).toBe("the module itself");
    expect(await runJavaScript("function main() { console.log('ignored'); }", {}, JS)).toBeNull();
    expect(await runJavaScript("async function main() { const a = await Promise.resolve(1); const b = await new Promise((r) => r(2)); return a + b; }", {}, JS)).toBe(3);
  });

  it("runs each script in a fresh engine: nothing one leaves behind reaches the next", async () => {
    await runJavaScript("globalThis.leftover = 'secret'; Object.prototype.polluted = 1; function main() { return 1; }", {}, JS);
    expect(await runJavaScript("function main() { return [typeof leftover, ({}).polluted ?? null]; }", {}, JS)).toEqual(["undefined", null]);
  });

  it("reports script errors with their line, and results that are not JSON data", async () => {
    await expect(runJavaScript("function main() {\n  return missing.value;\n}", {}, JS)).rejects.toThrow("JavaScript error: ReferenceError: 'missing' is not defined (script.js, line 2)");
    await expect(runJavaScript("function main( {", {}, JS)).rejects.toThrow("JavaScript error: SyntaxError");
    await expect(runJavaScript("const x = 1;", {}, JS)).rejects.toThrow("the script defines no main function");
    await expect(runJavaScript("function main() { return new Map(); }", {}, JS)).rejects.toThrow("unsupported top-level result type: Map");
    await expect(runJavaScript("function main() { return 1 / 0; }", {}, JS)).rejects.toThrow("main returned Infinity: a number result must be finite");
    await expect(runJavaScript("function main() { return 10n; }", {}, JS)).rejects.toThrow("unsupported top-level result type: bigint");
    await expect(runJavaScript("function main() { throw 'plain'; }", {}, JS)).rejects.toThrow("JavaScript error: plain");
    await expect(runJavaScript("async function main() { await new Promise(() => {}); }", {}, JS)).rejects.toThrow("JavaScript error: main returned a promise that never settled");
    await expect(runJavaScript("async function main() { throw new TypeError('late'); }", {}, JS)).rejects.toThrow("JavaScript error: TypeError: late");
  });

  it("stops a script that runs too long, outgrows its heap or its stack, or returns too much", async () => {
    await expect(runJavaScript("function main() { for (;;) {} }", {}, { ...JS, timeoutMs: 300 })).rejects.toThrow("JavaScript main did not finish within 0.3 s: the script was stopped");
    await expect(runJavaScript("async function main() { for (;;) await null; }", {}, { ...JS, timeoutMs: 300 })).rejects.toThrow("JavaScript main did not finish within 0.3 s");
    for (const hog of ["new Uint8Array(1 << 20)", "'x'.repeat(1 << 20) + keep.length", "new Array(1000).fill(keep.length)", "{ n: keep.length, list: [1, 2, 3] }"]) {
      await expect(runJavaScript(`function main() { const keep = []; for (;;) keep.push(${hog}); }`, {}, { ...JS, memoryMb: 32 })).rejects.toThrow(
        "JavaScript ran out of memory (limit 32 MB): the script was stopped",
      );
    }
    await expect(runJavaScript("function main() { return 'x'.repeat(1e9).length; }", {}, { ...JS, memoryMb: 32 })).rejects.toThrow("JavaScript ran out of memory (limit 32 MB)");
    await expect(runJavaScript("function f(n) { return f(n + 1) + 1; } function main() { return f(0); }", {}, JS)).rejects.toThrow("JavaScript error: InternalError: stack overflow");
    await expect(runJavaScript("function main() { return JSON.parse('['.repeat(1e6)); }", {}, JS)).rejects.toThrow("stack overflow");
    await expect(runJavaScript("function main() { return 'x'.repeat(5000); }", {}, { ...JS, outputBytes: 2048 })).rejects.toThrow("main's result is larger than 2 KiB: the script was stopped");
    await expect(runJavaScript("function main() { return { list: new Array(5000).fill(1) }; }", {}, { ...JS, outputBytes: 2048 })).rejects.toThrow("main's result is larger than 2 KiB");
    // A string nearly as large as the heap is refused before JSON would need as much again.
    await expect(runJavaScript("function main() { return 'x'.repeat(100 * 1024 * 1024); }", {}, { ...JS, memoryMb: 128, outputBytes: 1 << 20 })).rejects.toThrow("main's result is larger than 1 MiB");
    // The pool is still usable after all of that.
    expect(await runJavaScript("function main() { return 'still here'; }", {}, JS)).toBe("still here");
  });

  it("stops when the run is cancelled, queued or running", async () => {
    const controller = new AbortController();
    const running = runJavaScript("function main() { for (;;) {} }", {}, JS, controller.signal);
    setTimeout(() => controller.abort(new Error("cancelled by the user")), 100);
    await expect(running).rejects.toThrow("cancelled by the user");
    const before = new AbortController();
    before.abort(new Error("cancelled before it started"));
    await expect(runJavaScript("function main() { return 1; }", {}, JS, before.signal)).rejects.toThrow("cancelled before it started");
  });

  it("runs at most javascriptWorkers scripts at once; the others wait, and each keeps its own deadline", async () => {
    const one = { ...JS, javascriptWorkers: 1, timeoutMs: 2_000 };
    const started = Date.now();
    const results = await Promise.all([1, 2, 3].map((n) => runJavaScript(`function main() { const end = Date.now() + 300; while (Date.now() < end) {} return ${n}; }`, {}, one)));
    expect(results).toEqual([1, 2, 3]);
    // One at a time: about 900 ms in all, and none of them ran out of its own 2 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(850);
  });

  it("gives a script nothing of Node: every way out of a vm context leads nowhere", async () => {
    const probes = [
      "typeof require",
      "typeof process",
      "typeof setTimeout",
      "typeof globalThis.Buffer",
      "typeof fetch",
      "typeof WebAssembly",
      "typeof std",
      "typeof os",
    ];
    const kinds = await runJavaScript(`function main() { return [${probes.join(", ")}]; }`, {}, JS);
    expect(kinds).toEqual(probes.map(() => "undefined"));
    // The constructor chain reaches QuickJS's own Function, whose code also runs inside QuickJS.
    await expect(runJavaScript("function main() { return this.constructor.constructor('return process')().pid; }", {}, JS)).rejects.toThrow("ReferenceError: 'process' is not defined");
    await expect(runJavaScript("function main() { return console.log.constructor('return globalThis')().process; }", {}, JS)).resolves.toBeNull();
    await expect(runJavaScript("async function main() { return await import('node:child_process'); }", {}, JS)).rejects.toThrow(/could not load module|not defined|import/);
    await expect(runJavaScript("function main() { return Object.getOwnPropertyNames(globalThis).filter((n) => /process|require|module_|worker|parentPort/i.test(n)); }", {}, JS)).resolves.toEqual([]);
  });
});
