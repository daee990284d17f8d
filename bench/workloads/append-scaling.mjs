/**
 * append-scaling: a Loop whose VariableAssigner appends the round's index to a loop variable,
 * for 10 000, 20 000 and 40 000 rounds. An append must cost the same at round 40 000 as at
 * round 10: `scaling` is the time per round at 40 000 rounds over that at 10 000 (1.0 = linear;
 * copying the list per append made it 4×). A `+=` loop of the same lengths is shown beside it.
 */
import { cpuMs } from "../clock.mjs";
import { canvasflow, node, runToEnd } from "../lib.mjs";

const SIZES = [10_000, 20_000, 40_000];
export const plan = { warmup: 2, samples: 5 };

function loopDsl(rounds, row) {
  return {
    components: {
      begin: node("Begin", { mode: "task" }, ["Loop:L"]),
      "Loop:L": node("Loop", {
        loop_variables: [
          { variable: "items", input_mode: "constant", type: "array<number>", value: [] },
          { variable: "count", input_mode: "constant", type: "number", value: 0 },
        ],
        loop_termination_condition: [],
        maximum_loop_count: rounds,
      }),
      "LoopItem:T": node("LoopItem", {}, ["VariableAssigner:A"], { parent_id: "Loop:L" }),
      "VariableAssigner:A": node("VariableAssigner", { variables: [row] }, [], { parent_id: "Loop:L" }),
    },
    globals: {},
  };
}

const APPEND = { variable: "Loop:L@items", operator: "append", parameter: "LoopItem:T@index" };
const ADD = { variable: "Loop:L@count", operator: "+=", parameter: 1 };

export async function canvasflowSide() {
  const api = await canvasflow();
  const load = (rounds, row) => api.loadCanvas(loopDsl(rounds, row), { maxSteps: 3 * rounds + 10 });
  const append = await Promise.all(SIZES.map((n) => load(n, APPEND)));
  const add = await Promise.all(SIZES.map((n) => load(n, ADD)));
  const check = (canvas, rounds) => {
    const items = canvas.outputs("Loop:L")?.items;
    if (!Array.isArray(items) || items.length !== rounds || items[rounds - 1] !== rounds - 1) throw new Error(`append: ${items?.length} items`);
  };
  /** Median CPU ms of three runs. */
  const timed = async (canvas) => {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const started = cpuMs();
      await runToEnd(canvas);
      times.push(cpuMs() - started);
    }
    return times.sort((a, b) => a - b)[1];
  };
  return {
    run: async () => {
      await runToEnd(append[0]);
      check(append[0], SIZES[0]);
    },
    extra: async () => {
      const appendMs = [];
      const addMs = [];
      for (let i = 0; i < SIZES.length; i++) {
        appendMs.push(await timed(append[i]));
        check(append[i], SIZES[i]);
        addMs.push(await timed(add[i]));
      }
      const perRound = (ms, i) => ms[i] / SIZES[i];
      return { sizes: SIZES, append_ms: appendMs, add_ms: addMs, scaling_ratio: perRound(appendMs, 2) / perRound(appendMs, 0) };
    },
  };
}
