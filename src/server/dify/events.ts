/**
 * canvasflow's run events as Dify's service API streams them (research/dify-import.md §4.1): the
 * same run, renamed and reshaped. Ids: `task_id` is the conversation's (canvasflow's session id,
 * what the stop endpoints take), `workflow_run_id` and a chat's `message_id` are the run's message
 * id. A chat's `message_end` goes out after `workflow_finished`, as Dify sends it.
 */
import { COMPONENT_OF_TYPE } from "../../dify/catalog.js";
import type { CanvasEventOf, TokenUsage } from "../../engine/events.js";
import type { SessionEvent } from "../transcript.js";

const TYPE_OF_COMPONENT: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(COMPONENT_OF_TYPE).map(([type, component]) => [component, type]));

export type DifyMode = "workflow" | "advanced-chat";

/** What Dify shows of a run's token usage (prices are not known here: 0). */
export function difyUsage(usage: TokenUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    total_price: "0",
    currency: "USD",
    latency: 0,
  };
}

/** The run's status as Dify names it. */
export function runStatus(finished: CanvasEventOf<"workflow_finished">["data"]): string {
  const status = (finished as unknown as { status?: unknown }).status;
  if (typeof status === "string") return status;
  if (finished.error === undefined) return "succeeded";
  return finished.error === "cancelled" ? "stopped" : "failed";
}

/** workflow_finished's data as Dify shows it (the blocking answer's `data` too). */
export function finishedData(event: CanvasEventOf<"workflow_finished">, steps: number, appId: string): Record<string, unknown> {
  const data = event.data;
  return {
    id: event.message_id,
    workflow_id: appId,
    status: runStatus(data),
    outputs: data.outputs,
    error: data.error ?? null,
    elapsed_time: data.elapsed_time,
    total_tokens: data.usage.total_tokens,
    total_steps: steps,
    exceptions_count: Number((data as unknown as { exceptions_count?: unknown }).exceptions_count ?? 0),
    created_at: data.created_at,
    finished_at: Math.floor(Date.now() / 1000),
    files: [],
  };
}

/** Turns one run's events into Dify's, in order. */
export class DifyEventMapper {
  private readonly indexOf = new Map<string, number>();
  private steps = 0;
  private heldEnd: Record<string, unknown> | undefined;

  constructor(
    private readonly mode: DifyMode,
    private readonly appId: string,
  ) {}

  /** Steps finished so far (workflow_finished's total_steps). */
  get totalSteps(): number {
    return this.steps;
  }

  /** The Dify events of one canvasflow event (none, one, or two). */
  map(event: SessionEvent): Record<string, unknown>[] {
    const chat = this.mode === "advanced-chat";
    const ids: Record<string, unknown> = chat
      ? { task_id: event.task_id, conversation_id: event.session_id, message_id: event.message_id, created_at: event.created_at }
      : { task_id: event.task_id, workflow_run_id: event.message_id };
    switch (event.event) {
      case "workflow_started":
        return [{ event: "workflow_started", ...ids, data: { id: event.message_id, workflow_id: this.appId, inputs: event.data.inputs, created_at: event.created_at } }];
      case "node_started": {
        const d = event.data;
        const index = this.indexOf.size + 1;
        if (d.component_type === COMPONENT_OF_TYPE.loop) this.kinds.set(d.component_id, "loop_id");
        this.indexOf.set(`${d.component_id}#${d.container_id ?? ""}#${d.round ?? ""}`, index);
        return [{ event: "node_started", ...ids, data: { ...this.nodeFields(event.message_id, d), index, predecessor_node_id: null, inputs: null, created_at: d.created_at, extras: {} } }];
      }
      case "node_finished": {
        const d = event.data;
        this.steps++;
        const index = this.indexOf.get(`${d.component_id}#${d.container_id ?? ""}#${d.round ?? ""}`) ?? this.indexOf.size + 1;
        const status = (d as unknown as { status?: unknown }).status ?? (d.error === null ? "succeeded" : "failed");
        return [
          {
            event: "node_finished",
            ...ids,
            data: {
              ...this.nodeFields(event.message_id, d),
              index,
              predecessor_node_id: null,
              inputs: d.inputs,
              process_data: null,
              outputs: d.outputs,
              status,
              error: d.error,
              elapsed_time: d.elapsed_time,
              execution_metadata: { total_tokens: d.usage?.total_tokens ?? 0, total_price: "0", currency: "USD" },
              created_at: d.created_at,
              finished_at: Math.floor(Date.now() / 1000),
              files: [],
            },
          },
        ];
      }
      case "message": {
        const text = event.data.content;
        if (chat) return [{ event: "message", ...ids, id: event.message_id, answer: text, from_variable_selector: null }];
        return [{ event: "text_chunk", ...ids, data: { text, from_variable_selector: null } }];
      }
      case "message_end":
        // Dify ends a chat's message after the workflow's end.
        if (chat) this.heldEnd = { event: "message_end", ...ids, id: event.message_id, metadata: { usage: difyUsage({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 }), retriever_resources: [] }, files: [] };
        return [];
      case "workflow_finished": {
        const out: Record<string, unknown>[] = [{ event: "workflow_finished", ...ids, data: finishedData(event, this.steps, this.appId) }];
        if (chat && event.data.error !== undefined && event.data.error !== "cancelled") {
          out.push({ event: "error", ...ids, status: 500, code: "internal_server_error", message: event.data.error });
        } else if (chat) {
          const end = this.heldEnd ?? { event: "message_end", ...ids, id: event.message_id, files: [] };
          end.metadata = { usage: difyUsage(event.data.usage), retriever_resources: [] };
          out.push(end);
        }
        this.heldEnd = undefined;
        return out;
      }
      case "user_inputs":
        // A Dify app never pauses for a form; a canvas that does cannot be served as one.
        return [{ event: "error", ...ids, status: 400, code: "invalid_param", message: "the run paused for input, which Dify's API has no way to answer" }];
      default:
        return [];
    }
  }

  private nodeFields(runId: string, d: { component_id: string; component_name: string; component_type: string; container_id?: string; round?: number }): Record<string, unknown> {
    const fields: Record<string, unknown> = {
      id: `${runId}:${d.component_id}${d.container_id !== undefined ? `:${d.container_id}.${d.round}` : ""}`,
      node_id: d.component_id,
      node_type: TYPE_OF_COMPONENT[d.component_type] ?? d.component_type,
      title: d.component_name,
    };
    if (d.container_id !== undefined) {
      // Which kind of container: Dify names the field after it.
      fields[this.containerKind(d.container_id)] = d.container_id;
    }
    return fields;
  }

  private readonly kinds = new Map<string, string>();

  /** Remember containers' kinds from their own events (iteration_id or loop_id). */
  private containerKind(id: string): string {
    return this.kinds.get(id) ?? "iteration_id";
  }
}
