/**
 * `canvasflow keys create|list|revoke` end to end on each store: the key printed once
 * authenticates through findByHash(sha256), list never shows it, revoke stops it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApiKey, hashApiKey } from "../../src/server/store/api-keys.js";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import Database from "better-sqlite3";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { PostgresServerStore } from "../../src/backends/postgres/server-store.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import type { ServerStore } from "../../src/backends/contracts.js";
import { cli } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";
import { closedPort } from "../helpers/http.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import { sharedTestRedis, TEST_REDIS_URL } from "../helpers/redis.js";
import { scratchDir } from "../helpers/scratch.js";

const KEY = /^cf-[A-Za-z0-9_-]{43}$/;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const tenant = () => `tenant-${process.pid}-${Math.random().toString(16).slice(2, 10)}`;

const pgAdmin = sharedTestPostgres();
const redisAdmin = sharedTestRedis();
const schema = uniqueTestSchema();
/** Redis keys this file made under the default prefix: removed at the end. */
const redisKeys: Array<{ id: string; hash: string }> = [];
afterAll(async () => {
  const client = await pgAdmin.get().catch(() => undefined);
  if (client) await dropSchema(client, schema);
  await pgAdmin.close();
  const redis = await redisAdmin.get().catch(() => undefined);
  for (const { id, hash } of redisKeys) {
    await redis?.del(`canvasflow:apikey:${hash}`);
    await redis?.hdel("canvasflow:apikeys", id);
  }
  await redisAdmin.close();
});

interface Backend {
  name: string;
  flags(): Promise<string[]>;
  open(): Promise<ServerStore>;
  cleanup?(id: string, hash: string): void;
}

const folder = scratchDir("cf-keys-cli-").dir;
const backends: Backend[] = [
  { name: "SQLite (--data)", flags: async () => ["--data", folder], open: async () => new SqliteServerStore({ file: join(folder, "canvasflow.db") }) },
  { name: "SQLite (--sqlite)", flags: async () => ["--sqlite", join(folder, "keys.db")], open: async () => new SqliteServerStore({ file: join(folder, "keys.db") }) },
  {
    name: "Redis",
    flags: async () => {
      await redisAdmin.get();
      return ["--redis", TEST_REDIS_URL];
    },
    open: async () => new RedisServerStore({ url: TEST_REDIS_URL }),
    cleanup: (id, hash) => redisKeys.push({ id, hash }),
  },
  {
    name: "PostgreSQL",
    flags: async () => {
      await pgAdmin.get();
      return ["--postgres", TEST_POSTGRES_URL, "--schema", schema];
    },
    open: async () => new PostgresServerStore({ url: TEST_POSTGRES_URL, schema }),
  },
];

for (const backend of backends) {
  describe(`canvasflow keys on the ${backend.name}`, () => {
    it("create prints the key once; it authenticates by its SHA-256; list never shows it; revoke stops it", async () => {
      const flags = await backend.flags();
      const t = tenant();
      const created = await cli(["keys", "create", "--tenant", t, "--name", "ci bot", ...flags]);
      expect(created.code, created.stderr).toBe(0);
      const key = created.stdout.trimEnd();
      expect(created.stdout).toBe(`${key}\n`);
      expect(key).toMatch(KEY);
      const store = await backend.open();
      try {
        const found = await store.keys.findByHash(sha256(key));
        expect(found).toMatchObject({ tenant: t, name: "ci bot", hash: sha256(key), last4: key.slice(-4), revoked: false });
        backend.cleanup?.(found!.id, found!.hash);
        expect(created.stderr).toBe(
          `canvasflow: created API key ${found!.id} for tenant ${JSON.stringify(t)} (name "ci bot", ending ${key.slice(-4)}) in ${store.location}.\n` +
            "canvasflow: this is the only time the key is shown: store it now (only its SHA-256 is kept).\n",
        );

        const listed = await cli(["keys", "list", "--tenant", t, ...flags]);
        expect(listed.code).toBe(0);
        const lines = listed.stdout.trimEnd().split("\n");
        expect(lines).toHaveLength(2);
        expect(lines[0].split(/\s{2,}/)).toEqual(["ID", "TENANT", "NAME", "LAST4", "CREATED", "REVOKED"]);
        expect(lines[1].split(/\s{2,}/)).toEqual([found!.id, t, "ci bot", key.slice(-4), new Date(found!.create_time).toISOString(), "no"]);
        const everything = await cli(["keys", "list", ...flags]);
        for (const text of [listed.stdout, listed.stderr, everything.stdout, everything.stderr]) {
          expect(text).not.toContain(key);
          expect(text).not.toContain(sha256(key));
        }
        expect(everything.stdout).toContain(found!.id);

        const revoked = await cli(["keys", "revoke", found!.id, ...flags]);
        expect(revoked.code).toBe(0);
        expect(revoked.stderr).toBe(`canvasflow: revoked API key ${found!.id} in ${store.location}: it no longer authenticates\n`);
        expect(await store.keys.findByHash(sha256(key))).toBeUndefined();
        expect((await cli(["keys", "list", "--tenant", t, ...flags])).stdout.trimEnd().split("\n")[1]).toMatch(/ yes$/);
        // Revoking again is not an error; an unknown id is.
        expect((await cli(["keys", "revoke", found!.id, ...flags])).code).toBe(0);
        const unknown = await cli(["keys", "revoke", "0000000000000000", ...flags]);
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toBe(`canvasflow: there is no API key 0000000000000000 in ${store.location} (keys list shows them)\n`);
      } finally {
        await store.close();
      }
    });

    it("list of a tenant without keys says so on stderr, prints nothing", async () => {
      const r = await cli(["keys", "list", "--tenant", "nobody-has-this-tenant", ...(await backend.flags())]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^canvasflow: no API keys of tenant "nobody-has-this-tenant" in /);
    });
  });
}

describe("canvasflow keys: the default folder, the stored form, usage and failures", () => {
  it("without a store flag, keys go to ./.canvasflow/canvasflow.db; the database holds the hash, never the key (a real process)", async () => {
    const { dir } = scratchDir("cf-keys-default-");
    const child = spawnCli(["keys", "create", "--tenant", "acme", "--name", "laptop"], { cwd: dir });
    const { code } = await child.exited;
    expect(code, child.stderr()).toBe(0);
    const key = child.stdout().trimEnd();
    expect(key).toMatch(KEY);
    const file = join(dir, ".canvasflow", "canvasflow.db");
    expect(existsSync(file)).toBe(true);
    // Private: the key's hash and, later, what was said.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    for (const name of readdirSync(join(dir, ".canvasflow"))) expect(readFileSync(join(dir, ".canvasflow", name)).includes(key), name).toBe(false);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT tenant, name, hash, last4, revoked FROM api_keys").all()).toEqual([{ tenant: "acme", name: "laptop", hash: sha256(key), last4: key.slice(-4), revoked: 0 }]);
    } finally {
      db.close();
    }
  });

  it("a folder that holds an earlier release's data folder is refused until db import copies it (exit 1, nothing made)", async () => {
    const { dir } = scratchDir("cf-keys-old-data-");
    mkdirSync(join(dir, "keys"));
    const run = await cli(["keys", "list", "--data", dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `canvasflow: ${dir} holds the data folder of an earlier canvasflow (JSON records: agents/, keys/…), and no database yet: copy it into ${join(dir, "canvasflow.db")} with \`canvasflow db import --data-folder ${dir}\`, then start again\n`,
    );
    expect(readdirSync(dir)).toEqual(["keys"]);
  });

  it("usage errors (exit 2) name the flag or argument", async () => {
    const cases: Array<[string[], string]> = [
      [["keys"], "keys expects a subcommand: create, list or revoke"],
      [["keys", "rotate"], 'unknown keys subcommand "rotate": use create, list or revoke'],
      [["keys", "create", "--name", "n"], "keys create needs --tenant T"],
      [["keys", "create", "--tenant", "t"], "keys create needs --name N"],
      [["keys", "create", "--tenant", "", "--name", "n"], "--tenant: tenant must be 1 to 256 printable characters"],
      [["keys", "create", "--tenant", "t", "--name", " "], "--name: an API key's name must be 1 to 128 printable characters"],
      [["keys", "create", "--tenant", "t", "--name", "n", "extra"], 'keys create takes no arguments, got "extra"'],
      [["keys", "create", "--tenant", "t", "--name", "n", "--data", "d", "--redis", TEST_REDIS_URL], "give --data or --redis/--postgres, not both"],
      [["keys", "create", "--tenant", "t", "--name", "n", "--redis", "http://x"], '--redis: expected a redis:// or rediss:// URL, got "http://x"'],
      [["keys", "list", "--postgres", "redis://x"], '--postgres: expected a postgres:// URL, got "redis://x"'],
      [["keys", "list", "--schema", "s"], "--schema names a PostgreSQL schema: give it with postgres"],
      [["keys", "list", "--color"], "Unknown option '--color'"],
      [["keys", "revoke"], "keys revoke expects exactly one key ID (from keys list), got 0"],
      [["keys", "revoke", "../x"], 'keys revoke: "../x" is not a key ID'],
      [["keys", "revoke", "abc", "--tenant", "t"], "--tenant is not used by keys revoke"],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(message);
      expect(r.stdout).toBe("");
    }
  });

  it("an unreachable store: one line naming it (exit 1), no key printed", async () => {
    const port = await closedPort();
    const redis = await cli(["keys", "create", "--tenant", "t", "--name", "n", "--redis", `redis://127.0.0.1:${port}/0`]);
    expect(redis.code).toBe(1);
    expect(redis.stdout).toBe("");
    expect(redis.stderr).toBe(`canvasflow: cannot reach Redis at 127.0.0.1:${port}/0: connect ECONNREFUSED 127.0.0.1:${port}\n`);
    const pg = await cli(["keys", "list", "--postgres", `postgres://postgres@127.0.0.1:${port}/test`]);
    expect(pg.code).toBe(1);
    expect(pg.stderr).toBe(`canvasflow: cannot reach PostgreSQL at 127.0.0.1:${port}/test: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });
});

describe("createApiKey (the library function)", () => {
  it("makes a cf- key of 32 random bytes and stores only its hash and last four characters", async () => {
    const store = new InProcessServerStore();
    const { key, record } = await createApiKey(store, { tenant: "acme", name: "ci", now: 1234 });
    expect(key).toMatch(KEY);
    expect(Buffer.from(key.slice(3), "base64url")).toHaveLength(32);
    expect(record).toEqual({ id: expect.stringMatching(/^[0-9a-f]{16}$/), tenant: "acme", name: "ci", hash: hashApiKey(key), last4: key.slice(-4), create_time: 1234, revoked: false });
    expect(hashApiKey(key)).toBe(sha256(key));
    expect(await store.keys.findByHash(hashApiKey(key))).toEqual(record);
    const other = await createApiKey(store, { tenant: "acme", name: "ci" });
    expect(other.key).not.toBe(key);
    await expect(createApiKey(store, { tenant: "", name: "x" })).rejects.toThrow("an API key's tenant must be 1 to 256 printable characters");
    await expect(createApiKey(store, { tenant: "t", name: "" })).rejects.toThrow("an API key's name must be 1 to 128 printable characters");
  });
});
