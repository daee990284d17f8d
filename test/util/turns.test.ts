/** KeyedTurns: one section at a time per key, in the order asked, whatever each one does. */
import { describe, expect, it } from "vitest";
import { KeyedTurns } from "../../src/util/turns.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("KeyedTurns", () => {
  it("runs the sections of one key one at a time, in the order they were asked for; other keys do not wait", async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    let inside = 0;
    const section = (key: string, name: string, ms: number) =>
      turns.run(key, async () => {
        inside++;
        expect(inside).toBeLessThanOrEqual(2); // at most one per key, two keys here
        log.push(`${name}>`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`<${name}`);
        inside--;
        return name;
      });
    const results = await Promise.all([section("a", "a1", 30), section("a", "a2", 1), section("a", "a3", 10), section("b", "b1", 5)]);
    expect(results).toEqual(["a1", "a2", "a3", "b1"]);
    const a = log.filter((entry) => entry.includes("a"));
    expect(a).toEqual(["a1>", "<a1", "a2>", "<a2", "a3>", "<a3"]);
    // b ran while a1 was still going.
    expect(log.indexOf("<b1")).toBeLessThan(log.indexOf("<a1"));
  });

  it("a section that fails lets the next one run, and its caller gets the error", async () => {
    const turns = new KeyedTurns();
    const failing = turns.run("k", async () => {
      await tick();
      throw new Error("boom");
    });
    const next = turns.run("k", async () => "after");
    await expect(failing).rejects.toThrow("boom");
    await expect(next).resolves.toBe("after");
  });
});
