/**
 * `canvasflow mock-llm [--port N] [--script FILE]`: the mock OpenAI-compatible server on
 * 127.0.0.1 until Ctrl+C. Prints the base URL and how to point canvasflow (or any OpenAI client)
 * at it; logs one line per request on stderr.
 */
import { startMockLlmServer } from "../llm/mock-server.js";
import { MockScriptError, loadMockLlmScript } from "../llm/mock-script.js";
import { stopRequested, type CliIO } from "./io.js";
import { integerFlag } from "./numeric-flags.js";
import { EXIT } from "./run-command.js";

export interface MockLlmArgs {
  port?: string;
  script?: string;
}

function portNumber(value: string | undefined): number {
  return value === undefined ? 0 : integerFlag("--port", value, { min: 0, max: 65535 });
}

export async function mockLlmCommand(args: MockLlmArgs, io: CliIO): Promise<number> {
  const port = portNumber(args.port);
  let script;
  try {
    script = args.script === undefined ? undefined : await loadMockLlmScript(args.script);
  } catch (error) {
    if (!(error instanceof MockScriptError)) throw error;
    io.err(`${error.message}\n`);
    return EXIT.usage;
  }
  let server;
  try {
    server = await startMockLlmServer({ port, ...(script ? { script } : {}), log: (line) => io.err(`${line}\n`) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.err(`canvasflow: cannot start the mock LLM on 127.0.0.1:${port}: ${code === "EADDRINUSE" ? "the port is in use" : (error as Error).message}\n`);
    return EXIT.failed;
  }
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const replies = script
    ? `replies from ${args.script} (${count(script.rules?.length ?? 0, "rule")}, ${count(script.embeddings?.length ?? 0, "embedding rule")}, ${count(script.rerank?.length ?? 0, "rerank rule")}), else as without a script`
    : "an echo of the last user message; when tools are offered, first one call to the first tool";
  io.stdout.write(
    [
      `mock LLM (OpenAI-compatible) listening at ${server.url}`,
      `  replies: ${replies}`,
      "  use it from canvasflow, either with environment variables:",
      `    OPENAI_BASE_URL=${server.url} OPENAI_API_KEY=mock canvasflow run FILE`,
      "  or in canvasflow.config.json:",
      `    {"providers": {"mock": {"baseURL": "${server.url}"}}, "defaultModel": {"provider": "mock"}}`,
      "  (canvasflow run FILE --mock-llm starts a mock of its own)",
      "Ctrl+C stops it.",
      "",
    ].join("\n"),
  );
  await stopRequested(io);
  await server.close();
  io.err("mock LLM stopped\n");
  return 0;
}
