/**
 * Rate limits (docs/server.md, Rate limits): per API key, completions and other requests per
 * minute and runs at once; per process, runs at once. Beyond a limit: HTTP 429 with `retry-after`
 * and the envelope {code: 429, message naming the setting, data: null}. In memory each server
 * counts its own; on Redis (the store's connection, or the `redis` option) servers share counts.
 */
import OpenAI from "openai";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { RedisServerStore } from "../../src/backends/redis/server-store.js";
import { hashApiKey } from "../../src/server/store/api-keys.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import { deleteKeys, sharedTestRedis, TEST_REDIS_URL, uniqueTestPrefix } from "../helpers/redis.js";
import { addKey, call, createAgent, send, startTestServer, type Answer, type TestServer } from "../helpers/server.js";
import { hello, llmCanvas } from "./canvases.js";

const COMPLETIONS = "/api/v1/agents/chat/completions";

function expect429(answer: Answer, setting: string): void {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.json).toMatchObject({ code: 429, data: null });
  expect(answer.json.message).toContain(`server.rateLimits.${setting}`);
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A streaming turn held in the mock LLM until cancelled; resolves once the model was asked, with the stream's text to come. */
async function heldTurn(server: TestServer, agentId: string, mock: MockLlm, key = server.key) {
  const asked = mock.chatRequests().length;
  const response = await send(server, COMPLETIONS, { body: { agent_id: agentId, query: "slow", stream: true }, key });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const ended = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    return text;
  })();
  while (mock.chatRequests().length === asked) await pause(10);
  const sessionId = /"session_id":"([0-9a-f]{32})"/.exec(text)![1];
  // Wrapped: an async function returning the promise itself would wait for it.
  return { sessionId, text: ended };
}

const slowMock = () => startMockLlm({ rules: [{ match: "slow", delay_ms: 60_000, reply: "never" }, { match: ".", reply: "fine" }] });

describe("requests per minute, in memory", () => {
  it("completions beyond completionsPerMinute get 429 with retry-after and RAGFlow's envelope; other requests count apart", async () => {
    const server = await startTestServer({ rateLimits: { completionsPerMinute: 2 } });
    const agentId = await createAgent(server, hello());
    for (let i = 0; i < 2; i++) {
      const answer = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "Ada" } });
      expect(answer.json.code).toBe(0);
      expect(answer.headers.get("x-ratelimit-limit")).toBe("2");
      expect(answer.headers.get("x-ratelimit-remaining")).toBe(String(1 - i));
    }
    const refused = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "Ada" } });
    expect429(refused, "completionsPerMinute");
    expect(refused.json.message).toMatch(/^Too many requests: this API key may send 2 completions a minute \(server\.rateLimits\.completionsPerMinute\); retry in (\d+ seconds?|1 minute)$/);
    // The aliases are completions too, and share the count.
    expect429(await call(server, `/api/v1/agents/${agentId}/completions`, { body: { query: "Ada" } }), "completionsPerMinute");
    // Other requests are counted against requestsPerMinute.
    expect((await call(server, `/api/v1/agents/${agentId}`)).json.code).toBe(0);
  });

  it("other requests beyond requestsPerMinute get 429; each key has its own count; a bad key is refused (401) before it counts", async () => {
    const server = await startTestServer({ rateLimits: { requestsPerMinute: 3 } });
    const other = await addKey(server.store, "t1");
    for (let i = 0; i < 5; i++) expect((await call(server, "/api/v1/agents", { key: "cf-wrong" })).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await call(server, "/api/v1/agents")).json.code).toBe(0);
    const refused = await call(server, "/api/v1/agents", { headers: { origin: "http://example.test" } });
    expect429(refused, "requestsPerMinute");
    // A browser page may read when to retry.
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(refused.headers.get("access-control-expose-headers")?.split(/,\s*/)).toEqual(expect.arrayContaining(["retry-after", "x-request-id"]));
    expect429(await call(server, "/api/v1/tasks/0123456789abcdef0123456789abcdef/cancel", { method: "POST" }), "requestsPerMinute");
    // Another key of the same tenant has its own count.
    expect((await call(server, "/api/v1/agents", { key: other })).json.code).toBe(0);
    // Health needs no key and is not limited.
    for (let i = 0; i < 5; i++) expect((await call(server, "/api/v1/system/ping", { key: null })).status).toBe(200);
  });

  it("the OpenAI route's 429 carries an error object: the openai client raises RateLimitError", async () => {
    const server = await startTestServer({ rateLimits: { completionsPerMinute: 1 } });
    const agentId = await createAgent(server, hello());
    const client = new OpenAI({ apiKey: server.key, baseURL: `${server.base}/api/v1/agents_openai/${agentId}`, maxRetries: 0 });
    await client.chat.completions.create({ model: "x", messages: [{ role: "user", content: "Ada" }] });
    const error = await client.chat.completions.create({ model: "x", messages: [{ role: "user", content: "Ada" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).status).toBe(429);
    expect((error as Error).message).toContain("server.rateLimits.completionsPerMinute");
  });

  it("0 turns a limit off", async () => {
    const server = await startTestServer({ rateLimits: { requestsPerMinute: 0 } });
    for (let i = 0; i < 20; i++) expect((await call(server, "/api/v1/agents")).status).toBe(200);
  });
});

describe("runs at once, in memory", () => {
  it("a key with runsPerKey runs going gets 429 for the next; another key runs; when a run ends, the key runs again", async () => {
    const mock = await slowMock();
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } }, rateLimits: { runsPerKey: 1 } });
    const other = await addKey(server.store, "t1");
    const agentId = await createAgent(server, llmCanvas());
    const held = await heldTurn(server, agentId, mock);
    expect429(await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "quick" } }), "runsPerKey");
    expect((await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "quick" }, key: other })).json.data.data.content).toBe("fine");
    // Creating a session is no run: it is not limited.
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`, { body: {} })).json.code).toBe(0);
    expect((await call(server, `/api/v1/tasks/${held.sessionId}/cancel`, { method: "POST" })).json.code).toBe(0);
    expect(await held.text).toMatch(/data:\[DONE\]\n\n$/);
    expect((await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "quick" } })).json.data.data.content).toBe("fine");
  });

  it("runsPerServer caps the process's runs across keys", async () => {
    const mock = await slowMock();
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } }, rateLimits: { runsPerKey: 0, runsPerServer: 1 } });
    const other = await addKey(server.store, "t2");
    const agentId = await createAgent(server, llmCanvas());
    const otherAgent = await createAgent(server, llmCanvas(), "theirs", other);
    const held = await heldTurn(server, agentId, mock);
    const refused = await call(server, COMPLETIONS, { body: { agent_id: otherAgent, query: "quick" }, key: other });
    expect429(refused, "runsPerServer");
    expect(refused.headers.get("retry-after")).toBe("1");
    await call(server, `/api/v1/tasks/${held.sessionId}/cancel`, { method: "POST" });
    await held.text;
    expect((await call(server, COMPLETIONS, { body: { agent_id: otherAgent, query: "quick" }, key: other })).json.data.data.content).toBe("fine");
  });
});

describe("on Redis: servers share the counts", () => {
  const admin = sharedTestRedis();
  const prefixes: string[] = [];
  const prefix = () => {
    const p = uniqueTestPrefix();
    prefixes.push(p);
    return p;
  };
  beforeEach(async () => {
    await admin.get();
  });
  afterAll(async () => {
    const client = await admin.get();
    for (const p of prefixes) await deleteKeys(client, p);
    await admin.close();
  });

  /** Two servers on one Redis store prefix (each its own connection), with a key both accept. */
  async function twoServers(options: Parameters<typeof startTestServer>[0] = {}): Promise<[TestServer, TestServer]> {
    const p = prefix();
    const a = await startTestServer({ ...options, store: new RedisServerStore({ url: TEST_REDIS_URL, prefix: p }) });
    const b = await startTestServer({ ...options, store: new RedisServerStore({ url: TEST_REDIS_URL, prefix: p }), keys: false });
    return [a, { ...b, key: a.key }];
  }

  it("the per-minute counts of a key are shared by two servers; Redis holds them under the store's prefix, by key id, never the key", async () => {
    const [a, b] = await twoServers({ rateLimits: { requestsPerMinute: 3 } });
    expect((await call(a, "/api/v1/agents")).status).toBe(200);
    expect((await call(b, "/api/v1/agents")).status).toBe(200);
    expect((await call(a, "/api/v1/agents")).status).toBe(200);
    expect429(await call(b, "/api/v1/agents"), "requestsPerMinute");
    expect429(await call(a, "/api/v1/agents"), "requestsPerMinute");

    const client = await admin.get();
    const storePrefix = (a.store as RedisServerStore).prefix;
    const keys = await client.keys(`${storePrefix}ratelimit:*`);
    const [record] = await a.store.keys.list("t1");
    expect(keys).toEqual([`${storePrefix}ratelimit:requests:key:${record.id}`]);
    for (const key of keys) {
      expect(key).not.toContain(a.key);
      expect(key).not.toContain(hashApiKey(a.key));
    }
    expect(await client.get(keys[0])).toBe("5");
    expect(await client.pttl(keys[0])).toBeGreaterThan(0);
  });

  it("runs at once of a key are counted across servers: a run on A takes the slot B would use", async () => {
    const mock = await slowMock();
    const [a, b] = await twoServers({ canvas: { services: { llm: mock.provider } }, rateLimits: { runsPerKey: 1 } });
    const agentId = await createAgent(a, llmCanvas());
    const held = await heldTurn(a, agentId, mock);
    expect429(await call(b, COMPLETIONS, { body: { agent_id: agentId, query: "quick" } }), "runsPerKey");
    // The cancel reaches A through Redis; the slot is given back when A's run ends.
    await call(b, `/api/v1/tasks/${held.sessionId}/cancel`, { method: "POST" });
    expect(await held.text).toMatch(/data:\[DONE\]\n\n$/);
    expect((await call(b, COMPLETIONS, { body: { agent_id: agentId, query: "quick" } })).json.data.data.content).toBe("fine");
    const client = await admin.get();
    expect(await client.zcard(`${(a.store as RedisServerStore).prefix}run-slots:key:${(await a.store.keys.list("t1"))[0].id}`)).toBe(0);
  });

  it("the redis option shares counts between servers whose stores are not on Redis (one key given to both)", async () => {
    const client = await admin.get();
    const p = prefix();
    const key = "cf-shared-single-key-for-the-redis-option-test";
    const options = { apiKey: key, keys: false, rateLimits: { requestsPerMinute: 2 }, redis: { client, prefix: p } };
    const a = await startTestServer({ ...options, store: new InProcessServerStore() });
    const b = await startTestServer({ ...options, store: new InProcessServerStore() });
    expect((await call(a, "/api/v1/agents", { key })).status).toBe(200);
    expect((await call(b, "/api/v1/agents", { key })).status).toBe(200);
    expect429(await call(a, "/api/v1/agents", { key }), "requestsPerMinute");
    expect(await client.keys(`${p}ratelimit:*`)).toEqual([`${p}ratelimit:requests:key:env-${hashApiKey(key).slice(0, 16)}`]);
  });
});

describe("the defaults (issue 24: a backend serving many users through one key)", () => {
  it("one key runs a dozen turns at once, sends 100 completions and 700 other requests in a minute, and is never refused; the per-minute limits still exist", async () => {
    const mock = await startMockLlm({ rules: [{ match: ".", delay_ms: 400, reply: "fine" }] });
    const server = await startTestServer({ canvas: { services: { llm: mock.provider } } });
    const inject = (url: string, payload?: object) => server.app.inject({ method: payload ? "POST" : "GET", url, headers: { authorization: `Bearer ${server.key}` }, ...(payload ? { payload } : {}) });
    const slow = await createAgent(server, llmCanvas());
    // Twelve users at once (RAGFlow has no limit; the old default of 4 refused the fifth).
    const together = await Promise.all(Array.from({ length: 12 }, () => inject(COMPLETIONS, { agent_id: slow, query: "hi" })));
    expect(together.map((answer) => answer.statusCode)).toEqual(Array(12).fill(200));
    expect(together.map((answer) => answer.json().code)).toEqual(Array(12).fill(0));
    expect(mock.chatRequests()).toHaveLength(12);
    const quick = await createAgent(server, hello());
    for (let i = 0; i < 100; i++) {
      const answer = await inject(COMPLETIONS, { agent_id: quick, query: "Ada" });
      expect(answer.statusCode, answer.body).toBe(200);
      if (i === 99) expect(answer.headers["x-ratelimit-limit"]).toBe("6000");
    }
    for (let i = 0; i < 700; i++) {
      const answer = await inject(`/api/v1/agents/${quick}`);
      expect(answer.statusCode, answer.body).toBe(200);
      if (i === 699) expect(answer.headers["x-ratelimit-limit"]).toBe("12000");
    }
  });
});
