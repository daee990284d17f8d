/**
 * `canvasflow migrate`, and the in-memory migration of `run` and `validate`. Ends with the
 * acceptance check of issue 4: every v0.19 template and graph-only fixture migrates, validates
 * and runs under the mock LLM with at least one message.
 */
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_COMPONENTS } from "../../src/tools/index.js";
import { cli, events, type CliRun } from "../helpers/cli.js";
import { corpusFiles, corpusPath } from "../helpers/corpus.js";
import { scratchDir } from "../helpers/scratch.js";

const { dir, copy } = scratchDir("canvasflow-migrate-");
const LEGACY = "ragflow/legacy-v0.19.1";
const customerService = corpusPath(LEGACY, "customer_service.json");
const GRAPH_ONLY = ["dfx_picture_parser", "questions_category", "subaget", "switch"].map((n) => corpusPath("ragflow/head/fixtures", `internal-agent-dsl-testdata/${n}.json`));

const jin10 = {
  components: {
    begin: { obj: { component_name: "Begin", params: { prologue: "Hi" } }, downstream: ["answer:0"], upstream: [] },
    "answer:0": { obj: { component_name: "Answer", params: {} }, downstream: ["jin10:0"], upstream: [] },
    "jin10:0": { obj: { component_name: "Jin10", params: { type: "flash" } }, downstream: ["answer:0"], upstream: [] },
  },
  history: [],
  path: [],
  answer: [],
  reference: [],
};

describe("canvasflow migrate", () => {
  it("reports an OUT it cannot write in one line, no stack trace (exit 1)", async () => {
    const input = copy(customerService, "unwritable-in.json");
    for (const [out, why] of [[join(dir, "no-such-folder", "out.json"), "its folder does not exist"], [dir, "it is a folder"]]) {
      const r = await cli(["migrate", input, "-o", out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`canvasflow: cannot write ${out}: ${why}\n`);
      expect(r.stdout).toBe("");
    }
  });

  it("writes the migrated DSL to -o, prints the report, and leaves IN untouched", async () => {
    const input = copy(customerService, "in.json");
    const before = readFileSync(input, "utf8");
    const out = join(dir, "out.json");
    const r = await cli(["migrate", input, "-o", out]);
    expect(r.code).toBe(0);
    expect(readFileSync(input, "utf8")).toBe(before);
    expect(r.stdout).toMatch(new RegExp(`^${input.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: migrated \\(1 step, \\d+ changes\\) → ${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n`));
    expect(r.stdout).toContain("003-legacy-v019: Convert a RAGFlow v0.19 canvas");
    expect(r.stdout).toContain("answer:0 (Answer): Answer → Message showing");
    const migrated = JSON.parse(readFileSync(out, "utf8"));
    expect(migrated.dsl.components["answer:0"].obj.component_name).toBe("Message");
    expect(migrated.title).toEqual(JSON.parse(before).title);

    const again = await cli(["migrate", out, "--dry-run"]);
    expect(again).toMatchObject({ code: 0, stdout: `${out}: already current (no migration step applies)\n` });
    expect((await cli(["validate", out])).code).toBe(0);
  });

  it("without -o prints the DSL on stdout and the report on stderr; --dry-run writes nothing", async () => {
    const piped = await cli(["migrate", customerService]);
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout).dsl.components.begin.downstream).toEqual(["RewriteQuestion:AllNightsSniff"]);
    expect(piped.stderr).toContain(": migrated (1 step,");

    const dry = await cli(["migrate", customerService, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(": migrated (1 step,");
    expect(() => JSON.parse(dry.stdout)).toThrow();
  });

  it("--report json gives the status, the steps, every note and the unsupported parts", async () => {
    const r = await cli(["migrate", customerService, "--dry-run", "--report", "json"]);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ file: customerService, status: "migrated", applied: [{ id: "003-legacy-v019", description: expect.any(String) }], unsupported: [] });
    expect(report.notes.length).toBeGreaterThan(5);
    expect(report.notes[0]).toEqual({ step: "003-legacy-v019", component: expect.any(String), componentType: expect.any(String), change: expect.any(String), reason: expect.any(String) });
    const current = JSON.parse((await cli(["migrate", "fixtures/hello.json", "--dry-run", "--report", "json"])).stdout);
    expect(current).toMatchObject({ status: "already-current", applied: [], notes: [] });
  });

  it("exits 1 when unsupported components remain, still writing the output", async () => {
    const input = join(dir, "jin10.json");
    writeFileSync(input, JSON.stringify(jin10));
    const out = join(dir, "jin10-out.json");
    const r = await cli(["migrate", input, "-o", out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("1 unsupported component left (the canvas cannot run until it is replaced):");
    expect(r.stdout).toContain("- jin10:0 (Jin10): RAGFlow has no runnable Jin10 component");
    expect(existsSync(out)).toBe(true);
    // Migrating the output again: nothing to do, but it is still not runnable.
    const again = await cli(["migrate", out, "--dry-run"]);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("already current");
    const validation = await cli(["validate", out]);
    expect(validation.code).toBe(1);
    expect(validation.stdout).toContain('"Jin10" could not be migrated');
  });

  it("overwrites IN only when -o names it", async () => {
    const input = copy(customerService, "inplace.json");
    expect((await cli(["migrate", input, "-o", input])).code).toBe(0);
    expect(JSON.parse(readFileSync(input, "utf8")).dsl.components["answer:0"].obj.component_name).toBe("Message");
  });

  it("exits 2 on usage errors and unreadable input", async () => {
    expect((await cli(["migrate"])).code).toBe(2);
    expect((await cli(["migrate", customerService, customerService])).code).toBe(2);
    expect((await cli(["migrate", customerService, "--report", "xml"])).code).toBe(2);
    expect((await cli(["migrate", customerService, "--dry-run", "-o", join(dir, "x.json")])).code).toBe(2);
    const missing = await cli(["migrate", join(dir, "missing.json")]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining("no such file") });
    const list = join(dir, "list.json");
    writeFileSync(list, "[1]");
    expect((await cli(["migrate", list])).stderr).toContain("expected a JSON object");
  });
});

describe("run and validate migrate old DSLs in memory", () => {
  it("validate: a one-line warning with the count of changes, then the report of the migrated canvas", async () => {
    const r = await cli(["validate", customerService, "--json"]);
    expect(r.code).toBe(0);
    const warning = r.stderr.split("\n").filter(Boolean);
    expect(warning).toEqual([expect.stringMatching(/^warning: .*customer_service\.json: migrated in memory \(\d+ changes by 003-legacy-v019\); convert the file with `canvasflow migrate .*customer_service\.json -o NEW\.json`$/)]);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ kind: "agent", valid: true });
  });

  it("validate: graph-only DSLs too", async () => {
    const r = await cli(["validate", GRAPH_ONLY[3]]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("by 002-graph-only-components");
    expect(r.stdout).toContain("valid (agent canvas");
  });

  it("run: the migrated canvas loads and runs until its first model, which has no provider here", async () => {
    const empty = join(dir, "empty.config.json");
    writeFileSync(empty, "{}");
    // No model from the environment either.
    const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
    delete process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_API_KEY;
    let r: CliRun;
    try {
      r = await cli(["run", customerService, "--query", "hello", "--events", "ndjson", "--config", empty]);
    } finally {
      if (saved.base !== undefined) process.env.OPENAI_BASE_URL = saved.base;
      if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
    }
    expect(r.stderr).toContain("migrated in memory");
    expect(r.code).toBe(1);
    const last = events(r.stdout).at(-1);
    expect(last).toMatchObject({ event: "workflow_finished", data: { error: expect.stringContaining("RewriteQuestion:AllNightsSniff") } });
    expect((last?.data as { error: string }).error).toMatch(/llm_id "deepseek-chat@DeepSeek"|needs an LLM provider/);
  });
});

/** Web tools go to a closed loopback port: the runs make no request outside this machine. */
function offlineConfig(): string {
  const file = join(dir, "offline.config.json");
  const tools = Object.fromEntries(TOOL_COMPONENTS.map((def) => [def.name, { baseURL: "http://127.0.0.1:9" }]));
  writeFileSync(file, JSON.stringify({ tools }));
  return file;
}

describe("acceptance (issue 4): migrate, validate, run under --mock-llm", () => {
  const templates = corpusFiles(LEGACY).filter((f) => !f.includes("/")).map((f) => corpusPath(LEGACY, f));
  const config = offlineConfig();

  it("the mock LLM is available to `canvasflow run`", async () => {
    expect((await cli(["--help"])).stdout).toContain("--mock-llm");
  });

  // dfx_picture_parser's CodeExec script pip-installs a package from the internet when it is
  // missing, so it is migrated and validated here but not run (the run is network-bound).
  const runnable = [...templates, ...GRAPH_ONLY.filter((f) => !f.includes("dfx_picture_parser"))];

  it.each([...templates, ...GRAPH_ONLY])("%s migrates and validates, and its migration is already current", async (file) => {
    const out = join(dir, `accept-${file.split("/").at(-1)}`);
    expect((await cli(["migrate", file, "-o", out])).code).toBe(0);
    expect((await cli(["validate", out])).code).toBe(0);
    expect((await cli(["migrate", out, "--dry-run"])).stdout).toContain("already current");
  });

  it.each(runnable)("%s runs under --mock-llm and shows a message", async (file) => {
    const out = join(dir, `run-${file.split("/").at(-1)}`);
    await cli(["migrate", file, "-o", out]);
    const r = await cli(["run", out, "--mock-llm", "--config", config, "--query", "hello", "--events", "ndjson"]);
    expect([0, 3]).toContain(r.code);
    expect(events(r.stdout).filter((e) => e.event === "message").length).toBeGreaterThan(0);
  });
});
