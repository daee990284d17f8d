/**
 * Bounded event payloads (issue 8, defect 2): events copy what they show, a value over the limit
 * becomes a marker with a preview and its original size, and an Iteration's events stay the
 * same size per item however long its list is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventRecord, eventValue } from "../../src/engine/event-values.js";
import { loadCanvas } from "../../src/api.js";
import { TextStream } from "../../src/components/text-stream.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { canvasWithEnv, finished, node, nodeFinished } from "../helpers/dsl.js";

const ndjsonBytes = (events: readonly CanvasEvent[]) => events.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)) + 1, 0);

describe("eventValue", () => {
  it("copies values that fit: the event never shares an object with the state", () => {
    const value = { list: [1, 2, { deep: "x" }], flag: true, none: null };
    const shown = eventValue(value, 1024) as typeof value;
    expect(shown).toEqual(value);
    expect(shown).not.toBe(value);
    expect(shown.list).not.toBe(value.list);
    expect(shown.list[2]).not.toBe(value.list[2]);
  });

  it("replaces a long string by a marker with its size in bytes and a preview", () => {
    const text = "é".repeat(10_000);
    expect(eventValue(text, 300)).toEqual({ $truncated: { type: "string", bytes: 20_000 }, preview: "é".repeat(100) });
    expect(eventValue("short", 300)).toBe("short");
  });

  it("replaces a long list by a marker with its length and the items that fit", () => {
    const list = Array.from({ length: 100_000 }, (_, i) => i);
    const shown = eventValue(list, 100) as { $truncated: unknown; preview: number[] };
    expect(shown.$truncated).toEqual({ type: "array", length: 100_000 });
    expect(shown.preview).toEqual(list.slice(0, shown.preview.length));
    expect(JSON.stringify(shown.preview).length).toBeLessThanOrEqual(100);
    expect(shown.preview.length).toBeGreaterThan(10);
  });

  it("replaces a large object by a marker with its key count and the entries that fit", () => {
    const record = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, "v".repeat(20)]));
    const shown = eventValue(record, 200) as { $truncated: unknown; preview: Record<string, string> };
    expect(shown.$truncated).toEqual({ type: "object", keys: 500 });
    expect(Object.keys(shown.preview)).toEqual(["k0", "k1", "k2", "k3", "k4", "k5", "k6"]);
    expect(JSON.stringify(shown.preview).length).toBeLessThanOrEqual(200);
  });

  it("shows a value nested deeper than 64 levels truncated instead of walking it", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const shown = eventValue(deep, 1_000_000) as { $truncated: unknown };
    expect(shown.$truncated).toEqual({ type: "object", keys: 1 });
  });

  it("shows a stream as its text, and keeps __proto__ keys as plain data", async () => {
    const stream = TextStream.of("streamed");
    await stream.readAll();
    expect(eventValue(stream, 100)).toBe("streamed");
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
    const shown = eventRecord({ v: withProto }, 100).v as Record<string, unknown>;
    expect(Object.getPrototypeOf(shown)).toBe(Object.prototype);
    expect(Object.hasOwn(shown, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("property: a shown value is bounded by the limit, whatever its size, and a small one is shown whole", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 64, max: 4096 }), (value, limit) => {
        const shown = eventValue(value, limit);
        const bytes = Buffer.byteLength(JSON.stringify(shown) ?? "");
        // Strings are estimated by their length: escapes and multibyte characters may add up to 6× more.
        expect(bytes).toBeLessThanOrEqual(6 * limit + 120);
        if ((JSON.stringify(value) ?? "").length * 6 <= limit) expect(shown).toEqual(value);
      }),
      { seed: 8_2026, numRuns: 300 },
    );
  });
});

describe("an Iteration's events", () => {
  const iteration = (count: number) =>
    canvasWithEnv(
      {
        begin: node("Begin", {}, ["Iteration:1"]),
        "Iteration:1": node("Iteration", { items_ref: "env.items", outputs: { doubled: { ref: "StringTransform:1@result", type: "Array<string>" } } }),
        "IterationItem:1": node("IterationItem", {}, ["StringTransform:1"], { parent_id: "Iteration:1" }),
        "StringTransform:1": node("StringTransform", { method: "merge", script: "{item}{item}" }, [], { parent_id: "Iteration:1" }),
      },
      { items: Array.from({ length: count }, (_, i) => `item-${i}`) },
    );

  async function run(count: number): Promise<CanvasEvent[]> {
    const canvas = await loadCanvas(iteration(count), { maxSteps: 3 * count + 20, eventValueLimit: 1024 });
    return canvas.runToEnd({ query: "go" });
  }

  it("each round shows its item and index, not the list", async () => {
    const events = await run(3);
    expect(finished(events).error).toBeUndefined();
    const rounds = events.filter((e) => e.event === "node_finished" && e.data.component_id === "IterationItem:1").map((e) => e.event === "node_finished" && e.data.inputs);
    expect(rounds).toEqual([{ item: "item-0", index: 0 }, { item: "item-1", index: 1 }, { item: "item-2", index: 2 }, {}]);
  });

  it("the NDJSON grows linearly with the item count", async () => {
    const small = await run(500);
    const large = await run(4000);
    const perItemSmall = ndjsonBytes(small) / 500;
    const perItemLarge = ndjsonBytes(large) / 4000;
    expect(perItemLarge / perItemSmall).toBeLessThan(1.1);
    // The collected list is in full in the state, truncated in the Iteration's event.
    const shown = nodeFinished(large, "Iteration:1").outputs.doubled as { $truncated: unknown };
    expect(shown.$truncated).toEqual({ type: "array", length: 4000 });
  });
});
