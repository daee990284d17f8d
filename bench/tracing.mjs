/**
 * Tracing on, for the *-traced workloads: an OpenTelemetry SDK registered in the bench process as
 * `canvasflow run --otlp` registers one (a BasicTracerProvider with a BatchSpanProcessor, the
 * AsyncLocalStorage context manager), but with an exporter that drops every batch at once: what
 * is measured is making and ending the spans, not sending them.
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";

/** Register the SDK; `spansOf(run)` counts the spans one run makes (0: tracing did not reach it). */
export function registerNoopTracing() {
  let exported = 0;
  const exporter = {
    export(spans, done) {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => undefined,
    forceFlush: async () => undefined,
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return {
    async spansOf(run) {
      await provider.forceFlush();
      const before = exported;
      await run();
      await provider.forceFlush();
      return exported - before;
    },
  };
}

/** A workload's canvasflow side with tracing on; its extra figure is the spans a run makes. */
export async function traced(side) {
  const tracing = registerNoopTracing();
  const subject = await side();
  return { ...subject, extra: async () => ({ spans_per_run: await tracing.spansOf(subject.run) }) };
}
