/**
 * codeexec: what the code sandbox costs a trivial script, against running it unsandboxed.
 *
 * - JavaScript in the sandbox: QuickJS on a warm worker thread (a fresh QuickJS runtime per run),
 *   against the same main called directly in this process (what node:vm without isolation was
 *   close to).
 * - Python in the sandbox: bubblewrap (namespaces, seccomp, a private /tmp) around python3,
 *   against python3 as a plain child process (`canvasflow run --trust-code`).
 * - Per item in an Iteration: a canvas whose Iteration calls CodeExec once per item, 20 items,
 *   in each language: the time per item, run to end through the library (after 3 warm-up runs,
 *   the median of 5).
 *
 * Measured on the wall clock (the work happens in worker threads and child processes). The
 * harness's own samples time one sandboxed JavaScript run.
 */
import { canvasflow } from "../lib.mjs";

export const plan = { warmup: 20, warmupMs: 500, samples: 10, clock: "wall" };

const JS = "function main({ n }) { return { doubled: Number(n) * 2 }; }";
const PY = "def main(n):\n    return {'doubled': int(n) * 2}";
/** An Iteration's item: main returns the number that is CodeExec's one declared output. */
const ITEM_JS = "function main({ n }) { return Number(n) * 2; }";
const ITEM_PY = "def main(n):\n    return int(n) * 2";
const ITEMS = 20;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];

async function timings(times, fn) {
  const all = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await fn(i);
    all.push(performance.now() - started);
  }
  all.sort((a, b) => a - b);
  return { p50_ms: percentile(all, 0.5), p90_ms: percentile(all, 0.9) };
}

function iterationCanvas(lang, script) {
  const node = (component_name, params = {}, downstream = [], extra = {}) => ({ obj: { component_name, params }, downstream, upstream: [], ...extra });
  return {
    components: {
      begin: node("Begin", {}, ["StringTransform:Split"]),
      "StringTransform:Split": node("StringTransform", { method: "split", split_ref: "sys.query", delimiters: [","], outputs: { result: { type: "Array<string>" } } }, ["Iteration:Each"]),
      "Iteration:Each": node("Iteration", { items_ref: "StringTransform:Split@result", outputs: { doubled: { ref: "CodeExec:Double@doubled", type: "Array<Number>" } } }, ["Message:Out"]),
      "IterationItem:Item": node("IterationItem", {}, ["CodeExec:Double"], { parent_id: "Iteration:Each" }),
      "CodeExec:Double": node("CodeExec", { lang, script, arguments: { n: "IterationItem:Item@item" }, outputs: { doubled: { type: "Number", value: "" } } }, [], { parent_id: "Iteration:Each" }),
      "Message:Out": node("Message", { content: ["{Iteration:Each@doubled}"] }),
    },
    path: [],
    history: [],
    retrieval: [],
    globals: {},
  };
}

export async function canvasflowSide() {
  const api = await canvasflow();
  const { runCode } = await import("../../dist/src/sandbox/code/run-code.js");
  const { codeSandboxSettings } = await import("../../dist/src/sandbox/code/options.js");
  const sandboxed = codeSandboxSettings({});
  const trusted = codeSandboxSettings({ trustCode: true });
  const direct = new Function(`${JS}; return main;`)();
  return {
    run: () => runCode("javascript", JS, { n: 21 }, sandboxed),
    extra: async () => {
      const js_sandbox = await timings(200, (i) => runCode("javascript", JS, { n: i }, sandboxed));
      const js_direct = await timings(200, async (i) => JSON.parse(JSON.stringify(direct({ n: i }))));
      const py_sandbox = await timings(30, (i) => runCode("python", PY, { n: i }, sandboxed));
      const py_trusted = await timings(30, (i) => runCode("python", PY, { n: i }, trusted));
      // Warmed up first (the engine's first runs are compiled as they go), then the median of 5.
      const perItem = async (lang, script, settings) => {
        const dsl = iterationCanvas(lang, script);
        const query = Array.from({ length: ITEMS }, (_, i) => i).join(",");
        const once = async () => {
          const canvas = await api.loadCanvas(dsl, { services: { codeExec: settings } });
          const started = performance.now();
          const events = await canvas.runToEnd({ query });
          const ms = performance.now() - started;
          const end = events.at(-1);
          if (end?.data?.error) throw new Error(`the Iteration canvas failed: ${end.data.error}`);
          return ms / ITEMS;
        };
        for (let i = 0; i < 3; i++) await once();
        const times = [];
        for (let i = 0; i < 5; i++) times.push(await once());
        return times.sort((a, b) => a - b)[2];
      };
      return {
        js_sandbox,
        js_direct,
        py_sandbox,
        py_trusted,
        iteration_items: ITEMS,
        iteration_js_ms_per_item: await perItem("javascript", ITEM_JS, {}),
        iteration_py_ms_per_item: await perItem("python", ITEM_PY, {}),
        iteration_py_trusted_ms_per_item: await perItem("python", ITEM_PY, { trustCode: true }),
      };
    },
  };
}
