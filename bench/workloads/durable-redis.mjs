/**
 * durable-redis: the 1000-step chain with a checkpoint after every step in Redis
 * (127.0.0.1:6379), sync: canvasflow's RedisSnapshotStore (one Lua script per checkpoint).
 * LangGraph's Redis saver needs the RedisJSON and RediSearch modules, which plain Redis lacks, so
 * its side here is the same chain with MemorySaver (in process), for scale.
 */
import { durableChainSide, langgraphChainSide, REDIS_URL, uniqueName } from "./durable-lib.mjs";

export const plan = { clock: "wall", warmup: 3, samples: 8, langgraph: { warmup: 1, samples: 4 } };

export async function canvasflowSide() {
  const prefix = `${uniqueName("cfbench")}:`;
  return durableChainSide(
    (api) => new api.RedisSnapshotStore({ url: REDIS_URL, keyPrefix: `${prefix}session:` }),
    "sync",
  );
}

export async function langgraphSide() {
  return langgraphChainSide(
    (lg) => new lg.MemorySaver(),
    "sync",
    async () => undefined,
  );
}
