/**
 * The CLI contract: exit codes, ndjson/pretty output, sessions that pause and resume.
 */
import { readFileSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { internalError } from "../../src/cli/main.js";
import { cli, events } from "../helpers/cli.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";

const { dir, write } = scratchDir("canvasflow-cli-");

const askDsl = canvasDsl({
  begin: node("Begin", {}, ["UserFillUp:Ask"]),
  "UserFillUp:Ask": node("UserFillUp", { tips: "Name?", inputs: { name: { name: "Name", type: "line" } } }, ["Message:Hi"]),
  "Message:Hi": node("Message", { content: ["Hello {UserFillUp:Ask@name}"] }),
});

describe("canvasflow run", () => {
  it("prints ndjson events and exits 0 when the run finishes", async () => {
    const r = await cli(["run", "fixtures/hello.json", "--query", "Ada", "--events", "ndjson"]);
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    expect(evs[0].event).toBe("workflow_started");
    expect(evs.at(-1)?.event).toBe("workflow_finished");
    expect(evs.filter((e) => e.event === "message").map((e) => (e.data as { content: string }).content).join("")).toBe("Hello, Ada! This is turn 1.");
  });

  it("defaults to ndjson when stdout is not a terminal, pretty when it is", async () => {
    expect(events((await cli(["run", "fixtures/hello.json", "-q", "x"])).stdout).length).toBeGreaterThan(3);
    const pretty = await cli(["run", "fixtures/hello.json", "-q", "Ada"], true);
    expect(pretty.stdout).toContain("Hello, Ada! This is turn 1.");
    expect(pretty.stdout).toMatch(/✓ Message:Greet "Greeting" \(Message\) [\d.]+ ms/);
    expect(pretty.stdout).toContain("Hi! Tell me your name");
  });

  it("pauses with exit 3, then resumes from the session with --input and exits 0", async () => {
    const file = write("ask.json", askDsl);
    const session = join(dir, "s.json");
    const first = await cli(["run", file, "--session", session, "--query", "hi"]);
    expect(first.code).toBe(3);
    expect(events(first.stdout).map((e) => e.event)).toEqual(["workflow_started", "node_started", "node_finished", "message", "message_end", "user_inputs"]);
    const saved = JSON.parse(readFileSync(session, "utf8"));
    expect(saved.canvasflow).toMatchObject({ status: "paused", pending: { components: ["UserFillUp:Ask"] } });

    const second = await cli(["run", file, "--session", session, "--input", "name=Ada"]);
    expect(second.code).toBe(0);
    const evs = events(second.stdout);
    // Resumed, not restarted: no workflow_started, no Begin, the paused component runs first.
    expect(evs.map((e) => e.event)).not.toContain("workflow_started");
    expect(evs[0]).toMatchObject({ event: "node_started", data: { component_id: "UserFillUp:Ask" } });
    expect(evs.filter((e) => e.event === "message").map((e) => (e.data as { content: string }).content).join("")).toBe("Hello Ada");
    expect(JSON.parse(readFileSync(session, "utf8")).canvasflow.status).toBe("idle");
    // Written through a temp file and a rename: nothing is left behind.
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("takes the next turn from a finished session", async () => {
    const session = join(dir, "turns.json");
    await cli(["run", "fixtures/hello.json", "--session", session, "-q", "one"]);
    const second = await cli(["run", "fixtures/hello.json", "--session", session, "-q", "two"]);
    expect(second.stdout).toContain("This is turn 2.");
    expect(JSON.parse(readFileSync(session, "utf8")).history).toHaveLength(4);
  });

  it("rejects an --input that the waiting form does not have (exit 2)", async () => {
    const file = write("ask2.json", askDsl);
    const session = join(dir, "s2.json");
    expect((await cli(["run", file, "--session", session])).code).toBe(3);
    const r = await cli(["run", file, "--session", session, "--input", "nmae=Ada"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown input "nmae" for the paused UserFillUp:Ask: it asks for: name');
  });

  it("asks for --input when resuming a paused session without it (exit 2)", async () => {
    const file = write("ask3.json", askDsl);
    const session = join(dir, "s3.json");
    await cli(["run", file, "--session", session]);
    const r = await cli(["run", file, "--session", session, "-q", "hello"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the session is waiting for input (name)");
  });

  it("exits 1 when the run fails", async () => {
    const file = write("fail.json", canvasDsl({ begin: node("Begin", {}, ["Iteration:I"]), "Iteration:I": node("Iteration", { items_ref: "sys.query" }), "IterationItem:S": node("IterationItem", {}, [], { parent_id: "Iteration:I" }) }));
    const r = await cli(["run", file, "-q", "not a list"]);
    expect(r.code).toBe(1);
    expect(events(r.stdout).at(-1)).toMatchObject({ event: "workflow_finished", data: { error: expect.stringContaining("must be a list") } });
  });

  it("exits 2 with a readable report for an invalid DSL", async () => {
    const file = write("bad.json", canvasDsl({ begin: node("Begin", {}, ["Nope"]), "Message:M": node("Message", { content: ["{Ghost@x}"] }) }));
    const r = await cli(["run", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('downstream lists "Nope", which is not a component of this canvas');
    expect(r.stderr).toContain('reference {Ghost@x}: no component "Ghost" in this canvas');
  });

  it("exits 2 on usage errors", async () => {
    expect((await cli(["run"])).code).toBe(2);
    expect((await cli(["run", "fixtures/hello.json", "--events", "xml"])).code).toBe(2);
    expect((await cli(["run", "fixtures/hello.json", "--max-steps", "0"])).code).toBe(2);
    expect((await cli(["run", "fixtures/hello.json", "--bogus"])).code).toBe(2);
    expect((await cli(["run", join(dir, "missing.json")])).code).toBe(2);
    expect((await cli(["frobnicate"])).code).toBe(2);
  });

  it("passes --max-steps to the engine", async () => {
    const r = await cli(["run", "fixtures/hello.json", "--max-steps", "1"]);
    expect(r.code).toBe(1);
    expect(events(r.stdout).at(-1)).toMatchObject({ data: { error: expect.stringContaining("exceeded 1 component steps") } });
  });
});

describe("canvasflow validate", () => {
  it("exits 0 when every file is valid", async () => {
    const r = await cli(["validate", "fixtures/hello.json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("fixtures/hello.json: valid (agent canvas)");
  });

  it("exits 1 and names pointer, component and problem otherwise", async () => {
    const file = write("invalid.json", canvasDsl({ begin: node("Begin", {}, []), "Sw:1": node("Nonexistent", {}) }));
    const r = await cli(["validate", "fixtures/hello.json", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}: INVALID (agent canvas; 1 error)`);
    expect(r.stdout).toContain("/components/Sw:1/obj/component_name");
    expect(r.stdout).toContain('Sw:1 (Nonexistent): unknown component_name "Nonexistent"');
    expect(r.stdout).toContain("1 of 2 files valid");
  });

  it("reports unreadable files", async () => {
    writeFileSync(join(dir, "broken.json"), "{ nope");
    const r = await cli(["validate", join(dir, "broken.json")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("not valid JSON");
    expect(existsSync(join(dir, "broken.json"))).toBe(true);
  });

  it("prints JSON reports with --json", async () => {
    const r = await cli(["validate", "--json", "fixtures/hello.json"]);
    expect(JSON.parse(r.stdout)).toEqual([{ file: "fixtures/hello.json", kind: "agent", valid: true, issues: [] }]);
  });
});

describe("errors that reach the command's last resort", () => {
  it("are one line naming an internal error, with the stack trace only under CANVASFLOW_DEBUG", () => {
    const bug = new TypeError("x is not a function");
    const saved = process.env.CANVASFLOW_DEBUG;
    try {
      delete process.env.CANVASFLOW_DEBUG;
      expect(internalError(bug)).toBe("canvasflow: internal error: x is not a function (this is a bug in canvasflow; run with CANVASFLOW_DEBUG=1 to see where it happened)\n");
      process.env.CANVASFLOW_DEBUG = "1";
      expect(internalError(bug)).toContain("    at ");
    } finally {
      if (saved === undefined) delete process.env.CANVASFLOW_DEBUG;
      else process.env.CANVASFLOW_DEBUG = saved;
    }
  });
});
