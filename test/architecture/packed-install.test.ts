/**
 * The package as its users get it (issue 25): `npm pack`, then the tarball installed into two
 * empty folders from the local npm cache, once as `npm install` does by default and once with
 * `--omit=optional`.
 *
 * - Default: a strict TypeScript file importing every entry in `exports` (one symbol each, used)
 *   type-checks against the installed declarations (no skipLibCheck) and runs.
 * - Lean: every entry still imports, the core runs a canvas, and each feature whose optional
 *   package is missing (the server, graph layout, a tool, `canvasflow serve`) fails with a
 *   MissingPackageError naming the package, the feature and `npm install …`.
 *
 * It prints each install's node_modules size and package count (docs/performance.md, "Install
 * size"). An integration test: it runs npm (with --prefer-offline, so a warm cache needs no
 * network) and the repository's tsc against dist/, which npm test builds first.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(".");
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { name: string; exports: Record<string, unknown>; optionalDependencies: Record<string, string> };
const specifiers = Object.keys(pkg.exports)
  .filter((name) => !name.includes("*"))
  .map((name) => (name === "." ? pkg.name : `${pkg.name}/${name.slice(2)}`));

let work: string;
const folders = { full: "", lean: "" };
const sizes: Record<string, { bytes: number; packages: number; seconds: number }> = {};

/** Package folders under node_modules (scoped ones and nested node_modules included). */
function countPackages(modules: string): number {
  if (!existsSync(modules)) return 0;
  let count = 0;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const path = join(modules, entry.name);
    if (entry.name.startsWith("@")) count += countPackages(path);
    else if (existsSync(join(path, "package.json"))) count += 1 + countPackages(join(path, "node_modules"));
  }
  return count;
}

/** The package.json of each package at the top of node_modules. */
function installedPackageJsons(modules: string): Array<{ dependencies?: Record<string, string> }> {
  return readdirSync(modules, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .flatMap((entry) => (entry.name.startsWith("@") ? readdirSync(join(modules, entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name]))
    .map((name) => join(modules, name, "package.json"))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")) as { dependencies?: Record<string, string> });
}

async function install(folder: string, tarball: string, extra: string[]): Promise<void> {
  mkdirSync(folder);
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const started = Date.now();
  // Install scripts run, as for a user: better-sqlite3 builds (or downloads) its native module in its own.
  // Beside the whole suite on two cores that build alone has taken over four minutes.
  await run("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...extra], { cwd: folder, timeout: 600_000 });
  sizes[folder] = { bytes: Number(execFileSync("du", ["-sb", join(folder, "node_modules")], { encoding: "utf8" }).split("\t")[0]), packages: countPackages(join(folder, "node_modules")), seconds: (Date.now() - started) / 1000 };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "canvasflow-packed-"));
  // dist/ is built already (npm test builds first): no prepare script again.
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work], { cwd: root, encoding: "utf8", timeout: 120_000 }).trim().split("\n").at(-1)!;
  const tarball = join(work, packed);
  folders.full = join(work, "default");
  folders.lean = join(work, "lean");
  await Promise.all([install(folders.full, tarball, []), install(folders.lean, tarball, ["--omit=optional"])]);
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  for (const [label, folder] of [["default", folders.full], ["--omit=optional", folders.lean]] as const) {
    console.log(`npm install canvasflow ${label}: node_modules ${mb(sizes[folder].bytes)} MB, ${sizes[folder].packages} packages (installed in ${sizes[folder].seconds.toFixed(0)} s)`);
  }
}, 720_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
}, 120_000);

const CONSUMER_TS = `
import { loadCanvas } from "canvasflow";
import { createServer, MemoryServerStore } from "canvasflow/server";
import { RunQueue } from "canvasflow/worker";
import { RedisSnapshotStore } from "canvasflow/redis";
import { PostgresSnapshotStore } from "canvasflow/postgres";
import { SqliteSnapshotStore } from "canvasflow/sqlite";
import { parseDifyYaml } from "canvasflow/dify";
import { canvasGraphModel, renderGraphSvg } from "canvasflow/render";
import { buildIndex } from "canvasflow/knowledge";
import { parseMockLlmScript } from "canvasflow/testing";
import { canvas as graphCanvas, ref, text } from "canvasflow/graph";

const canvas = await loadCanvas("node_modules/canvasflow/fixtures/hello.json");
let said = "";
for await (const event of canvas.run({ query: "Ada" })) if (event.event === "message") said += event.data.content;
const svg: string = await renderGraphSvg(canvasGraphModel(canvas));
const app = createServer({ store: new MemoryServerStore() });
const health = await app.inject({ method: "GET", url: "/api/v1/system/healthz" });
await app.close();
const dify: unknown = parseDifyYaml("app:\\n  name: x\\n");
const script = parseMockLlmScript({ rules: [] });
const built = graphCanvas({ inputs: { name: { name: "Name", type: "line" } } });
built.edge(built.begin, built.add("Message:Hi", "Message", { content: [text\`Hi \${ref(built.begin, "name")}\`] }));
const graph = Object.keys(built.build().components).length;
// SQLite runs here: its driver is a native module the install built or downloaded.
const sqlite = new SqliteSnapshotStore({ file: "sessions/runs.db" });
const version: string = await sqlite.save("k", { components: {} });
const sqliteLoaded = (await sqlite.load("k"))?.version === version;
await sqlite.close();
// Typed, not made: they would connect to Redis or PostgreSQL.
const backends: Array<(() => RunQueue) | (() => RedisSnapshotStore) | (() => PostgresSnapshotStore) | typeof buildIndex> = [() => new RunQueue(), () => new RedisSnapshotStore(), () => new PostgresSnapshotStore(), buildIndex];
console.log(JSON.stringify({ said, svg: svg.startsWith("<svg"), health: health.statusCode, dify: typeof dify, script: typeof script, backends: backends.length, sqliteLoaded, graph }));
`;

const LEAN_MJS = `
const found = {};
const failure = (error) => ({ name: error.name, code: error.code, packageNames: error.packageNames, message: error.message });
for (const specifier of ${JSON.stringify(specifiers)}) found[specifier] = Object.keys(await import(specifier)).length;
const { loadCanvas } = await import("canvasflow");
const canvas = await loadCanvas("node_modules/canvasflow/fixtures/hello.json");
let said = "";
for await (const event of canvas.run({ query: "Ada" })) if (event.event === "message") said += event.data.content;
const server = await import("canvasflow/server");
let serverError;
try { server.createServer({ store: new server.MemoryServerStore() }); } catch (error) { serverError = failure(error); }
const render = await import("canvasflow/render");
const layoutError = await render.renderGraphSvg(render.canvasGraphModel(canvas)).then(() => undefined, failure);
// A tool whose library is missing: DocGenerator writes its PDF with pdfkit.
const node = (name, params, downstream, upstream) => ({ obj: { component_name: name, params }, downstream, upstream });
const doc = await loadCanvas({
  components: {
    begin: node("Begin", {}, ["DocGenerator:D"], []),
    "DocGenerator:D": node("DocGenerator", { content: "text" }, ["Message:Out"], ["begin"]),
    "Message:Out": node("Message", { content: ["done"] }, [], ["DocGenerator:D"]),
  },
  globals: {}, variables: {}, history: [], path: [], retrieval: [],
});
const docEvents = [];
for await (const event of doc.run({ query: "x" })) docEvents.push(JSON.stringify(event));
const sqlite = await import("canvasflow/sqlite");
let sqliteError;
try { new sqlite.SqliteSnapshotStore({ file: "runs.db" }); } catch (error) { sqliteError = failure(error); }
console.log(JSON.stringify({ found, said, serverError, layoutError, sqliteError, docError: docEvents.find((e) => e.includes("pdfkit")) }));
`;

describe("the packed package", () => {
  it("installed by default: a strict TypeScript file importing every entry type-checks and runs", async () => {
    expect(specifiers).toHaveLength(11);
    writeFileSync(join(folders.full, "consumer.ts"), CONSUMER_TS);
    for (const specifier of specifiers) expect(CONSUMER_TS, specifier).toContain(`from "${specifier}"`);
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    // @types/node from this repository, as a TypeScript project of the user's would have it.
    const flags = ["--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "--typeRoots", join(root, "node_modules/@types"), "--outDir", "out"];
    await run(process.execPath, [tsc, ...flags, "consumer.ts"], { cwd: folders.full, timeout: 180_000 }).catch((error: { stdout?: string }) => {
      throw new Error(`tsc: ${error.stdout ?? String(error)}`);
    });
    const { stdout } = await run(process.execPath, ["out/consumer.js"], { cwd: folders.full, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ said: expect.stringContaining("Hello, Ada!"), svg: true, health: 200, dify: "object", script: "object", backends: 4, sqliteLoaded: true, graph: 2 });
  }, 240_000);

  it("installed with --omit=optional: the core runs, and a feature whose package is missing names it and its install command", async () => {
    // No optional package is installed, unless a package that is installed depends on it.
    const needed = new Set(installedPackageJsons(join(folders.lean, "node_modules")).flatMap((p) => Object.keys(p.dependencies ?? {})));
    for (const name of Object.keys(pkg.optionalDependencies).filter((name) => !needed.has(name))) expect(existsSync(join(folders.lean, "node_modules", name)), name).toBe(false);
    expect(existsSync(join(folders.lean, "node_modules/@fastify/cors"))).toBe(false);
    expect(existsSync(join(folders.lean, "node_modules/fastify"))).toBe(false);
    writeFileSync(join(folders.lean, "lean.mjs"), LEAN_MJS);
    const { stdout } = await run(process.execPath, ["lean.mjs"], { cwd: folders.lean, timeout: 60_000 });
    const out = JSON.parse(stdout) as { found: Record<string, number>; said: string; serverError: Record<string, unknown>; layoutError: Record<string, unknown>; sqliteError: Record<string, unknown>; docError?: string };
    // Every entry imports (none names a missing package statically).
    expect(Object.keys(out.found)).toEqual(specifiers);
    for (const count of Object.values(out.found)) expect(count).toBeGreaterThan(0);
    expect(out.said).toContain("Hello, Ada!");
    expect(out.serverError).toMatchObject({
      name: "MissingPackageError",
      code: "missing_package",
      packageNames: expect.arrayContaining(["fastify", "@fastify/cors", "@fastify/websocket", "@fastify/swagger-ui", "prom-client"]),
      message: expect.stringMatching(/^The HTTP server \(createServer, canvasflow serve\) needs the packages .*install them with `npm install fastify @fastify\/cors .*prom-client`$/),
    });
    expect(out.layoutError).toMatchObject({ name: "MissingPackageError", packageNames: ["elkjs"], message: expect.stringContaining("needs the package elkjs, which is not installed (it is optional): install it with `npm install elkjs`") });
    expect(out.sqliteError).toMatchObject({ name: "MissingPackageError", message: "SQLite needs the package better-sqlite3, which is not installed (it is optional): install it with `npm install better-sqlite3`" });
    expect(out.docError).toContain("DocGenerator (PDF) needs the package pdfkit, which is not installed (it is optional): install it with `npm install pdfkit`");
  }, 120_000);

  it("installed with --omit=optional: canvasflow runs a canvas, and canvasflow serve says what to install, with no stack trace", async () => {
    // The command npm linked for the package's bin, as `npx canvasflow` runs it.
    const bin = join(folders.lean, "node_modules/.bin/canvasflow");
    const ran = await run(process.execPath, [bin, "run", "node_modules/canvasflow/fixtures/hello.json", "--query", "Ada"], { cwd: folders.lean, timeout: 60_000 });
    expect(ran.stdout).toContain("Hello, Ada!");
    const failed = await run(process.execPath, [bin, "serve", "--port", "0"], { cwd: folders.lean, timeout: 60_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    // Its store by default is SQLite: better-sqlite3 is named with the server's packages, in one message.
    expect(failed?.stderr).toMatch(/^canvasflow: The HTTP server \(createServer, canvasflow serve\) needs the packages fastify, @fastify\/cors, .* install them with `npm install fastify @fastify\/cors .*prom-client better-sqlite3`\n$/);
  }, 120_000);

  it("the lean install is smaller than the default one, in bytes and in packages", () => {
    expect(sizes[folders.lean].bytes).toBeLessThan(sizes[folders.full].bytes);
    expect(sizes[folders.lean].packages).toBeLessThan(sizes[folders.full].packages);
  });
});
