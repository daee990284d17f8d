/**
 * What a run's events say, arranged for its trace: each component run as a timed step (start,
 * end, inputs, outputs, error), the steps that overlapped (a parallel batch), the messages in
 * order, the pause and the run's end. Pure: events in, plain data out.
 */
import type { CanvasEvent, TokenUsage } from "../engine/events.js";

type StepStatus = "ok" | "error" | "paused" | "unfinished";

export interface TraceStep {
  readonly index: number;
  readonly componentId: string;
  readonly name: string;
  readonly type: string;
  /** Seconds since the run's first event. */
  readonly start: number;
  end: number;
  elapsed: number | undefined;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: string | null;
  status: StepStatus;
  /** 1 for a component's first run in this trace, 2 for its second (a loop round, an item)… */
  readonly round: number;
  /** The step's tokens: its node_finished `usage` (its own model calls), else what its outputs report. */
  tokens: Partial<TokenUsage> | undefined;
  /** How many times it was invoked: more than 1 when retries ran it again. */
  attempts: number;
  /**
   * Indexes of the steps that ran at the same time: started while this one was running, or
   * running when it started (by event order, which timestamps in milliseconds cannot give).
   * Containers are left out: they span their children by nature.
   */
  alongside: number[];
  /** How many steps ran alongside it in all (`alongside` keeps the first MAX_ALONGSIDE). */
  alongsideCount: number;
}

/** Steps listed as running alongside one step: a fan-out of thousands stays linear in size. */
export const MAX_ALONGSIDE = 20;

function addAlongside(step: TraceStep, other: number): void {
  step.alongsideCount++;
  if (step.alongside.length < MAX_ALONGSIDE) step.alongside.push(other);
}

interface TraceMessage {
  readonly text: string;
  /** The component that was streaming it, when one was. */
  readonly componentId: string | undefined;
}

export interface TraceModel {
  readonly steps: TraceStep[];
  /** Components in the order they first started, with their steps. */
  readonly rows: { componentId: string; name: string; type: string; steps: number[] }[];
  readonly messages: TraceMessage[];
  /** Seconds from the first start to the last end. */
  readonly duration: number;
  readonly pause: { inputs: Record<string, unknown>; tips: string; components: string[] } | undefined;
  readonly end: { error: string | undefined; usage: TokenUsage | undefined; elapsed: number | undefined; outputs: unknown } | undefined;
  readonly taskId: string | undefined;
  readonly inputs: Record<string, unknown> | undefined;
}

/** Token counts in a component's outputs (`usage`/`_usage`, or `total_tokens` at the top). */
function tokensOf(outputs: Record<string, unknown>): Partial<TokenUsage> | undefined {
  for (const candidate of [outputs.usage, outputs._usage, outputs]) {
    if (typeof candidate === "object" && candidate !== null && typeof (candidate as { total_tokens?: unknown }).total_tokens === "number") {
      const u = candidate as Partial<TokenUsage>;
      return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens };
    }
  }
  return undefined;
}

export function traceModel(events: readonly CanvasEvent[], options: { containers?: ReadonlySet<string>; pausedAt?: readonly string[] } = {}): TraceModel {
  const steps: TraceStep[] = [];
  const rows = new Map<string, { componentId: string; name: string; type: string; steps: number[] }>();
  const open = new Map<string, number[]>();
  const messages: TraceMessage[] = [];
  let t0: number | undefined;
  let last = 0;
  let streaming: string | undefined;
  let buffer = "";
  let pause: TraceModel["pause"];
  let end: TraceModel["end"];
  let taskId: string | undefined;
  let inputs: Record<string, unknown> | undefined;
  const containers = options.containers ?? new Set<string>();
  /** Steps started and not finished, containers aside. */
  const running = new Set<number>();

  const rel = (t: number) => {
    t0 ??= t;
    return Math.max(0, t - t0);
  };
  const flush = () => {
    if (buffer !== "") messages.push({ text: buffer, componentId: streaming });
    buffer = "";
  };
  const openStep = (id: string, name: string, type: string, start: number): TraceStep => {
    const row = rows.get(id) ?? { componentId: id, name, type, steps: [] };
    rows.set(id, row);
    const step: TraceStep = {
      index: steps.length, componentId: id, name, type, start, end: start, elapsed: undefined,
      inputs: {}, outputs: {}, error: null, status: "unfinished", round: row.steps.length + 1, tokens: undefined, attempts: 1, alongside: [], alongsideCount: 0,
    };
    steps.push(step);
    row.steps.push(step.index);
    const list = open.get(id) ?? [];
    list.push(step.index);
    open.set(id, list);
    return step;
  };

  for (const event of events) {
    taskId ??= event.task_id;
    switch (event.event) {
      case "workflow_started":
      case "workflow_resumed":
        inputs = event.data.inputs;
        break;
      case "node_started": {
        const d = event.data;
        const step = openStep(d.component_id, d.component_name, d.component_type, rel(d.created_at));
        last = Math.max(last, step.start);
        if (!containers.has(step.componentId)) {
          for (const other of running) {
            addAlongside(step, other);
            addAlongside(steps[other], step.index);
          }
          running.add(step.index);
        }
        if (d.component_type === "Message" || streaming === undefined) streaming = d.component_id;
        break;
      }
      case "node_finished": {
        const d = event.data;
        const pending = open.get(d.component_id);
        // A finish with no start seen (a trace cut mid-run) still gets its step.
        const index = pending && pending.length > 0 ? pending.shift()! : openStep(d.component_id, d.component_name, d.component_type, rel(d.created_at)).index;
        const step = steps[index];
        running.delete(index);
        step.elapsed = d.elapsed_time;
        step.end = Math.max(step.start, rel(d.created_at) + d.elapsed_time);
        step.inputs = d.inputs ?? {};
        step.outputs = (d.outputs ?? {}) as Record<string, unknown>;
        step.error = d.error;
        step.status = d.error ? "error" : "ok";
        step.tokens = d.usage ?? tokensOf(step.outputs);
        step.attempts = (d.retries?.length ?? 0) + 1;
        last = Math.max(last, step.end);
        break;
      }
      case "message":
        if (event.data.content) buffer += event.data.content;
        break;
      case "message_end":
        flush();
        streaming = undefined;
        break;
      case "user_inputs":
        flush();
        pause = { inputs: event.data.inputs as Record<string, unknown>, tips: event.data.tips, components: [...(options.pausedAt ?? [])] };
        break;
      case "workflow_finished":
        flush();
        end = { error: event.data.error, usage: event.data.usage, elapsed: event.data.elapsed_time, outputs: event.data.outputs };
        break;
    }
  }
  flush();
  for (const step of steps) {
    if (step.status === "unfinished") {
      step.end = Math.max(step.end, last);
      if (pause) step.status = "paused";
    }
  }
  return { steps, rows: [...rows.values()], messages, duration: last, pause, end, taskId, inputs };
}
