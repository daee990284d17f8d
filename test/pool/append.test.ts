/**
 * VariablePool.append (issue 8, defect 3): appending in a loop is amortised O(1), and whoever
 * was handed a list (a component that read it, a caller of outputsOf or globals) keeps what it saw.
 */
import { describe, expect, it } from "vitest";
import { MissingReferenceError } from "../../src/pool/pool.js";
import { PathWriteError } from "../../src/pool/path.js";
import { caught } from "../helpers/caught.js";
import { poolOf, ref } from "../helpers/pool.js";


describe("VariablePool.append", () => {
  it("grows a list it made in place: no copy per append", () => {
    const pool = poolOf(["loop"]);
    pool.append(ref("loop@items"), 1);
    const list = pool.recordOf("loop")!.items;
    for (let i = 2; i <= 1000; i++) pool.append(ref("loop@items"), i);
    expect(pool.recordOf("loop")!.items).toBe(list);
    expect(list).toHaveLength(1000);
  });

  it("grows a global list in place too", () => {
    const pool = poolOf([], { "env.log": [] });
    pool.append(ref("env.log"), "a");
    const list = pool.globals["env.log"];
    pool.append(ref("env.log"), "b");
    expect(pool.globals["env.log"]).toBe(list);
    expect(list).toEqual(["a", "b"]);
  });

  it("a list handed out by resolve is copied before it grows: the reader keeps what it read", () => {
    const pool = poolOf(["loop"]);
    pool.append(ref("loop@items"), 1);
    const seen = pool.resolve(ref("loop@items")) as unknown[];
    pool.append(ref("loop@items"), 2);
    expect(seen).toEqual([1]);
    expect(pool.resolve(ref("loop@items"))).toEqual([1, 2]);
  });

  it("a list copied to another variable does not change when the first one grows", () => {
    const pool = poolOf(["a", "b"]);
    pool.append(ref("a@list"), "x");
    pool.set(ref("b@list"), pool.resolve(ref("a@list")));
    pool.append(ref("a@list"), "y");
    pool.append(ref("b@list"), "z");
    expect(pool.resolve(ref("a@list"))).toEqual(["x", "y"]);
    expect(pool.resolve(ref("b@list"))).toEqual(["x", "z"]);
  });

  it("outputsOf, output and globalsView hand lists out too", () => {
    const pool = poolOf(["c"], { "env.g": [] });
    pool.append(ref("c@list"), 1);
    pool.append(ref("env.g"), 1);
    const fromRecord = pool.outputsOf("c")!.list as unknown[];
    const fromGlobals = pool.globalsView()["env.g"] as unknown[];
    pool.append(ref("c@list"), 2);
    pool.append(ref("env.g"), 2);
    expect(fromRecord).toEqual([1]);
    expect(fromGlobals).toEqual([1]);
    const fromOutput = pool.output("c", "list") as unknown[];
    pool.append(ref("c@list"), 3);
    expect(fromOutput).toEqual([1, 2]);
  });

  it("a list that came from elsewhere is copied, never changed", () => {
    const mine = ["a"];
    const pool = poolOf(["c"]);
    pool.setOutput("c", "list", mine);
    pool.append(ref("c@list"), "b");
    expect(mine).toEqual(["a"]);
    expect(pool.output("c", "list")).toEqual(["a", "b"]);
  });

  it("undo takes the item back, in place or not", () => {
    const pool = poolOf(["c"], { "env.g": ["a"] });
    const undoCopy = pool.append(ref("env.g"), "b");
    const undoInPlace = pool.append(ref("env.g"), "c");
    undoInPlace();
    expect(pool.globals["env.g"]).toEqual(["a", "b"]);
    undoCopy();
    expect(pool.globals["env.g"]).toEqual(["a"]);
    const undoNew = pool.append(ref("sys.made"), 1);
    expect(pool.globals["sys.made"]).toEqual([1]);
    undoNew();
    expect(Object.hasOwn(pool.globals, "sys.made")).toBe(false);
  });

  it("check sees the current value and may refuse; nothing changes then", () => {
    const pool = poolOf(["c"]);
    pool.append(ref("c@list"), 1);
    const refusal = caught(() =>
      pool.append(ref("c@list"), "x", (current) => {
        expect(current).toEqual([1]);
        throw new Error("wrong type");
      }),
    );
    expect(refusal.message).toBe("wrong type");
    expect(pool.resolve(ref("c@list"))).toEqual([1]);
  });

  it("refuses to append to something that is not a list, naming the reference", () => {
    const pool = poolOf(["c"]);
    pool.setOutput("c", "n", 3);
    const error = caught(() => pool.append(ref("c@n"), 1));
    expect(error).toBeInstanceOf(PathWriteError);
    expect(error.message).toBe("reference {c@n}: cannot append to a number, only to a list");
    expect(caught(() => pool.append(ref("ghost@list"), 1))).toBeInstanceOf(MissingReferenceError);
  });

  it("appends into a list inside an object by path (copying the path, as set does)", () => {
    const pool = poolOf(["c"]);
    const original = { list: [1] };
    pool.setOutput("c", "obj", original);
    pool.append(ref("c@obj.list"), 2);
    expect(pool.output("c", "obj")).toEqual({ list: [1, 2] });
    expect(original).toEqual({ list: [1] });
  });
});
