/**
 * A clock a test moves by hand, for the stores that measure times to live and expiries by a
 * `now()` they are given: the test advances it instead of sleeping.
 */
export class ManualClock {
  private time = Date.now();

  /** Pass as a store's `now` option. */
  readonly now = (): number => this.time;

  advance(ms: number): void {
    this.time += ms;
  }
}
