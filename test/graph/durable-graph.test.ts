/**
 * A compiled StateGraph is an ordinary canvas, so it runs as a durable session: a process killed
 * with SIGKILL in the middle of the graph leaves a session the next process continues from its
 * last checkpoint, every node's write applied exactly once.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "cf-graph-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One process: open the session, run (or continue) it, print each event's name and the state at the end. */
function script(directory: string): string {
  const dist = (path: string) => JSON.stringify(resolve("dist/src", path));
  return `
    const { DurableSession } = await import(${dist("index.js")});
    const { FileSnapshotStore } = await import(${dist("backends/files/session-store.js")});
    const { builtinRegistry } = await import(${dist("components/builtins.js")});
    const { graph } = await import(${JSON.stringify(resolve("test/fixtures/graph/slow-chain.mjs"))});
    const registry = builtinRegistry();
    graph.register(registry);
    const store = new FileSnapshotStore({ directory: ${JSON.stringify(directory)} });
    const session = await DurableSession.open({ store, key: "s", dsl: graph.dsl, registry, durability: "sync" });
    process.stdout.write("opened " + session.openedAs + "\\n");
    for await (const event of session.run({ inputs: {} })) {
      process.stdout.write(event.event + (event.data?.component_id ? " " + event.data.component_id : "") + "\\n");
    }
    process.stdout.write("state " + JSON.stringify(session.canvas.globals["env.log"]) + "\\n");
    await session.close();`;
}

function start(directory: string): { child: ReturnType<typeof spawn>; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script(directory)], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  return { child, output: () => out, exited: new Promise((done) => child.on("close", (code) => done(code))) };
}

describe("a StateGraph on a durable session", () => {
  it("continues after SIGKILL mid-graph, each node's write applied once", async () => {
    if (!existsSync(resolve("dist/src/graph/index.js"))) throw new Error('dist/ is missing: run "npm run build" first (npm test does)');
    const directory = join(root, "sessions");
    const first = start(directory);
    // Kill it once several nodes finished.
    for (let i = 0; i < 1000 && (first.output().match(/node_finished n/g) ?? []).length < 8; i++) await new Promise((done) => setTimeout(done, 5));
    first.child.kill("SIGKILL");
    await first.exited;
    const before = first.output();
    expect(before).toContain("opened new");
    expect(before).not.toContain("workflow_finished");
    const finishedBefore = (before.match(/node_finished n\d+/g) ?? []).length;
    expect(finishedBefore).toBeGreaterThanOrEqual(8);

    const second = start(directory);
    expect(await second.exited).toBe(0);
    const after = second.output();
    expect(after).toMatch(/^opened crashed\nworkflow_resumed\n/);
    expect(after).toContain("workflow_finished");
    const log = JSON.parse(/state (.*)\n/.exec(after)![1]) as string[];
    expect(log).toEqual(Array.from({ length: 24 }, (_, i) => `n${i}`));
    // The second process ran only what the first had not finished (at most the one in flight again).
    const ranAgain = (after.match(/node_finished n\d+/g) ?? []).length;
    expect(ranAgain).toBeGreaterThanOrEqual(24 - finishedBefore);
    expect(ranAgain).toBeLessThanOrEqual(24 - finishedBefore + 1);
  }, 30_000);
});
