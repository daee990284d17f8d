/**
 * Turning OpenTelemetry tracing on in a canvasflow process (`canvasflow run|serve|worker --otlp`,
 * the config's `tracing` section, the OTEL_* variables): a tracer provider with a batch span
 * processor and an OTLP/HTTP exporter (protobuf by default, JSON on request), the resource's
 * `service.name`, the AsyncLocalStorage context manager and the W3C trace-context propagator,
 * all registered as the API's globals, where canvasflow's spans (and any other library's) go.
 *
 * The SDK and the exporters are optional packages, loaded here when tracing starts; this module
 * itself is imported only then. In a process whose embedding application already registered an
 * SDK (a library user's), nothing is started: canvasflow's spans go to that SDK.
 *
 * Export headers (authorization) are secrets: no message this module makes shows them.
 */
import { context, diag, DiagLogLevel, propagation, ProxyTracerProvider, trace, type DiagLogger } from "@opentelemetry/api";
import type * as SdkTraceBase from "@opentelemetry/sdk-trace-base";
import type * as Resources from "@opentelemetry/resources";
import type * as ContextAsyncHooks from "@opentelemetry/context-async-hooks";
import type * as ExporterProto from "@opentelemetry/exporter-trace-otlp-proto";
import type * as ExporterHttp from "@opentelemetry/exporter-trace-otlp-http";
import { importPackage } from "../util/optional-package.js";
import { masked, otlpSettings, TracingSettingsError, type OtlpProtocol, type OtlpSettings } from "./settings.js";
import { W3CTraceContextPropagator } from "./w3c.js";

export const TRACING_FEATURE = "Tracing (OpenTelemetry export)";

/** How long shutdown waits for the last spans to be exported, by default. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface StartTracingOptions extends Partial<OtlpSettings> {
  /** The share of new traces recorded, 0 to 1 (a trace whose parent was sampled follows its parent). Default 1. */
  sampleRatio?: number;
  /** Where the OTEL_* variables are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Told why an export failed (once a minute for the same reason); no header is ever in it. Default: not told. */
  onError?: (message: string) => void;
  /** Milliseconds between two exports of the batch processor (default 5000, or OTEL_BSP_SCHEDULE_DELAY). */
  scheduledDelayMs?: number;
  /** Milliseconds one export may take (default 10000). */
  exportTimeoutMs?: number;
  /** Milliseconds `shutdown()` waits for the last spans to go out (default 10000). */
  shutdownTimeoutMs?: number;
}

export interface Tracing {
  /**
   * Whether canvasflow started an SDK. false: the process already had one registered (the
   * embedding application's), which canvasflow's spans go to; nothing was changed.
   */
  readonly started: boolean;
  /** Where spans are sent (user, password and query masked). */
  readonly endpoint?: string;
  readonly protocol?: OtlpProtocol;
  /** Export the spans ended so far. */
  forceFlush(): Promise<void>;
  /**
   * Export the spans left and unregister what was registered; resolves when that is done or
   * after `shutdownTimeoutMs`. Called when the process ends its work (a run's end, a server's stop).
   */
  shutdown(): Promise<void>;
}

/** Whether a tracer provider is registered with the API already (by this process's application, or an earlier start). */
export function sdkRegistered(): boolean {
  const provider = trace.getTracerProvider();
  // A provider registered through another copy of the API is that copy's proxy.
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== new ProxyTracerProvider().getDelegate();
}

const NOT_STARTED: Tracing = { started: false, forceFlush: async () => undefined, shutdown: async () => undefined };

/** Start exporting spans over OTLP/HTTP (see the top of this file). */
export async function startTracing(options: StartTracingOptions = {}): Promise<Tracing> {
  if (sdkRegistered()) return NOT_STARTED;
  const settings = otlpSettings(options, options.env ?? process.env);
  if (options.sampleRatio !== undefined && !(options.sampleRatio >= 0 && options.sampleRatio <= 1)) throw new TracingSettingsError(`sampleRatio must be a number from 0 to 1, got ${options.sampleRatio}`);
  const [sdk, resources, hooks, exporters] = await Promise.all([
    importPackage<typeof SdkTraceBase>("@opentelemetry/sdk-trace-base", TRACING_FEATURE),
    importPackage<typeof Resources>("@opentelemetry/resources", TRACING_FEATURE),
    importPackage<typeof ContextAsyncHooks>("@opentelemetry/context-async-hooks", TRACING_FEATURE),
    settings.protocol === "http/json"
      ? importPackage<typeof ExporterHttp>("@opentelemetry/exporter-trace-otlp-http", TRACING_FEATURE)
      : importPackage<typeof ExporterProto>("@opentelemetry/exporter-trace-otlp-proto", TRACING_FEATURE),
  ]);
  // Another start may have registered one while the packages loaded.
  if (sdkRegistered()) return NOT_STARTED;
  const exportTimeoutMs = options.exportTimeoutMs ?? 10_000;
  const exporter = new exporters.OTLPTraceExporter({ url: settings.endpoint, headers: { ...settings.headers }, timeoutMillis: exportTimeoutMs });
  const processor = new sdk.BatchSpanProcessor(exporter, {
    exportTimeoutMillis: exportTimeoutMs,
    ...(options.scheduledDelayMs !== undefined ? { scheduledDelayMillis: options.scheduledDelayMs } : {}),
  });
  const provider = new sdk.BasicTracerProvider({
    resource: resources.defaultResource().merge(resources.resourceFromAttributes({ "service.name": settings.serviceName })),
    spanProcessors: [processor],
    ...(options.sampleRatio !== undefined ? { sampler: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(options.sampleRatio) }) } : {}),
  });
  const report = options.onError ? exportErrorReporter(options.onError, Object.values(settings.headers)) : undefined;
  if (report) {
    const logger: DiagLogger = { error: report, warn: quiet, info: quiet, debug: quiet, verbose: quiet };
    diag.setLogger(logger, { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true });
  }
  const contextManager = new hooks.AsyncLocalStorageContextManager().enable();
  // Each global is registered only where none is (an application may have set its own propagator).
  const registered = {
    context: context.setGlobalContextManager(contextManager),
    propagation: propagation.setGlobalPropagator(new W3CTraceContextPropagator()),
    trace: trace.setGlobalTracerProvider(provider),
  };
  if (!registered.context) contextManager.disable();
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let stopping: Promise<void> | undefined;
  return {
    started: true,
    endpoint: masked(settings.endpoint),
    protocol: settings.protocol,
    // A failed export is reported (onError), not thrown: tracing never fails the work it watches.
    forceFlush: () => provider.forceFlush().catch((error: unknown) => report?.(error)),
    shutdown: () =>
      (stopping ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([provider.shutdown().catch((error: unknown) => report?.(error)), new Promise<void>((done) => (timer = setTimeout(done, shutdownTimeoutMs).unref()))]);
        } finally {
          clearTimeout(timer);
          if (registered.trace) trace.disable();
          if (registered.propagation) propagation.disable();
          if (registered.context) context.disable();
          if (report) diag.disable();
        }
      })()),
  };
}

const quiet = () => undefined;

/**
 * The SDK reports a failed export through the API's diagnostic logger (and forceFlush rejects):
 * each goes to `report`, with any header value masked, the same message at most once a minute.
 */
function exportErrorReporter(report: (message: string) => void, secrets: readonly string[]): (...args: unknown[]) => void {
  const last = new Map<string, number>();
  // Whole values, and their words (a collector may echo the token without "Basic "), longest first.
  const hidden = [...new Set(secrets.flatMap((secret) => [secret, ...secret.split(/\s+/).filter((word) => word.length >= 8)]))].filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  return (...args: unknown[]) => {
    // forceFlush rejects with a list (one error per span processor).
    let message = args.flat().map(describe).join(" ");
    for (const secret of hidden) message = message.split(secret).join("***");
    const now = Date.now();
    if ((last.get(message) ?? -Infinity) > now - 60_000) return;
    last.set(message, now);
    report(message);
  };
}

/**
 * An export error with what the collector answered (OTLPExporterError's `code` and `data`),
 * bounded. The SDK's error handler hands the logger such an error as JSON text.
 */
function describe(arg: unknown): string {
  let error = arg;
  if (typeof arg === "string") {
    try {
      const parsed = JSON.parse(arg) as unknown;
      error = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed;
    } catch {
      return arg;
    }
  }
  if (typeof error !== "object" || error === null) return String(arg);
  const { code, data, message, name } = error as { code?: unknown; data?: unknown; message?: unknown; name?: unknown };
  const status = typeof code === "number" ? `HTTP ${code}` : "";
  const what = typeof message === "string" && message !== "" ? message : typeof name === "string" ? name : "";
  const answer = typeof data === "string" && data.trim() !== "" ? data.trim().slice(0, 500) : "";
  const text = [[status, what].filter(Boolean).join(" "), answer].filter(Boolean).join(": ");
  return text === "" ? safeJson(error) : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
