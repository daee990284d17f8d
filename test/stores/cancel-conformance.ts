/**
 * The contract every CancelSignals backend keeps, run against each by its own test file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CancelSignalError } from "../../src/backends/errors.js";
import type { CancelSignals } from "../../src/backends/contracts.js";
import type { ManualClock } from "../helpers/manual-clock.js";

export interface CancelHarness {
  /** New signals (closed by the suite). Two from `open()` act as two processes when `shared`. */
  open(): CancelSignals | Promise<CancelSignals>;
  shared: boolean;
  /**
   * The clock the signals from `open()` measure times to live by, when they take one: the suite
   * moves it instead of waiting. Without it (Redis, PostgreSQL: the server keeps time) it waits.
   */
  clock?: ManualClock;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeCancelSignals(name: string, harness: CancelHarness): void {
  describe(`${name}: CancelSignals conformance`, () => {
    const opened: CancelSignals[] = [];
    let counter = 0;
    const freshTask = () => `task-${Date.now().toString(36)}-${++counter}`;
    async function open(): Promise<CancelSignals> {
      const signals = await harness.open();
      opened.push(signals);
      return signals;
    }
    afterEach(async () => {
      for (const signals of opened.splice(0)) await signals.close();
    });

    it("a request sets the flag; clear removes it", async () => {
      const signals = await open();
      const task = freshTask();
      expect(await signals.isRequested(task)).toBe(false);
      await signals.request(task);
      expect(await signals.isRequested(task)).toBe(true);
      await signals.clear(task);
      expect(await signals.isRequested(task)).toBe(false);
    });

    it("a watcher hears a request from another process within 100 ms, once", async () => {
      const watching = await open();
      const asking = harness.shared ? await open() : watching;
      const task = freshTask();
      let heard = 0;
      let heardAt = 0;
      const stop = await watching.watch(task, () => {
        heard++;
        heardAt = performance.now();
      });
      const askedAt = performance.now();
      await asking.request(task);
      await asking.request(task);
      for (let i = 0; i < 50 && heard === 0; i++) await sleep(10);
      expect(heard).toBe(1);
      expect(heardAt - askedAt).toBeLessThan(100);
      await stop();
    });

    it("a watcher started after the request hears it at once; one that stopped hears nothing", async () => {
      const signals = await open();
      const task = freshTask();
      await signals.request(task);
      let heard = false;
      const stop = await signals.watch(task, () => (heard = true));
      expect(heard).toBe(true);
      await stop();
      const other = freshTask();
      let late = false;
      const stopOther = await signals.watch(other, () => (late = true));
      await stopOther();
      await signals.request(other);
      await sleep(150);
      expect(late).toBe(false);
    });

    it("a watch of an unseen task (no flag looked up first) hears a request made after it started, from another process", async () => {
      const watching = await open();
      const asking = harness.shared ? await open() : watching;
      const task = freshTask();
      let heard = 0;
      const stop = await watching.watch(task, () => heard++, { unseen: true });
      expect(heard).toBe(0);
      await asking.request(task);
      for (let i = 0; i < 100 && heard === 0; i++) await sleep(20);
      expect(heard).toBe(1);
      await stop();
    });

    it("a flag lives its time to live", async () => {
      const signals = await open();
      const task = freshTask();
      await signals.request(task, { ttlSeconds: 1 });
      expect(await signals.isRequested(task)).toBe(true);
      if (harness.clock) {
        harness.clock.advance(999);
        expect(await signals.isRequested(task)).toBe(true);
        harness.clock.advance(2);
      } else {
        await sleep(1200);
      }
      expect(await signals.isRequested(task)).toBe(false);
    });

    it("refuses task ids that cannot name a flag", async () => {
      const signals = await open();
      for (const bad of ["", "a/b", "line\nbreak", "x".repeat(257)]) {
        await expect(signals.request(bad)).rejects.toBeInstanceOf(CancelSignalError);
      }
    });
  });
}
