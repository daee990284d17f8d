import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * The unit project: files that test pure modules in this process. None starts a service, a child
 * process or a browser, or opens a socket (test/helpers/unit-guard.ts fails a test that tries).
 * Every other file under test/ is in the integration project. A new test file lands in
 * integration; move it here when it needs none of those.
 */
export const UNIT_TESTS = [
  "test/architecture/imports.test.ts",
  "test/cli/cli.test.ts",
  "test/cli/run-flags.test.ts",
  "test/cli/session-lock.test.ts",
  "test/clients/junit.test.ts",
  "test/components/data-operations.test.ts",
  "test/components/form.test.ts",
  "test/components/list-operations.test.ts",
  "test/components/providers.test.ts",
  "test/components/string-transform.test.ts",
  "test/components/switch.test.ts",
  "test/components/variable-aggregator.test.ts",
  "test/components/variable-assigner.test.ts",
  "test/config/tracing.test.ts",
  "test/conformance/langgraph/channels.test.ts",
  "test/conformance/langgraph/checkpoint.test.ts",
  "test/conformance/langgraph/errors.test.ts",
  "test/conformance/langgraph/fan-out.test.ts",
  "test/conformance/langgraph/graph-structure.test.ts",
  "test/conformance/langgraph/graph.test.ts",
  "test/conformance/langgraph/interrupt.test.ts",
  "test/conformance/langgraph/messages-reducer.test.ts",
  "test/conformance/langgraph/node-error-handler.test.ts",
  "test/conformance/langgraph/pregel-state-graph.test.ts",
  "test/conformance/langgraph/pregel-threads.test.ts",
  "test/conformance/langgraph/state.test.ts",
  "test/corpus/all-json.test.ts",
  "test/corpus/ragflow-head.test.ts",
  "test/dify/bad-input.test.ts",
  "test/dify/session.test.ts",
  "test/docs/security-config.test.ts",
  "test/dsl/nesting.test.ts",
  "test/dsl/structure.test.ts",
  "test/dsl/validate.test.ts",
  "test/durable/follow.test.ts",
  "test/durable/long-loop-log.test.ts",
  "test/durable/session.test.ts",
  "test/engine/checkpoint.test.ts",
  "test/engine/containers.test.ts",
  "test/engine/edges-plan.test.ts",
  "test/engine/event-values.test.ts",
  "test/engine/interrupt.test.ts",
  "test/engine/plan.test.ts",
  "test/engine/progress.test.ts",
  "test/engine/regressions.test.ts",
  "test/engine/run.test.ts",
  "test/engine/schemas.test.ts",
  "test/engine/state-updates.test.ts",
  "test/engine/state.test.ts",
  "test/fuzz/object-mutants.test.ts",
  "test/graph/builder.test.ts",
  "test/graph/builder.types.test.ts",
  "test/graph/params-generated.test.ts",
  "test/graph/state-graph.test.ts",
  "test/graph/state-graph.types.test.ts",
  "test/knowledge/scoring.test.ts",
  "test/llm/config.test.ts",
  "test/llm/provider.test.ts",
  "test/llm/token-slices.test.ts",
  "test/migrate/chunker-renames.test.ts",
  "test/migrate/corpus.test.ts",
  "test/migrate/graph-only.test.ts",
  "test/migrate/legacy.test.ts",
  "test/migrate/runner.test.ts",
  "test/pipelines/chunking/chunker-params.test.ts",
  "test/pipelines/chunking/pdf-positions.test.ts",
  "test/pipelines/chunking/python-differential.test.ts",
  "test/pipelines/chunking/python-regex.test.ts",
  "test/pipelines/chunking/ragflow-parity.test.ts",
  "test/pipelines/chunking/title-chunker.test.ts",
  "test/pipelines/chunking/token-chunker-json.test.ts",
  "test/pipelines/chunking/token-chunker.test.ts",
  "test/pipelines/chunking/tokens.test.ts",
  "test/pipelines/front-end.test.ts",
  "test/pipelines/parsing/codec.test.ts",
  "test/pipelines/parsing/docx.test.ts",
  "test/pipelines/parsing/email.test.ts",
  "test/pipelines/parsing/epub.test.ts",
  "test/pipelines/parsing/html.test.ts",
  "test/pipelines/parsing/json.test.ts",
  "test/pipelines/parsing/markdown-table.test.ts",
  "test/pipelines/parsing/markdown.test.ts",
  "test/pipelines/parsing/pdf.test.ts",
  "test/pipelines/parsing/read-document.test.ts",
  "test/pipelines/parsing/setups.test.ts",
  "test/pipelines/parsing/sheet-values.test.ts",
  "test/pipelines/parsing/slides.test.ts",
  "test/pipelines/parsing/spreadsheet.test.ts",
  "test/pipelines/parsing/text-code.test.ts",
  "test/pipelines/parsing/toc-lines.test.ts",
  "test/pipelines/parsing/toc.test.ts",
  "test/pipelines/parsing/zip.test.ts",
  "test/pipelines/tokens.test.ts",
  "test/policy/policy.test.ts",
  "test/pool/append.test.ts",
  "test/pool/path.test.ts",
  "test/pool/pool.test.ts",
  "test/pool/reducers.test.ts",
  "test/pool/variables.test.ts",
  "test/refs/grammar.test.ts",
  "test/refs/spaced-references.test.ts",
  "test/refs/template.test.ts",
  "test/render/dify-model.test.ts",
  "test/render/graph-cli.test.ts",
  "test/render/graph-model.test.ts",
  "test/render/layered-layout.test.ts",
  "test/render/mermaid.test.ts",
  "test/sandbox/egress/allow-list.test.ts",
  "test/sandbox/javascript.test.ts",
  "test/server/memory-store.test.ts",
  "test/server/setup-gate.test.ts",
  "test/server/turn-record.test.ts",
  "test/server/turn.test.ts",
  "test/stores/flat-record.test.ts",
  "test/stores/memory-cancel.test.ts",
  "test/stores/memory-event-log.test.ts",
  "test/stores/memory-store.test.ts",
  "test/tracing/w3c.test.ts",
  "test/util/close-names.test.ts",
  "test/util/once.test.ts",
  "test/util/optional-package.test.ts",
  "test/util/turns.test.ts",
  "test/util/values.test.ts",
];

/**
 * Integration files that assert latencies of 100–200 ms (cancels across processes and servers,
 * Redis's command timeout): they run alone, after the rest, so that other test files do not take
 * the CPU they measure.
 */
export const LATENCY_TESTS = [
  "test/cli/durable-cancel.test.ts",
  "test/server/cancel.test.ts",
  "test/server/two-servers.test.ts",
  "test/stores/file-cancel.test.ts",
  "test/stores/postgres-cancel.test.ts",
  "test/stores/redis-cancel.test.ts",
  "test/stores/redis-store.test.ts",
  "test/stores/sqlite-cancel.test.ts",
];

/**
 * The integration files that take longest (kill tests with real processes, the stores on real
 * servers): started first, so that none of them starts last and runs on alone. vitest orders by
 * the last run's durations when it has them (not on a clean clone).
 */
const LONGEST_FIRST = [
  "test/fuzz/dsl-mutants.test.ts",
  "test/cli/durable-crash.test.ts",
  "test/server/crash.test.ts",
  "test/cli/cancel.test.ts",
  "test/worker/serve-queue.test.ts",
  "test/render/diagram-corpus.test.ts",
  "test/cli/serve.test.ts",
  "test/server/code-sandbox.test.ts",
  "test/server/ws-flood.test.ts",
  "test/server/two-servers.test.ts",
  "test/stores/postgres-store.test.ts",
  "test/worker/workers.test.ts",
  "test/components/browser.test.ts",
  "test/tools/mcp.test.ts",
  "test/cli/mcp-list.test.ts",
  "test/server/ws-limits.test.ts",
  "test/server/playground.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    return sorted.map((spec, index) => ({ spec, index })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index).map(({ spec }) => spec);
  }
}

const shared = { testTimeout: 30_000, hookTimeout: 30_000 };

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          include: UNIT_TESTS,
          setupFiles: ["test/helpers/unit-guard.ts"],
          // Pure modules, no global state left behind: one module cache per worker thread,
          // shared by the files it runs, instead of a fresh process per file.
          pool: "threads",
          isolate: false,
          // CPU-bound: one worker per core. Run before the integration project.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...UNIT_TESTS, ...LATENCY_TESTS],
          pool: "forks",
          // Mostly waiting (on child processes, servers, Redis, PostgreSQL, timers): more files
          // at once than cores. vitest's default on 2 cores is one file at a time.
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...shared,
          name: "integration-latency",
          include: LATENCY_TESTS,
          pool: "forks",
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
