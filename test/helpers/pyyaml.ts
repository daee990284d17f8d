/**
 * PyYAML as the reference for reading Dify's YAML: `yaml.safe_load` (what Dify's DSL import calls)
 * in one python3 child per batch (pyyaml-load.py, JSON in and out), and the value canvasflow
 * should hold for what it returns, by the mapping docs/dify.md#yaml documents: ints and floats as
 * numbers, bytes as base64, dates as isoformat(), sets as lists (in any order), tuples as lists,
 * dict keys as json.dumps writes them.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "pyyaml-load.py");

/** Why PyYAML cannot be the reference here (no python3, no PyYAML), or undefined when it can. */
export function pyyamlMissing(): string | undefined {
  const probe = spawnSync("python3", ["-c", "import yaml; print(yaml.__version__)"], { encoding: "utf8", timeout: 30_000 });
  if (probe.error) return `python3 cannot be run (${probe.error.message})`;
  if (probe.status !== 0) return `python3 has no PyYAML (import yaml failed: ${probe.stderr.trim().split("\n").pop()})`;
  return undefined;
}

export type PyyamlResult = { ok: unknown } | { error: string };

/** safe_load each text, in one python3 process. */
export function pyyamlLoadAll(texts: string[]): PyyamlResult[] {
  const run = spawnSync("python3", [SCRIPT], { input: JSON.stringify(texts), encoding: "utf8", maxBuffer: 512 * 1024 * 1024, timeout: 300_000 });
  if (run.error) throw new Error(`python3 ${SCRIPT} failed: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`python3 ${SCRIPT} exited ${run.status}: ${run.stderr}`);
  const results = JSON.parse(run.stdout) as PyyamlResult[];
  if (results.length !== texts.length) throw new Error(`python3 ${SCRIPT} answered ${results.length} results for ${texts.length} texts`);
  return results;
}

/** Marks a list whose order does not count (a Python set). */
const UNORDERED = Symbol("unordered");

/** The value canvasflow holds for PyYAML's (tagged) value. */
export function expectedValue(tagged: unknown): unknown {
  if (tagged === null || typeof tagged !== "object") return tagged;
  if (Array.isArray(tagged)) return tagged.map(expectedValue);
  const record = tagged as Record<string, unknown>;
  if ("$int" in record) {
    const hex = record.$int as string;
    return Number(hex.startsWith("-") ? -BigInt(hex.slice(1)) : BigInt(hex));
  }
  if ("$float" in record) {
    const text = record.$float as string;
    return text === "nan" ? NaN : text === "inf" ? Infinity : text === "-inf" ? -Infinity : Number(text);
  }
  if ("$bytes" in record) return record.$bytes;
  if ("$date" in record) return record.$date;
  if ("$datetime" in record) return record.$datetime;
  if ("$tuple" in record) return (record.$tuple as unknown[]).map(expectedValue);
  if ("$set" in record) return Object.defineProperty((record.$set as unknown[]).map(expectedValue), UNORDERED, { value: true });
  const out: Record<string, unknown> = {};
  // As json.loads reads what json.dumps wrote: a repeated key keeps its first place and its last value.
  for (const [key, value] of record.$map as [string, unknown][]) Object.defineProperty(out, key, { value: expectedValue(value), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Where `actual` first differs from `expected` (numbers compared with Object.is, key order counted), or undefined. */
export function firstDifference(expected: unknown, actual: unknown, path = "$"): string | undefined {
  if (typeof expected === "number") return Object.is(expected, actual) ? undefined : `${path}: expected ${show(expected)}, got ${show(actual)}`;
  if (expected === null || typeof expected !== "object") return expected === actual ? undefined : `${path}: expected ${show(expected)}, got ${show(actual)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected a list, got ${show(actual)}`;
    if (actual.length !== expected.length) return `${path}: expected ${expected.length} items, got ${actual.length}`;
    if ((expected as unknown as Record<symbol, boolean>)[UNORDERED]) {
      const sortedExpected = [...expected].sort((a, b) => show(a).localeCompare(show(b)));
      const sortedActual = [...actual].sort((a, b) => show(a).localeCompare(show(b)));
      return sortedExpected.map((item, index) => firstDifference(item, sortedActual[index], `${path}{set}`)).find(Boolean);
    }
    return expected.map((item, index) => firstDifference(item, actual[index], `${path}[${index}]`)).find(Boolean);
  }
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return `${path}: expected a mapping, got ${show(actual)}`;
  const expectedKeys = Object.keys(expected);
  const actualKeys = Object.keys(actual);
  if (JSON.stringify(expectedKeys) !== JSON.stringify(actualKeys)) return `${path}: expected the keys ${JSON.stringify(expectedKeys)}, got ${JSON.stringify(actualKeys)}`;
  return expectedKeys.map((key) => firstDifference((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], `${path}.${key}`)).find(Boolean);
}

function show(value: unknown): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (value === undefined) return "undefined";
  return JSON.stringify(value, (_key, item) => (typeof item === "number" && (!Number.isFinite(item) || Object.is(item, -0)) ? `#${Object.is(item, -0) ? "-0" : item}` : item));
}
