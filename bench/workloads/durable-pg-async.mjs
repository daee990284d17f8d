/**
 * durable-pg-async: the 1000-step chain with a checkpoint after every step in PostgreSQL
 * (127.0.0.1:5432, database test), in `async` mode on both sides: canvasflow's
 * PostgresSnapshotStore (one statement per checkpoint, the delta) against LangGraph's
 * PostgresSaver (the whole state every step). Timed by the wall clock: both wait on the server.
 */
import pg from "pg";
import { durableChainSide, langgraphChainSide, POSTGRES_URL, uniqueName } from "./durable-lib.mjs";

export const plan = { clock: "wall", warmup: 2, samples: 6, langgraph: { warmup: 1, samples: 3 } };

async function dropSchema(schema) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export async function canvasflowSide() {
  const schema = uniqueName("cf_bench");
  return durableChainSide((api) => new api.PostgresSnapshotStore({ url: POSTGRES_URL, schema }), "async", () => dropSchema(schema));
}

export async function langgraphSide() {
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
    "async",
    async (saver) => {
      await saver.end();
      await dropSchema(schema);
    },
  );
}
