/**
 * loop-traced: the loop workload (a Loop of 1000 rounds) with tracing on and a no-op exporter
 * (bench/tracing.mjs): beside the loop's own figure, what tracing costs a step.
 */
import { traced } from "../tracing.mjs";
import { canvasflowSide as loopSide, ROUNDS } from "./loop.mjs";

/** Component steps of one run (each round: LoopItem and the body), for the overhead per step. */
export const STEPS = 2 * ROUNDS;
export const plan = { warmup: 20, samples: 15 };

export const canvasflowSide = () => traced(loopSide);
