/**
 * canvasflow's run events as Dify's service API streams them (research/dify-import.md §4.1): the
 * same run, renamed and reshaped. Ids: `task_id`, `workflow_run_id` and a chat's `message_id` are
 * all the run's id (run-ids.ts), which the stop endpoints take. A chat's `message_end` goes out
 * after `workflow_finished`, as Dify sends it.
 *
 * Containers: an iteration's or loop's own start and finish become `iteration_started` /
 * `iteration_completed` (`loop_*`), the first step of each round is preceded by
 * `iteration_next` (`loop_next`), and the steps inside carry `iteration_id` / `loop_id` and the
 * round's index in `execution_metadata`. A step that was retried is preceded by one `node_retry`
 * per failed attempt (sent when the step ends: the engine reports its attempts then).
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

/** Which Dify container a component type is, if any. */
const CONTAINER_KIND: Readonly<Record<string, "iteration" | "loop">> = {
  [COMPONENT_OF_TYPE.iteration]: "iteration",
  [COMPONENT_OF_TYPE.loop]: "loop",
};

interface OpenContainer {
  kind: "iteration" | "loop";
  title: string;
  /** Rounds begun (their `*_next` sent). */
  rounds: Set<number>;
  /** Tokens of the steps inside, nested containers included. */
  tokens: number;
}

type NodeData = CanvasEventOf<"node_started">["data"] | CanvasEventOf<"node_finished">["data"];

/** Turns one run's events into Dify's, in order. */
export class DifyEventMapper {
  private readonly indexOf = new Map<string, number>();
  private readonly containers = new Map<string, OpenContainer>();
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

  /** The Dify events of one canvasflow event (none, one, or more). */
  map(event: SessionEvent): Record<string, unknown>[] {
    const chat = this.mode === "advanced-chat";
    const ids: Record<string, unknown> = chat
      ? { task_id: event.message_id, conversation_id: event.session_id, message_id: event.message_id, created_at: event.created_at }
      : { task_id: event.message_id, workflow_run_id: event.message_id };
    switch (event.event) {
      case "workflow_started":
        return [{ event: "workflow_started", ...ids, data: { id: event.message_id, workflow_id: this.appId, inputs: event.data.inputs, created_at: event.created_at } }];
      case "node_started":
        return this.nodeStarted(event.message_id, event.data, ids);
      case "node_finished":
        return this.nodeFinished(event.message_id, event.data, ids);
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

  private nodeStarted(runId: string, d: CanvasEventOf<"node_started">["data"], ids: Record<string, unknown>): Record<string, unknown>[] {
    const out = this.roundBegun(runId, d, ids);
    const index = this.indexOf.size + 1;
    this.indexOf.set(executionKey(d), index);
    const kind = CONTAINER_KIND[d.component_type];
    if (kind) {
      this.containers.set(d.component_id, { kind, title: d.component_name, rounds: new Set(), tokens: 0 });
      out.push({ event: `${kind}_started`, ...ids, data: { ...this.nodeFields(runId, d), created_at: Math.floor(d.created_at), extras: {}, metadata: {}, inputs: {} } });
      return out;
    }
    out.push({ event: "node_started", ...ids, data: { ...this.nodeFields(runId, d), ...this.containerFields(d), index, predecessor_node_id: null, inputs: null, created_at: Math.floor(d.created_at), extras: {} } });
    return out;
  }

  /** The first step of a container's round: Dify's `iteration_next` / `loop_next` comes first. */
  private roundBegun(runId: string, d: NodeData, ids: Record<string, unknown>): Record<string, unknown>[] {
    if (d.container_id === undefined || d.round === undefined) return [];
    const container = this.containers.get(d.container_id);
    if (!container || container.rounds.has(d.round)) return [];
    container.rounds.add(d.round);
    const node = { id: `${runId}:${d.container_id}`, node_id: d.container_id, node_type: container.kind, title: container.title };
    const data: Record<string, unknown> = { ...node, index: d.round, created_at: Math.floor(Date.now() / 1000), extras: {} };
    if (container.kind === "loop") data.pre_loop_output = null;
    return [{ event: `${container.kind}_next`, ...ids, data }];
  }

  private nodeFinished(runId: string, d: CanvasEventOf<"node_finished">["data"], ids: Record<string, unknown>): Record<string, unknown>[] {
    this.steps++;
    const out = this.roundBegun(runId, d, ids);
    const index = this.indexOf.get(executionKey(d)) ?? this.indexOf.size + 1;
    const status = (d as unknown as { status?: unknown }).status ?? (d.error === null ? "succeeded" : "failed");
    const finishedAt = Math.floor(Date.now() / 1000);
    const tokens = d.usage?.total_tokens ?? 0;
    const container = this.containers.get(d.component_id);
    if (CONTAINER_KIND[d.component_type] && container) {
      this.containers.delete(d.component_id);
      const total = container.tokens + tokens;
      this.addTokens(d.container_id, total);
      out.push({
        event: `${container.kind}_completed`,
        ...ids,
        data: {
          ...this.nodeFields(runId, d),
          outputs: d.outputs,
          created_at: Math.floor(d.created_at),
          extras: {},
          inputs: d.inputs,
          status,
          error: d.error,
          elapsed_time: d.elapsed_time,
          total_tokens: total,
          execution_metadata: total > 0 ? tokenMetadata(total) : {},
          finished_at: finishedAt,
          steps: container.rounds.size,
        },
      });
      return out;
    }
    this.addTokens(d.container_id, tokens);
    const fields = { ...this.nodeFields(runId, d), ...this.containerFields(d), index, predecessor_node_id: null, inputs: d.inputs, process_data: null };
    const metadata = { ...(d.usage ? tokenMetadata(tokens) : {}), ...this.roundMetadata(d) };
    (d.retries ?? []).forEach((attempt, i) => {
      out.push({
        event: "node_retry",
        ...ids,
        data: {
          ...fields,
          outputs: null,
          status: "retry",
          error: attempt.error,
          elapsed_time: attempt.elapsed_time,
          execution_metadata: this.roundMetadata(d),
          created_at: Math.floor(d.created_at),
          finished_at: Math.floor(attempt.finished_at),
          files: [],
          retry_index: i + 1,
        },
      });
    });
    out.push({
      event: "node_finished",
      ...ids,
      data: { ...fields, outputs: d.outputs, status, error: d.error, elapsed_time: d.elapsed_time, execution_metadata: metadata, created_at: Math.floor(d.created_at), finished_at: finishedAt, files: [] },
    });
    return out;
  }

  private addTokens(containerId: string | undefined, tokens: number): void {
    if (containerId === undefined || tokens === 0) return;
    const container = this.containers.get(containerId);
    if (container) container.tokens += tokens;
  }

  private nodeFields(runId: string, d: NodeData): Record<string, unknown> {
    return {
      id: `${runId}:${d.component_id}${d.container_id !== undefined ? `:${d.container_id}.${d.round}` : ""}`,
      node_id: d.component_id,
      node_type: TYPE_OF_COMPONENT[d.component_type] ?? d.component_type,
      title: d.component_name,
    };
  }

  /** Dify names the container a step runs in: `iteration_id` or `loop_id` (the other null). */
  private containerFields(d: NodeData): { iteration_id: string | null; loop_id: string | null } {
    const kind = d.container_id === undefined ? undefined : this.containers.get(d.container_id)?.kind;
    return { iteration_id: kind === "iteration" ? d.container_id! : null, loop_id: kind === "loop" ? d.container_id! : null };
  }

  /** A step inside a round: its container and the round's index, as Dify's execution_metadata has them. */
  private roundMetadata(d: NodeData): Record<string, unknown> {
    const kind = d.container_id === undefined ? undefined : this.containers.get(d.container_id)?.kind;
    if (!kind) return {};
    return { [`${kind}_id`]: d.container_id, [`${kind}_index`]: d.round };
  }
}

/** One execution of a node: a container's round makes each of its steps a new one. */
function executionKey(d: NodeData): string {
  return `${d.component_id}#${d.container_id ?? ""}#${d.round ?? ""}`;
}

function tokenMetadata(totalTokens: number): Record<string, unknown> {
  return { total_tokens: totalTokens, total_price: "0", currency: "USD" };
}
