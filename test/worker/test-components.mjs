/**
 * Test-only components for worker child processes, loaded with
 * `canvasflow worker --register test/worker/test-components.mjs` (see docs/workers.md).
 *
 * CrashWorker ends its worker process at once, as a crash would (the run's job stalls, and
 * another worker takes it over).
 */
export function register(registry) {
  registry.register({
    name: "CrashWorker",
    invoke() {
      process.exit(70);
    },
  });
}
