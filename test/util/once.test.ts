/** once: an async release that more than one path reaches runs exactly once. */
import { describe, expect, it } from "vitest";
import { once } from "../../src/util/once.js";

describe("once", () => {
  it("runs the action on the first call only; a call while the first is under way does not wait for it", async () => {
    let runs = 0;
    let finish!: () => void;
    const release = once(async () => {
      runs++;
      await new Promise<void>((resolve) => (finish = resolve));
    });
    const first = release();
    let firstDone = false;
    void first.then(() => (firstDone = true));
    await release(); // resolves while the first is still waiting
    expect([runs, firstDone]).toEqual([1, false]);
    finish();
    await first;
    await release();
    expect(runs).toBe(1);
  });

  it("a failing first call rejects with the action's error; later calls do not run it again", async () => {
    let runs = 0;
    const release = once(async () => {
      runs++;
      throw new Error("the session could not be closed");
    });
    await expect(release()).rejects.toThrow("the session could not be closed");
    await expect(release()).resolves.toBeUndefined();
    expect(runs).toBe(1);
  });
});
