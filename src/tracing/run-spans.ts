/**
 * The spans of a run, on the OpenTelemetry API alone (issue 29). A run is one span,
 * `canvasflow.run`; each component execution is a child of it, `canvasflow.component <type>`
 * (the components of a batch are siblings; a container's children too, with
 * `canvasflow.container_id` and `canvasflow.round`); what a component does outside (a model
 * call, a tool call, a retrieval, an HTTP request, code) is a child of its component's span,
 * made through `ComponentContext.span`.
 *
 * The run's parent is the W3C trace context the request carries (`RunRequest.traceContext`),
 * else the OpenTelemetry context active when `canvas.run()` was called: a library user whose own
 * SDK is registered gets canvasflow's spans inside their traces with nothing configured. A run
 * that resumes a paused one, or continues one whose process died, links to that run's span.
 *
 * With no SDK registered (the API's no-op) the run span does not record: `startRunSpan` says so
 * once per run, and the run then does no per-step span work at all.
 */
import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type Tracer,
} from "@opentelemetry/api";
import { parseTraceparent, traceCarrierOf } from "./w3c.js";
import type { SpanAttributes, SpanScope } from "../contracts/values.js";

/** The instrumentation scope of canvasflow's spans. */
export const TRACER_NAME = "canvasflow";

/** How a run or a component execution ended, as `canvasflow.status` shows it. */
export type SpanOutcome = "ok" | "error" | "paused" | "cancelled" | "interrupted";

/** An OpenTelemetry context, for callers that must not name the API's types. */
export type TraceParent = Context;

export interface RunSpanStart {
  taskId: string;
  messageId: string;
  /** The context active when the run was asked for. */
  parent: TraceParent | undefined;
  /** A W3C parent given with the request (wins over `parent` when it is valid). */
  traceContext?: { traceparent: string; tracestate?: string } | undefined;
  /** The traceparent of the run this one continues (a resumed pause, a run whose process died): linked. */
  continues?: string | undefined;
}

/** The spans of one run; undefined when no SDK records them (then nothing per step is done). */
export function startRunSpan(start: RunSpanStart): RunSpans | undefined {
  // Asked for every run: an SDK registered (or replaced) after canvasflow was loaded is used.
  const tracer = trace.getTracer(TRACER_NAME);
  let parent = start.parent ?? context.active();
  const given = start.traceContext ? parseTraceparent(start.traceContext.traceparent, start.traceContext.tracestate) : undefined;
  if (given) parent = trace.setSpanContext(parent, given);
  const continued = start.continues !== undefined ? parseTraceparent(start.continues) : undefined;
  const span = tracer.startSpan(
    "canvasflow.run",
    {
      kind: SpanKind.INTERNAL,
      attributes: { "canvasflow.task_id": start.taskId, "canvasflow.session_id": start.taskId, "canvasflow.message_id": start.messageId },
      ...(continued ? { links: [{ context: continued, attributes: { "canvasflow.link": "continues" } }] } : {}),
    },
    parent,
  );
  if (!span.isRecording()) {
    span.end();
    return undefined;
  }
  return new RunSpans(tracer, span, trace.setSpan(parent, span));
}

/** A component as its span names it. */
export interface TracedComponent {
  readonly id: string;
  readonly displayName: string;
  readonly componentName: string;
}

/** The run's span and its components' spans still open. */
export class RunSpans {
  /** Component spans not ended yet, by the component's output key (its id, or `<id>#<frame>`). */
  private readonly open = new Map<string, ComponentSpan>();

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly context: Context,
  ) {}

  /** The run's trace id (workflow_started.data.trace_id). */
  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  /** The run span's context as a W3C traceparent (kept in the run state, for the run that continues this one). */
  get traceparent(): string {
    return formatTraceparent(this.span.spanContext());
  }

  /** A component execution starts: its span, a child of the run's. */
  component(key: string, node: TracedComponent, frame: { containerId: string; round: number } | undefined): ComponentSpan {
    this.open.get(key)?.close("ok");
    const attributes: Attributes = {
      "canvasflow.component_id": node.id,
      "canvasflow.component_name": node.displayName,
      "canvasflow.component_type": node.componentName,
    };
    if (frame) {
      attributes["canvasflow.container_id"] = frame.containerId;
      attributes["canvasflow.round"] = frame.round;
    }
    const span = this.tracer.startSpan(`canvasflow.component ${node.componentName}`, { kind: SpanKind.INTERNAL, attributes }, this.context);
    const made = new ComponentSpan(this.tracer, span, trace.setSpan(this.context, span), node.id, () => {
      if (this.open.get(key) === made) this.open.delete(key);
    });
    this.open.set(key, made);
    return made;
  }

  /** A container's rounds are over: its node_finished goes out now, and its span ends. */
  containerFinished(containerId: string): void {
    let found = this.open.get(containerId);
    if (!found) for (const span of this.open.values()) if (span.componentId === containerId) found = span;
    found?.finish(undefined, undefined);
  }

  /** The run is over (or paused, or handed on): what is still open ends with it, then the run's span. */
  end(outcome: SpanOutcome, error?: string): void {
    for (const span of [...this.open.values()]) span.close(outcome);
    this.open.clear();
    this.span.setAttribute("canvasflow.status", outcome);
    if (outcome === "error") fail(this.span, error ?? "the run failed");
    this.span.end();
  }
}

/** Tokens a component reported, as its span shows them. */
interface ComponentUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly calls?: number;
}

/** One component execution's span. */
export class ComponentSpan {
  /** Child spans under way: a child made inside one (its context active) is nested in it. */
  private readonly children = new Set<Span>();
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly context: Context,
    readonly componentId: string,
    private readonly onEnd: () => void,
  ) {}

  /** Run the component's code with its span active (a user's own instrumentation nests under it). */
  within<T>(fn: () => T): T {
    return context.with(this.context, fn);
  }

  /** ComponentContext.span: `fn` inside a child span. */
  async child<T>(name: string, attributes: SpanAttributes, fn: (span: SpanScope) => Promise<T>): Promise<T> {
    const active = context.active();
    const current = trace.getSpan(active);
    // Nested in a child of this component that is under way (when a context manager carries it), else under the component.
    const parent = current !== undefined && (current === this.span || this.children.has(current)) ? active : this.context;
    const clean = attributesOf(attributes);
    const kind = clean["gen_ai.operation.name"] === "chat" || clean["http.request.method"] !== undefined ? SpanKind.CLIENT : SpanKind.INTERNAL;
    const span = this.tracer.startSpan(name, { kind, attributes: clean }, parent);
    this.children.add(span);
    const scope: SpanScope = {
      setAttributes: (more) => span.setAttributes(attributesOf(more)),
      recordError: (error) => fail(span, errorText(error), error),
    };
    try {
      return await context.with(trace.setSpan(parent, span), () => fn(scope));
    } catch (error) {
      fail(span, errorText(error), error);
      throw error;
    } finally {
      this.children.delete(span);
      span.end();
    }
  }

  /** Its node_finished goes out: the outcome, the error and the tokens it reported. */
  finish(error: string | undefined, usage: ComponentUsage | undefined, options: { cancelled?: boolean; retries?: number } = {}): void {
    if (this.ended) return;
    if (usage && (usage.prompt_tokens > 0 || usage.completion_tokens > 0 || (usage.calls ?? 0) > 0)) {
      this.span.setAttributes({ "gen_ai.usage.input_tokens": usage.prompt_tokens, "gen_ai.usage.output_tokens": usage.completion_tokens });
    }
    if (options.retries) this.span.setAttribute("canvasflow.retries", options.retries);
    if (error === undefined) this.close("ok");
    else if (options.cancelled) this.close("cancelled");
    else {
      fail(this.span, error);
      this.close("error");
    }
  }

  /** End without a node_finished (the run ended first): the run's outcome. */
  close(outcome: SpanOutcome): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttribute("canvasflow.status", outcome);
    this.span.end();
    this.onEnd();
  }
}

function fail(span: Span, message: string, error?: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setAttribute("canvasflow.error", message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : String(error);
}

/** The attributes that have a value (the API's type has no undefined). */
function attributesOf(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value as Attributes[string];
  }
  return out;
}

/** A span context as a W3C traceparent. */
function formatTraceparent(spanContext: SpanContext): string {
  return traceCarrierOf(spanContext)?.traceparent ?? "";
}
