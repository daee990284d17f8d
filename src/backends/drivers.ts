/**
 * The database drivers, loaded on first use (util/optional-package.ts): a canvas run from a file
 * session, or a program that imports canvasflow's core, never loads pg or ioredis.
 */
import type * as IORedis from "ioredis";
import type pg from "pg";
import { requirePackage } from "../util/optional-package.js";

export function pgDriver(): typeof pg {
  return requirePackage<typeof pg>("pg", "PostgreSQL");
}

export function redisDriver(): typeof IORedis {
  return requirePackage<typeof IORedis>("ioredis", "Redis");
}
