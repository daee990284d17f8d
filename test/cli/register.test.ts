/**
 * `--register MODULE` on `canvasflow run`, `validate` and `graph` (in this process through
 * main()): a canvas made of a registered component type is unknown without the module, and
 * validates, runs and is drawn with it; a module that cannot be used is a usage error. And how
 * `--events pretty` shows a run paused from inside a registered component (interrupt()).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";

const scratch = scratchDir("canvasflow-register-cli-");
// A component type of its own: the query, shouted.
const shoutModule = scratch.write(
  "shout.mjs",
  `export function register(registry) {
  registry.register({ name: "ShoutRegistered", invoke(ctx) { ctx.setOutput("content", String(ctx.query).toUpperCase() + "!"); } });
}
`,
);
const canvas = scratch.write(
  "shout.json",
  canvasDsl({
    begin: node("Begin", {}, ["ShoutRegistered:S"]),
    "ShoutRegistered:S": node("ShoutRegistered", {}, ["Message:Out"], { upstream: ["begin"] }),
    "Message:Out": node("Message", { content: ["{ShoutRegistered:S@content}"] }, [], { upstream: ["ShoutRegistered:S"] }),
  }),
);

describe("--register MODULE on run, validate and graph", () => {
  it("validate: without the module the component_name is unknown (exit 1); with it the canvas is valid", async () => {
    const without = await cli(["validate", canvas]);
    expect(without.code).toBe(1);
    expect(without.stdout).toContain("INVALID");
    expect(without.stdout).toContain('unknown component_name "ShoutRegistered"');

    const withModule = await cli(["validate", canvas, "--register", shoutModule]);
    expect(withModule.stdout).toBe(`${canvas}: valid (agent canvas)\n`);
    expect(withModule.code).toBe(0);
  });

  it("run: refused without the module (exit 2, nothing ran); runs with it", async () => {
    const without = await cli(["run", canvas, "--query", "hello"]);
    expect(without.code).toBe(2);
    expect(without.stdout).toBe("");
    expect(without.stderr).toContain('unknown component_name "ShoutRegistered"');

    const run = await cli(["run", canvas, "--query", "hello", "--register", shoutModule]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const finished = run.events.at(-1)!;
    expect(finished.event).toBe("workflow_finished");
    expect(run.events.filter((e) => e.event === "message").map((e) => (e.data as { content: string }).content).join("")).toBe("HELLO!");
  });

  it("graph: refused without the module (exit 2); drawn with it", async () => {
    const without = await cli(["graph", canvas]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('unknown component_name "ShoutRegistered"');

    const drawn = await cli(["graph", canvas, "--register", shoutModule]);
    expect(drawn.stderr).toBe("");
    expect(drawn.code).toBe(0);
    expect(drawn.stdout).toMatch(/^flowchart /);
    expect(drawn.stdout).toContain("ShoutRegistered:S");
  });

  it("is repeatable, and a module that cannot be used is a usage error naming it (exit 2)", async () => {
    const second = scratch.write("whisper.mjs", `export default function (registry) { registry.register({ name: "WhisperRegistered", invoke(ctx) { ctx.setOutput("content", String(ctx.query).toLowerCase()); } }); }\n`);
    const both = await cli(["validate", canvas, "--register", shoutModule, "--register", second]);
    expect(both.code).toBe(0);
    const missing = `${scratch.dir}/nowhere.mjs`;
    for (const command of [["run", canvas], ["validate", canvas], ["graph", canvas]]) {
      const run = await cli([...command, "--register", missing]);
      expect(run.code, command[0]).toBe(2);
      expect(run.stderr, command[0]).toContain(`--register ${missing}: there is no file at ${missing}`);
    }
  });
});

describe("a registered component that pauses from inside (interrupt), --events pretty", () => {
  it("shows what the component asks and how to resume it (the modules in the command); the resume value reaches it", async () => {
    const module = scratch.write(
      "approve.mjs",
      `export function register(registry) {
  registry.register({ name: "ApproveRegistered", invoke(ctx) { const answer = ctx.interrupt({ draft: "Hello " + ctx.query }); ctx.setOutput("content", "approved: " + JSON.stringify(answer)); } });
}
`,
    );
    const file = scratch.write(
      "approve.json",
      canvasDsl({
        begin: node("Begin", {}, ["ApproveRegistered:A"]),
        "ApproveRegistered:A": node("ApproveRegistered", {}, ["Message:Out"], { upstream: ["begin"] }),
        "Message:Out": node("Message", { content: ["{ApproveRegistered:A@content}"] }, [], { upstream: ["ApproveRegistered:A"] }),
      }),
    );
    const session = join(scratch.dir, "approve-session.json");
    const paused = await cli(["run", file, "--register", module, "--session", session, "-q", "Ada", "--events", "pretty"]);
    expect(paused.code, paused.stderr).toBe(3);
    expect(paused.stdout.split("\n").slice(-5)).toEqual([
      "⏸ waiting for input",
      '  ApproveRegistered:A asks: {"draft":"Hello Ada"}',
      "  resume: object",
      `  answer with: canvasflow run ${file} --register ${module} --session ${session} --inputs '{"resume": VALUE}'`,
      "",
    ]);
    const resumed = await cli(["run", file, "--register", module, "--session", session, "--inputs", '{"resume": {"ok": true}}', "--events", "pretty"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('approved: {"ok":true}');
  });
});
