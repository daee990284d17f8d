/** The memory store's event log: ids kept as numbers when they can be, as text otherwise, in order. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InProcessEventLog } from "../../src/backends/process/event-log.js";

const text = (id: string, n: number) => ({ id, json: `{"n":${n}}` });

describe("InProcessEventLog", () => {
  it("gives back every id exactly as written, usual or not", () => {
    const ids = ["0-0", "1-1", "1-2", "7-10", "01-3", "2-007", "134217727-67108863", "134217728-1", "3-67108864", "999999999999999-1", "12-345678901"];
    const log = new InProcessEventLog();
    log.append(ids.map((id, n) => text(id, n)));
    expect(ids.map((_, i) => log.idAt(i))).toEqual(ids);
    expect(log.lastId()).toBe("12-345678901");
    expect(log.eventAt(4)).toEqual({ n: 4 });
  });

  it("keeps the most recent events, ids kept as text included", () => {
    const log = new InProcessEventLog();
    log.append([text("1-01", 0), text("1-2", 1), text("1-03", 2), text("1-4", 3)]);
    log.keepLast(3);
    expect([0, 1, 2].map((i) => log.idAt(i))).toEqual(["1-2", "1-03", "1-4"]);
    log.keepLast(1);
    log.append([text("2-05", 4)]);
    expect([log.idAt(0), log.idAt(1)]).toEqual(["1-4", "2-05"]);
    expect(log.length).toBe(2);
  });

  it("reads an event handed over as an object through JSON, a fresh copy each time", () => {
    const log = new InProcessEventLog();
    const event = { event: "node_finished", data: { outputs: { n: 1 }, skipped: undefined } };
    log.append([{ id: "3-1", event, json: "unused" }]);
    const first = log.eventAt(0);
    expect(first).toEqual({ event: "node_finished", data: { outputs: { n: 1 } } });
    (first.data as { outputs: { n: number } }).outputs.n = 2;
    expect(log.eventAt(0)).toEqual({ event: "node_finished", data: { outputs: { n: 1 } } });
  });

  it("property: any run of well-formed ids, appended and trimmed in any pattern, reads back in order", () => {
    const id = fc.tuple(fc.nat({ max: 2 ** 30 }), fc.nat({ max: 2 ** 30 }), fc.boolean()).map(([run, n, padded]) => `${padded ? "0" : ""}${run}-${n}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(id, { maxLength: 6 }), fc.nat({ max: 8 })), { maxLength: 10 }), (steps) => {
        const log = new InProcessEventLog();
        let kept: string[] = [];
        for (const [ids, keep] of steps) {
          log.append(ids.map((x, n) => text(x, n)));
          kept.push(...ids);
          log.keepLast(keep);
          kept = kept.slice(Math.max(0, kept.length - keep));
          expect(Array.from({ length: log.length }, (_, i) => log.idAt(i))).toEqual(kept);
          expect(log.lastId()).toBe(kept.at(-1));
        }
      }),
      { seed: 12_02, numRuns: 200 },
    );
  });
});
