/**
 * checkpoint-bytes: the bytes a durable run writes per step (the checkpoint's delta and the
 * events logged with it), at round 10 and at round 10 000 of a Loop that counts and appends to a
 * list. The ratio must stay near 1: a checkpoint carries what changed, never the whole state.
 * Beside it, LangGraph's bytes per step (its serialized checkpoint) at step 10 and at the last
 * step of a 1000-round loop with MemorySaver.
 */
import { canvasflow, langgraph, node } from "../lib.mjs";

const ROUNDS = 10_000;
const LG_ROUNDS = 1000;
export const plan = { warmup: 1, samples: 3, langgraph: { warmup: 1, samples: 2 } };

function loopDsl(rounds) {
  return {
    components: {
      begin: node("Begin", { mode: "task" }, ["Loop:L"]),
      "Loop:L": node("Loop", {
        loop_variables: [
          { variable: "n", input_mode: "constant", type: "number", value: 0 },
          { variable: "items", input_mode: "constant", type: "array<number>", value: [] },
        ],
        loop_termination_condition: [],
        maximum_loop_count: rounds,
      }),
      "LoopItem:L": node("LoopItem", {}, ["VariableAssigner:A"], { parent_id: "Loop:L" }),
      "VariableAssigner:A": node(
        "VariableAssigner",
        {
          variables: [
            { variable: "Loop:L@n", operator: "+=", parameter: 1 },
            { variable: "Loop:L@items", operator: "append", parameter: "LoopItem:L@index" },
          ],
        },
        [],
        { parent_id: "Loop:L" },
      ),
    },
    globals: {},
  };
}

export async function canvasflowSide() {
  const api = await canvasflow();
  /** A memory store that counts what each checkpoint writes. */
  class CountingStore extends api.InProcessSnapshotStore {
    sizes = [];
    appendNow(key, record, options) {
      this.sizes.push(record.delta.length + record.events.reduce((sum, e) => sum + e.json.length, 0));
      return super.appendNow(key, record, options);
    }
  }
  const store = new CountingStore();
  const session = await api.DurableSession.open({ store, key: "bytes", dsl: loopDsl(ROUNDS), canvas: { maxSteps: 3 * ROUNDS + 10 }, durability: "sync" });
  let perStep = { early: 0, late: 0 };
  return {
    run: async () => {
      store.sizes = [];
      for await (const _event of session.run({ query: "go" })) void _event;
      // Two checkpoints a round (LoopItem, then the assigner): the same kind of step at both ends.
      const round = (r) => store.sizes[1 + 2 * r] + store.sizes[2 + 2 * r];
      perStep = { early: round(10) / 2, late: round(ROUNDS - 1) / 2 };
    },
    extra: async () => ({ bytes_per_step_round_10: perStep.early, bytes_per_step_round_10000: perStep.late, bytes_ratio: perStep.late / perStep.early }),
  };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const State = lg.Annotation.Root({
    n: lg.Annotation({ reducer: (_a, b) => b, default: () => 0 }),
    items: lg.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new lg.StateGraph(State)
    .addNode("body", (s) => ({ n: s.n + 1, items: [s.n] }))
    .addEdge(lg.START, "body")
    .addConditionalEdges("body", (s) => (s.n < LG_ROUNDS ? "body" : lg.END));
  const saver = new lg.MemorySaver();
  const app = graph.compile({ checkpointer: saver });
  let thread = 0;
  let perStep = { early: 0, late: 0 };
  return {
    run: async () => {
      const config = { configurable: { thread_id: `t${++thread}` }, recursionLimit: LG_ROUNDS + 10 };
      await app.invoke({ n: 0 }, config);
      const sizes = [];
      for await (const tuple of saver.list(config)) sizes.push(JSON.stringify(tuple.checkpoint).length + JSON.stringify(tuple.metadata ?? {}).length);
      sizes.reverse();
      perStep = { early: sizes[10], late: sizes.at(-1) };
      await saver.deleteThread(config.configurable.thread_id);
    },
    extra: async () => ({ lg_bytes_per_step_step_10: perStep.early, lg_bytes_per_step_last: perStep.late, lg_rounds: LG_ROUNDS }),
  };
}
