/**
 * The program of a worker thread that runs CodeExec JavaScript in QuickJS, a JavaScript engine
 * compiled to WebAssembly (quickjs-emscripten). A script lives in the WebAssembly module's own
 * memory and reaches nothing of Node: no `process`, `require`, `import()`, timers, files or
 * network exist in it, and no function of the worker is handed to it. Each run gets a new
 * QuickJS runtime (its own heap and a stack limit) that is thrown away afterwards, so runs share
 * nothing; the compiled module is kept for the worker's life, so a run costs well under a
 * millisecond to set up.
 *
 * The memory limit is the WebAssembly memory's own maximum, `memoryBytes` above what the module
 * needs to start: an allocation past it fails inside QuickJS, which throws "out of memory".
 * (QuickJS's own malloc limit cannot be used: built with Emscripten it has no malloc_usable_size
 * and counts only a few bytes per allocation.) A WebAssembly memory never shrinks, so a worker
 * whose memory grew past RECYCLE_BYTES ends after answering, giving it back.
 *
 * The worker thread exists so that a long script never holds this process's event loop: QuickJS
 * stops the script itself at the deadline, or when the run is cancelled (the parent sets a flag
 * in shared memory that the interrupt handler reads).
 *
 * Messages: in, { id, script, argsJson, stackBytes, deadline, outputBytes, cancel (Int32Array on
 * a SharedArrayBuffer) }; out, { id, ok: true, json } or { id, ok: false, error,
 * kind }, kind being "script", "timeout", "memory", "cancelled" or "output". After a failure of the
 * WebAssembly module itself (kind "broken") the worker exits, and the pool starts another.
 * It is kept as text and started with `eval: true`, so it needs no file beside the compiled code.
 */
export const QUICKJS_WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { newQuickJSWASMModuleFromVariant, newVariant } = require(workerData.core);
const loaded = require(workerData.variant);
const PAGE = 65536;
// The module's declared initial memory (16 MiB in quickjs-emscripten's builds).
const INITIAL_PAGES = 256;
const RECYCLE_BYTES = INITIAL_PAGES * PAGE + 64 * 1024 * 1024;
const MAXIMUM_PAGES = INITIAL_PAGES + Math.ceil(workerData.memoryBytes / PAGE);
const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES });

// Out of memory while throwing "out of memory", QuickJS throws null: a null with the memory at its
// maximum is that, not a script's own throw null.
function memoryFull() {
  return memory.buffer.byteLength >= (MAXIMUM_PAGES - 16) * PAGE;
}
const variant = newVariant(loaded.default ?? loaded, { wasmMemory: memory, wasmModule: workerData.wasm });

// Runs inside QuickJS before the script: a silent console, and module/exports so that
// module.exports = { main } works as in Node.
const PRELUDE = ${"`"}
  (() => {
    const quiet = () => undefined;
    globalThis.console = { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, trace: quiet, dir: quiet, table: quiet };
    globalThis.module = { exports: {} };
    globalThis.exports = globalThis.module.exports;
  })();
${"`"};

// Calls main and describes its result as JSON text, so that only a string comes out.
const CALL_MAIN = ${"`"}
  (async (argsJson, outputBytes) => {
    // A top-level const or let main is no property of globalThis, but this script sees it.
    const found = typeof main === "function" ? main
      : module.exports && typeof module.exports.main === "function" ? module.exports.main
      : typeof module.exports === "function" ? module.exports
      : undefined;
    if (typeof found !== "function") return JSON.stringify({ ok: false, error: "the script defines no main function (function main(args) { … } or module.exports = { main })" });
    const value = await found(JSON.parse(argsJson));
    if (value === undefined || value === null) return JSON.stringify({ ok: true, json: "null" });
    const type = typeof value;
    // Measured before it is copied into JSON, which would take as much memory again.
    if (type === "string" && value.length > outputBytes) return JSON.stringify({ ok: false, output: true });
    const unsupported = (name) => JSON.stringify({ ok: false, error: "unsupported top-level result type: " + name + ". Allowed top-level values are String, Number, Boolean, Object, Array, or Null." });
    if (type === "number" && !Number.isFinite(value)) return JSON.stringify({ ok: false, error: "main returned " + String(value) + ": a number result must be finite" });
    if (type === "bigint" || type === "function" || type === "symbol") return unsupported(type);
    if (type === "object" && !Array.isArray(value)) {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return unsupported((value.constructor && value.constructor.name) || "object");
    }
    let json;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      return JSON.stringify({ ok: false, error: "the result cannot be turned into JSON: " + (error && error.message) });
    }
    if (json.length > outputBytes) return JSON.stringify({ ok: false, output: true });
    return JSON.stringify({ ok: true, json });
  })
${"`"};

function describe(dumped) {
  if (dumped === null || typeof dumped !== "object") return String(dumped);
  const name = typeof dumped.name === "string" ? dumped.name : "Error";
  const message = typeof dumped.message === "string" ? dumped.message : JSON.stringify(dumped);
  const stack = typeof dumped.stack === "string" ? dumped.stack : "";
  const where = /script\.js:(\d+)(?::(\d+))?/.exec(stack);
  return name + ": " + message + (where ? " (script.js, line " + where[1] + ")" : "");
}

function failure(vm, handle, job, stopped) {
  const dumped = vm.dump(handle);
  if (stopped.reason) return { ok: false, kind: stopped.reason, error: "" };
  const message = dumped && typeof dumped === "object" ? dumped.message : undefined;
  if (message === "out of memory" || (dumped === null && memoryFull())) return { ok: false, kind: "memory", error: "" };
  return { ok: false, kind: "script", error: describe(dumped) };
}

// Set when the WebAssembly module can no longer be trusted: the worker ends after answering.
let broken = false;

function runJob(module, job) {
  const runtime = module.newRuntime();
  runtime.setMaxStackSize(job.stackBytes);
  const stopped = { reason: undefined };
  runtime.setInterruptHandler(() => {
    if (Atomics.load(job.cancel, 0) !== 0) stopped.reason = "cancelled";
    else if (Date.now() > job.deadline) stopped.reason = "timeout";
    return stopped.reason !== undefined;
  });
  const vm = runtime.newContext();
  let reply;
  try {
    const handles = [];
    const run = (code, name) => {
      const result = vm.evalCode(code, name);
      if (result.error) {
        const reply = failure(vm, result.error, job, stopped);
        result.error.dispose();
        throw reply;
      }
      handles.push(result.value);
      return result.value;
    };
    try {
      run(PRELUDE, "prelude.js");
      run(job.script, "script.js");
      const call = run(CALL_MAIN, "call.js");
      const argsHandle = vm.newString(job.argsJson);
      handles.push(argsHandle);
      const limitHandle = vm.newNumber(job.outputBytes);
      handles.push(limitHandle);
      const called = vm.callFunction(call, vm.undefined, argsHandle, limitHandle);
      if (called.error) {
        const reply = failure(vm, called.error, job, stopped);
        called.error.dispose();
        throw reply;
      }
      handles.push(called.value);
      // main's promise settles as QuickJS runs its pending jobs; nothing outside can settle it later.
      let state = vm.getPromiseState(called.value);
      while (state.type === "pending") {
        const ran = runtime.executePendingJobs();
        if (ran.error) {
          const reply = failure(vm, ran.error, job, stopped);
          ran.error.dispose();
          throw reply;
        }
        if (ran.value === 0) break;
        state = vm.getPromiseState(called.value);
      }
      if (state.type === "pending") {
        reply = { ok: false, kind: "script", error: "main returned a promise that never settled" };
      } else if (state.type === "rejected") {
        reply = failure(vm, state.error, job, stopped);
        state.error.dispose();
      } else {
        const text = vm.getString(state.value);
        state.value.dispose();
        if (text.length > job.outputBytes + 1024) reply = { ok: false, kind: "output", error: "" };
        else {
          const answer = JSON.parse(text);
          reply = answer.ok ? { ok: true, json: answer.json } : answer.output ? { ok: false, kind: "output", error: "" } : { ok: false, kind: "script", error: answer.error };
        }
      }
    } catch (thrown) {
      if (thrown && typeof thrown === "object" && "kind" in thrown) reply = thrown;
      else throw thrown;
    } finally {
      for (const handle of handles) if (handle.alive) handle.dispose();
    }
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // Out of memory in some paths, QuickJS loses track of objects and its runtime cannot be
      // freed: the answer stands, but this module is done for.
      broken = true;
    }
  }
  return reply;
}

newQuickJSWASMModuleFromVariant(variant).then(
  (module) => {
    parentPort.on("message", (job) => {
      let reply;
      try {
        reply = runJob(module, job);
      } catch (error) {
        // The WebAssembly module itself failed (its own stack ran out, an assertion): it may be
        // in any state now, so this worker answers and ends, and the pool starts a fresh one.
        parentPort.postMessage({ id: job.id, ok: false, kind: "broken", error: String((error && error.message) || error) });
        process.exit(1);
      }
      const retire = broken || memory.buffer.byteLength > RECYCLE_BYTES;
      parentPort.postMessage({ id: job.id, ...reply, retire });
      if (retire) process.exit(0);
    });
    parentPort.postMessage({ ready: true });
  },
  (error) => {
    parentPort.postMessage({ ready: false, error: String((error && error.message) || error) });
  },
);
`;
