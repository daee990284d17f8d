/**
 * How many turns set up at once in this process: from the request's checks to the run's first
 * event (the agent read, a new session's record and base, the lease, the cancel watch). A setup is
 * a chain of store round trips; hundreds at once (a burst of new streams) fill each pass of the
 * event loop with their callbacks, and the tokens of the runs already streaming wait behind them.
 * Setups past the limit wait their turn here, in arrival order, before any of that work; runs
 * under way are never held. Not a cap on runs (run-slots.ts has those): nothing is refused.
 */
import PQueue from "p-queue";

export class SetupGate {
  private readonly queue: PQueue;

  /** `concurrency`: setups at once; 0 or Infinity lets every setup through at once. */
  constructor(concurrency: number) {
    this.queue = new PQueue({ concurrency: concurrency > 0 ? concurrency : Infinity });
  }

  /** Wait for a place; the function returned gives it back (calling it again does nothing). */
  async enter(): Promise<() => void> {
    let leave!: () => void;
    const left = new Promise<void>((resolve) => (leave = resolve));
    await new Promise<void>((entered) => {
      void this.queue.add(() => {
        entered();
        return left;
      });
    });
    // Resolving twice does nothing: giving the place back again is harmless.
    return leave;
  }

  /** Setups waiting for a place. */
  get waiting(): number {
    return this.queue.size;
  }
}
