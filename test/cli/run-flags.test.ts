/**
 * What `canvasflow run` accepts in its flags: numbers in decimal within a range, and input names
 * that cannot reach an object's prototype. Every refusal is a usage error (exit 2) naming the flag.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseInputs } from "../../src/cli/run-command.js";
import { UsageError } from "../../src/cli/io.js";
import { cli } from "../helpers/cli.js";
import { caught } from "../helpers/caught.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";

const { dir, write } = scratchDir("canvasflow-run-flags-");

describe("numeric flags", () => {
  const cases: Array<[flag: string, range: string, bad: string[]]> = [
    ["--max-steps", "a decimal integer from 1 to 1000000000", ["-1", "0", "0x10", "0o7", "0b1", "1e3", "1.5", "+5", " 5", "5 ", "", "Infinity", "NaN", "1000000001", "ten"]],
    ["--concurrency", "a decimal integer from 1 to 1000", ["-1", "0", "0x10", "1e1", "2.0", "1001", ""]],
    ["--timeout", "a number of seconds from 0.001 to 2147483 (digits, with a decimal part if needed, such as 2.5)", ["-1", "0", "0x10", "1e3", ".5", "5.", " 5", "", "Infinity", "2147484"]],
    ["--event-value-limit", "a decimal integer from 64 to 1000000000", ["-1", "63", "0x100", "1e3", "8k", ""]],
  ];
  for (const [flag, range, bad] of cases) {
    it(`${flag} refuses anything but ${range}, naming the flag and the value (exit 2)`, async () => {
      for (const value of bad) {
        for (const args of [[flag, value], [`${flag}=${value}`]]) {
          const r = await cli(["run", "fixtures/hello.json", "-q", "x", ...args]);
          expect(r.code, args.join(" ")).toBe(2);
          expect(r.stderr, args.join(" ")).toContain(`canvasflow: ${flag} must be ${range}, got ${JSON.stringify(value)}\n`);
          expect(r.stdout, args.join(" ")).toBe("");
        }
      }
    });
  }

  it("accepts decimal values in range: --max-steps 16 is 16 steps, --timeout 2.5 is 2.5 s", async () => {
    const steps = await cli(["run", "fixtures/hello.json", "-q", "Ada", "--max-steps", "016", "--concurrency", "1", "--timeout", "2.5"]);
    expect(steps.code).toBe(0);
    const limited = await cli(["run", "fixtures/hello.json", "-q", "Ada", "--max-steps", "1"]);
    expect(limited.events.at(-1)).toMatchObject({ data: { error: expect.stringContaining("exceeded 1 component steps") } });
  });

  it("--event-value-limit sets how much of each value an event shows", async () => {
    const file = write("long.json", canvasDsl({ begin: node("Begin", {}, ["Message:Long"]), "Message:Long": node("Message", { content: ["x".repeat(500)] }) }));
    const shown = (limit: string[]) => cli(["run", file, "-q", "x", ...limit]).then((r) => r.events.at(-1)!.data as { outputs: { content: unknown } });
    expect((await shown([])).outputs.content).toBe("x".repeat(500));
    expect((await shown(["--event-value-limit", "100"])).outputs.content).toEqual({ $truncated: { type: "string", bytes: 500 }, preview: "x".repeat(33) });
  });

  it("leaves a missing value to the argument parser when the next word is another option", async () => {
    const r = await cli(["run", "fixtures/hello.json", "--max-steps", "--concurrency", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-steps");
  });
});

describe("input names", () => {
  const askDsl = canvasDsl({
    begin: node("Begin", {}, ["UserFillUp:Ask"]),
    "UserFillUp:Ask": node("UserFillUp", { tips: "Name?", inputs: { name: { name: "Name", type: "line" } } }, ["Message:Hi"]),
    "Message:Hi": node("Message", { content: ["Hello {UserFillUp:Ask@name}"] }),
  });

  it("refuses __proto__, constructor and prototype in --input and --inputs, on a new turn and on a resume (exit 2)", async () => {
    const file = write("ask.json", askDsl);
    const session = join(dir, "s.json");
    expect((await cli(["run", file, "--session", session])).code).toBe(3);
    for (const name of ["__proto__", "constructor", "prototype"]) {
      for (const run of [["fixtures/hello.json", "-q", "x"], [file, "--session", session]]) {
        const pair = await cli(["run", ...run, "--input", `${name}=1`]);
        expect(pair.code, `${run[0]} --input ${name}=1`).toBe(2);
        expect(pair.stderr).toContain(`canvasflow: --input: "${name}" cannot be an input name (__proto__, constructor and prototype are reserved)\n`);
        const json = await cli(["run", ...run, "--inputs", `{"${name}": 1}`]);
        expect(json.code, `${run[0]} --inputs {"${name}": 1}`).toBe(2);
        expect(json.stderr).toContain(`canvasflow: --inputs: "${name}" cannot be an input name`);
      }
    }
    // The session still waits for its input.
    const resumed = await cli(["run", file, "--session", session, "--input", "name=Ada"]);
    expect(resumed.code).toBe(0);
  });

  it("builds the inputs as own properties of a plain object, touching no prototype", () => {
    const inputs = parseInputs('{"a": 1, "b": {"c": 2}}', ["b=3", "d=x=y"])!;
    expect(Object.getPrototypeOf(inputs)).toBe(Object.prototype);
    expect(inputs).toEqual({ a: 1, b: "3", d: "x=y" });
    const error = caught(() => parseInputs('{"__proto__": {"polluted": true}}', []));
    expect(error).toBeInstanceOf(UsageError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
