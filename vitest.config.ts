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
  "test/engine/plan.test.ts",
  "test/engine/regressions.test.ts",
  "test/engine/run.test.ts",
  "test/engine/schemas.test.ts",
  "test/engine/state.test.ts",
  "test/fuzz/object-mutants.test.ts",
  "test/knowledge/scoring.test.ts",
  "test/llm/config.test.ts",
  "test/llm/provider.test.ts",
  "test/llm/token-slices.test.ts",
  "test/migrate/chunker-renames.test.ts",
  "test/migrate/corpus.test.ts",
  "test/migrate/graph-only.test.ts",
  "test/migrate/legacy.test.ts",
  "test/migrate/runner.test.ts",
  "test/policy/policy.test.ts",
  "test/pool/append.test.ts",
  "test/pool/path.test.ts",
  "test/pool/pool.test.ts",
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
  "test/util/close-names.test.ts",
  "test/util/once.test.ts",
  "test/util/optional-package.test.ts",
  "test/util/turns.test.ts",
  "test/util/values.test.ts",
];

const shared = { testTimeout: 30_000, hookTimeout: 30_000 };

export default defineConfig({
  test: {
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
        },
      },
      {
        test: {
          ...shared,
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: UNIT_TESTS,
          pool: "forks",
        },
      },
    ],
  },
});
