/** The setup gate (src/server/setup-gate.ts): at most N places at once, given in arrival order. */
import { describe, expect, it } from "vitest";
import { SetupGate } from "../../src/server/setup-gate.js";
import { settled } from "../helpers/settled.js";

describe("SetupGate", () => {
  it("lets `concurrency` in at once; the next waits until one leaves, then enters", async () => {
    const gate = new SetupGate(2);
    const leaveA = await gate.enter();
    await gate.enter();
    const third = gate.enter();
    expect(await settled(third)).toBe(false);
    expect(gate.waiting).toBe(1);
    leaveA();
    expect(await settled(third)).toBe(true);
    expect(gate.waiting).toBe(0);
  });

  it("gives places in arrival order", async () => {
    const gate = new SetupGate(1);
    const leave = await gate.enter();
    const order: string[] = [];
    const waiting = ["b", "c", "d"].map((name) => gate.enter().then((out) => (order.push(name), out)));
    leave();
    for (const entered of waiting) (await entered)();
    expect(order).toEqual(["b", "c", "d"]);
  });

  it("leaving twice gives back one place, not two", async () => {
    const gate = new SetupGate(1);
    const leave = await gate.enter();
    const second = gate.enter();
    leave();
    leave();
    const leaveSecond = await second;
    const third = gate.enter();
    expect(await settled(third)).toBe(false);
    leaveSecond();
    expect(await settled(third)).toBe(true);
  });

  it("0 lets every setup in at once", async () => {
    const gate = new SetupGate(0);
    const all = await Promise.all(Array.from({ length: 1000 }, () => gate.enter()));
    expect(all).toHaveLength(1000);
  });
});
