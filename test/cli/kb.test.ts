/**
 * `canvasflow kb index` and `kb search`, run through main() with the mock answering every
 * embedding request (--mock-llm-script pins "automobile" and "car" to one concept).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort } from "../helpers/http.js";
import { cli } from "../helpers/cli.js";

let root: string;
let kbDir: string;
let config: string;
let script: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "canvasflow-kb-cli-"));
  kbDir = path.join(root, "kb");
  await import("node:fs/promises").then((fs) => fs.mkdir(kbDir));
  await writeFile(path.join(kbDir, "cars.md"), "# Cars\n\nA car needs its oil changed every 15 000 km.");
  await writeFile(path.join(kbDir, "bikes.md"), "# Bikes\n\nA bicycle chain wants grease every month.");
  await writeFile(path.join(kbDir, "notes.txt"), "Boats are cleaned before the winter.\n\nSails are dried in the sun.");
  await writeFile(path.join(kbDir, "broken.json"), "{ nope");
  config = path.join(root, "canvasflow.config.json");
  // The provider is never reached: --mock-llm answers every embedding model.
  await writeFile(config, JSON.stringify({ providers: { local: { baseURL: "http://127.0.0.1:9/v1" } }, embedding: { provider: "local", model: "minilm", dimensions: 384 } }));
  script = path.join(root, "script.json");
  await writeFile(script, JSON.stringify({ embeddings: [{ match: "\\b(automobiles?|cars?)\\b", concept: "vehicle" }] }));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("canvasflow kb index", () => {
  it("builds the index, then reads only what changed, reporting files, chunks, tokens and time", async () => {
    const first = await cli(["kb", "index", kbDir, "--config", config, "--mock-llm-script", script]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`indexed ${kbDir} → ${path.join(kbDir, ".canvasflow-index")}`);
    expect(first.stdout).toMatch(/ {2}files: {2}3 \(3 read, 0 from the cache\), 1 skipped\n/);
    expect(first.stdout).toContain("  chunks: 4 (4 embedded)\n");
    expect(first.stdout).toMatch(/ {2}tokens embedded: [1-9][0-9]*\n/);
    expect(first.stdout).toMatch(/ {2}embedding: embedding model "minilm" at http:\/\/127\.0\.0\.1:[0-9]+\/v1\n/);
    expect(first.stdout).toMatch(/ {2}time: {3}[0-9.]+ m?s\n/);
    expect(first.stdout).toMatch(/skipped broken\.json: it is not valid JSON: /);

    const second = await cli(["kb", "index", kbDir, "--config", config, "--mock-llm-script", script]);
    expect(second.stdout).toContain("(0 read, 3 from the cache)");
    expect(second.stdout).toContain("  chunks: 4 (0 embedded)\n  tokens embedded: 0\n");

    await writeFile(path.join(kbDir, "bikes.md"), "# Bikes\n\nTyres are pumped weekly.");
    await utimes(path.join(kbDir, "bikes.md"), new Date(), new Date(Date.now() + 5000));
    const third = await cli(["kb", "index", kbDir, "--config", config, "--mock-llm-script", script]);
    expect(third.stdout).toContain("(1 read, 2 from the cache)");
    expect(third.stdout).toContain("  chunks: 4 (1 embedded)\n");
  });

  it("lists the entries it leaves out and why: a symbolic link, a named pipe", async () => {
    const dir = path.join(root, "kb-odd");
    await mkdir(dir);
    await writeFile(path.join(dir, "real.md"), "# Real\n\nA real file.");
    await symlink(path.join(kbDir, "cars.md"), path.join(dir, "link.md"));
    execFileSync("mkfifo", [path.join(dir, "pipe.md")]);
    const run = await cli(["kb", "index", dir, "--config", config, "--mock-llm-script", script]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ {2}files: {2}1 \(1 read, 0 from the cache\), 2 skipped\n/);
    expect(run.stdout).toContain("skipped link.md: a symbolic link (not followed: a knowledge base indexes only what is inside its folder)\n");
    expect(run.stdout).toContain("skipped pipe.md: a named pipe (FIFO), not a file\n");
  });

  it("draws a progress bar on a terminal", async () => {
    const run = await cli(["kb", "index", kbDir, "--config", config, "--mock-llm-script", script], true);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\rreading {3}\[#{30}\] 100% 4\/4/);
  });

  it("fails with exit 1 naming the endpoint when the embedding model cannot be reached", async () => {
    const port = await closedPort();
    const down = path.join(root, "down.json");
    await writeFile(down, JSON.stringify({ providers: { local: { baseURL: `http://127.0.0.1:${port}/v1` } }, embedding: { provider: "local", model: "minilm" }, knowledgeBases: { kb: { type: "local", dir: "kb", indexDir: "down-index" } } }));
    const run = await cli(["kb", "index", kbDir, "--config", down]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`canvasflow: embedding model "minilm" at http://127.0.0.1:${port}/v1 could not be reached: ECONNREFUSED`);
  });

  it("refuses bad usage with exit 2", async () => {
    expect((await cli(["kb"])).stderr).toContain("kb expects a subcommand: index or search");
    expect((await cli(["kb", "reindex", kbDir])).code).toBe(2);
    expect((await cli(["kb", "index"])).stderr).toContain("kb index expects one DIR, got 0 arguments");
    expect((await cli(["kb", "index", path.join(root, "nope")])).stderr).toContain(`kb index: ${path.join(root, "nope")} is not a folder`);
    const bad = await cli(["kb", "search", kbDir, "q", "--threshold", "2"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--threshold must be a number from 0 to 1, got "2"');
  });
});

describe("canvasflow kb search", () => {
  it("shows the scored chunks best first, and marks where the threshold cuts", async () => {
    const run = await cli(["kb", "search", kbDir, "automobile oil", "--config", config, "--mock-llm-script", script]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^ 1\. 0\.[0-9]{4} {2}\(term 0\.[0-9]{4}, vector [01]\.[0-9]{4}\) {2}cars\.md › Cars$/);
    expect(lines[1]).toBe("    # Cars A car needs its oil changed every 15 000 km.");
    expect(run.stdout).toContain("── below similarity_threshold 0.2 ──");

    const json = await cli(["kb", "search", kbDir, "automobile", "--config", config, "--mock-llm-script", script, "--json", "--keywords-weight", "1"]);
    // Keywords only: "automobile" is in no file.
    expect(JSON.parse(json.stdout)).toEqual([]);
  });
});
