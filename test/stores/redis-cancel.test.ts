/**
 * Cancel signals in Redis against a real Redis on 127.0.0.1:6379: the conformance suite, RAGFlow's
 * key, and a request from a real second process.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { RedisCancelSignals } from "../../src/index.js";
import { sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix, deleteKeys } from "../helpers/redis.js";
import { describeCancelSignals } from "./cancel-conformance.js";

const prefix = uniqueTestPrefix();
const redis = sharedTestRedis();

afterAll(async () => {
  await deleteKeys(await redis.get(), prefix);
  await redis.close();
});

describeCancelSignals("RedisCancelSignals", { open: () => new RedisCancelSignals({ url: TEST_REDIS_URL, keyPrefix: prefix }), shared: true });
