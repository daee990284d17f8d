import { describe, expect, it } from "vitest";
import { closeNames, didYouMean, editDistance } from "../../src/util/close-names.js";

describe("close names", () => {
  it("counts edits", () => {
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
    // Two neighbours swapped are one edit.
    expect(editDistance("emial", "email")).toBe(1);
  });

  it("finds another case first, then names within a third of the length in edits", () => {
    expect(closeNames("codeexec", ["CodeExec", "ExeSQL", "Email"])).toEqual(["CodeExec"]);
    expect(closeNames("CodeExe", ["CodeExec", "CodeExecs", "Begin"])).toEqual(["CodeExec", "CodeExecs"]);
    expect(closeNames("Emial", ["Email", "Message"])).toEqual(["Email"]);
    expect(closeNames("zzz", ["Email", "Message"])).toEqual([]);
  });

  it("words the suggestion", () => {
    expect(didYouMean("Emial", ["Email"])).toBe(' (did you mean "Email"?)');
    expect(didYouMean("ab", ["aa", "bb", "cb"])).toBe(' (did you mean "aa", "bb" or "cb"?)');
    expect(didYouMean("zzz", ["Email"])).toBe("");
  });
});
