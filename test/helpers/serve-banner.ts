/**
 * What tests of `canvasflow serve` (in this process or as a child) share: the banner line that
 * says where it listens, waiting for it, and a key made with `canvasflow keys create`.
 */
import { expect } from "vitest";
import { cli } from "./cli.js";

/** The banner's line; its first group is the server's base URL. */
export const SERVING = /serving RAGFlow's agent API at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;

/** Poll `read` every 20 ms until it gives a value (at most 30 s). */
export async function waitFor<T>(what: string, read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 1500; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A new API key of `tenant` in the data folder `data`. */
export async function newKey(data: string, tenant = "acme"): Promise<string> {
  const created = await cli(["keys", "create", "--tenant", tenant, "--name", "test", "--data", data]);
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trim();
}
