/**
 * An ingestion pipeline run's log as RAGFlow's GET /agents/{id}/logs/{message_id} answers it
 * (research/ragflow-pipelines.md §9): one entry per step, `{component_id, trace}`, its trace the
 * progress notes the step kept (`progress`, `message`, `datetime`, `timestamp`, `elapsed_time`:
 * the output `_trace` of its node_finished), then, once the run has ended, an `END` entry whose one
 * note has progress 1 (or -1 when the run failed) and, as message, the JSON of the last step's
 * output as Python's json.dumps writes it (its trace left out: it is the entry before). A run still
 * going has the entries of its steps so far: a step still running, the notes its node_progress
 * events logged (their `timestamp` then epoch seconds). Made from the run's logged events alone.
 */
import type { RunSummary } from "../backends/contracts.js";
import type { CanvasEvent, CanvasEventOf } from "../engine/events.js";
import type { TraceNote } from "../pipelines/components/step.js";
import { pythonJson } from "../dify/render.js";
import { isPlainObject } from "../util/values.js";

export interface PipelineLogEntry {
  component_id: string;
  trace: TraceNote[];
}

/** A step's own output that is not part of what it hands on (and is its entry's trace). */
const TRACE_OUTPUT = "_trace";

function traceOf(value: unknown): TraceNote[] {
  return Array.isArray(value) ? (value.filter(isPlainObject) as unknown as TraceNote[]) : [];
}

/** Local `HH:MM:SS` of an epoch time in seconds, as a step's notes write it. */
function clockOf(epochSeconds: number): string {
  const at = new Date(epochSeconds * 1000);
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

/** Python's json.dumps (ensure_ascii: every character past ASCII as \uXXXX, UTF-16 units, as Python writes them). */
function pythonDumps(value: unknown): string {
  return pythonJson(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function endEntry(output: Record<string, unknown>, error: string | null | undefined, endedAt: number, lastNote: TraceNote | undefined): PipelineLogEntry {
  const shown = Object.fromEntries(Object.entries(output).filter(([key]) => key !== TRACE_OUTPUT));
  if (error && shown._ERROR === undefined) shown._ERROR = error;
  const note: TraceNote = { progress: error ? -1 : 1, message: pythonDumps(shown), datetime: clockOf(endedAt), timestamp: lastNote?.timestamp ?? 0, elapsed_time: 0 };
  return { component_id: "END", trace: [note] };
}

/**
 * The log of one run from its events (oldest first). `notRun`: the run's kept failure when it
 * never got to log its end (it could not start, or its events stopped): it becomes the END entry.
 */
export function pipelineLog(events: readonly CanvasEvent[], notRun?: RunSummary): PipelineLogEntry[] {
  const steps = new Map<string, { entry: PipelineLogEntry; done: boolean }>();
  const step = (id: string) => {
    let found = steps.get(id);
    if (!found) steps.set(id, (found = { entry: { component_id: id, trace: [] }, done: false }));
    return found;
  };
  let finished: CanvasEventOf<"workflow_finished"> | undefined;
  for (const event of events) {
    if (event.event === "workflow_finished") finished = event;
    else if (event.event === "node_progress") {
      const found = step(event.data.component_id);
      if (found.done) continue;
      const before = found.entry.trace.at(-1);
      const at = event.data.created_at;
      found.entry.trace.push({ progress: event.data.progress, message: event.data.message, datetime: clockOf(at), timestamp: at, elapsed_time: before ? Number((at - before.timestamp).toFixed(3)) : 0 });
    } else if (event.event === "node_finished") {
      // The step's own trace, with the times its notes were made.
      const found = step(event.data.component_id);
      found.entry.trace = traceOf(event.data.outputs[TRACE_OUTPUT]);
      found.done = true;
    }
  }
  const entries = [...steps.values()].map((found) => found.entry);
  const lastNote = entries.flatMap((entry) => entry.trace).at(-1);
  if (finished) {
    const data = finished.data;
    entries.push(endEntry(isPlainObject(data.outputs) ? data.outputs : {}, data.error, data.created_at + data.elapsed_time, lastNote));
  } else if (notRun) {
    entries.push(endEntry({}, notRun.error ?? "the run did not end", notRun.finished_at, lastNote));
  }
  return entries;
}
