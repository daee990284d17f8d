/**
 * The package's entries (package.json `exports`, issue 25): each resolves by the package's own
 * name to a built module and its types, and loads in a fresh process; the core entry loads none
 * of the server, queue, database, document or browser packages. Runs against dist/ (npm test
 * builds it first), through Node's self-reference of the package by name.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { name: string; exports: Record<string, string | { types: string; import: string }> };
const entries = Object.entries(pkg.exports).filter((entry): entry is [string, { types: string; import: string }] => typeof entry[1] === "object");

function inChild(code: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", cwd: resolve("."), timeout: 60_000 });
}

describe("the package's entries", () => {
  it("name a built module and its types each", () => {
    expect(entries.map(([name]) => name)).toEqual([".", "./server", "./worker", "./redis", "./postgres", "./dify", "./render", "./knowledge", "./testing"]);
    for (const [, target] of entries) {
      expect(existsSync(target.import), target.import).toBe(true);
      expect(existsSync(target.types), target.types).toBe(true);
    }
  });

  it("each loads by the package's name in a fresh process, with what the docs import from it", () => {
    const expected: Record<string, string[]> = {
      ".": ["loadCanvas", "DurableSession", "FileSnapshotStore", "InProcessSnapshotStore", "MemorySnapshotStore", "openSnapshotStore", "cancelRun", "followEvents", "registerComponent"],
      "./server": ["createServer", "openServerStore", "MemoryServerStore", "InProcessServerStore", "DataFolderServerStore", "createApiKey"],
      "./worker": ["createWorker", "RunQueue", "enqueueRun", "cancelQueuedRun", "queueMetrics"],
      "./redis": ["RedisSnapshotStore", "RedisCancelSignals", "RedisServerStore", "RedisMemoryStore"],
      "./postgres": ["PostgresSnapshotStore", "PostgresCancelSignals", "PostgresServerStore", "PostgresWithRedisServerStore", "PostgresMemoryStore", "migratePostgres"],
      "./dify": ["parseDifyYaml", "readDifyGraph", "registerDify"],
      "./render": ["canvasGraphModel", "toMermaid", "renderGraphSvg", "renderGraphHtml", "renderTrace"],
      "./knowledge": ["buildIndex", "updateIndex", "localKnowledgeBase"],
      "./testing": ["startMockLlmServer", "parseMockLlmScript"],
    };
    const specifiers = entries.map(([name]) => (name === "." ? pkg.name : `${pkg.name}/${name.slice(2)}`));
    const out = inChild(`const found = {}; for (const s of ${JSON.stringify(specifiers)}) found[s] = Object.keys(await import(s)); console.log(JSON.stringify(found));`);
    const found = JSON.parse(out) as Record<string, string[]>;
    for (const [name] of entries) {
      const specifier = name === "." ? pkg.name : `${pkg.name}/${name.slice(2)}`;
      expect(found[specifier], specifier).toEqual(expect.arrayContaining(expected[name]));
    }
  });

  it("the core loads no server, queue, database driver, document library or browser", () => {
    const heavy = ["fastify", "bullmq", "pg", "ioredis", "playwright-core", "exceljs", "pdfkit", "docx", "@modelcontextprotocol/sdk", "elkjs", "prom-client", "undici", "mysql2"];
    const out = inChild(
      `import { createRequire } from "node:module"; await import(${JSON.stringify(pkg.name)}); const require = createRequire(import.meta.url);` +
        `const packages = new Set(Object.keys(require.cache).map((p) => p.match(/node_modules\\/((@[^/]+\\/)?[^/]+)/)?.[1]).filter(Boolean)); console.log(JSON.stringify([...packages]));`,
    );
    const loaded = JSON.parse(out) as string[];
    expect(loaded.filter((name) => heavy.includes(name))).toEqual([]);
    expect(loaded).toContain("ajv");
  });
});
