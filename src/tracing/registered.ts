/**
 * Whether anything registered OpenTelemetry globals (an SDK: canvasflow's own or the embedding
 * application's), read without importing @opentelemetry/api: loading the API costs about 40 ms,
 * which a process that never traces must not pay when it imports canvasflow. The API keeps its
 * registrations under this symbol (api's internal/global-utils), one per major version.
 */
const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");

interface ApiGlobals {
  readonly trace?: unknown;
  readonly context?: { active(): unknown };
}

function globals(): ApiGlobals | undefined {
  return (globalThis as Record<symbol, ApiGlobals | undefined>)[API_GLOBAL];
}

/** A tracer provider is registered: runs may record spans (run-spans.ts is worth loading). */
export function tracingRegistered(): boolean {
  return globals()?.trace !== undefined;
}

/** The OpenTelemetry context active now (a run started here is its child), when a context manager is registered. */
export function activeTraceContext(): unknown {
  return globals()?.context?.active();
}
