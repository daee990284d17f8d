/**
 * The contract every ServerStore keeps (agents, session records, API keys, tenants kept apart),
 * run against each backend by its own test file. The run state and cancel signals it hands out
 * have conformance suites of their own (test/stores/).
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { DuplicateTitleError, ServerStoreError } from "../../src/backends/errors.js";
import type { AgentRecord, ApiKeyRecord, ListQuery, ServerStore, SessionRecord, UploadRecord } from "../../src/backends/contracts.js";

export interface ServerStoreHarness {
  /** A new, empty store (closed by the suite). Two from `open()` share data when `shared`. */
  open(): ServerStore | Promise<ServerStore>;
  shared: boolean;
}

let counter = 0;
const hex = () => (Date.now().toString(16) + (++counter).toString(16).padStart(8, "0") + Math.random().toString(16).slice(2)).padEnd(32, "0").slice(0, 32);
const LIST: ListQuery = { page: 1, page_size: 30, orderby: "update_time", desc: true };

function agent(tenant: string, title: string, time = Date.now()): AgentRecord {
  return {
    id: hex(),
    tenant,
    title,
    description: `about ${title}`,
    dsl: { components: { begin: { obj: { component_name: "Begin", params: {} }, downstream: [], upstream: [] } }, globals: {} },
    canvas_type: "",
    avatar: null,
    create_time: time,
    update_time: time,
  };
}

function upload(tenant: string, text: string, createTime: number, expireTime = Date.now() + 3_600_000): { record: UploadRecord; data: Buffer } {
  const data = Buffer.from(text);
  return { record: { id: randomUUID(), tenant, user: "ada", name: "notes.txt", size: data.length, extension: "txt", mime_type: "text/plain", create_time: createTime, expire_time: expireTime }, data };
}

const ROOMY = { maxFiles: 100, maxBytes: 1_000_000 };

function session(tenant: string, agentId: string, time = Date.now(), user = "u1"): SessionRecord {
  return { id: hex(), tenant, agent_id: agentId, user_id: user, name: "", message: [{ role: "assistant", content: "Hi!" }], source: "agent", create_time: time, update_time: time };
}

export function describeServerStore(name: string, harness: ServerStoreHarness): void {
  describe(`${name}: ServerStore conformance`, () => {
    const opened: ServerStore[] = [];
    async function open(): Promise<ServerStore> {
      const store = await harness.open();
      opened.push(store);
      return store;
    }
    const other = async (store: ServerStore) => (harness.shared ? open() : store);
    const tenant = () => `tenant-${hex().slice(8, 24)}`;
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it("creates, reads, updates and deletes an agent; a copy is handed out each time", async () => {
      const store = await open();
      const t = tenant();
      const created = await store.agents.create(agent(t, "Echo", 1000));
      created.title = "changed by the caller";
      const reader = await other(store);
      const got = await reader.agents.get(t, created.id);
      expect(got?.title).toBe("Echo");
      expect(got?.dsl).toEqual(agent(t, "Echo").dsl);
      const updated = await store.agents.update(t, created.id, { title: "Echo 2", description: undefined }, 2000);
      expect(updated).toMatchObject({ title: "Echo 2", description: "about Echo", update_time: 2000, create_time: 1000 });
      expect(await reader.agents.get(t, created.id)).toMatchObject({ title: "Echo 2" });
      expect(await store.agents.delete(t, created.id)).toBe(true);
      expect(await reader.agents.get(t, created.id)).toBeUndefined();
      expect(await store.agents.delete(t, created.id)).toBe(false);
      expect(await store.agents.update(t, created.id, { title: "x" }, 3000)).toBeUndefined();
    });

    it("refuses a title the tenant already has, whatever its case; another tenant may use it", async () => {
      const store = await open();
      const t = tenant();
      await store.agents.create(agent(t, "Helper"));
      await expect(store.agents.create(agent(t, "HELPER"))).rejects.toBeInstanceOf(DuplicateTitleError);
      await expect(store.agents.create(agent(t, "helper"))).rejects.toThrow("helper already exists.");
      const second = await store.agents.create(agent(t, "Other"));
      await expect(store.agents.update(t, second.id, { title: "hElPeR" }, Date.now())).rejects.toBeInstanceOf(DuplicateTitleError);
      // Renaming to its own title in another case is allowed.
      expect(await store.agents.update(t, second.id, { title: "OTHER" }, Date.now())).toMatchObject({ title: "OTHER" });
      await expect(store.agents.create(agent(tenant(), "Helper"))).resolves.toMatchObject({ title: "Helper" });
    });

    it("keeps tenants apart: another tenant's agent or session reads as missing and cannot be changed", async () => {
      const store = await open();
      const a = tenant();
      const b = tenant();
      const mine = await store.agents.create(agent(a, "Mine"));
      const s = await store.sessions.create(session(a, mine.id));
      expect(await store.agents.get(b, mine.id)).toBeUndefined();
      expect(await store.agents.update(b, mine.id, { title: "stolen" }, Date.now())).toBeUndefined();
      expect(await store.agents.delete(b, mine.id)).toBe(false);
      expect((await store.agents.list(b, LIST)).total).toBe(0);
      expect(await store.sessions.get(b, s.id)).toBeUndefined();
      expect(await store.sessions.update(b, s.id, { name: "x" }, Date.now())).toBeUndefined();
      expect(await store.sessions.delete(b, [s.id])).toEqual([]);
      expect((await store.sessions.list(b, mine.id, LIST)).total).toBe(0);
      expect(await store.agents.get(a, mine.id)).toMatchObject({ title: "Mine" });
      expect(await store.sessions.get(a, s.id)).toMatchObject({ id: s.id });
    });

    it("lists agents as RAGFlow does: order, pages, total, id, keywords and exact title", async () => {
      const store = await open();
      const t = tenant();
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await store.agents.create(agent(t, `Bot ${i}`, 1000 + i)));
      const newestFirst = await store.agents.list(t, { ...LIST, page_size: 2 });
      expect(newestFirst.total).toBe(5);
      expect(newestFirst.items.map((a) => a.title)).toEqual(["Bot 4", "Bot 3"]);
      const third = await store.agents.list(t, { ...LIST, page: 3, page_size: 2 });
      expect(third.items.map((a) => a.title)).toEqual(["Bot 0"]);
      const oldest = await store.agents.list(t, { ...LIST, orderby: "create_time", desc: false, page_size: 1 });
      expect(oldest.items.map((a) => a.title)).toEqual(["Bot 0"]);
      expect((await store.agents.list(t, { ...LIST, id: made[2].id })).items.map((a) => a.title)).toEqual(["Bot 2"]);
      expect((await store.agents.list(t, { ...LIST, keywords: "bot 3" })).items.map((a) => a.title)).toEqual(["Bot 3"]);
      expect((await store.agents.list(t, { ...LIST, title: "BOT 1" })).items.map((a) => a.title)).toEqual(["Bot 1"]);
      expect((await store.agents.list(t, { ...LIST, page: 9 })).items).toEqual([]);
    });

    it("keeps session records per agent: list, filter by user, update messages, delete some", async () => {
      const store = await open();
      const t = tenant();
      const a = await store.agents.create(agent(t, "A"));
      const b = await store.agents.create(agent(t, "B"));
      const s1 = await store.sessions.create(session(t, a.id, 1000, "u1"));
      const s2 = await store.sessions.create(session(t, a.id, 2000, "u2"));
      await store.sessions.create(session(t, b.id, 3000));
      const reader = await other(store);
      const listed = await reader.sessions.list(t, a.id, LIST);
      expect(listed.total).toBe(2);
      expect(listed.items.map((s) => s.id)).toEqual([s2.id, s1.id]);
      expect((await reader.sessions.list(t, a.id, { ...LIST, user_id: "u1" })).items.map((s) => s.id)).toEqual([s1.id]);
      const messages = [...s1.message, { role: "user" as const, content: "hi", id: "m1" }, { role: "assistant" as const, content: "hello", id: "m1", reference: { chunks: [] } }];
      await store.sessions.update(t, s1.id, { message: messages }, 5000);
      expect(await reader.sessions.get(t, s1.id)).toMatchObject({ message: messages, update_time: 5000, create_time: 1000 });
      expect((await reader.sessions.list(t, a.id, LIST)).items[0].id).toBe(s1.id);
      expect(await store.sessions.delete(t, [s2.id, "no-such-session"])).toEqual([s2.id]);
      expect((await reader.sessions.list(t, a.id, LIST)).total).toBe(1);
    });

    it("updates a session record from the caller's copy (known) only when it is still current", async () => {
      const store = await open();
      const t = tenant();
      const a = await store.agents.create(agent(t, "A"));
      const created = await store.sessions.create(session(t, a.id, 1000));
      const renamed = await store.sessions.update(t, created.id, { name: "renamed" }, 2000, created);
      expect(renamed).toMatchObject({ name: "renamed", update_time: 2000 });
      // A stale copy (before the rename, here or in another process): the change goes onto the stored record.
      const message = [...created.message, { role: "user" as const, content: "hi" }];
      expect(await store.sessions.update(t, created.id, { message }, 3000, created)).toMatchObject({ name: "renamed", message, update_time: 3000 });
      expect(await (await other(store)).sessions.get(t, created.id)).toMatchObject({ name: "renamed", message, update_time: 3000 });
      // Another tenant's copy changes nothing; a deleted record stays deleted.
      expect(await store.sessions.update(tenant(), created.id, { name: "x" }, 4000, { ...created, tenant: "someone" })).toBeUndefined();
      await store.sessions.delete(t, [created.id]);
      expect(await store.sessions.update(t, created.id, { name: "x" }, 5000, created)).toBeUndefined();
      expect(await store.sessions.get(t, created.id)).toBeUndefined();
    });

    it("deleting an agent deletes its session records", async () => {
      const store = await open();
      const t = tenant();
      const a = await store.agents.create(agent(t, "Gone"));
      const kept = await store.agents.create(agent(t, "Kept"));
      const s = await store.sessions.create(session(t, a.id));
      const other = await store.sessions.create(session(t, kept.id));
      await store.agents.delete(t, a.id);
      expect(await store.sessions.get(t, s.id)).toBeUndefined();
      expect((await store.sessions.list(t, a.id, LIST)).total).toBe(0);
      expect(await store.sessions.get(t, other.id)).toMatchObject({ agent_id: kept.id });
      // The title is free again.
      await expect(store.agents.create(agent(t, "gone"))).resolves.toMatchObject({ title: "gone" });
    });

    it("names a session's tenant to whoever asks (the memory migration's owners); none for a session not there", async () => {
      const store = await open();
      const [t1, t2] = [tenant(), tenant()];
      const a1 = await store.agents.create(agent(t1, "One"));
      const a2 = await store.agents.create(agent(t2, "Two"));
      const s1 = await store.sessions.create(session(t1, a1.id));
      const s2 = await store.sessions.create(session(t2, a2.id));
      expect(await (await other(store)).sessions.tenantOf(s1.id)).toBe(t1);
      expect(await store.sessions.tenantOf(s2.id)).toBe(t2);
      expect(await store.sessions.tenantOf(hex())).toBeUndefined();
      expect(await store.sessions.tenantOf("../keys")).toBeUndefined();
      await store.sessions.delete(t1, [s1.id]);
      expect(await store.sessions.tenantOf(s1.id)).toBeUndefined();
    });

    it("keeps API keys by hash only: find a live one, list them, revoke one", async () => {
      const store = await open();
      const t = tenant();
      const key: ApiKeyRecord = { id: hex().slice(8, 24), tenant: t, name: "ci", hash: "a".repeat(64), last4: "wxyz", create_time: Date.now(), revoked: false };
      await store.keys.create(key);
      const reader = await other(store);
      expect(await reader.keys.findByHash("a".repeat(64))).toEqual(key);
      expect(await reader.keys.findByHash("b".repeat(64))).toBeUndefined();
      expect((await reader.keys.list(t)).map((k) => k.id)).toEqual([key.id]);
      expect(await store.keys.revoke(key.id)).toBe(true);
      expect(await reader.keys.findByHash("a".repeat(64))).toBeUndefined();
      expect(await reader.keys.list(t)).toEqual([{ ...key, revoked: true }]);
      expect(await store.keys.revoke("no-such-key")).toBe(false);
    });

    it("breaks ties of the order by id, in the order's direction, so every backend pages alike", async () => {
      const store = await open();
      const t = tenant();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await store.agents.create(agent(t, `Tie ${i}`, 5000))).id);
      const ascending = [...ids].sort();
      expect((await store.agents.list(t, { ...LIST, desc: false })).items.map((a) => a.id)).toEqual(ascending);
      expect((await store.agents.list(t, LIST)).items.map((a) => a.id)).toEqual([...ascending].reverse());
      const a = ids[0];
      const sessionIds = [];
      for (let i = 0; i < 3; i++) sessionIds.push((await store.sessions.create(session(t, a, 5000))).id);
      const sorted = [...sessionIds].sort();
      expect((await store.sessions.list(t, a, { ...LIST, orderby: "create_time", desc: false })).items.map((s) => s.id)).toEqual(sorted);
      expect((await store.sessions.list(t, a, { ...LIST, orderby: "create_time", desc: true, page: 2, page_size: 2 })).items.map((s) => s.id)).toEqual([sorted[0]]);
    });

    it("refuses a record whose id is in use, or a key whose hash is, and keeps what was stored", async () => {
      const store = await open();
      const t = tenant();
      const first = await store.agents.create(agent(t, "First"));
      const again = { ...agent(t, "Second"), id: first.id };
      await expect(store.agents.create(again)).rejects.toThrow(ServerStoreError);
      await expect(store.agents.create(again)).rejects.not.toBeInstanceOf(DuplicateTitleError);
      expect(await store.agents.get(t, first.id)).toMatchObject({ title: "First" });
      // The refused create claimed no title.
      await expect(store.agents.create(agent(t, "Second"))).resolves.toMatchObject({ title: "Second" });
      const s = await store.sessions.create(session(t, first.id, 1000, "u1"));
      await expect(store.sessions.create({ ...session(t, first.id, 2000, "u2"), id: s.id })).rejects.toThrow(ServerStoreError);
      expect(await store.sessions.get(t, s.id)).toMatchObject({ user_id: "u1" });
      expect((await store.sessions.list(t, first.id, LIST)).total).toBe(1);
      const key: ApiKeyRecord = { id: hex().slice(8, 24), tenant: t, name: "one", hash: "c".repeat(64), last4: "abcd", create_time: 1, revoked: false };
      await store.keys.create(key);
      await expect(store.keys.create({ ...key, name: "same id" , hash: "d".repeat(64) })).rejects.toThrow(ServerStoreError);
      await expect(store.keys.create({ ...key, id: hex().slice(8, 24), name: "same hash" })).rejects.toThrow(ServerStoreError);
      expect((await store.keys.list(t)).map((k) => k.name)).toEqual(["one"]);
      expect(await store.keys.findByHash("d".repeat(64))).toBeUndefined();
    });

    it("refuses ids that cannot name a record and malformed records; such ids read as missing", async () => {
      const store = await open();
      const t = tenant();
      for (const id of ["", "../escape", "a/b", "x".repeat(129), "with space"]) {
        await expect(store.agents.create({ ...agent(t, `Bad ${id.length}`), id })).rejects.toThrow(ServerStoreError);
        expect(await store.agents.get(t, id)).toBeUndefined();
        expect(await store.agents.update(t, id, { title: "x" }, 1)).toBeUndefined();
        expect(await store.agents.delete(t, id)).toBe(false);
        expect(await store.sessions.get(t, id)).toBeUndefined();
        expect(await store.sessions.delete(t, [id])).toEqual([]);
        expect(await store.keys.revoke(id)).toBe(false);
      }
      await expect(store.agents.create({ ...agent(t, "Typed"), title: 42 as unknown as string })).rejects.toThrow(/title/);
      await expect(store.agents.create({ ...agent(t, "No DSL"), dsl: null as unknown as AgentRecord["dsl"] })).rejects.toThrow(/dsl/);
      await expect(store.agents.create(agent("", "No tenant"))).rejects.toThrow(/tenant/);
      await expect(store.sessions.create({ ...session(t, "a1"), message: "hi" as unknown as SessionRecord["message"] })).rejects.toThrow(/message/);
      await expect(store.keys.create({ id: "k1", tenant: t, name: "n", hash: "not hex", last4: "abcd", create_time: 1, revoked: false })).rejects.toThrow(/hash/);
      expect((await store.agents.list(t, LIST)).total).toBe(0);
      expect(await store.keys.list(t)).toEqual([]);
      expect(await store.keys.findByHash("not hex")).toBeUndefined();
      const a = await store.agents.create(agent(t, "Good"));
      await expect(store.agents.update(t, a.id, { title: "" }, 2)).rejects.toThrow(/title/);
      await expect(store.agents.update(t, a.id, { dsl: [] as unknown as AgentRecord["dsl"] }, 2)).rejects.toThrow(/dsl/);
      expect(await store.agents.get(t, a.id)).toMatchObject({ title: "Good", update_time: a.update_time });
    });

    it("lists every tenant's keys oldest first when no tenant is named", async () => {
      const store = await open();
      const [a, b] = [tenant(), tenant()];
      const base = { name: "k", last4: "abcd", revoked: false };
      const later: ApiKeyRecord = { ...base, id: hex().slice(8, 24), tenant: a, hash: hex() + hex(), create_time: 2000 };
      const earlier: ApiKeyRecord = { ...base, id: hex().slice(8, 24), tenant: b, hash: hex() + hex(), create_time: 1000 };
      await store.keys.create(later);
      await store.keys.create(earlier);
      const all = (await store.keys.list()).filter((k) => k.tenant === a || k.tenant === b);
      expect(all.map((k) => k.id)).toEqual([earlier.id, later.id]);
      expect((await store.keys.list(b)).map((k) => k.id)).toEqual([earlier.id]);
    });

    it("keeps an upload with its bytes for its tenant only (another store on the same backend finds it)", async () => {
      const store = await open();
      const [t, u] = [tenant(), tenant()];
      const file = upload(t, "some notes \u0000 with a NUL and é", Date.now());
      await store.uploads.put(file.record, file.data, ROOMY);
      const reader = await other(store);
      const got = await reader.uploads.get(t, file.record.id, Date.now());
      expect(got?.record).toEqual(file.record);
      expect(got?.data.equals(file.data)).toBe(true);
      expect(await reader.uploads.get(u, file.record.id, Date.now())).toBeUndefined();
      expect(await reader.uploads.get(t, randomUUID(), Date.now())).toBeUndefined();
      expect(await reader.uploads.get(t, "../../etc/passwd", Date.now())).toBeUndefined();
    });

    it("an upload is gone once it expires", async () => {
      const store = await open();
      const t = tenant();
      const file = upload(t, "short-lived", Date.now(), Date.now() + 60_000);
      await store.uploads.put(file.record, file.data, ROOMY);
      expect(await store.uploads.get(t, file.record.id, Date.now())).toBeDefined();
      expect(await store.uploads.get(t, file.record.id, file.record.expire_time)).toBeUndefined();
    });

    it("a tenant past its upload limits loses its oldest files, in count and in bytes; other tenants keep theirs", async () => {
      const store = await open();
      const [t, u] = [tenant(), tenant()];
      const now = Date.now();
      const theirs = upload(u, "theirs", now - 10_000);
      await store.uploads.put(theirs.record, theirs.data, { maxFiles: 2, maxBytes: 1000 });
      const files = [upload(t, "one", now - 3000), upload(t, "two", now - 2000), upload(t, "three", now - 1000)];
      for (const f of files) await store.uploads.put(f.record, f.data, { maxFiles: 2, maxBytes: 1000 });
      expect(await store.uploads.get(t, files[0].record.id, now)).toBeUndefined();
      expect(await store.uploads.get(t, files[1].record.id, now)).toBeDefined();
      expect(await store.uploads.get(t, files[2].record.id, now)).toBeDefined();
      // 10 bytes allowed: "two" (3) + "three" (5) + "four" (4) is 12, so "two" goes.
      const four = upload(t, "four", now);
      await store.uploads.put(four.record, four.data, { maxFiles: 10, maxBytes: 10 });
      expect(await store.uploads.get(t, files[1].record.id, now)).toBeUndefined();
      expect(await store.uploads.get(t, files[2].record.id, now)).toBeDefined();
      expect(await store.uploads.get(t, four.record.id, now)).toBeDefined();
      expect(await store.uploads.get(u, theirs.record.id, now)).toBeDefined();
    });

    it("refuses an upload whose size is not its data's, naming the field", async () => {
      const store = await open();
      const file = upload(tenant(), "abc", Date.now());
      await expect(store.uploads.put({ ...file.record, size: 99 }, file.data, ROOMY)).rejects.toThrow(/size is 99 but the data has 3 bytes/);
    });

    it("answers ping, and names where it keeps things", async () => {
      const store = await open();
      await expect(store.ping()).resolves.toBeUndefined();
      expect(typeof store.location).toBe("string");
      expect(store.location).not.toMatch(/:[^/@:]+@/);
    });
  });
}
