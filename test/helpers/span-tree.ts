/**
 * An OpenTelemetry SDK for a test: a BasicTracerProvider that keeps finished spans in memory and
 * an AsyncLocalStorage context manager, registered as the globals until `unregister()`; and the
 * span tree as text, to compare whole.
 */
import { context, trace, type Attributes } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface TestTracing {
  readonly exporter: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  /** The finished spans, in the order they ended. */
  spans(): ReadableSpan[];
  unregister(): Promise<void>;
}

/** Register an SDK that records every span (`contextManager: false`: without a context manager). */
export function registerTestTracing(options: { contextManager?: boolean } = {}): TestTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [started, new SimpleSpanProcessor(exporter)] });
  if (options.contextManager !== false) {
    if (!context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())) throw new Error("a context manager is already registered");
  }
  if (!trace.setGlobalTracerProvider(provider)) throw new Error("a tracer provider is already registered");
  return {
    exporter,
    provider,
    spans: () => exporter.getFinishedSpans(),
    unregister: async () => {
      trace.disable();
      context.disable();
      await provider.shutdown();
    },
  };
}

/** Numbers spans as they start (a span's start time is only as fine as the clock's milliseconds). */
class StartOrder implements SpanProcessor {
  private readonly order = new Map<string, number>();

  onStart(span: Span): void {
    this.order.set(span.spanContext().spanId, this.order.size);
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  of(span: ReadableSpan): number {
    return this.order.get(span.spanContext().spanId) ?? Number.MAX_SAFE_INTEGER;
  }
}

const started = new StartOrder();

/**
 * The spans as an indented tree, children under their parent in the order they started (spans
 * of a provider registerTestTracing made): one
 * line per span, its name, then `label(span)` when it gives text. A span whose parent is not
 * among them is a root.
 */
export function spanTree(spans: readonly ReadableSpan[], label: (span: ReadableSpan) => string | undefined = () => undefined): string[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => started.of(a) - started.of(b));
    for (const span of list) {
      const extra = label(span);
      lines.push(`${"  ".repeat(depth)}${span.name}${extra ? ` ${extra}` : ""}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

/** A component span's id, with its round when it ran in a container's round: "[Probe:1 #2]". */
export function componentLabel(span: ReadableSpan): string | undefined {
  const id = span.attributes["canvasflow.component_id"];
  if (id === undefined) return undefined;
  const round = span.attributes["canvasflow.round"];
  return `[${String(id)}${round !== undefined ? ` #${String(round)}` : ""}]`;
}

/** The one span with this name (and these attributes); fails when there is not exactly one. */
export function theSpan(spans: readonly ReadableSpan[], name: string, attributes: Attributes = {}): ReadableSpan {
  const found = spans.filter((s) => s.name === name && Object.entries(attributes).every(([k, v]) => s.attributes[k] === v));
  if (found.length !== 1) throw new Error(`expected one span ${name} ${JSON.stringify(attributes)}, found ${found.length}: ${spans.map((s) => s.name).join(", ")}`);
  return found[0];
}
