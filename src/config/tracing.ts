/**
 * Whether a command traces, and where to: `--otlp URL`, the config's `tracing` section and the
 * standard OTEL_* variables, in that order (docs/observability.md). Pure: what it decides is
 * started by src/tracing/setup.ts, loaded only when tracing is on.
 */
import { envTurnsTracingOn, otlpSettings, TracingSettingsError, tracesUrl, type OtlpSettings } from "../tracing/settings.js";
import type { TracingConfig, TracingService } from "./types.js";

/** Characters of a recorded prompt or completion kept, by default. */
export const DEFAULT_CONTENT_LIMIT = 4000;

/** Tracing turned on: the exporter's settings, every one decided, and the runs' `tracing` service. */
export interface TracingPlan {
  otlp: OtlpSettings;
  sampleRatio?: number;
  service: TracingService;
}

type Env = Readonly<Record<string, string | undefined>>;

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` in a header value, from `env`; an unset one is an error naming the key (never the value). */
function expandHeader(key: string, value: string, env: Env): string {
  return value.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    throw new TracingSettingsError(`tracing.headers.${key} reads the environment variable ${name}, which is not set`);
  });
}

/**
 * The plan of a command that can trace (run, serve, worker), or undefined when tracing is off.
 * On: `--otlp` is given; else the config's `enabled` when it says; else the section names an
 * endpoint, or OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (and OTEL_SDK_DISABLED is not true).
 * Throws TracingSettingsError naming the flag, key or variable that cannot be used.
 */
export function tracingPlan(config: TracingConfig | undefined, options: { otlp?: string; env: Env }): TracingPlan | undefined {
  const section = config ?? {};
  const on = options.otlp !== undefined || (section.enabled ?? (section.endpoint !== undefined || envTurnsTracingOn(options.env)));
  if (!on) return undefined;
  const endpoint = options.otlp !== undefined ? tracesUrl(options.otlp, "--otlp") : section.endpoint !== undefined ? tracesUrl(section.endpoint, "tracing.endpoint") : undefined;
  const headers = Object.fromEntries(Object.entries(section.headers ?? {}).map(([key, value]) => [key, expandHeader(key, value, options.env)]));
  const otlp = otlpSettings(
    {
      ...(endpoint !== undefined ? { endpoint } : {}),
      headers,
      ...(section.protocol !== undefined ? { protocol: section.protocol } : {}),
      ...(section.serviceName !== undefined ? { serviceName: section.serviceName } : {}),
    },
    options.env,
  );
  return {
    otlp,
    ...(section.sampleRatio !== undefined ? { sampleRatio: section.sampleRatio } : {}),
    service: { recordContent: section.recordContent ?? false, contentLimit: section.contentLimit ?? DEFAULT_CONTENT_LIMIT },
  };
}
