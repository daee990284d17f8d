/**
 * What every pipeline step shares (research/ragflow-pipelines.md §2, §9): it reads the whole
 * output of the step before it, re-exports it with its own outputs added (RAGFlow's outputs
 * accumulate down the chain), and keeps a trace of progress notes, each with its time: each goes
 * out at once as a node_progress event, and the whole trace reaches the step's node_finished
 * event as the output `_trace`.
 */
import type { ComponentContext } from "../../contracts/component.js";
import type { Params } from "../../contracts/values.js";
import type { ProgressNote } from "../payload.js";

/** One note of a step's trace, as RAGFlow logs it. */
export interface TraceNote {
  progress: number;
  message: string;
  /** Local `HH:MM:SS`. */
  datetime: string;
  /** Seconds on a monotonic clock. */
  timestamp: number;
  /** Seconds since the step's previous note (0 for its first). */
  elapsed_time: number;
}

/** Outputs that belong to one step and are not passed on. */
const OWN_OUTPUTS = new Set(["_trace", "_elapsed_time", "_warnings"]);

function clock(): string {
  const now = new Date();
  return [now.getHours(), now.getMinutes(), now.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

/** A step's trace: progress notes (blank messages are progress-only ticks and not kept, as in RAGFlow) and warnings. */
export class StepTrace {
  readonly notes: TraceNote[] = [];
  readonly warnings: string[] = [];
  private readonly started = performance.now();
  private last: number | undefined;

  /** `report` hears each note as it is made (the run's node_progress events). */
  constructor(private readonly report?: (progress: number, message: string) => void) {}

  note(progress: number, message: string): void {
    if (message.trim() === "") return;
    const now = performance.now() / 1000;
    this.notes.push({ progress, message, datetime: clock(), timestamp: Number(now.toFixed(3)), elapsed_time: this.last === undefined ? 0 : Number((now - this.last).toFixed(3)) });
    this.last = now;
    this.report?.(progress, message);
  }

  /** A ProgressSink for parsers and chunkers. */
  readonly sink = (note: ProgressNote): void => this.note(note.progress, note.message);

  warn(message: string): void {
    this.warnings.push(message);
  }

  get elapsedSeconds(): number {
    return Number(((performance.now() - this.started) / 1000).toFixed(3));
  }
}

/** The outputs of the step before this one in the chain (none for the entry). */
export function upstreamOutputs(ctx: ComponentContext<Params>): Readonly<Record<string, unknown>> {
  const previous = ctx.canvas.component(ctx.id)?.upstream?.[0];
  return (previous !== undefined ? ctx.canvas.outputsOf(previous) : undefined) ?? {};
}

/**
 * Run a step: the upstream outputs re-exported, then `work` (which sets the step's own outputs),
 * then "Done"; the trace and timing set either way. A failure is noted with -1 and thrown, which
 * ends the document's run as RAGFlow's `_ERROR` does.
 */
export async function runStep(ctx: ComponentContext<Params>, work: (upstream: Readonly<Record<string, unknown>>, trace: StepTrace) => Promise<void>): Promise<void> {
  const upstream = upstreamOutputs(ctx);
  for (const [key, value] of Object.entries(upstream)) if (!OWN_OUTPUTS.has(key)) ctx.setOutput(key, value);
  const trace = new StepTrace((progress, message) => ctx.progress?.(progress, message));
  const finish = () => {
    ctx.setOutput("_trace", trace.notes);
    if (trace.warnings.length > 0) ctx.setOutput("_warnings", trace.warnings);
    ctx.setOutput("_elapsed_time", trace.elapsedSeconds);
  };
  try {
    await work(upstream, trace);
  } catch (error) {
    trace.note(-1, (error as Error).message ?? String(error));
    finish();
    throw error;
  }
  trace.note(1, "Done");
  finish();
}
