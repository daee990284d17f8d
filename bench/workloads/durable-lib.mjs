/**
 * Shared pieces of the durable workloads: the 1000-step chain run as a durable session on a
 * given store, and LangGraph's chain with a checkpointer. Not a workload itself.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { canvasflow, chainDsl, chainGraph, langgraph, registerBenchComponents } from "../lib.mjs";

export const N = 1000;
export const POSTGRES_URL = process.env.CANVASFLOW_BENCH_POSTGRES ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.CANVASFLOW_BENCH_REDIS ?? "redis://127.0.0.1:6379/0";

/** A schema (or key prefix) of this process's own, dropped at exit where it can be. */
export const uniqueName = (prefix) => `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;

/** Drive one turn of a durable session to its end, failing loudly if it did not finish. */
export async function runDurable(session) {
  let last;
  for await (const event of session.run({ query: "go" })) last = event;
  if (last?.event !== "workflow_finished" || last.data.error) throw new Error(`run did not finish cleanly: ${JSON.stringify(last?.data)}`);
}

/** canvasflow's side: the chain as a durable session on `makeStore(api)`, in `durability`. */
export async function durableChainSide(makeStore, durability, cleanup = async () => undefined) {
  const api = await canvasflow();
  registerBenchComponents(api);
  const store = await makeStore(api);
  const key = uniqueName("bench");
  const session = await api.DurableSession.open({ store, key, dsl: chainDsl(N), canvas: { maxSteps: N + 10 }, durability });
  return {
    run: () => runDurable(session),
    extra: async () => {
      await session.close();
      await store.delete(key);
      await store.close();
      await cleanup();
      return {};
    },
  };
}

/** LangGraph's side: the chain compiled with `saver`, one thread per run, run in `durability`. */
export async function langgraphChainSide(makeSaver, durability, cleanup = async () => undefined) {
  const lg = await langgraph();
  const saver = await makeSaver(lg);
  const app = chainGraph(lg, N, { checkpointer: saver });
  let thread = 0;
  return {
    run: async () => {
      const config = { configurable: { thread_id: `t${++thread}` }, recursionLimit: N + 10, durability };
      const out = await app.invoke({ count: 0 }, config);
      if (out.count !== N) throw new Error(`count ${out.count}`);
    },
    extra: async () => {
      await cleanup(saver);
      return {};
    },
  };
}

async function dropSchema(schema) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The chain with a checkpoint per step in PostgreSQL, in `durability` on both sides: canvasflow's
 * PostgresSnapshotStore against LangGraph's PostgresSaver, each in a schema of its own.
 */
export function postgresWorkload(durability) {
  return {
    plan: { clock: "wall", warmup: 2, samples: 6, langgraph: { warmup: 1, samples: 3 } },
    async canvasflowSide() {
      const schema = uniqueName("cf_bench");
      return durableChainSide((api) => new api.PostgresSnapshotStore({ url: POSTGRES_URL, schema }), durability, () => dropSchema(schema));
    },
    async langgraphSide() {
      const schema = uniqueName("lg_bench");
      const { PostgresSaver } = await import("@langchain/langgraph-checkpoint-postgres");
      return langgraphChainSide(
        async () => {
          const client = new pg.Client({ connectionString: POSTGRES_URL });
          await client.connect();
          await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
          await client.end();
          const saver = PostgresSaver.fromConnString(POSTGRES_URL, { schema });
          await saver.setup();
          return saver;
        },
        durability,
        async (saver) => {
          await saver.end();
          await dropSchema(schema);
        },
      );
    },
  };
}

/**
 * The chain with a checkpoint per step in SQLite, in `durability` on both sides: canvasflow's
 * SqliteSnapshotStore against LangGraph's SqliteSaver (@langchain/langgraph-checkpoint-sqlite, on
 * the same better-sqlite3), each in a database file of its own in the temp folder, removed after.
 */
export function sqliteWorkload(durability) {
  const file = (prefix) => join(tmpdir(), `${uniqueName(prefix)}.db`);
  const remove = (path) => {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  };
  return {
    plan: { clock: "wall", warmup: 2, samples: 6, langgraph: { warmup: 1, samples: 3 } },
    async canvasflowSide() {
      const path = file("cf-bench");
      return durableChainSide((api) => new api.SqliteSnapshotStore({ file: path }), durability, async () => remove(path));
    },
    async langgraphSide() {
      const path = file("lg-bench");
      const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
      return langgraphChainSide(
        async () => SqliteSaver.fromConnString(path),
        durability,
        async (saver) => {
          saver.db.close();
          remove(path);
        },
      );
    },
  };
}
