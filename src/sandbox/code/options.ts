/**
 * What CodeExec's sandboxes allow a script: the `codeExec` section of the config file, or the
 * runtime service of the same name for an embedding application
 * (`services: { codeExec: { timeoutMs: 5000 } }`). The component's own timeout and a cancelled run
 * stop a script earlier. A value of the wrong kind is an error that names it, not a default.
 */
import { isPlainObject, showValue } from "../../util/values.js";
import { AllowList } from "../egress/allow-list.js";

export interface CodeExecOptions {
  /** Wall-clock limit of one script run (default 60 s). */
  timeoutMs?: number;
  /**
   * Memory limit in MB (default 256): JavaScript's heap, and what a Python script may map on top
   * of the interpreter's own memory (RLIMIT_DATA), per process.
   */
  memoryMb?: number;
  /** Bytes of a result, and of what a Python script prints (stdout and stderr together); default 4 MiB. */
  outputBytes?: number;
  /** Processes and threads a Python script may have at once, its own included (default 16). */
  processes?: number;
  /** Files a Python process may have open at once (default 64). */
  openFiles?: number;
  /** Size of the private /tmp of one Python run, in MB (default 64). */
  tmpMb?: number;
  /** The Python interpreter (default "python3" on the PATH). */
  python?: string;
  /** The bubblewrap program (default "bwrap" on the PATH). */
  bwrap?: string;
  /**
   * Run Python without the sandbox, as a plain child process of this one: for a single user
   * running their own canvases (`canvasflow run --trust-code`). Never by default, and refused by
   * `canvasflow serve`, where every canvas is untrusted.
   */
  trustCode?: boolean;
  /**
   * Hosts a script may reach over HTTP(S) through the egress proxy (`host`, `host:port`); none by
   * default. The egress guard still applies to them.
   */
  networkAllow?: string[];
  /** JavaScript runs at once in this process, each in a worker thread of its own (default 2). */
  javascriptWorkers?: number;
}

interface CodeLimits {
  timeoutMs: number;
  memoryMb: number;
  outputBytes: number;
  processes: number;
  openFiles: number;
  tmpMb: number;
}

export interface CodeSandboxSettings extends CodeLimits {
  python: string;
  bwrap: string;
  trustCode: boolean;
  networkAllow: readonly string[];
  /** networkAllow, read (empty: no network). */
  network: AllowList;
  javascriptWorkers: number;
}

export const DEFAULT_CODE_SETTINGS: Readonly<CodeSandboxSettings> = Object.freeze({
  timeoutMs: 60_000,
  memoryMb: 256,
  outputBytes: 4 * 1024 * 1024,
  processes: 16,
  openFiles: 64,
  tmpMb: 64,
  python: "python3",
  bwrap: "bwrap",
  trustCode: false,
  networkAllow: Object.freeze([]) as readonly string[],
  network: AllowList.EMPTY,
  javascriptWorkers: 2,
});

/** A bad `codeExec` option: the message names it. */
class CodeOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CodeOptionsError";
  }
}

type NumberKey = "timeoutMs" | "memoryMb" | "outputBytes" | "processes" | "openFiles" | "tmpMb" | "javascriptWorkers";

/** The least value each number may take (below it a script could not even start). */
const MINIMUM: Readonly<Record<NumberKey, number>> = {
  timeoutMs: 1,
  memoryMb: 8,
  outputBytes: 1024,
  processes: 1,
  openFiles: 16,
  tmpMb: 1,
  javascriptWorkers: 1,
};

const KNOWN = new Set<string>([...Object.keys(MINIMUM), "python", "bwrap", "trustCode", "networkAllow"]);

function numberOption(options: Record<string, unknown>, key: NumberKey): number {
  const value = options[key];
  if (value === undefined) return DEFAULT_CODE_SETTINGS[key];
  if (typeof value !== "number" || !Number.isFinite(value) || value < MINIMUM[key]) {
    throw new CodeOptionsError(`codeExec.${key} must be a number of at least ${MINIMUM[key]}, not ${showValue(value)}`);
  }
  return key === "timeoutMs" ? value : Math.floor(value);
}

/** The settings from the `codeExec` service or config section, defaults for what is left out. */
export function codeSandboxSettings(service: unknown): CodeSandboxSettings {
  if (service === undefined || service === null) return { ...DEFAULT_CODE_SETTINGS };
  if (!isPlainObject(service)) throw new CodeOptionsError(`codeExec must be an object like { "timeoutMs": 5000 }, not ${showValue(service)}`);
  const unknown = Object.keys(service).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) throw new CodeOptionsError(`codeExec has no option ${unknown.map((key) => `"${key}"`).join(", ")}; it takes ${[...KNOWN].join(", ")}`);
  const { python, bwrap, trustCode, networkAllow } = service;
  if (python !== undefined && (typeof python !== "string" || python.trim() === "")) throw new CodeOptionsError(`codeExec.python must name a Python interpreter, not ${showValue(python)}`);
  if (bwrap !== undefined && (typeof bwrap !== "string" || bwrap.trim() === "")) throw new CodeOptionsError(`codeExec.bwrap must name the bubblewrap program, not ${showValue(bwrap)}`);
  if (trustCode !== undefined && typeof trustCode !== "boolean") throw new CodeOptionsError(`codeExec.trustCode must be true or false, not ${showValue(trustCode)}`);
  if (networkAllow !== undefined && (!Array.isArray(networkAllow) || networkAllow.some((host) => typeof host !== "string" || host.trim() === ""))) {
    throw new CodeOptionsError(`codeExec.networkAllow must be a list of hosts ("api.example.com", "api.example.com:443"), not ${showValue(networkAllow)}`);
  }
  const hosts = Array.isArray(networkAllow) ? networkAllow.map((host) => String(host).trim()) : [];
  return {
    timeoutMs: numberOption(service, "timeoutMs"),
    memoryMb: numberOption(service, "memoryMb"),
    outputBytes: numberOption(service, "outputBytes"),
    processes: numberOption(service, "processes"),
    openFiles: numberOption(service, "openFiles"),
    tmpMb: numberOption(service, "tmpMb"),
    javascriptWorkers: numberOption(service, "javascriptWorkers"),
    python: typeof python === "string" ? python : DEFAULT_CODE_SETTINGS.python,
    bwrap: typeof bwrap === "string" ? bwrap : DEFAULT_CODE_SETTINGS.bwrap,
    trustCode: trustCode === true,
    networkAllow: hosts,
    network: networkList(hosts),
  };
}

/** Lists already read, by their text (a run reads its settings per script). */
const readLists = new Map<string, AllowList>();

function networkList(hosts: readonly string[]): AllowList {
  if (hosts.length === 0) return AllowList.EMPTY;
  const key = hosts.join("\n");
  let list = readLists.get(key);
  if (!list) {
    try {
      list = AllowList.parse(hosts, "codeExec.networkAllow");
    } catch (error) {
      throw new CodeOptionsError((error as Error).message);
    }
    if (readLists.size > 64) readLists.clear();
    readLists.set(key, list);
  }
  return list;
}

/** Seconds for messages: "2 s", "0.5 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** Bytes for messages: "4 MiB", "1500 bytes". */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
