/**
 * A container's round (an iteration item, a loop round) runs in a frame of its own: the body's
 * outputs are kept apart per frame, and reads look in the frame, then in the frames around it.
 */
export interface Frame {
  /** Unique within the run, e.g. `iter.2` or `iter.2/loop.0`. */
  readonly key: string;
  /** This frame's key, then those of the frames around it, innermost first. */
  readonly chain: readonly string[];
  /** The container whose round this is. */
  readonly containerId: string;
  /** The round, from 0. */
  readonly round: number;
}
