/**
 * The services `canvasflow run` gives a canvas, from its flags and the config:
 * `--config FILE` (else `canvasflow.config.json` in the working folder), `--kb ID=DIR`, and
 * `--mock-llm` / `--mock-llm-script FILE`, which start the mock LLM in this process and send
 * every llm_id to it. `close()` stops the mock, so the process can exit.
 *
 * For the commands that trace (run, serve, worker), `--otlp URL`, the config's `tracing` section
 * or the OTEL_* variables start OpenTelemetry's export here (src/tracing/setup.ts, loaded only
 * then), and `close()` exports the spans left before the process ends.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { buildServices } from "../config/services.js";
import { ConfigError, loadConfig } from "../config/load.js";
import { tracingPlan, type TracingPlan } from "../config/tracing.js";
import { TracingSettingsError } from "../tracing/settings.js";
import type { Tracing } from "../tracing/setup.js";
import type { CanvasflowConfig, CanvasflowServices } from "../config/types.js";
import { createLlmProvider } from "../llm/provider.js";
import { createKnowledgeModels } from "../knowledge/models.js";
import { startMockLlmServer, type MockLlmServer } from "../llm/mock-server.js";
import { MockScriptError } from "../llm/mock-script.js";
import { trustsCode, UNTRUSTED_CODE_ONLY } from "../sandbox/code/trust.js";
import { UsageError, type CliIO } from "./io.js";
import type { McpHub } from "../tools/mcp/hub.js";

export interface ServiceFlags {
  config?: string;
  /** `--kb ID=DIR`, repeatable. */
  kb?: readonly string[];
  mockLlm?: boolean;
  /** Implies mockLlm. */
  mockLlmScript?: string;
  allowPrivateNetwork?: boolean;
  /** `--trust-code` (run only): Python runs without the sandbox. */
  trustCode?: boolean;
  /** `--otlp URL` (run, serve, worker): export spans there. */
  otlp?: string;
}

export interface RunServices {
  services: CanvasflowServices;
  /** The config the services came from (serve reads its `server` section). */
  config: CanvasflowConfig;
  /** The config's file; undefined when there was none. */
  configFile: string | undefined;
  /** The in-process mock LLM, when `--mock-llm` started one. */
  mock: MockLlmServer | undefined;
  close(): Promise<void>;
}

/** The provider name the mock gets in the config it is routed through. */
const MOCK_PROVIDER = "mock-llm";

/** `--kb ID=DIR` → the id and the folder (resolved against cwd; it must exist unless `mustExist` is false). */
export function parseKbFlag(value: string, cwd: string, options: { mustExist?: boolean } = {}): { id: string; dir: string } {
  const eq = value.indexOf("=");
  if (eq <= 0 || eq === value.length - 1) throw new UsageError(`--kb expects ID=DIR, got "${value}"`);
  const id = value.slice(0, eq);
  const dir = resolve(cwd, value.slice(eq + 1));
  if (options.mustExist === false) return { id, dir };
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UsageError(`--kb ${id}=${value.slice(eq + 1)}: ${dir} is not a folder`);
  return { id, dir };
}

/** A config that sends every llm_id to the mock (under its model part; the empty llm_id as the mock's own model). */
export function mockLlmConfig(baseURL: string): CanvasflowConfig {
  return {
    providers: { [MOCK_PROVIDER]: { baseURL } },
    models: { "": { provider: MOCK_PROVIDER, model: "canvasflow-mock" } },
    defaultModel: { provider: MOCK_PROVIDER },
  };
}

/** Config, script and tracing-settings problems: shown as they are (with their pointers), exit code 2. */
export function isSetupError(error: unknown): error is ConfigError | MockScriptError | TracingSettingsError {
  return error instanceof ConfigError || error instanceof MockScriptError || error instanceof TracingSettingsError;
}

export async function openRunServices(
  flags: ServiceFlags,
  io: CliIO,
  options: { cwd?: string; env?: Readonly<Record<string, string | undefined>>; /** The command traces (run, serve, worker). */ traced?: boolean } = {},
): Promise<RunServices> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const { config, file: configFile } = await loadConfig({ configFile: flags.config, cwd });
  for (const value of flags.kb ?? []) {
    const { id, dir } = parseKbFlag(value, cwd);
    config.knowledgeBases = { ...(config.knowledgeBases ?? {}), [id]: { type: "local", dir } };
  }
  // Decided (and its settings checked) before anything starts.
  const plan = options.traced ? tracingPlan(config.tracing, { ...(flags.otlp !== undefined ? { otlp: flags.otlp } : {}), env }) : undefined;
  // Without the flag, services.egress leaves the choice to CANVASFLOW_ALLOW_PRIVATE_NETWORK; its
  // allow-list is the config's egress.allow.
  const egress = flags.allowPrivateNetwork ? { allowPrivateNetwork: true } : {};
  let opened: RunServices;
  if (!flags.mockLlm && flags.mockLlmScript === undefined) {
    const services = buildServices(config, { env, egress, trustCode: flags.trustCode });
    opened = { services, config, configFile, mock: undefined, close: () => closeMcp(services.mcp) };
  } else {
    const mock = await startMockLlmServer(flags.mockLlmScript === undefined ? {} : { script: resolve(cwd, flags.mockLlmScript) });
    io.err(`canvasflow: every model is answered by the mock LLM at ${mock.url}\n`);
    // An empty environment: OPENAI_* variables must not send a mock run anywhere else.
    const llm = createLlmProvider(mockLlmConfig(mock.url), {});
    // Embedding and rerank models too: every one of them is answered by the mock.
    const knowledgeModels = createKnowledgeModels(config, {}, { redirectTo: mock.url });
    const services = buildServices(config, { env, egress, llm, knowledgeModels, trustCode: flags.trustCode });
    opened = {
      services,
      config,
      configFile,
      mock,
      close: async () => {
        await closeMcp(services.mcp);
        await mock.close();
      },
    };
  }
  return plan ? withTracing(opened, plan, io) : opened;
}

/** Start exporting spans; the runs get the `tracing` service, and `close()` exports the spans left. */
async function withTracing(opened: RunServices, plan: TracingPlan, io: CliIO): Promise<RunServices> {
  let tracing: Tracing;
  try {
    const { startTracing } = await import("../tracing/setup.js");
    tracing = await startTracing({ ...plan.otlp, ...(plan.sampleRatio !== undefined ? { sampleRatio: plan.sampleRatio } : {}), onError: (message) => io.err(`canvasflow: tracing: an export failed: ${message}\n`) });
  } catch (error) {
    await opened.close();
    throw error;
  }
  // The endpoint with any user, password or query masked; the headers never.
  if (tracing.started) io.err(`canvasflow: tracing: spans go to ${tracing.endpoint} (${tracing.protocol})\n`);
  opened.services.tracing = { ...plan.service };
  return {
    ...opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        await tracing.shutdown();
      }
    },
  };
}

/**
 * The services of a process that runs canvases it does not trust (serve, worker): a config or mock
 * script that does not load, or a config asking to trust code, is reported on stderr and gives
 * undefined (the caller exits with a usage error).
 */
export async function openUntrustedServices(flags: ServiceFlags, io: CliIO): Promise<RunServices | undefined> {
  let services: RunServices;
  try {
    services = await openRunServices(flags, io, { traced: true });
  } catch (error) {
    if (!isSetupError(error)) throw error;
    io.err(`${error.message}\n`);
    return undefined;
  }
  if (trustsCode(services.config.codeExec)) {
    await services.close();
    io.err(`canvasflow: the config's codeExec.trustCode is true, but ${UNTRUSTED_CODE_ONLY}: remove it\n`);
    return undefined;
  }
  return services;
}

/** MCP sessions opened outside a run (runs close their own). */
async function closeMcp(hub: McpHub | undefined): Promise<void> {
  await hub?.close();
}
