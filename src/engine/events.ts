/**
 * The events a run streams, compatible with RAGFlow's (research/ragflow.md §2.7): every event is
 * `{event, message_id, created_at, task_id, data}`, and clients of RAGFlow's SSE API read them as is.
 */
import type { InputField, Outputs } from "../components/types.js";

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  calls: number;
}

export interface WorkflowStartedData {
  inputs: Record<string, unknown>;
  /** The OpenTelemetry trace id of the run's span, when a tracing SDK records it (a client can link to the trace). */
  trace_id?: string;
}

/** A run whose process died, continued from its last checkpoint by another (or the same) process. */
interface WorkflowResumedData {
  /** The run's inputs, as workflow_started showed them. */
  inputs: Record<string, unknown>;
  /** Components that may have been running when the process died: they run again now. */
  in_flight: string[];
  /** The OpenTelemetry trace id of this run's span, when a tracing SDK records it. */
  trace_id?: string;
}

export interface NodeStartedData {
  inputs: null;
  /** Epoch seconds. */
  created_at: number;
  component_id: string;
  /** The display name from the graph (falls back to the id). */
  component_name: string;
  /** The DSL's component_name. */
  component_type: string;
  thoughts: string;
  /** Inside a container's round: the container, and the round (from 0). */
  container_id?: string;
  round?: number;
}

/**
 * A component's progress while it runs (an ingestion pipeline step's trace note, research
 * ragflow-pipelines.md §9): sent at once, between its node_started and node_finished.
 */
export interface NodeProgressData {
  component_id: string;
  component_name: string;
  component_type: string;
  /** In 0..1 for the component's own work, -1 for an error. */
  progress: number;
  message: string;
  /** Epoch seconds. */
  created_at: number;
  container_id?: string;
  round?: number;
}

/** One attempt of a component that failed and was retried. */
export interface FailedAttempt {
  error: string;
  /** Seconds the attempt took. */
  elapsed_time: number;
  /** Epoch seconds when it ended. */
  finished_at: number;
}

export interface NodeFinishedData {
  inputs: Record<string, unknown>;
  outputs: Outputs;
  component_id: string;
  component_name: string;
  component_type: string;
  error: string | null;
  /** Seconds. */
  elapsed_time: number;
  /** Epoch seconds when the component started (RAGFlow sends a perf_counter value here). */
  created_at: number;
  /** Inside a container's round: the container, and the round (from 0). */
  container_id?: string;
  round?: number;
  /** The tokens of the component's model calls, when it made any. */
  usage?: TokenUsage;
  /** The attempts that failed before the last one, when the component was retried. */
  retries?: FailedAttempt[];
}

export interface MessageData {
  content: string;
  start_to_think?: true;
  end_to_think?: true;
}

export interface MessageEndData {
  status?: unknown;
  attachment?: unknown;
  downloads?: unknown[];
  reference?: unknown;
}

export interface UserInputsData {
  inputs: Record<string, InputField>;
  tips: string;
  /** The interrupts the run waits on (components that paused from inside, with what they showed). */
  interrupts?: Array<{ id: string; component_id: string; value: unknown }>;
}

export interface WorkflowFinishedData {
  inputs: Record<string, unknown>;
  outputs: Outputs;
  /** Seconds. */
  elapsed_time: number;
  /** Epoch seconds when this run started. */
  created_at: number;
  usage: TokenUsage;
  /** Present when the run failed or was cancelled. */
  error?: string;
}

export interface EventDataMap {
  workflow_started: WorkflowStartedData;
  workflow_resumed: WorkflowResumedData;
  node_started: NodeStartedData;
  node_finished: NodeFinishedData;
  node_progress: NodeProgressData;
  message: MessageData;
  message_end: MessageEndData;
  user_inputs: UserInputsData;
  workflow_finished: WorkflowFinishedData;
}

export type EventName = keyof EventDataMap;

export interface CanvasEventOf<E extends EventName> {
  event: E;
  message_id: string;
  /** Epoch seconds (integer), fixed for the whole run. */
  created_at: number;
  task_id: string;
  data: EventDataMap[E];
}

export type CanvasEvent = { [E in EventName]: CanvasEventOf<E> }[EventName];

export const EVENT_NAMES: readonly EventName[] = [
  "workflow_started",
  "workflow_resumed",
  "node_started",
  "node_finished",
  "node_progress",
  "message",
  "message_end",
  "user_inputs",
  "workflow_finished",
];

/** Builds events that share one run's envelope. */
export class EventFactory {
  constructor(
    readonly messageId: string,
    readonly taskId: string,
    readonly createdAt: number,
    /** Sees each event as it is made; a run yields its events in the order it makes them. */
    private readonly onEvent?: (event: CanvasEvent) => void,
  ) {}

  make<E extends EventName>(event: E, data: EventDataMap[E]): CanvasEventOf<E> {
    const made = { event, message_id: this.messageId, created_at: this.createdAt, task_id: this.taskId, data };
    this.onEvent?.(made as CanvasEvent);
    return made;
  }
}

export function emptyUsage(): TokenUsage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 };
}
