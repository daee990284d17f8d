/**
 * Memories end to end: a Message with memory_ids writes each exchange, a Retrieval with
 * retrieval_from "memory" finds it again (as a canvas node and as an Agent's tool), under the
 * mock LLM; and through the CLI, memories kept beside a session file, in PostgreSQL and in a
 * SQLite session's database file.
 */
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { FileMemoryStore, MemoryStoreError, InProcessMemoryStore, searchMemories, SqliteMemoryStore, TenantMemories, type MemoryStore } from "../../src/memories/index.js";
import { memoryUserId } from "../../src/memories/save.js";
import type { MockLlmScript } from "../../src/llm/index.js";
import { canvasDsl, finished, messageText, node } from "../helpers/dsl.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { cli } from "../helpers/cli.js";
import { scratchDir } from "../helpers/scratch.js";
import { dropSchema, sharedTestPostgres, TEST_POSTGRES_URL, uniqueTestSchema } from "../helpers/postgres.js";
import type { CanvasEvent } from "../../src/engine/events.js";

const ECHO = "[mock reply] You said: ";

/** Begin → LLM → Message that saves each exchange to `notes` (per user). */
function writer(messageParams: Record<string, unknown> = {}) {
  return canvasDsl({
    begin: node("Begin", {}, ["LLM:A"]),
    "LLM:A": node("LLM", { llm_id: "mock@Mock", sys_prompt: "Be brief.", prompts: [{ role: "user", content: "{sys.query}" }] }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{LLM:A@content}"], memory_ids: ["notes"], user_id: "{sys.user_id}", ...messageParams }),
  });
}

/** Begin → Retrieval from memory → Message showing what was found. */
function reader(retrievalParams: Record<string, unknown> = {}) {
  return canvasDsl({
    begin: node("Begin", {}, ["Retrieval:R"]),
    "Retrieval:R": node("Retrieval", { query: "sys.query", retrieval_from: "memory", memory_ids: ["notes"], user_id: "{sys.user_id}", ...retrievalParams }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{Retrieval:R@formalized_content}"] }),
  });
}

function nodeError(events: readonly CanvasEvent[], id: string): string | undefined {
  const done = events.find((e) => e.event === "node_finished" && e.data.component_id === id);
  return done?.event === "node_finished" ? (done.data.error ?? undefined) : undefined;
}

const TEAL = `User Input: My favourite colour is teal\nAgent Response: ${ECHO}My favourite colour is teal`;

describe("writing and searching memories in canvases", () => {
  it("a Message saves each exchange (query, message shown, user, session); a Retrieval finds the matching one for that user only", async () => {
    const mock = await startMockLlm();
    const memories = new InProcessMemoryStore();
    const chat = await loadCanvas(writer(), { services: { llm: mock.provider, memories } });
    await chat.runToEnd({ query: "My favourite colour is teal", userId: "ada" });
    await chat.runToEnd({ query: "I live in Lisbon", userId: "ada" });
    await chat.runToEnd({ query: "My favourite colour is red", userId: "bob" });

    // A library run has no tenant: its memories are the tenant "default"'s.
    const saved = await memories.messages({ tenant: "default", id: "notes" });
    expect(saved.map((m) => [m.user_id, m.content])).toEqual([
      ["ada", TEAL],
      ["ada", `User Input: I live in Lisbon\nAgent Response: ${ECHO}I live in Lisbon`],
      ["bob", `User Input: My favourite colour is red\nAgent Response: ${ECHO}My favourite colour is red`],
    ]);
    expect(saved[0]).toMatchObject({ memory_id: "notes", message_type: "raw", session_id: chat.toJSON().task_id });

    const search = await loadCanvas(reader(), { services: { memories } });
    const events = await search.runToEnd({ query: "What is my favourite colour?", userId: "ada" });
    expect(messageText(events)).toBe(TEAL);
    const done = events.find((e) => e.event === "node_finished" && e.data.component_id === "Retrieval:R");
    const json = done?.event === "node_finished" ? (done.data.outputs.json as Array<Record<string, unknown>>) : [];
    expect(json.map((m) => m.content)).toEqual([TEAL]);
    expect(json[0].similarity).toBeGreaterThan(0.2);

    // Another user's memories are not searched; nothing found gives the empty response.
    const carol = await search.runToEnd({ query: "What is my favourite colour?", userId: "carol" });
    expect(messageText(carol)).toBe('Nothing relevant to "What is my favourite colour?" was found in the memories.');
    const custom = await loadCanvas(reader({ empty_response: "I do not remember." }), { services: { memories } });
    expect(messageText(await custom.runToEnd({ query: "favourite colour", userId: "carol" }))).toBe("I do not remember.");
    // Without user_id every user's messages are searched, best first, at most top_n.
    const everyone = await loadCanvas(reader({ user_id: "", top_n: 2 }), { services: { memories } });
    expect(messageText(await everyone.runToEnd({ query: "favourite colour", userId: "x" })).split("\n").filter((l) => l.startsWith("User Input"))).toEqual([
      "User Input: My favourite colour is teal",
      "User Input: My favourite colour is red",
    ]);
  });

  it("a Message that is not streamed (stream off) saves too, and a session continued on another process's store finds it", async () => {
    const mock = await startMockLlm();
    const { dir } = scratchDir("cf-memories-");
    const chat = await loadCanvas(writer({ stream: false }), { services: { llm: mock.provider, memories: new FileMemoryStore({ directory: dir }) } });
    await chat.runToEnd({ query: "My favourite colour is teal", userId: "ada" });
    const other = new FileMemoryStore({ directory: dir });
    const hits = await searchMemories(new TenantMemories(other, "default"), ["notes"], { query: "colour teal", topN: 8, topK: 1024, similarityThreshold: 0.2, keywordsWeight: 0.5 });
    expect(hits.map((h) => h.message.content)).toEqual([TEAL]);
  });

  it("a Retrieval tool of an Agent searches memories with the model's query", async () => {
    const memories = new InProcessMemoryStore();
    await memories.add({ tenant: "default", id: "notes" }, { user_id: "", agent_id: "", session_id: "s", content: TEAL, source_key: "" });
    const script: MockLlmScript = {
      rules: [
        { match: "colour", on: "last_user", tool_calls: [{ name: "search_my_dateset_0", arguments: { query: "favourite colour" } }] },
        { match: "teal", on: "tool", reply: "Your favourite colour is teal." },
      ],
    };
    const mock = await startMockLlm(script);
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["Agent:A"]),
      "Agent:A": node(
        "Agent",
        { llm_id: "mock@Mock", prompts: [{ role: "user", content: "{sys.query}" }], tools: [{ component_name: "Retrieval", name: "Retrieval", params: { retrieval_from: "memory", memory_ids: ["notes"] } }] },
        ["Message:M"],
      ),
      "Message:M": node("Message", { content: ["{Agent:A@content}"] }),
    });
    const canvas = await loadCanvas(dsl, { services: { llm: mock.provider, memories } });
    const events = await canvas.runToEnd({ query: "What is my favourite colour?" });
    expect(messageText(events)).toBe("Your favourite colour is teal.");
    expect(mock.chatRequests()[1].messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_mock_1_0", content: TEAL });
  });

  it("without a memory store, the Message and the Retrieval say what to configure; the run goes on", async () => {
    const mock = await startMockLlm();
    const chat = await loadCanvas(writer(), { services: { llm: mock.provider } });
    const events = await chat.runToEnd({ query: "hello" });
    expect(nodeError(events, "Message:M")).toMatch(/memory_ids names "notes", but this run has no memory store: give the run a session \(--session\), set "memories"/);
    const search = await loadCanvas(reader(), { services: {} });
    const found = await search.runToEnd({ query: "hello" });
    expect(nodeError(found, "Retrieval:R")).toMatch(/retrieval_from is "memory" \(memory_ids "notes"\), but this run has no memory store/);
    expect(finished(found).error).toBeUndefined();
  });

  it("an empty memory_ids is an error at run time (a bad memory id is refused when the canvas loads, see below)", async () => {
    const memories = new InProcessMemoryStore();
    const empty = await loadCanvas(reader({ memory_ids: [] }), { services: { memories } });
    expect(nodeError(await empty.runToEnd({ query: "x" }), "Retrieval:R")).toBe("no memory is selected: memory_ids is empty");
    await expect(loadCanvas(reader({ memory_ids: ["a\u0007b"] }), { services: { memories } })).rejects.toThrow('memory_ids[0] "a\\u0007b" contains a control character');
  });

  it("user_id is a literal or a {reference}", () => {
    const get = (selector: unknown) => (selector === "sys.user_id" ? "ada" : selector === "env.none" ? null : undefined);
    expect(memoryUserId({ get }, { user_id: "{sys.user_id}" })).toBe("ada");
    expect(memoryUserId({ get }, { user_id: " team-7 " })).toBe("team-7");
    expect(memoryUserId({ get }, { user_id: "{env.none}" })).toBe("");
    expect(memoryUserId({ get }, {})).toBe("");
  });

  it("a store failure fails the Message with the memory and where it is", async () => {
    const mock = await startMockLlm();
    const broken: MemoryStore = {
      scope: "tenant",
      location: "a broken place",
      add: async () => {
        throw new MemoryStoreError("disk full");
      },
      messages: async () => [],
      close: async () => {},
    };
    const chat = await loadCanvas(writer(), { services: { llm: mock.provider, memories: broken } });
    expect(nodeError(await chat.runToEnd({ query: "hello" }), "Message:M")).toBe('saving to memory "notes" (a broken place, tenant "default"): disk full');
  });
});

describe("a memory store written for the interface before tenants", () => {
  it("is refused by a run and by a server, rather than filing every tenant's memory under one key", async () => {
    const mock = await startMockLlm();
    const ids: unknown[] = [];
    // add(id, message), messages(id): what a store of an earlier release looks like.
    const old = { location: "an old store", add: async (id: unknown) => {
        ids.push(id);
        return true;
      }, messages: async () => [], close: async () => {} };
    const chat = await loadCanvas(writer(), { services: { llm: mock.provider, memories: old as unknown as MemoryStore } });
    expect(nodeError(await chat.runToEnd({ query: "hello" }), "Message:M")).toMatch(/^services\.memories has add and messages but does not say scope: "tenant"/);
    expect(ids).toEqual([]);
    const { createServer, InProcessServerStore } = await import("../../src/server/index.js");
    expect(() => createServer({ store: new InProcessServerStore(), canvas: { services: { memories: old } } })).toThrow('canvas.services.memories has add and messages but does not say scope: "tenant"');
  });
});

describe("memories of CLI runs live with the session", () => {
  const postgres = sharedTestPostgres();
  const schema = uniqueTestSchema();
  afterAll(async () => {
    const client = await postgres.get().catch(() => undefined);
    if (client) await dropSchema(client, schema);
    await postgres.close();
  });

  it("session files: a second session in the same folder finds what the first one saved", async () => {
    const scratch = scratchDir("cf-memories-cli-");
    const write = scratch.write("writer.json", writer({ user_id: "" }));
    const read = scratch.write("reader.json", reader({ user_id: "" }));
    const first = await cli(["run", write, "--session", `${scratch.dir}/one.json`, "--mock-llm", "-q", "My favourite colour is teal", "--events", "ndjson"]);
    expect(first.code).toBe(0);
    const second = await cli(["run", read, "--session", `${scratch.dir}/two.json`, "--mock-llm", "-q", "favourite colour?", "--events", "ndjson"]);
    expect(second.code).toBe(0);
    expect(messageText(second.events)).toBe(TEAL);
    expect((await new FileMemoryStore({ directory: `${scratch.dir}/canvasflow-memories` }).messages({ tenant: "default", id: "notes" })).length).toBe(1);
  }, 120_000);

  it("SQLite sessions: memories are in the session's database file, not in a folder beside it", async () => {
    const scratch = scratchDir("cf-memories-cli-");
    const write = scratch.write("writer.json", writer({ user_id: "" }));
    const read = scratch.write("reader.json", reader({ user_id: "" }));
    const file = `${scratch.dir}/runs.db`;
    expect((await cli(["run", write, "--session", `sqlite:${file}#one`, "--mock-llm", "-q", "My favourite colour is teal", "--events", "ndjson"])).code).toBe(0);
    const second = await cli(["run", read, "--session", `sqlite:${file}#two`, "--mock-llm", "-q", "favourite colour?", "--events", "ndjson"]);
    expect(second.code).toBe(0);
    expect(messageText(second.events)).toBe(TEAL);
    const store = new SqliteMemoryStore({ file });
    try {
      expect((await store.messages({ tenant: "default", id: "notes" })).map((m) => m.content)).toEqual([TEAL]);
    } finally {
      await store.close();
    }
    expect(existsSync(`${scratch.dir}/canvasflow-memories`)).toBe(false);
  }, 120_000);

  it("a configured sqlite: memories location that is not a SQLite database stops the run (exit 2), naming the file", async () => {
    const scratch = scratchDir("cf-memories-cli-");
    const write = scratch.write("writer.json", writer({ user_id: "" }));
    const notes = scratch.write("notes.txt", "not a database\n".repeat(50));
    const config = scratch.write("canvasflow.config.json", { memories: { location: "sqlite:notes.txt" } });
    const run = await cli(["run", write, "--config", config, "--mock-llm", "-q", "hello", "--events", "ndjson"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`canvasflow: memories: ${notes} is not a usable SQLite database`);
  }, 120_000);

  it("PostgreSQL sessions: memories are in the session's schema", async () => {
    await postgres.get();
    const scratch = scratchDir("cf-memories-cli-");
    const write = scratch.write("writer.json", writer({ user_id: "" }));
    const read = scratch.write("reader.json", reader({ user_id: "" }));
    const at = (key: string) => `${TEST_POSTGRES_URL}?schema=${schema}#${key}`;
    expect((await cli(["run", write, "--session", at("one"), "--mock-llm", "-q", "My favourite colour is teal", "--events", "ndjson"])).code).toBe(0);
    const second = await cli(["run", read, "--session", at("two"), "--mock-llm", "-q", "favourite colour?", "--events", "ndjson"]);
    expect(second.code).toBe(0);
    expect(messageText(second.events)).toBe(TEAL);
    const client = await postgres.get();
    const rows = await client.query(`SELECT tenant, memory_id FROM ${schema}.memory_messages`);
    expect(rows.rows).toEqual([{ tenant: "default", memory_id: "notes" }]);
  }, 120_000);
});

describe("validation of memory_ids", () => {
  it("names the entry that is not a usable memory id, in a Message and in a Retrieval", async () => {
    const { validateDsl } = await import("../../src/api.js");
    const report = validateDsl(
      canvasDsl({
        begin: node("Begin", {}, ["Retrieval:R"]),
        "Retrieval:R": node("Retrieval", { query: "sys.query", retrieval_from: "memory", memory_ids: ["ok", "x".repeat(200)] }, ["Message:M"]),
        "Message:M": node("Message", { content: ["{Retrieval:R@formalized_content}"], memory_ids: ["", "a\u0001b"] }),
      }),
    );
    const found = report.issues.filter((i) => i.message.includes("memory_ids[")).map((i) => [i.pointer, i.message.replace(/"x+…"/, '"x…"')]);
    expect(found).toEqual([
      ["/components/Retrieval:R/obj/params/memory_ids/1", 'memory_ids[1] "x…" is 200 characters long; the limit is 128'],
      ["/components/Message:M/obj/params/memory_ids/1", 'memory_ids[1] "a\\u0001b" contains a control character'],
    ]);
  });
});

describe("canvasflow serve keeps memories with its store", () => {
  it("a server on its default database: one agent's Message saves, another agent's Retrieval finds it; the memory is in the database", async () => {
    const { main } = await import("../../src/cli/main.js");
    const { liveIO } = await import("../helpers/cli.js");
    const data = scratchDir("cf-memories-serve-").dir;
    const agents = scratchDir("cf-memories-agents-");
    agents.write("writer.json", writer({ user_id: "" }));
    agents.write("reader.json", reader({ user_id: "" }));
    const created = await cli(["keys", "create", "--tenant", "acme", "--name", "test", "--data", data]);
    expect(created.code, created.stderr).toBe(0);
    const headers = { authorization: `Bearer ${created.stdout.trim()}`, "content-type": "application/json" };
    const live = liveIO();
    const running = main(["serve", "--port", "0", "--data", data, "--agents", agents.dir, "--mock-llm"], live.io);
    try {
      let base: string | undefined;
      for (let i = 0; i < 1500 && !base; i++) {
        base = /serving RAGFlow's agent API at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(live.stderr())?.[1];
        if (!base) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(base, live.stderr()).toBeDefined();
      const ask = async (agent: string, query: string) => {
        const response = await fetch(`${base}/api/v1/agents/chat/completions`, { method: "POST", headers, body: JSON.stringify({ agent_id: agent, query }) });
        return ((await response.json()) as { data: { data: { content: string } } }).data.data.content;
      };
      expect(await ask("writer", "My favourite colour is teal")).toBe(`${ECHO}My favourite colour is teal`);
      expect(await ask("reader", "favourite colour?")).toBe(TEAL);
      // The memory is the tenant's whose key ran the agents.
      const inDatabase = new SqliteMemoryStore({ file: `${data}/canvasflow.db` });
      try {
        expect((await inDatabase.messages({ tenant: "acme", id: "notes" })).map((m) => m.content)).toEqual([TEAL]);
        expect(await inDatabase.messages({ tenant: "default", id: "notes" })).toEqual([]);
      } finally {
        await inDatabase.close();
      }
    } finally {
      live.stop();
      expect(await running).toBe(0);
    }
  }, 120_000);
});
