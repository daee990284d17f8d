/**
 * The program of the worker thread that runs a CodeExec JavaScript script. It is kept as text and
 * started with `new Worker(source, { eval: true })`, so it needs no file of its own next to the
 * compiled code.
 *
 * The script runs in a fresh `vm` context: only JavaScript's own globals (Object, JSON, Math,
 * Promise…), a silent `console`, and `module`/`exports` so `module.exports = { main }` works. No
 * require, process, timers or I/O, and no string evaluation (eval, new Function). No function of
 * the worker is put into the context, since any such function would hand out the worker's own
 * Function constructor. The arguments go in, and the result comes out, as JSON text.
 *
 * The worker posts exactly one message: { ok: true, json } or { ok: false, error }.
 */
export const JS_WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const vm = require("node:vm");

const PRELUDE = ${"`"}
  (() => {
    const quiet = () => undefined;
    globalThis.console = { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, trace: quiet, dir: quiet, table: quiet };
    globalThis.module = { exports: {} };
    globalThis.exports = globalThis.module.exports;
  })();
${"`"};

const FIND_MAIN = ${"`"}
  (typeof main === "function" ? main
    : module.exports && typeof module.exports.main === "function" ? module.exports.main
    : typeof module.exports === "function" ? module.exports
    : undefined)
${"`"};

// Runs inside the context: calls main and describes its result as JSON text, so nothing but a
// string crosses back.
const CALL_MAIN = ${"`"}
  (async (main, argsJson) => {
    const value = await main(JSON.parse(argsJson));
    if (value === undefined || value === null) return JSON.stringify({ ok: true, json: "null" });
    const type = typeof value;
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
    return JSON.stringify({ ok: true, json });
  })
${"`"};

function describeError(error) {
  if (error === null || typeof error !== "object") return String(error);
  const name = typeof error.name === "string" ? error.name : "Error";
  const message = typeof error.message === "string" ? error.message : String(error);
  const stack = typeof error.stack === "string" ? error.stack : "";
  const where = /script\.js:(\d+):(\d+)/.exec(stack);
  return name + ": " + message + (where ? " (script.js, line " + where[1] + ")" : "");
}

(async () => {
  let reply;
  try {
    const context = vm.createContext({}, { codeGeneration: { strings: false, wasm: false } });
    vm.runInContext(PRELUDE, context);
    vm.runInContext(workerData.script, context, { filename: "script.js" });
    const main = vm.runInContext(FIND_MAIN, context);
    if (typeof main !== "function") {
      reply = { ok: false, error: "the script defines no main function (function main(args) { … } or module.exports = { main })" };
    } else {
      const call = vm.runInContext(CALL_MAIN, context);
      reply = JSON.parse(await call(main, workerData.argsJson));
    }
  } catch (error) {
    reply = { ok: false, error: describeError(error) };
  }
  parentPort.postMessage(reply);
})();
`;
