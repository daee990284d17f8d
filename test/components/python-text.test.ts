import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { pythonFloat, pythonRepr, pythonStr, pythonStringRepr } from "../../src/components/python-text.js";

describe("pythonStr: Python's str() of a JSON value", () => {
  it.each<[unknown, string]>([
    [true, "True"],
    [false, "False"],
    [null, "None"],
    ["True", "True"],
    [1, "1"],
    [-0, "0"],
    [1.5, "1.5"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [2e-7, "2e-07"],
    [-1.25e-100, "-1.25e-100"],
    [2 ** 53, "9007199254740992.0"],
    [1e16, "1e+16"],
    [1.2345678901234568e17, "1.2345678901234568e+17"],
    [1e300, "1e+300"],
    [[], "[]"],
    [{}, "{}"],
    [[1, "a", true, null, 1.5], "[1, 'a', True, None, 1.5]"],
    [{ a: [1, { b: "x" }] }, "{'a': [1, {'b': 'x'}]}"],
  ])("%j → %s", (value, text) => {
    expect(pythonStr(value)).toBe(text);
  });

  it("writes floats as Python's repr, with nan and the infinities", () => {
    expect([NaN, Infinity, -Infinity, 0, -0, 1, 100, 0.5].map(pythonFloat)).toEqual(["nan", "inf", "-inf", "0.0", "-0.0", "1.0", "100.0", "0.5"]);
  });

  it("quotes and escapes text as Python's repr", () => {
    expect(pythonStringRepr("it's")).toBe(`"it's"`);
    expect(pythonStringRepr(`say "hi"`)).toBe(`'say "hi"'`);
    expect(pythonStringRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(pythonStringRepr("a\\b\tc\nd\re\u0000\u007f")).toBe("'a\\\\b\\tc\\nd\\re\\x00\\x7f'");
    expect(pythonStringRepr("é中😀 \u00a0\u200b\u2028\ud800")).toBe("'é中😀 \\xa0\\u200b\\u2028\\ud800'");
  });

  it("shows values that are not JSON as canvasflow renders them", () => {
    expect(pythonRepr(10n)).toBe("10");
    expect(pythonRepr(undefined)).toBe("None");
  });
});

// ---- against Python itself ----

/**
 * Characters whose Python category does not depend on the Unicode version: all of ASCII and
 * Latin-1, and samples of letters, emoji, format and separator characters, a private-use one and
 * a lone surrogate.
 */
const chars = fc.oneof(
  fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom("é", "中", "😀", "\u200b", "\u2028", "\u3000", "\ue000", "\ud800", "\udfff", "'", '"', "\\"),
);
const text = fc.string({ unit: chars, maxLength: 8 });
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e-5, 1e-4, 1e16, 2 ** 53, 1e21, -0));
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, fc.constant(null), fc.boolean(), number, text, tie("list"), tie("dict")),
  list: fc.array(tie("value"), { maxLength: 4 }),
  dict: fc.dictionary(text, tie("value"), { maxKeys: 4 }),
})).value;

/**
 * Python reads our JSON with the same int/float rule pythonNumber documents: a safe integer is
 * an int, any other number a float. Prints str() of each line as JSON, one per line.
 */
const PYTHON_STR = String.raw`
import json, sys
def number(s):
    n = int(s)
    return n if abs(n) <= 2**53 - 1 else float(s)
for line in sys.stdin:
    value = json.loads(line, parse_int=number)
    print(json.dumps(str(value)))
`;

describe("pythonStr agrees with Python's str()", () => {
  it("on generated JSON values (property, one Python process for all of them)", () => {
    const values = fc.sample(jsonValue, { numRuns: 600, seed: 8 });
    const input = values.map((v) => JSON.stringify(v)).join("\n") + "\n";
    const python = spawnSync("python3", ["-c", PYTHON_STR], { input, encoding: "utf8" });
    expect(python.stderr).toBe("");
    const expected = python.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as string);
    expect(expected).toHaveLength(values.length);
    values.forEach((value, i) => {
      expect(pythonStr(value), JSON.stringify(value)).toBe(expected[i]);
    });
  });
});
