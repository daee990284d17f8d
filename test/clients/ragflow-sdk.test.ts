/**
 * RAGFlow's official Python SDK, unmodified (../shared/clients/ragflow-sdk), against a server on
 * 127.0.0.1: test_ragflow_sdk.py drives it through python3 -m pytest, and each of its cases is a
 * test here, so each counts in the suite's totals and a failing case fails the suite.
 *
 * The server is the one `canvasflow serve --mock-llm` makes: a SQLite store, one tenant's
 * key, the mock LLM with no script. pytest runs once, when the first case is reached (not in
 * beforeAll: a failing beforeAll would report the cases as skipped, not failed).
 */
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, it } from "vitest";
import { createApiKey } from "../../src/server/store/api-keys.js";
import { createLlmProvider } from "../../src/llm/provider.js";
import { createServer } from "../../src/server/app.js";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import { startMockLlmServer } from "../../src/llm/mock-server.js";
import { collectPytestCases, expectPytestCasePassed, runPytest, type PytestRun, type RunningPytest } from "../helpers/pytest.js";
import { sharedCandidates, sharedFolder } from "../helpers/shared.js";
import { scratchDir } from "../helpers/scratch.js";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/** Relative to the project root (pytest runs there). */
const PYTEST_FILE = "test/clients/test_ragflow_sdk.py";
/** In the shared folder beside the project, never copied into it; `shim/` stands in for beartype and the package metadata. */
const SDK_INNER = "clients/ragflow-sdk";
const SDK = join(sharedFolder(SDK_INNER) ?? resolve(ROOT, "../shared"), SDK_INNER);
const PYTEST_TIMEOUT_MS = 180_000;

function sdkPythonPath(): string {
  if (!existsSync(join(SDK, "ragflow_sdk", "ragflow.py"))) {
    throw new Error(`RAGFlow's Python SDK is not in ${sharedCandidates().map((shared) => join(shared, SDK_INNER)).join(", ")}: these tests need it there, unmodified (or set CANVASFLOW_SHARED)`);
  }
  return [SDK, join(SDK, "shim"), process.env.PYTHONPATH].filter(Boolean).join(":");
}

function collect(): { cases: string[]; error?: Error } {
  try {
    return { cases: collectPytestCases(ROOT, PYTEST_FILE, { PYTHONPATH: sdkPythonPath() }) };
  } catch (error) {
    return { cases: [], error: error as Error };
  }
}

const collected = collect();
const scratch = scratchDir("canvasflow-ragflow-sdk-");
const cleanups: Array<() => Promise<void> | void> = [];
let pytest: RunningPytest | undefined;
let run: Promise<PytestRun> | undefined;

async function startServerAndPytest(): Promise<PytestRun> {
  const mock = await startMockLlmServer({});
  cleanups.push(() => mock.close());
  const llm = createLlmProvider({ providers: { mock: { baseURL: mock.url } }, defaultModel: { provider: "mock", model: "mock" } }, {});
  const store = new SqliteServerStore({ file: join(scratch.dir, "data", "canvasflow.db") });
  const { key } = await createApiKey(store, { tenant: "sdk-tenant", name: "ragflow sdk" });
  const app = createServer({ store, canvas: { services: { llm } } });
  cleanups.push(async () => {
    const closing = app.close();
    app.server.closeAllConnections();
    await closing;
    await store.close();
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };
  pytest = runPytest(ROOT, PYTEST_FILE, { PYTHONPATH: sdkPythonPath(), CANVASFLOW_BASE_URL: `http://127.0.0.1:${port}`, CANVASFLOW_API_KEY: key }, join(scratch.dir, "report.xml"));
  return pytest.finished;
}

afterAll(async () => {
  pytest?.kill();
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch.dir, { recursive: true, force: true });
});

describe("RAGFlow's Python SDK (ragflow_sdk 0.27.0, unmodified) through pytest", () => {
  if (collected.error) {
    it("pytest lists the SDK's cases", () => {
      throw collected.error;
    });
  }
  for (const name of collected.cases) {
    it(
      name,
      async () => {
        expectPytestCasePassed(await (run ??= startServerAndPytest()), name);
      },
      PYTEST_TIMEOUT_MS,
    );
  }
  it("pytest ran every listed case and exited 0", async () => {
    const result = await (run ??= startServerAndPytest());
    const missing = collected.cases.filter((name) => !result.cases.has(name));
    if (missing.length > 0 || result.exitCode !== 0) throw new Error(`pytest exited ${result.exitCode}; cases not in its report: ${missing.join(", ") || "none"}\n${result.output}`);
  }, PYTEST_TIMEOUT_MS);
});
