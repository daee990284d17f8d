/**
 * The server's limits, rate limits, metrics and OpenAPI settings and its component policy: the
 * `server` section of the config file (`--config FILE`) and the `createServer` options of the same
 * names, checked against one schema (schemas/config.schema.json#/$defs/server), with the defaults
 * filled in. The policy's names are checked against the server's components and MCP servers.
 */
import type { RateLimitsConfig, ServerConfig, ServerLimitsConfig } from "../config/types.js";
import { ComponentPolicy, ComponentPolicyError, type PolicyVocabulary } from "../policy/policy.js";
import { formatSchemaIssues, schemaIssuesAt, type SchemaIssue } from "../util/json-schema.js";

export interface ServerLimits {
  /** Bytes a request body may take (agent writes: agentBodyBytes). */
  bodyBytes: number;
  agentBodyBytes: number;
  /** Bytes of an agent's DSL, as JSON. */
  dslBytes: number;
  /** Components of an agent's DSL. */
  dslComponents: number;
  /** Wall-clock milliseconds of a run. */
  runMs: number;
  /** Turns setting up at once in this process, the rest waiting their turn (setup-gate.ts); 0: no limit. */
  setupsAtOnce: number;
  /** Milliseconds to receive a whole request, headers and body (HTTP 408 beyond); 0: no limit. */
  requestMs: number;
  /** Milliseconds to receive a request's headers (slow headers, a connection that sends nothing); 0: no limit. */
  headersMs: number;
  /** Bytes queued for a WebSocket client past which its frames are not read and its run's events wait (ws-flow.ts). */
  wsHighWaterBytes: number;
  /** Bytes queued for a WebSocket client past which the connection is closed (1008). */
  wsMaxQueuedBytes: number;
  /** Milliseconds a WebSocket queue may stay past wsHighWaterBytes before the connection is closed (1008); 0: no limit. */
  wsStallMs: number;
  /** Frames answered with an error a WebSocket connection may send within wsBadFramesMs (one more: 1008); 0: no limit. */
  wsBadFrames: number;
  wsBadFramesMs: number;
  /** WebSocket connections of one key open at once in this process (HTTP 429 beyond); 0: no limit. */
  wsConnectionsPerKey: number;
  /** Characters of message content a session may hold before a new turn on it is refused; 0: no limit. */
  sessionMessageChars: number;
  /** Bytes of the documents one request to POST /api/v1/agents/{id}/upload may carry, and of a document an ingestion pipeline reads. */
  uploadBytes: number;
}

/** 0 turns a limit off. */
export interface RateLimits {
  /** Completion requests of one key in a minute (across the servers sharing a Redis). */
  completionsPerMinute: number;
  /** Other requests of one key in a minute. */
  requestsPerMinute: number;
  /** Runs of one key going at once (across the servers sharing a Redis). */
  runsPerKey: number;
  /** Runs going at once in this process, all keys together: what protects the machine. */
  runsPerServer: number;
}

export interface MetricsSettings {
  enabled: boolean;
  /** Serve /metrics to every client, not only to loopback ones. */
  public: boolean;
}

interface OpenApiSettings {
  enabled: boolean;
}

interface PlaygroundSettings {
  /** Serve the playground page at / (its API routes are the API's, whatever this says). */
  enabled: boolean;
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  bodyBytes: 1024 * 1024,
  agentBodyBytes: 10 * 1024 * 1024,
  dslBytes: 5 * 1024 * 1024,
  dslComponents: 1000,
  runMs: 600_000,
  setupsAtOnce: 4,
  // A 15 MiB upload (Dify's limit) in 2 minutes needs about 1 Mbit/s.
  requestMs: 120_000,
  headersMs: 20_000,
  wsHighWaterBytes: 1024 * 1024,
  wsMaxQueuedBytes: 8 * 1024 * 1024,
  wsStallMs: 60_000,
  wsBadFrames: 20,
  wsBadFramesMs: 10_000,
  // A backend that serves its users through one key holds a connection per user: the process's
  // runs at once (runsPerServer) protect the machine, this only stops a runaway client.
  wsConnectionsPerKey: 1024,
  // About 8 MB of text: thousands of ordinary turns. Each turn rewrites the session's record
  // with all of them, so a session must not grow without end.
  sessionMessageChars: 8_000_000,
  // Dify's default file_size_limit; a document is read whole into memory by the upload route.
  uploadBytes: 15 * 1024 * 1024,
});

/**
 * Defaults a backend that serves many users through one key does not reach in normal use (RAGFlow
 * has no limit at all): the machine is protected by the process's runs at once (runsPerServer),
 * the run's wall-clock limit and the body limits; the per-key figures only stop a runaway client
 * (100 completions and 200 other requests a second), and a key may use every run slot of a server.
 * A server shared by tenants sets runsPerKey (docs/server.md, Rate limits, says how to size them).
 */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = Object.freeze({
  completionsPerMinute: 6000,
  requestsPerMinute: 12_000,
  runsPerKey: 0,
  runsPerServer: 256,
});

/** What createServer takes of the `server` section (logLevel is the CLI's: it builds the logger). */
export type ServerSettingsInput = Omit<ServerConfig, "logLevel">;

interface ServerSettings {
  limits: ServerLimits;
  rateLimits: RateLimits;
  allowPrivateNetwork: boolean;
  metrics: MetricsSettings;
  openapi: OpenApiSettings;
  playground: PlaygroundSettings;
  /** What agents may use (policy/policy.ts); open when the section has no rules. */
  policy: ComponentPolicy;
}

/** createServer options that do not fit the schema; each problem names its option. */
export class ServerOptionsError extends Error {
  constructor(readonly issues: SchemaIssue[]) {
    super(`invalid createServer options:\n${formatSchemaIssues("createServer options", issues)}`);
    this.name = "ServerOptionsError";
  }
}

/**
 * The settings with defaults; throws ServerOptionsError naming each bad option, and each name of
 * the policy that is not one of `vocabulary`'s components or MCP servers.
 */
export function resolveServerSettings(input: ServerSettingsInput, vocabulary: PolicyVocabulary): ServerSettings {
  // Only the keys given: undefined is "left out", which JSON Schema cannot say.
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const issues = schemaIssuesAt("config.schema.json", "/$defs/server", given);
  if (issues.length > 0) throw new ServerOptionsError(issues);
  const limits = withDefaults<ServerLimits, ServerLimitsConfig>(DEFAULT_LIMITS, input.limits);
  const conflicts = limitConflicts(limits);
  if (conflicts.length > 0) throw new ServerOptionsError(conflicts);
  let policy: ComponentPolicy;
  try {
    policy = ComponentPolicy.resolve(input.policy, vocabulary);
  } catch (error) {
    if (!(error instanceof ComponentPolicyError)) throw error;
    throw new ServerOptionsError(error.issues.map((issue) => ({ ...issue, pointer: `/policy${issue.pointer}` })));
  }
  return {
    limits,
    rateLimits: withDefaults<RateLimits, RateLimitsConfig>(DEFAULT_RATE_LIMITS, input.rateLimits),
    allowPrivateNetwork: input.allowPrivateNetwork ?? false,
    metrics: { enabled: input.metrics?.enabled ?? true, public: input.metrics?.public ?? false },
    openapi: { enabled: input.openapi?.enabled ?? true },
    playground: { enabled: input.playground?.enabled ?? true },
    policy,
  };
}

/** Limits that contradict each other (the schema checks each alone). */
function limitConflicts(limits: ServerLimits): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (limits.requestMs > 0 && limits.headersMs > limits.requestMs) {
    issues.push({ pointer: "/limits/headersMs", message: `is ${limits.headersMs}, more than limits.requestMs (${limits.requestMs}): the headers are part of the request` });
  }
  if (limits.wsMaxQueuedBytes < limits.wsHighWaterBytes) {
    issues.push({ pointer: "/limits/wsMaxQueuedBytes", message: `is ${limits.wsMaxQueuedBytes}, less than limits.wsHighWaterBytes (${limits.wsHighWaterBytes}): a queue is closed only past the mark where it stops growing` });
  }
  return issues;
}

function withDefaults<T extends object, P extends Partial<T>>(defaults: Readonly<T>, given: P | undefined): T {
  const result = { ...defaults };
  for (const [key, value] of Object.entries(given ?? {})) if (value !== undefined) (result as Record<string, unknown>)[key] = value;
  return result;
}
