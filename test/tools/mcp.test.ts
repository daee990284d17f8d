/**
 * The MCP client against the reference servers from npm, unmodified: server-everything and
 * server-filesystem over stdio, server-everything over Streamable HTTP and over the older SSE
 * transport. An Agent under the mock LLM, scripted to call a tool, gets the tool's real result
 * into its answer; a stdio server killed mid-call gives the model a tool error and the run ends.
 */
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadCanvas } from "../../src/api.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import type { McpServerConfig } from "../../src/config/types.js";
import { McpHub } from "../../src/tools/mcp/hub.js";
import { createEgressPolicy, PRIVATE_NETWORK_HINT, type HostResolver } from "../../src/sandbox/egress/guard.js";
import { canvasDsl, finished, messages, node } from "../helpers/dsl.js";
import { listenForTest } from "../helpers/http.js";
import { everythingHttp, everythingStdio, filesystemStdio, processAlive } from "../helpers/mcp.js";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm.js";
import type { MockLlmRule } from "../../src/llm/index.js";
import { scratchDir } from "../helpers/scratch.js";

const TIMEOUT = 60_000;

function agentCanvas(mcp: unknown[], extra: Record<string, unknown> = {}): CanvasDsl {
  return canvasDsl({
    begin: node("Begin", {}, ["Agent:A"]),
    "Agent:A": node("Agent", { llm_id: "mock@Mock", sys_prompt: "Use the tools.", prompts: [{ role: "user", content: "{sys.query}" }], max_rounds: 3, mcp, ...extra }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{Agent:A@content}"] }),
  });
}

/** A model that calls `tool` once with `args`, then answers with the tool message it read. */
function callThenAnswer(tool: string, args: Record<string, unknown>, resultPattern: string, answer: string): MockLlmRule[] {
  return [
    { match: "please", on: "last_user", times: 1, tool_calls: [{ name: tool, arguments: args }] },
    { match: resultPattern, on: "tool", reply: answer },
    { match: ".", on: "any", reply: "the tool result did not match" },
  ];
}

async function runAgent(mock: MockLlm, servers: Record<string, McpServerConfig>, dsl: CanvasDsl, query = "please use the tool", env: Record<string, string> = {}, egress: Record<string, unknown> = {}) {
  const hub = new McpHub(servers, env);
  const canvas = await loadCanvas(dsl, { services: { llm: mock.provider, mcp: hub, egress } });
  try {
    const events = await canvas.runToEnd({ query });
    return { events, hub };
  } finally {
    await hub.close();
  }
}

/** The tool messages of the model's last request (the whole conversation so far). */
function toolMessages(mock: MockLlm): string[] {
  const last = mock.chatRequests().at(-1);
  return (last?.messages ?? []).filter((m) => m.role === "tool").map((m) => String(m.content));
}

describe("MCP over stdio: server-everything", () => {
  it(
    "offers the server's tools with their input schemas and puts a tool's real result into the answer",
    async () => {
      const mock = await startMockLlm({ rules: callThenAnswer("get-sum", { a: 2, b: 3 }, "The sum of 2 and 3 is 5", "Two plus three: The sum of 2 and 3 is 5.") });
      const { events, hub } = await runAgent(mock, { everything: everythingStdio() }, agentCanvas([{ mcp_id: "everything", tools: {} }]));

      expect(finished(events).error).toBeUndefined();
      expect(messages(events)).toEqual(["Two plus three: The sum of 2 and 3 is 5."]);
      const offered = mock.chatRequests()[0].tools ?? [];
      expect(offered.map((t) => t.function.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]));
      const sum = offered.find((t) => t.function.name === "get-sum")!;
      expect(sum.function.parameters).toMatchObject({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] });
      expect(toolMessages(mock)).toEqual(["The sum of 2 and 3 is 5."]);
      // The run's session was closed when the run ended.
      expect(hub.openSessions()).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "a tools map offers only the tools it names; two calls of one run share one server process",
    async () => {
      const mock = await startMockLlm({
        rules: [
          { match: "please", on: "last_user", times: 1, tool_calls: [{ name: "echo", arguments: { message: "one" } }] },
          { match: "Echo: one", on: "tool", times: 1, tool_calls: [{ name: "echo", arguments: { message: "two" } }] },
          { match: "Echo: two", on: "tool", reply: "echoed twice" },
        ],
      });
      let pids: Array<number | undefined> = [];
      const hub = new McpHub({ everything: everythingStdio() }, {});
      const canvas = await loadCanvas(agentCanvas([{ mcp_id: "everything", tools: { echo: { name: "echo", description: "stored meta" } } }]), {
        services: { llm: mock.provider, mcp: hub },
      });
      const events: unknown[] = [];
      for await (const event of canvas.run({ query: "please echo" })) {
        events.push(event);
        if (pids.length === 0) pids = hub.openSessions().map((s) => s.pid);
      }
      await hub.close();
      expect(messages(events as never)).toEqual(["echoed twice"]);
      expect(mock.chatRequests()[0].tools?.map((t) => t.function.name)).toEqual(["echo"]);
      expect(toolMessages(mock)).toEqual(["Echo: one", "Echo: two"]);
      expect(pids).toHaveLength(1);
      expect(pids[0]).toBeTypeOf("number");
      await expect.poll(() => processAlive(pids[0]!), { timeout: 10_000 }).toBe(false);
    },
    TIMEOUT,
  );

  it(
    "a server killed during a call gives the model a tool error, and the run finishes",
    async () => {
      const mock = await startMockLlm({
        rules: [
          { match: "please", on: "last_user", times: 1, tool_calls: [{ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } }] },
          { match: "is gone", on: "tool", reply: "The server went away; I could not finish the operation." },
          { match: ".", on: "any", reply: "unexpected tool result" },
        ],
      });
      const hub = new McpHub({ everything: everythingStdio() }, {});
      const canvas = await loadCanvas(agentCanvas([{ mcp_id: "everything", tools: {} }]), { services: { llm: mock.provider, mcp: hub } });
      const running = canvas.runToEnd({ query: "please run the long operation" });
      // Wait until the model asked for the call, give the call a moment to reach the server, then kill it.
      await expect.poll(() => mock.chatRequests().length, { timeout: 30_000 }).toBe(1);
      await expect.poll(() => hub.openSessions()[0]?.pid, { timeout: 30_000 }).toBeTypeOf("number");
      const pid = hub.openSessions()[0].pid!;
      await new Promise((resolve) => setTimeout(resolve, 500));
      process.kill(pid, "SIGKILL");
      const events = await running;
      await hub.close();

      expect(finished(events).error).toBeUndefined();
      expect(messages(events)).toEqual(["The server went away; I could not finish the operation."]);
      const [toolResult] = toolMessages(mock);
      expect(toolResult).toMatch(/^Tool trigger-long-running-operation failed: MCP server everything is gone: /);
    },
    TIMEOUT,
  );
});

describe("MCP over stdio: server-filesystem", () => {
  it(
    "reads a file of its allowed folder into the answer",
    async () => {
      const scratch = scratchDir("cf-mcp-fs-");
      writeFileSync(join(scratch.dir, "notes.txt"), "The launch code is 7-4-1.\n");
      const path = join(scratch.dir, "notes.txt");
      const mock = await startMockLlm({ rules: callThenAnswer("read_text_file", { path }, "launch code is 7-4-1", "The notes say the launch code is 7-4-1.") });
      const { events } = await runAgent(mock, { files: filesystemStdio(scratch.dir) }, agentCanvas([{ mcp_id: "files", tools: {} }]));

      expect(finished(events).error).toBeUndefined();
      expect(messages(events)).toEqual(["The notes say the launch code is 7-4-1."]);
      expect(toolMessages(mock)).toEqual(["The launch code is 7-4-1.\n"]);
      expect(mock.chatRequests()[0].tools?.map((t) => t.function.name)).toEqual(expect.arrayContaining(["read_text_file", "list_directory", "write_file"]));
    },
    TIMEOUT,
  );

  it(
    "a path outside the allowed folder is the server's error, read by the model",
    async () => {
      const scratch = scratchDir("cf-mcp-fs-");
      const mock = await startMockLlm({ rules: callThenAnswer("read_text_file", { path: "/etc/hostname" }, "reported an error: .*(denied|outside)", "Not allowed.") });
      const { events } = await runAgent(mock, { files: filesystemStdio(scratch.dir) }, agentCanvas([{ mcp_id: "files", tools: {} }]));
      expect(messages(events)).toEqual(["Not allowed."]);
      expect(toolMessages(mock)[0]).toMatch(/^Tool read_text_file failed: MCP server files: read_text_file reported an error: /);
    },
    TIMEOUT,
  );
});

describe("MCP over HTTP", () => {
  it(
    "server-everything over Streamable HTTP on 127.0.0.1",
    async () => {
      const server = await everythingHttp("streamableHttp");
      const mock = await startMockLlm({ rules: callThenAnswer("echo", { message: "over http" }, "Echo: over http", "It said: Echo: over http") });
      // The egress guard refuses loopback unless the operator lists it: this test does.
      const allow = { allow: [new URL(server.base).host] };
      const { events } = await runAgent(mock, { web: { url: `${server.base}/mcp` } }, agentCanvas([{ mcp_id: "web", tools: {} }]), undefined, {}, allow);
      expect(finished(events).error).toBeUndefined();
      expect(messages(events)).toEqual(["It said: Echo: over http"]);
      expect(toolMessages(mock)).toEqual(["Echo: over http"]);
    },
    TIMEOUT,
  );

  it(
    "server-everything over the older SSE transport, chosen by type or found by falling back",
    async () => {
      const server = await everythingHttp("sse");
      for (const config of [{ type: "sse" as const, url: `${server.base}/sse` }, { url: `${server.base}/sse` }]) {
        const hub = new McpHub({ old: config }, {});
        try {
          const session = await hub.session("old");
          expect(session.transportKind).toBe("sse");
          expect(await session.callTool("get-sum", { a: 20, b: 22 })).toBe("The sum of 20 and 22 is 42.");
        } finally {
          await hub.close();
        }
      }
    },
    TIMEOUT,
  );

  it(
    "sends the configured headers (with ${VAR} from the environment) and the Agent's custom_header",
    async () => {
      // A Streamable HTTP server made with the SDK's own server classes, recording request headers.
      const seen: IncomingHttpHeaders[] = [];
      const http = createServer(async (req, res) => {
        seen.push(req.headers);
        const mcp = new McpServer({ name: "headers", version: "1.0.0" });
        mcp.registerTool("whoami", { description: "Says who called", inputSchema: { greeting: z.string() } }, async ({ greeting }) => ({
          content: [{ type: "text", text: `${greeting}, ${String(req.headers["x-tenant"])}` }],
        }));
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on("close", () => void transport.close());
        await mcp.connect(transport);
        await transport.handleRequest(req, res);
      });
      const port = await listenForTest(http);
      const mock = await startMockLlm({ rules: callThenAnswer("whoami", { greeting: "hello" }, "hello, acme", "done") });
      const { events } = await runAgent(
        mock,
        { sdk: { type: "http", url: `http://127.0.0.1:${port}/mcp`, headers: { authorization: "Bearer ${MCP_TOKEN}" } } },
        agentCanvas([{ mcp_id: "sdk", tools: {} }], { custom_header: { "X-Tenant": "acme" } }),
        "please",
        { MCP_TOKEN: "secret-token" },
        { allow: [`127.0.0.1:${port}`] },
      );
      expect(messages(events)).toEqual(["done"]);
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) {
        expect(headers.authorization).toBe("Bearer secret-token");
        expect(headers["x-tenant"]).toBe("acme");
      }
    },
    TIMEOUT,
  );
});

describe("MCP over HTTP and the egress guard", () => {
  it(
    "a server on loopback is refused unless the operator lists it; the model reads why and the server sees no request",
    async () => {
      let requests = 0;
      const http = createServer((_req, res) => {
        requests++;
        res.statusCode = 500;
        res.end();
      });
      const port = await listenForTest(http);
      const mock = await startMockLlm({
        rules: [
          { match: "please", on: "last_user", times: 1, tool_calls: [{ name: "lookup", arguments: {} }] },
          { match: "non-public address", on: "tool", reply: "blocked" },
        ],
      });
      const stored = { lookup: { name: "lookup", description: "Looks up", inputSchema: { type: "object", properties: {} } } };
      const { events } = await runAgent(mock, { local: { type: "http", url: `http://127.0.0.1:${port}/mcp` } }, agentCanvas([{ mcp_id: "local", tools: stored }]));
      expect(messages(events)).toEqual(["blocked"]);
      expect(toolMessages(mock)[0]).toBe(
        `Tool lookup failed: MCP server local (streamable-http, http://127.0.0.1:${port}/mcp) could not be opened: MCP server local host "127.0.0.1" is 127.0.0.1, a non-public address (loopback): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; ${PRIVATE_NETWORK_HINT.replace("{entry}", `127.0.0.1:${port}`)}`,
      );
      expect(requests).toBe(0);
    },
    TIMEOUT,
  );

  it(
    "a listed name that resolves to loopback reaches the server at the address the guard checked",
    async () => {
      const server = await everythingHttp("streamableHttp");
      const port = new URL(server.base).port;
      const asked: string[] = [];
      // mcp.example.test cannot be resolved by the system (RFC 2606): only the pinned address reaches the server.
      const lookup: HostResolver = async (hostname) => {
        asked.push(hostname);
        return [{ address: "127.0.0.1", family: 4 }];
      };
      const servers = { web: { type: "http" as const, url: `http://mcp.example.test:${port}/mcp` } };
      const refusedMock = await startMockLlm({ rules: callThenAnswer("echo", { message: "x" }, "resolves to 127\\.0\\.0\\.1", "refused") });
      const refused = await runAgent(refusedMock, servers, agentCanvas([{ mcp_id: "web", tools: { echo: { name: "echo" } } }]), undefined, {}, { lookup });
      expect(messages(refused.events)).toEqual(["refused"]);
      const mock = await startMockLlm({ rules: callThenAnswer("echo", { message: "pinned" }, "Echo: pinned", "It said: Echo: pinned") });
      const { events } = await runAgent(mock, servers, agentCanvas([{ mcp_id: "web", tools: {} }]), undefined, {}, { lookup, allow: [`mcp.example.test:${port}`] });
      expect(finished(events).error).toBeUndefined();
      expect(messages(events)).toEqual(["It said: Echo: pinned"]);
      expect(new Set(asked)).toEqual(new Set(["mcp.example.test"]));
    },
    TIMEOUT,
  );
});

describe("MCP over SSE and the egress guard", () => {
  it(
    "the SSE stream and its posts pass the guard as well",
    async () => {
      const server = await everythingHttp("sse");
      const hub = new McpHub({ old: { type: "sse", url: `${server.base}/sse` } }, {});
      try {
        await expect(hub.session("old", { egress: createEgressPolicy() })).rejects.toThrow(/^MCP server old \(sse, http:\/\/127\.0\.0\.1:\d+\/\S*\) could not be opened: .*MCP server old host "127\.0\.0\.1" is 127\.0\.0\.1, a non-public address \(loopback\)/);
        const session = await hub.session("old", { egress: createEgressPolicy({ allow: [new URL(server.base).host] }) });
        expect(await session.callTool("get-sum", { a: 1, b: 2 })).toBe("The sum of 1 and 2 is 3.");
      } finally {
        await hub.close();
      }
    },
    TIMEOUT,
  );
});

describe("MCP servers that cannot be used", () => {
  it("an mcp_id that is not configured offers the stored tools, whose calls say why they cannot run", async () => {
    const mock = await startMockLlm({
      rules: [
        { match: "please", on: "last_user", times: 1, tool_calls: [{ name: "lookup", arguments: {} }] },
        { match: "not configured", on: "tool", reply: "no server" },
      ],
    });
    const { events } = await runAgent(mock, { other: everythingStdio() }, agentCanvas([{ mcp_id: "missing-id", tools: { lookup: { name: "lookup", description: "Looks up", inputSchema: { type: "object", properties: { q: { type: "string" } } } } } }]));
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual(["no server"]);
    expect(mock.chatRequests()[0].tools?.[0].function).toEqual({ name: "lookup", description: "Looks up", parameters: { type: "object", properties: { q: { type: "string" } } } });
    expect(toolMessages(mock)[0]).toBe('Tool lookup failed: MCP server missing-id is not configured: add it under "mcpServers" in canvasflow.config.json (configured: other)');
  });

  it(
    "a command that does not start is an error naming the server",
    async () => {
      const hub = new McpHub({ broken: { command: process.execPath, args: ["-e", "console.error('no such server'); process.exit(3)"] } }, {});
      await expect(hub.session("broken")).rejects.toThrow(/^MCP server broken \(stdio\) could not be opened: .*no such server/);
      await hub.close();
    },
    TIMEOUT,
  );

  it("a ${VAR} that is not set names the field and the variable", async () => {
    const hub = new McpHub({ s: { url: "http://127.0.0.1:1/mcp", headers: { authorization: "Bearer ${NOT_SET_TOKEN}" } } }, {});
    await expect(hub.session("s")).rejects.toThrow("mcpServers.s.headers.authorization reads the environment variable NOT_SET_TOKEN, which is not set");
  });
});
