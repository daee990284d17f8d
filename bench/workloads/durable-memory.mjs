/**
 * durable-memory: the 1000-step chain with a checkpoint after every step, in memory on both
 * sides: canvasflow's DurableSession on InProcessSnapshotStore (sync), LangGraph with MemorySaver.
 * Also times the same chain without checkpoints: durability should cost at most 2× (the
 * `overhead` figure). LangGraph writes the whole state every step; canvasflow writes the delta.
 */
import { cpuMs } from "../clock.mjs";
import { canvasflow, chainDsl, chainGraph, langgraph, registerBenchComponents, runToEnd } from "../lib.mjs";

export const N = 1000;
export const plan = { warmup: 10, samples: 15, langgraph: { warmup: 2, samples: 8 } };

/** Drive one turn of a durable session to its end, failing loudly if it did not finish. */
export async function runDurable(session) {
  let last;
  for await (const event of session.run({ query: "go" })) last = event;
  if (last?.event !== "workflow_finished" || last.data.error) throw new Error(`run did not finish cleanly: ${JSON.stringify(last?.data)}`);
}

/** The chain as a durable session on InProcessSnapshotStore (sync) and as a plain canvas, in this process. */
export async function durableAndPlainChain() {
  const api = await canvasflow();
  registerBenchComponents(api);
  const dsl = chainDsl(N);
  const store = new api.InProcessSnapshotStore();
  const session = await api.DurableSession.open({ store, key: "bench", dsl, canvas: { maxSteps: N + 10 }, durability: "sync" });
  const plain = await api.loadCanvas(dsl, { maxSteps: N + 10 });
  return { session, plain };
}

export async function canvasflowSide() {
  const { session, plain } = await durableAndPlainChain();
  return {
    run: () => runDurable(session),
    extra: async () => {
      // Non-durable beside durable, alternating, median of 15 each.
      const durable = [];
      const bare = [];
      for (let i = 0; i < 15; i++) {
        let started = cpuMs();
        await runDurable(session);
        durable.push(cpuMs() - started);
        started = cpuMs();
        await runToEnd(plain);
        bare.push(cpuMs() - started);
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      return { durable_ms: median(durable), plain_ms: median(bare), overhead: median(durable) / median(bare) };
    },
  };
}

export async function langgraphSide() {
  const lg = await langgraph();
  const saver = new lg.MemorySaver();
  const app = chainGraph(lg, N, { checkpointer: saver });
  let thread = 0;
  return {
    run: async () => {
      const config = { configurable: { thread_id: `t${++thread}` }, recursionLimit: N + 10 };
      const out = await app.invoke({ count: 0 }, config);
      if (out.count !== N) throw new Error(`count ${out.count}`);
      // Keep memory flat across samples: a thread's checkpoints are not needed once it ran.
      await saver.deleteThread(config.configurable.thread_id);
    },
  };
}
