/**
 * The installed command, as a user runs it: `npx canvasflow …` in the project folder, using the
 * build that `npm test` (and `npm ci`, through `prepare`) makes.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

function npx(...args: string[]) {
  return spawnSync("npx", ["--no-install", "canvasflow", ...args], { encoding: "utf8", timeout: 80_000 });
}

describe("npx canvasflow", () => {
  it("is executable and prints its version", () => {
    const result = npx("--version");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    // npm's own start waits for its cache while the packed-install test installs beside it.
  }, 90_000);

  it("runs a fixture to workflow_finished", () => {
    const result = npx("run", "fixtures/hello.json", "--query", "Ada", "--events", "ndjson");
    expect(result.status).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { event: string; data: { content?: string } });
    expect(events.at(-1)?.event).toBe("workflow_finished");
    expect(events.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe("Hello, Ada! This is turn 1.");
  }, 90_000);
});
