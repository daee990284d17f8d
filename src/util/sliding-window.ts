/**
 * At most `max` events within any `windowMs`: the times of the last `max` events taken, in a ring
 * (one number each), so a check costs the same however many came before.
 */
export class SlidingWindowLimit {
  private readonly times: number[] = [];
  /** Where the next time goes once the ring is full: the oldest one. */
  private next = 0;

  /** `max` 0: no limit. `now` is the clock (milliseconds). */
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Take one event now; false (not taken) when `max` were taken within the last `windowMs`. */
  take(): boolean {
    if (this.max === 0) return true;
    const now = this.now();
    if (this.times.length < this.max) {
      this.times.push(now);
      return true;
    }
    if (now - this.times[this.next] < this.windowMs) return false;
    this.times[this.next] = now;
    this.next = (this.next + 1) % this.max;
    return true;
  }
}
