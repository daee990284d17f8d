/** `canvasflow mcp list`: each configured server's tools, or why it could not be opened. */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { cli } from "../helpers/cli.js";
import { closedPort } from "../helpers/http.js";
import { everythingStdio } from "../helpers/mcp.js";
import { scratchDir } from "../helpers/scratch.js";

const TIMEOUT = 60_000;

describe("canvasflow mcp list", () => {
  it(
    "lists a stdio server's tools with their parameters (required ones starred)",
    async () => {
      const scratch = scratchDir("cf-mcp-list-");
      const config = scratch.write("canvasflow.config.json", { mcpServers: { everything: everythingStdio() } });
      const run = await cli(["mcp", "list", "--config", config]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const lines = run.stdout.split("\n");
      expect(lines[0]).toMatch(/^everything \(stdio\): \d+ tools$/);
      expect(lines).toContain("  echo(message*) — Echoes back the input string");
      expect(lines).toContain("  get-sum(a*, b*) — Returns the sum of two numbers");
    },
    TIMEOUT,
  );

  it(
    "--json gives the listings; a server that cannot start is shown with its reason and exit code 1",
    async () => {
      const scratch = scratchDir("cf-mcp-list-");
      const config = scratch.write("canvasflow.config.json", {
        mcpServers: { everything: everythingStdio(), broken: { command: process.execPath, args: ["-e", "process.exit(5)"] } },
      });
      const run = await cli(["mcp", "list", "--config", config, "--json"]);
      expect(run.code).toBe(1);
      const listings = JSON.parse(run.stdout) as Array<{ id: string; transport?: string; tools?: Array<{ name: string; inputSchema: unknown }>; error?: string }>;
      expect(listings.map((l) => l.id)).toEqual(["everything", "broken"]);
      expect(listings[0].transport).toBe("stdio");
      expect(listings[0].tools?.find((t) => t.name === "get-sum")?.inputSchema).toMatchObject({ required: ["a", "b"] });
      expect(listings[1].error).toMatch(/^MCP server broken \(stdio\) could not be opened: /);
    },
    TIMEOUT,
  );

  it(
    "a closed URL is named with the connection error (not only 'fetch failed'), for both transports",
    async () => {
      const port = await closedPort();
      const scratch = scratchDir("cf-mcp-list-");
      const url = `http://127.0.0.1:${port}/mcp`;
      const config = scratch.write("canvasflow.config.json", { mcpServers: { gone: { url }, "gone-sse": { type: "sse", url: `http://127.0.0.1:${port}/sse` } } });
      const run = await cli(["mcp", "list", "--config", config]);
      expect(run.code).toBe(1);
      const lines = run.stdout.trim().split("\n");
      expect(lines[0]).toContain(`gone: unavailable: MCP server gone (streamable-http, ${url}) could not be opened`);
      expect(lines[0]).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
      expect(lines[1]).toContain(`gone-sse: unavailable: MCP server gone-sse (sse, http://127.0.0.1:${port}/sse) could not be opened`);
      expect(lines[1]).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    },
    TIMEOUT,
  );

  it("an invalid mcpServers entry is a config error naming it (exit 2); no servers is said plainly", async () => {
    const scratch = scratchDir("cf-mcp-list-");
    const bad = scratch.write("bad.json", { mcpServers: { both: { command: "node", url: "http://127.0.0.1:1/mcp" }, wrong: { url: "ftp://x" } } });
    const run = await cli(["mcp", "list", "--config", bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("/mcpServers/both");
    const empty = scratch.write("empty.json", {});
    const none = await cli(["mcp", "list", "--config", empty]);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('no MCP servers are configured (add them under "mcpServers")');
    const usage = await cli(["mcp", "show"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown mcp subcommand "show": the only one is list');
  });

  it("an http URL that is not http(s) is named by its pointer", async () => {
    const scratch = scratchDir("cf-mcp-list-");
    const bad = scratch.write("bad.json", { mcpServers: { wrong: { url: "ftp://example.org/mcp" } } });
    const run = await cli(["mcp", "list", "--config", bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("/mcpServers/wrong/url");
    expect(run.stderr).toContain('must be an http:// or https:// URL, got "ftp://example.org/mcp"');
  });
});

describe("canvasflow run with an MCP server in the config", () => {
  it(
    "the Agent calls the stdio server's tool, and the process exits with the server gone",
    async () => {
      const { spawnCli } = await import("../helpers/cli-process.js");
      const scratch = scratchDir("cf-mcp-run-");
      // An extra argument the server ignores marks this test's server process.
      const marker = `cf-mcp-marker-${process.pid}-${Date.now()}`;
      const server = everythingStdio() as { command: string; args: string[] };
      const config = scratch.write("canvasflow.config.json", { mcpServers: { everything: { ...server, args: [...server.args, marker] } } });
      const script = scratch.write("script.json", {
        rules: [
          { match: "add", on: "last_user", times: 1, tool_calls: [{ name: "get-sum", arguments: { a: 40, b: 2 } }] },
          { match: "The sum of 40 and 2 is 42", on: "tool", reply: "It is 42." },
        ],
      });
      const canvas = scratch.write("canvas.json", {
        components: {
          begin: { obj: { component_name: "Begin", params: {} }, downstream: ["Agent:A"], upstream: [] },
          "Agent:A": { obj: { component_name: "Agent", params: { llm_id: "m@F", prompts: [{ role: "user", content: "{sys.query}" }], mcp: [{ mcp_id: "everything", tools: { "get-sum": {} } }] } }, downstream: ["Message:M"], upstream: ["begin"] },
          "Message:M": { obj: { component_name: "Message", params: { content: ["{Agent:A@content}"] } }, downstream: [], upstream: ["Agent:A"] },
        },
        globals: {},
        history: [],
        path: [],
        retrieval: [],
      });
      const run = spawnCli(["run", canvas, "-q", "add forty and two", "--events", "ndjson", "--config", config, "--mock-llm-script", script]);
      const { code } = await run.exited;
      expect(run.stderr()).not.toContain("error");
      expect(code).toBe(0);
      const events = run.stdout().trim().split("\n").map((line) => JSON.parse(line) as { event: string; data: { content?: string } });
      expect(events.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe("It is 42.");
      // The server the run started is gone once the CLI has exited.
      await expect.poll(() => execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).includes(marker), { timeout: 10_000 }).toBe(false);
    },
    // A child CLI that starts a child server: generous on a busy machine.
    4 * TIMEOUT,
  );
});
