/** `canvasflow mcp list`: each configured server's tools, or why it could not be opened. */
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
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
