/**
 * The contract every MemoryStore keeps, run against each backend by test/memories/stores.test.ts:
 * order, duplicates, forgetting past the size limit, concurrent writers, bad names; tenants kept
 * apart (the same memory id is two memories for two tenants, whatever characters either holds);
 * and, for a backend that persists, moving the memories of releases before tenant scopes (seeded
 * in the old layout) to their tenants: each tenant gets its own, unknown owners stay where they
 * were, a second run changes nothing, and a move that fails midway leaves everything whole.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasLegacyLayout, legacyReportLines, MemoryStoreError, migrateLegacyMemories, type MemoryMessage, type MemoryOwners, type MemoryRef, type MemoryStore, type NewMemoryMessage } from "../../src/memories/index.js";

export interface MemoryStoreHarness {
  name: string;
  /** A new, empty place (a folder, a Redis prefix, a PostgreSQL schema): each test gets one. */
  place(): Promise<MemoryPlace>;
  /** Whether places keep memories written before tenant scopes (every backend that persists). */
  legacy: boolean;
  /** Whether two stores opened on one place share their data (not in a process's memory). */
  shared: boolean;
}

export interface MemoryPlace {
  /** A store on the place (stores on one place share their data). */
  open(options?: { maxBytes?: number }): Promise<MemoryStore>;
  /** Backends that persist: write and read memories as releases before tenant scopes kept them. */
  legacy?: {
    seed(id: string, messages: readonly MemoryMessage[]): Promise<void>;
    read(id: string): Promise<MemoryMessage[]>;
    /** Make writing the tenant's memory fail (a crash midway); the function undoes it. */
    breakMemory(memory: MemoryRef): Promise<() => Promise<void>>;
    /** The move is one atomic step: a failed move leaves the tenants' memories as they were too. */
    atomic: boolean;
  };
  /** Checks of the backend's own layout after the tricky names were written (files: modes, nothing outside its folder). */
  checkLayout?(): Promise<void>;
}

export function message(n: number, extra: Partial<NewMemoryMessage> = {}): NewMemoryMessage {
  return { user_id: "u1", agent_id: "", session_id: "s1", content: `User Input: question ${n}\nAgent Response: answer ${n}`, source_key: `task:1:Message:M:${n}`, ...extra };
}

let counter = 0;
const unique = (what: string) => `${what}-${process.pid}-${++counter}`;

/** Tenants and ids that a careless encoding would mix up, or turn into paths. */
export const TRICKY_NAMES = [
  "a:b",
  "a",
  "b:c",
  "a:b:c",
  "a:b:bytes",
  "a/b",
  "a\\b",
  "..",
  ".",
  "...",
  "%2E%2E",
  "%2e%2e",
  "a%3Ab",
  "A",
  "tenants",
  "_a",
  "~a",
  "{a}",
  "a*",
  " a ",
  "Ü-ü-ﬁ",
  "支持笔记",
  "🙂",
  "x".repeat(128),
  "ü".repeat(128),
];

export function describeMemoryStore(harness: MemoryStoreHarness): void {
  describe(`memory store: ${harness.name}`, () => {
    const opened: MemoryStore[] = [];
    let place: MemoryPlace;
    beforeEach(async () => {
      place = await harness.place();
    });
    const open = async (options?: { maxBytes?: number }) => {
      const store = await place.open(options);
      opened.push(store);
      return store;
    };
    const legacy = () => place.legacy!;
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    describe("one tenant's memory", () => {
      let store: MemoryStore;
      let memory: MemoryRef;
      beforeEach(async () => {
        store = await open({ maxBytes: 200 });
        memory = { tenant: unique("tenant"), id: unique("mem") };
      });

      it("keeps messages in the order written, with what they were written with; a memory never written is empty", async () => {
        expect(await store.messages(memory)).toEqual([]);
        expect(await store.add(memory, message(1))).toBe(true);
        expect(await store.add(memory, message(2, { user_id: "u2" }))).toBe(true);
        const messages = await store.messages(memory);
        expect(messages.map((m) => m.content)).toEqual([message(1).content, message(2).content]);
        expect(messages[1]).toMatchObject({ memory_id: memory.id, message_type: "raw", user_id: "u2", session_id: "s1", source_key: "task:1:Message:M:2" });
        expect(new Date(messages[1].valid_at).getTime()).toBeGreaterThan(Date.now() - 600_000);
        expect(messages[0].message_id < messages[1].message_id).toBe(true);
      });

      it("a message with a source key already there adds nothing (a step run again after a crash)", async () => {
        expect(await store.add(memory, message(1))).toBe(true);
        expect(await store.add(memory, message(1, { content: "again" }))).toBe(false);
        expect((await store.messages(memory)).map((m) => m.content)).toEqual([message(1).content]);
      });

      it("forgets the oldest messages past maxBytes, and keeps the newest even when it alone is larger", async () => {
        // Each message is 49 bytes: 4 fit in 200.
        for (let n = 1; n <= 6; n++) await store.add(memory, message(n));
        expect((await store.messages(memory)).map((m) => m.content)).toEqual([3, 4, 5, 6].map((n) => message(n).content));
        await store.add(memory, message(7, { content: "x".repeat(500) }));
        expect((await store.messages(memory)).map((m) => m.content.length)).toEqual([500]);
        // A forgotten message's source key may be written again.
        expect(await store.add(memory, message(3))).toBe(true);
      });

      it("concurrent writers lose nothing", async () => {
        const wide = await open({ maxBytes: 1_000_000 });
        const results = await Promise.all(Array.from({ length: 20 }, (_, n) => wide.add(memory, message(n))));
        expect(results.every(Boolean)).toBe(true);
        const contents = (await wide.messages(memory)).map((m) => m.content).sort();
        expect(contents).toEqual(Array.from({ length: 20 }, (_, n) => message(n).content).sort());
      });

      it("refuses bad memory ids and tenants with the reason", async () => {
        await expect(store.add({ tenant: "t", id: "" }, message(1))).rejects.toThrow("memory id must be a non-empty string");
        await expect(store.messages({ tenant: "t", id: "a\nb" })).rejects.toThrow("contains a control character");
        await expect(store.add({ tenant: "t", id: "m".repeat(129) }, message(1))).rejects.toThrow("the limit is 128");
        await expect(store.add({ tenant: "t", id: "m".repeat(129) }, message(1))).rejects.toBeInstanceOf(MemoryStoreError);
        await expect(store.add({ tenant: "", id: "m" }, message(1))).rejects.toThrow("memory tenant must be a non-empty string");
        await expect(store.messages({ tenant: "t".repeat(257), id: "m" })).rejects.toThrow("the limit is 256");
        await expect(store.messages({ tenant: "a\u0000b", id: "m" })).rejects.toThrow('memory tenant "a\\u0000b" contains a control character');
        // A bare id (the interface before tenants) names no tenant.
        await expect(store.messages("m" as unknown as MemoryRef)).rejects.toThrow("a memory must be named by { tenant, id }");
      });
    });

    describe("tenants", () => {
      it("two tenants with the same memory id neither see nor change each other's messages", async () => {
        const store = await open({ maxBytes: 200 });
        const id = unique("support-notes");
        const a = { tenant: unique("acme"), id };
        const b = { tenant: unique("globex"), id };
        expect(await store.add(a, message(1, { content: "card 4111 1111 1111 1111" }))).toBe(true);
        expect(await store.messages(b)).toEqual([]);
        // B writes under the same id and the same source key: its own memory, A's is unchanged.
        expect(await store.add(b, message(1, { content: "B was here" }))).toBe(true);
        expect((await store.messages(a)).map((m) => m.content)).toEqual(["card 4111 1111 1111 1111"]);
        expect((await store.messages(b)).map((m) => m.content)).toEqual(["B was here"]);
        // Size limits are per tenant's memory: B filling its own forgets nothing of A's.
        for (let n = 2; n <= 8; n++) await store.add(b, message(n));
        expect((await store.messages(a)).map((m) => m.content)).toEqual(["card 4111 1111 1111 1111"]);
        expect((await store.messages(b)).length).toBe(4);
        if (harness.shared) {
          // Another store on the same place agrees.
          const again = await open({ maxBytes: 200 });
          expect((await again.messages(a)).map((m) => m.content)).toEqual(["card 4111 1111 1111 1111"]);
          expect((await again.messages(b)).map((m) => m.content)).not.toContain("card 4111 1111 1111 1111");
        }
      });

      it("tenants and ids with ':', '/', '..', '%', case, unicode and at their longest are each a memory of their own", async () => {
        const store = await open();
        const run = unique("r");
        const pairs: MemoryRef[] = [];
        for (const tenant of [...TRICKY_NAMES, "t".repeat(256)]) pairs.push({ tenant: `${tenant}`, id: `${run}` });
        for (const id of TRICKY_NAMES) pairs.push({ tenant: run, id });
        // Joined with ":", these would be the same key; with "/", the same path.
        pairs.push({ tenant: `${run}:a`, id: "b" }, { tenant: `${run}/a`, id: "b" }, { tenant: run, id: "a/b:x" }, { tenant: `${run}:a:b`, id: "x" }, { tenant: run, id: "a:b:x" });
        const label = (p: MemoryRef) => JSON.stringify([p.tenant, p.id]);
        for (const pair of pairs) expect(await store.add(pair, message(0, { content: label(pair), source_key: "same-step" }))).toBe(true);
        for (const pair of pairs) expect((await store.messages(pair)).map((m) => m.content)).toEqual([label(pair)]);
        // The tenant "default" and tenants that differ only in case are not each other.
        expect(await store.messages({ tenant: run.toUpperCase(), id: "a" })).toEqual([]);
        expect(await store.messages({ tenant: "default", id: run })).toEqual([]);
        await place.checkLayout?.();
      });
    });

    if (!harness.legacy) {
      it("has no legacy layout: the migration finds nothing", async () => {
        const store = await open();
        expect(hasLegacyLayout(store)).toBe(false);
        expect(await migrateLegacyMemories(store, { unownedTo: "default" })).toEqual({ location: store.location, memories: 0, moved: {}, unowned: {} });
      });
      return;
    }

    describe("memories of releases before tenant scopes", () => {
      let clock = Date.UTC(2026, 0, 1);
      function old(id: string, session: string, content: string, source = `${session}:${content}`): MemoryMessage {
        clock += 1000;
        return {
          message_id: `${clock.toString().padStart(15, "0")}-000001-abcdef`,
          memory_id: id,
          message_type: "raw",
          user_id: "",
          agent_id: "",
          session_id: session,
          content,
          valid_at: new Date(clock).toISOString(),
          source_key: source,
        };
      }
      const owners = (map: Record<string, string>): MemoryOwners & { asked: string[][] } => {
        const asked: string[][] = [];
        return {
          asked,
          async tenantsOf(ids) {
            asked.push([...ids]);
            return new Map(ids.filter((id) => map[id] !== undefined).map((id) => [id, map[id]]));
          },
        };
      };

      it("moves each message to the tenant of its session; unknown owners stay in the legacy memory; a second run changes nothing", async () => {
        const store = await open({ maxBytes: 1000 });
        const [acme, globex] = [unique("acme"), unique("globex")];
        const id = unique("support-notes");
        const tricky = `${unique("x")}/../a:b ü`;
        const seeded = [old(id, "s-acme-1", "acme card 4111"), old(id, "s-globex", "globex order 77"), old(id, "s-gone", "deleted session's note"), old(id, "s-acme-2", "acme second", "")];
        await legacy().seed(id, seeded);
        await legacy().seed(tricky, [old(tricky, "s-acme-1", "tricky id note")]);
        expect(await store.messages({ tenant: acme, id })).toEqual([]);
        const known = owners({ "s-acme-1": acme, "s-acme-2": acme, "s-globex": globex });

        const report = await migrateLegacyMemories(store, { owners: known });
        expect(report.moved).toEqual({ [acme]: 3, [globex]: 1 });
        expect(report.unowned).toEqual({ [id]: 1 });
        expect(known.asked.flat().sort()).toEqual(["s-acme-1", "s-acme-1", "s-acme-2", "s-gone", "s-globex"].sort());
        // Everything as it was written: ids, times, source keys, order.
        expect(await store.messages({ tenant: acme, id })).toEqual([seeded[0], seeded[3]]);
        expect(await store.messages({ tenant: globex, id })).toEqual([seeded[1]]);
        expect((await store.messages({ tenant: acme, id: tricky })).map((m) => m.content)).toEqual(["tricky id note"]);
        expect(await store.messages({ tenant: "default", id })).toEqual([]);
        expect(await legacy().read(id)).toEqual([seeded[2]]);
        expect(await legacy().read(tricky)).toEqual([]);
        const lines = legacyReportLines(report).join("\n");
        expect(lines).toContain(`1 message of 1 memory (${JSON.stringify(id)}) have no known owner`);
        expect(lines).toContain("canvasflow db migrate --unowned-to TENANT");

        const before = [await store.messages({ tenant: acme, id }), await store.messages({ tenant: globex, id }), await legacy().read(id)];
        const second = await migrateLegacyMemories(store, { owners: known });
        expect(second.moved).toEqual({});
        expect(second.unowned).toEqual({ [id]: 1 });
        expect([await store.messages({ tenant: acme, id }), await store.messages({ tenant: globex, id }), await legacy().read(id)]).toEqual(before);

        // Limits and idempotency go on per tenant's memory: a moved source key is still known.
        expect(await store.add({ tenant: acme, id }, message(9, { source_key: seeded[0].source_key }))).toBe(false);
        expect(await store.add({ tenant: acme, id }, message(9))).toBe(true);
        expect((await store.messages({ tenant: acme, id })).map((m) => m.content)).toEqual([seeded[0].content, seeded[3].content, message(9).content]);

        // The operator gives what has no known owner to a tenant.
        const handed = await migrateLegacyMemories(store, { owners: known, unownedTo: globex });
        expect(handed).toMatchObject({ moved: { [globex]: 1 }, unowned: {} });
        expect((await store.messages({ tenant: globex, id })).map((m) => m.content)).toEqual([seeded[1].content, seeded[2].content]);
        expect(await legacy().read(id)).toEqual([]);
        expect(await migrateLegacyMemories(store, { owners: known })).toMatchObject({ memories: 0, moved: {}, unowned: {} });
      });

      it("a moved message whose source key the tenant's memory holds already (its step ran again after the upgrade) keeps its text, without the key", async () => {
        const store = await open();
        const tenant = unique("acme");
        const id = unique("notes");
        const seeded = old(id, "s1", "written before the upgrade", "task:1:Message:M:1");
        await legacy().seed(id, [seeded]);
        await store.add({ tenant, id }, message(1, { content: "written again after it", source_key: "task:1:Message:M:1" }));
        await migrateLegacyMemories(store, { owners: owners({ s1: tenant }) });
        const messages = await store.messages({ tenant, id });
        expect(messages.map((m) => [m.content, m.source_key])).toEqual([
          ["written before the upgrade", ""],
          ["written again after it", "task:1:Message:M:1"],
        ]);
      });

      it("a move that fails midway leaves the legacy memory whole; the next run finishes it, each message once", async () => {
        const store = await open();
        const [acme, globex] = [unique("acme"), unique("globex")];
        const id = unique("notes");
        const seeded = [old(id, "s-acme", "acme 1"), old(id, "s-globex", "globex 1"), old(id, "s-acme", "acme 2")];
        await legacy().seed(id, seeded);
        const known = owners({ "s-acme": acme, "s-globex": globex });
        // Writing globex's memory fails, after acme's was written (the first message is acme's).
        const repair = await legacy().breakMemory({ tenant: globex, id });
        await expect(migrateLegacyMemories(store, { owners: known })).rejects.toThrow(`moving legacy memory ${JSON.stringify(id)}`);
        expect(await legacy().read(id)).toEqual(seeded);
        if (legacy().atomic) expect(await store.messages({ tenant: acme, id })).toEqual([]);
        await repair();

        const report = await migrateLegacyMemories(store, { owners: known });
        expect(report.moved).toEqual({ [acme]: 2, [globex]: 1 });
        expect(await store.messages({ tenant: acme, id })).toEqual([seeded[0], seeded[2]]);
        expect(await store.messages({ tenant: globex, id })).toEqual([seeded[1]]);
        expect(await legacy().read(id)).toEqual([]);
      });

      it("a failure finding the owners moves nothing and says which memory", async () => {
        const store = await open();
        const id = unique("notes");
        const seeded = [old(id, "s1", "one")];
        await legacy().seed(id, seeded);
        const failing: MemoryOwners = {
          tenantsOf: async () => {
            throw new Error("the session records are unreachable");
          },
        };
        await expect(migrateLegacyMemories(store, { owners: failing })).rejects.toThrow(/moving legacy memory "notes-[^"]+" in .*the session records are unreachable/);
        expect(await legacy().read(id)).toEqual(seeded);
      });
    });
  });
}
