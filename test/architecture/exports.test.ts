/**
 * The package's entries (package.json `exports`, issue 25): each resolves by the package's own
 * name to a built module and its types, and loads in a fresh process; the core entry loads none
 * of the server, queue, database, document or browser packages. Runs against dist/ (npm test
 * builds it first), through Node's self-reference of the package by name.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  name: string;
  exports: Record<string, string | { types: string; import: string }>;
  optionalDependencies: Record<string, string>;
};
const entries = Object.entries(pkg.exports).filter((entry): entry is [string, { types: string; import: string }] => typeof entry[1] === "object");

function inChild(code: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", cwd: resolve("."), timeout: 60_000 });
}

describe("the package's entries", () => {
  it("name a built module and its types each", () => {
    expect(entries.map(([name]) => name)).toEqual([".", "./server", "./worker", "./redis", "./postgres", "./sqlite", "./dify", "./render", "./knowledge", "./testing", "./graph"]);
    for (const [, target] of entries) {
      expect(existsSync(target.import), target.import).toBe(true);
      expect(existsSync(target.types), target.types).toBe(true);
    }
  });

  it("each loads by the package's name in a fresh process, with what the docs import from it", () => {
    const expected: Record<string, string[]> = {
      ".": ["loadCanvas", "DurableSession", "FileSnapshotStore", "InProcessSnapshotStore", "MemorySnapshotStore", "openSnapshotStore", "cancelRun", "followEvents", "registerComponent"],
      "./server": ["createServer", "openServerStore", "MemoryServerStore", "InProcessServerStore", "createApiKey"],
      "./worker": ["createWorker", "RunQueue", "enqueueRun", "cancelQueuedRun", "queueMetrics"],
      "./redis": ["RedisSnapshotStore", "RedisCancelSignals", "RedisServerStore", "RedisMemoryStore"],
      "./sqlite": ["SqliteSnapshotStore", "SqliteCancelSignals", "SqliteServerStore", "SqliteMemoryStore"],
      "./postgres": ["PostgresSnapshotStore", "PostgresCancelSignals", "PostgresServerStore", "PostgresWithRedisServerStore", "PostgresMemoryStore", "migratePostgres"],
      "./dify": ["parseDifyYaml", "readDifyGraph", "registerDify"],
      "./render": ["canvasGraphModel", "toMermaid", "renderGraphSvg", "renderGraphHtml", "renderTrace"],
      "./knowledge": ["buildIndex", "updateIndex", "localKnowledgeBase"],
      "./testing": ["startMockLlmServer", "parseMockLlmScript"],
      "./graph": ["canvas", "ref", "sys", "env", "text", "CanvasBuildError"],
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
    const heavy = ["fastify", "bullmq", "pg", "ioredis", "playwright-core", "exceljs", "pdfkit", "docx", "@modelcontextprotocol/sdk", "elkjs", "prom-client", "undici", "mysql2", "better-sqlite3"];
    // Loaded when first used: a validation, a model call, a template, a YAML file, an HTML page.
    const onFirstUse = ["ajv", "openai", "lodash", "nunjucks", "yaml", "html-to-text", "htmlparser2", "csv-parse", "jsonpath-plus"];
    const out = inChild(
      `import { createRequire } from "node:module"; const core = await import(${JSON.stringify(pkg.name)}); const require = createRequire(import.meta.url);` +
        `const packages = () => [...new Set(Object.keys(require.cache).map((p) => p.match(/node_modules\\/((@[^/]+\\/)?[^/]+)/)?.[1]).filter(Boolean))];` +
        `const atImport = packages(); core.validateDsl({ components: {} }); console.log(JSON.stringify({ atImport, afterValidation: packages() }));`,
    );
    const { atImport, afterValidation } = JSON.parse(out) as { atImport: string[]; afterValidation: string[] };
    expect(atImport.filter((name) => heavy.includes(name) || onFirstUse.includes(name))).toEqual([]);
    // The list is real: validating a DSL loads ajv.
    expect(afterValidation).toContain("ajv");
  });
});

/**
 * Every package a command loads, ESM and CommonJS alike: a resolve hook (registered by an
 * `--import` module) and CommonJS's resolver report each file under node_modules on stderr.
 */
function packagesLoadedBy(args: string[]): string[] {
  const name = String.raw`const packageOf = (file) => String(file).match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/)?.[1];`;
  const hook = `${name} export async function resolve(specifier, context, next) { const found = await next(specifier, context); const p = packageOf(found.url); if (p) process.stderr.write("[package] " + p + "\\n"); return found; }`;
  const main =
    `import Module, { register } from "node:module"; ${name} register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));` +
    `const resolveFilename = Module._resolveFilename; Module._resolveFilename = function (...args) { const file = resolveFilename.apply(this, args); const p = packageOf(file); if (p) process.stderr.write("[package] " + p + "\\n"); return file; };`;
  const child = spawnSync(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(main)}`, ...args], { encoding: "utf8", cwd: resolve("."), timeout: 60_000 });
  expect(child.status, child.stderr).toBe(0);
  return [...new Set([...child.stderr.matchAll(/^\[package\] (.+)$/gm)].map((m) => m[1]))];
}

describe("the CLI", () => {
  it("canvasflow run with a file session loads no server, queue, database driver or optional package", () => {
    const folder = mkdtempSync(join(tmpdir(), "canvasflow-cli-loads-"));
    try {
      const loaded = packagesLoadedBy(["dist/src/cli/bin.js", "run", "fixtures/hello.json", "--query", "Ada", "--session", join(folder, "session.json")]);
      const heavy = [...Object.keys(pkg.optionalDependencies), "fastify", "@fastify/swagger-ui", "ioredis", "undici"];
      expect(loaded.filter((name) => heavy.includes(name))).toEqual([]);
      // The hook sees what loads: the validator, and a package loaded on first use.
      expect(loaded).toContain("ajv");
      expect(packagesLoadedBy(["dist/src/cli/bin.js", "graph", "fixtures/hello.json", "--format", "svg"])).toContain("elkjs");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
