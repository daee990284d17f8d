/**
 * chain-traced: the chain workload (1000 trivial steps in a line) with tracing on and a no-op
 * exporter (bench/tracing.mjs): beside the chain's own figure, what tracing costs a step.
 */
import { traced } from "../tracing.mjs";
import { canvasflowSide as chainSide, N } from "./chain.mjs";

/** Component steps of one run, for the overhead per step. */
export const STEPS = N;
export const plan = { warmup: 20, samples: 15 };

export const canvasflowSide = () => traced(chainSide);
