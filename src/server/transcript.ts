/**
 * What a turn said, gathered from its events as they go out: the reply's text (with `<think>` and
 * `</think>` where the model's thinking started and ended, as RAGFlow's non-stream answer has
 * them), the references, the usage, structured outputs, the trace, and how the run ended. The
 * non-stream answers and the session's message list are made from it.
 */
import type { CanvasEvent, CanvasEventOf, TokenUsage } from "../engine/events.js";

/** An event as the API sends it: canvasflow's envelope plus the session's id. */
export type SessionEvent = CanvasEvent & { session_id: string };

/** One component's entry of `return_trace` (RAGFlow's shape). */
interface TraceItem {
  component_id: string;
  trace: unknown[];
}

interface References {
  chunks: Array<Record<string, unknown>>;
  doc_aggs: Array<Record<string, unknown>>;
}

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";

/** The text a `message` event adds to the reply (think markers become tags). */
export function messageText(data: { content: string; start_to_think?: true; end_to_think?: true }): string {
  if (data.start_to_think) return THINK_OPEN;
  if (data.end_to_think) return THINK_CLOSE;
  return data.content;
}

export class TurnTranscript {
  content = "";
  readonly references: References = { chunks: [], doc_aggs: [] };
  readonly structured: Record<string, unknown> = {};
  readonly trace: TraceItem[] = [];
  /** The run's message id (the first event's). */
  messageId: string | undefined;
  last: SessionEvent | undefined;
  lastMessageEnd: SessionEvent | undefined;
  finished: (CanvasEventOf<"workflow_finished"> & { session_id: string }) | undefined;
  paused: (CanvasEventOf<"user_inputs"> & { session_id: string }) | undefined;

  add(event: SessionEvent): void {
    this.messageId ??= event.message_id;
    this.last = event;
    switch (event.event) {
      case "message":
        this.content += messageText(event.data);
        break;
      case "message_end":
        this.lastMessageEnd = event;
        this.addReferences(event.data.reference);
        break;
      case "node_finished": {
        const outputs = event.data.outputs as Record<string, unknown> | undefined;
        if (outputs && Object.hasOwn(outputs, "structured")) this.structured[event.data.component_id] = outputs.structured;
        this.trace.push({ component_id: event.data.component_id, trace: [event.data] });
        break;
      }
      case "workflow_finished":
        this.finished = event;
        break;
      case "user_inputs":
        this.paused = event;
        break;
      default:
        break;
    }
  }

  /** The run's error (failed or cancelled), if any. */
  get error(): string | undefined {
    return this.finished?.data.error;
  }

  get usage(): TokenUsage {
    return this.finished?.data.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 };
  }

  /** The merged references, or `{}` when there were none (RAGFlow's empty reference). */
  get reference(): References | Record<string, never> {
    return this.references.chunks.length > 0 || this.references.doc_aggs.length > 0 ? this.references : {};
  }

  private addReferences(reference: unknown): void {
    if (reference === null || typeof reference !== "object") return;
    const { chunks, doc_aggs } = reference as { chunks?: unknown; doc_aggs?: unknown };
    mergeBy(this.references.chunks, chunks, "id");
    mergeBy(this.references.doc_aggs, doc_aggs, "doc_id");
  }
}

/** Add the items not already there (by `key`; items without one are always added). */
function mergeBy(into: Array<Record<string, unknown>>, items: unknown, key: string): void {
  if (!Array.isArray(items)) return;
  const seen = new Set(into.map((item) => item[key]).filter((k) => k !== undefined));
  for (const item of items) {
    if (item === null || typeof item !== "object") continue;
    const id = (item as Record<string, unknown>)[key];
    if (id !== undefined && seen.has(id)) continue;
    if (id !== undefined) seen.add(id);
    into.push(item as Record<string, unknown>);
  }
}
