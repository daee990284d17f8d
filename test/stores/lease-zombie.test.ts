/**
 * A lease whose holder was killed but not yet reaped by its parent (a zombie) is taken over at
 * once, on every store (issue 24, item 13). `kill(pid, 0)` answers for a zombie as for a live
 * process, so a server killed with SIGKILL under a parent that does not reap it (here: a shell
 * that exec'd `sleep`; in production a container init that does not reap) kept its sessions'
 * leases looking held until they ran out: 103 "a run is already in progress" for up to 15 s.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { FileSnapshotStore } from "../../src/backends/files/session-store.js";
import { PostgresSnapshotStore } from "../../src/backends/postgres/session-store.js";
import { RedisSnapshotStore } from "../../src/backends/redis/session-store.js";
import type { CheckpointStore } from "../../src/backends/contracts.js";
import { connectTestPostgres, dropSchema, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";

const folder = scratchDir("cf-lease-zombie-");
const schema = uniqueTestSchema();
const prefix = uniqueTestPrefix();
const DIST = pathToFileURL(resolve("dist/src/index.js")).href;
const DIST_BACKENDS = ["redis/index.js", "postgres/index.js"].map((entry) => pathToFileURL(resolve("dist/src/backends", entry)).href);
const shells: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  for (const shell of shells) shell.kill("SIGKILL");
  const pg = await connectTestPostgres();
  await dropSchema(pg, schema);
  await pg.end();
}, 30_000);

interface Case {
  name: string;
  /** The store's constructor call in the holder's script (`lib` is the built library). */
  make: string;
  open(): CheckpointStore;
}

const cases: Case[] = [
  { name: "PostgreSQL", make: `new lib.PostgresSnapshotStore({ url: ${JSON.stringify(TEST_POSTGRES_URL)}, schema: ${JSON.stringify(schema)} })`, open: () => new PostgresSnapshotStore({ url: TEST_POSTGRES_URL, schema }) },
  { name: "Redis", make: `new lib.RedisSnapshotStore({ url: ${JSON.stringify(TEST_REDIS_URL)} })`, open: () => new RedisSnapshotStore({ url: TEST_REDIS_URL }) },
  { name: "files", make: `new lib.FileSnapshotStore({ directory: ${JSON.stringify(join(folder.dir, "files"))} })`, open: () => new FileSnapshotStore({ directory: join(folder.dir, "files") }) },
];

/** A process holding the lease of `key`, whose parent (a shell that exec'd sleep) never reaps it; resolves to its pid. */
async function unreapedHolder(c: Case, key: string): Promise<number> {
  const script = folder.write(`holder-${c.name}.mjs`, `const lib = Object.assign({}, await import(${JSON.stringify(DIST)}), ...(await Promise.all(${JSON.stringify(DIST_BACKENDS)}.map((entry) => import(entry)))));\nconst store = ${c.make};\nawait store.lock(${JSON.stringify(key)});\nconsole.log("locked " + process.pid);\nsetInterval(() => {}, 1000);\n`);
  const shell = spawn("sh", ["-c", `"${process.execPath}" "${script}" & exec sleep 120`], { stdio: ["ignore", "pipe", "inherit"] });
  shells.push(shell);
  let out = "";
  shell.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  for (let i = 0; i < 500 && !/locked \d+/.test(out); i++) await sleep(20);
  const pid = Number(/locked (\d+)/.exec(out)?.[1]);
  expect(pid).toBeGreaterThan(0);
  return pid;
}

const state = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
};

describe.each(cases)("a lease held by a killed, unreaped process ($name)", (c) => {
  it("is taken over at once", async () => {
    const store = c.open();
    try {
      // Unique: the Redis store's keys are shared by every test.
      const key = `${prefix}zombie-${c.name.toLowerCase()}`;
      const pid = await unreapedHolder(c, key);
      await expect(store.lock(key)).rejects.toThrow(/locked by another/);
      process.kill(pid, "SIGKILL");
      for (let i = 0; i < 250 && state(pid) !== "Z"; i++) await sleep(20);
      expect(state(pid)).toBe("Z");
      const lock = await store.lock(key);
      await lock.release();
    } finally {
      await store.close();
    }
  });
});
