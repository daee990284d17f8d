/**
 * CodeExec under `canvasflow serve`, as an attacker with an ordinary API key would use it: a real
 * server process, a tenant whose agents try every way out of the code sandbox, and another tenant
 * served throughout. Each attempt must fail, or come back empty-handed, and the server must stay
 * up and answer the other tenant all along.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCli, type CliProcess } from "../helpers/cli-process.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { newKey, SERVING, waitFor } from "../helpers/serve-banner.js";
import { scratchDir } from "../helpers/scratch.js";

const SECRET = "sk-canvasflow-test-secret-0123456789";

const headers = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

interface Server {
  proc: CliProcess;
  base: string;
  data: string;
  attacker: string;
  victim: string;
}

let server: Server;

beforeAll(async () => {
  const folder = scratchDir("cf-code-sandbox-");
  const data = folder.dir;
  // No rate limits: the other tenant's steady traffic is what is measured.
  const config = folder.write("canvasflow.config.json", {
    codeExec: { timeoutMs: 3000, memoryMb: 128, outputBytes: 1024 * 1024, processes: 16 },
    server: { rateLimits: { completionsPerMinute: 0, requestsPerMinute: 0 } },
  });
  const [attacker, victim] = [await newKey(data, "attacker"), await newKey(data, "victim")];
  // The server holds a model key in its environment, as a real deployment would.
  const proc = spawnCli(["serve", "--port", "0", "--data", data, "--config", config, "--mock-llm"], { env: { ...process.env, OPENAI_API_KEY: SECRET } });
  const base = await waitFor("the banner", () => SERVING.exec(proc.stderr())?.[1]);
  server = { proc, base, data, attacker, victim };
}, 60_000);

afterAll(async () => {
  server?.proc.child.kill("SIGTERM");
  await server?.proc.exited;
});

async function createAgent(key: string, dsl: unknown): Promise<string> {
  const response = await fetch(`${server.base}/api/v1/agents`, { method: "POST", headers: headers(key), body: JSON.stringify({ title: `agent ${Math.random()}`, dsl }) });
  const answer = (await response.json()) as { code: number; data: { id: string }; message?: string };
  expect(answer.code, answer.message).toBe(0);
  return answer.data.id;
}

interface Outcome {
  error?: string;
  result?: unknown;
  finished: Record<string, unknown>;
}

/** Run a turn over SSE; the CodeExec node's error or result, and the run's end. */
async function run(key: string, agentId: string): Promise<Outcome> {
  const response = await fetch(`${server.base}/api/v1/agents/chat/completions`, { method: "POST", headers: headers(key), body: JSON.stringify({ agent_id: agentId, query: "go", stream: true }) });
  const text = await response.text();
  const events = text
    .split("\n\n")
    .filter((frame) => frame.startsWith("data:") && frame !== "data:[DONE]")
    .map((frame) => JSON.parse(frame.slice(5)) as { event: string; data: Record<string, unknown> });
  const code = events.find((e) => e.event === "node_finished" && e.data.component_id === "CodeExec:Attack");
  const finished = events.find((e) => e.event === "workflow_finished");
  expect(code, text.slice(0, 500)).toBeDefined();
  const outputs = (code!.data.outputs ?? {}) as Record<string, unknown>;
  return { error: code!.data.error as string | undefined, result: outputs.result, finished: finished!.data };
}

function attack(lang: "python" | "javascript", script: string) {
  return canvasDsl({
    begin: node("Begin", {}, ["CodeExec:Attack"]),
    "CodeExec:Attack": node("CodeExec", { lang, script, arguments: {}, outputs: { result: { type: "Any", value: "" } } }, ["Message:Out"]),
    "Message:Out": node("Message", { content: ["{CodeExec:Attack@result}"] }),
  });
}

const py = (body: string) => `def main():\n${body
  .split("\n")
  .map((line) => `    ${line}`)
  .join("\n")}`;

describe("CodeExec under canvasflow serve, attacked", () => {
  it("every escape attempt fails, and the server serves the other tenant throughout", async () => {
    // The other tenant's traffic, all through the battery.
    const hello = await createAgent(server.victim, canvasDsl({ begin: node("Begin", {}, ["Message:Hi"]), "Message:Hi": node("Message", { content: ["hello {sys.query}"] }) }));
    let served = 0;
    const refused: string[] = [];
    let attacking = true;
    const background = (async () => {
      while (attacking) {
        const started = Date.now();
        try {
          const response = await fetch(`${server.base}/api/v1/agents/chat/completions`, { method: "POST", headers: headers(server.victim), body: JSON.stringify({ agent_id: hello, query: "there" }) });
          const answer = (await response.json()) as { code: number; data?: { data?: { content?: string } } };
          if (answer.code === 0 && answer.data?.data?.content === "hello there" && Date.now() - started < 5_000) served++;
          else refused.push(JSON.stringify(answer).slice(0, 200));
        } catch (error) {
          refused.push(String(error));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const serverPort = Number(new URL(server.base).port);
    const attacks: Array<[name: string, lang: "python" | "javascript", script: string, check: (outcome: Outcome) => void]> = [
      ["the constructor-chain escape", "javascript", "function main() { return this.constructor.constructor('return process')().getBuiltinModule('child_process').execFileSync('id').toString(); }", (o) => expect(o.error).toMatch(/ReferenceError: 'process' is not defined/)],
      ["process", "javascript", "function main() { return process.env; }", (o) => expect(o.error).toMatch(/'process' is not defined/)],
      ["require", "javascript", "function main() { return require('node:fs').readFileSync('/etc/passwd', 'utf8'); }", (o) => expect(o.error).toMatch(/'require' is not defined/)],
      ["import()", "javascript", "async function main() { const cp = await import('node:child_process'); return cp.execSync('id').toString(); }", (o) => expect(o.error).toMatch(/JavaScript error/)],
      ["child_process through any global", "javascript", "function main() { const g = Function('return this')(); return Object.getOwnPropertyNames(g).filter((n) => /^(process|require|Buffer|fetch|module_load|os|std)$|child|worker/i.test(n)); }", (o) => expect([o.error ?? null, o.result]).toEqual([null, []])],
      ["child_process from Python, to see the server's processes", "python", py(`import os, subprocess\nreturn [subprocess.run(['id', '-u'], capture_output=True, text=True).stdout.strip(), sorted(p for p in os.listdir('/proc') if p.isdigit())[:10], os.path.exists('/proc/${server.proc.child.pid}/environ')]`), (o) => {
        const [uid, pids, serverVisible] = o.result as [string, string[], boolean];
        expect(uid).not.toBe("0");
        expect(pids.length).toBeLessThanOrEqual(4);
        expect(serverVisible).toBe(false);
      }],
      ["reading /etc/passwd", "python", py("return open('/etc/passwd').read()"), (o) => expect(o.error).toMatch(/PermissionError|FileNotFoundError/)],
      ["reading /etc/passwd (JavaScript)", "javascript", "function main() { return typeof std === 'undefined' && typeof os === 'undefined' ? 'no file access' : 'files'; }", (o) => expect(o.result).toBe("no file access")],
      ["reading the server's database (its key hashes, every session)", "python", py(`import os\nreturn [os.listdir(${JSON.stringify(server.data)}), open(${JSON.stringify(`${server.data}/canvasflow.db`)}, 'rb').read(16)]`), (o) => expect(o.error).toMatch(/FileNotFoundError|PermissionError/)],
      ["reading the server's project files", "python", py(`return open(${JSON.stringify(`${process.cwd()}/package.json`)}).read()`), (o) => expect(o.error).toMatch(/FileNotFoundError|PermissionError/)],
      ["reading environment variables", "python", py(`import os\nreturn [v for v in os.environ.values() if ${JSON.stringify(SECRET)} in v] + [k for k in os.environ if 'OPENAI' in k]`), (o) => expect([o.error ?? null, o.result]).toEqual([null, []])],
      ["reading the server's environment through /proc", "python", py("return open('/proc/1/environ').read()"), (o) => expect(o.error ?? String(o.result)).not.toContain(SECRET)],
      ["a socket to the server on 127.0.0.1", "python", py(`import socket\nsocket.create_connection(('127.0.0.1', ${serverPort}), timeout=2)\nreturn 'connected'`), (o) => expect(o.error).toMatch(/ConnectionRefusedError|OSError/)],
      ["a socket to Redis on 127.0.0.1", "python", py("import socket\nsocket.create_connection(('127.0.0.1', 6379), timeout=2)\nreturn 'connected'"), (o) => expect(o.error).toMatch(/ConnectionRefusedError|OSError/)],
      ["a socket to a public-looking address", "python", py("import socket\nsocket.create_connection(('203.0.113.7', 80), timeout=2)\nreturn 'connected'"), (o) => expect(o.error).toMatch(/Network is unreachable|OSError|timed out/)],
      ["a fork bomb", "python", py("import os\nwhile True:\n    os.fork()"), (o) => expect(o.error).toMatch(/Resource temporarily unavailable|BlockingIOError/)],
      ["a 10 GB allocation (Python)", "python", py("return len(bytearray(10 * 1024 ** 3))"), (o) => expect(o.error).toMatch(/Python ran out of memory \(limit 128 MB\)/)],
      ["a 10 GB allocation (JavaScript)", "javascript", "function main() { return new Uint8Array(10 * 1024 ** 3).length; }", (o) => expect(o.error).toMatch(/RangeError|ran out of memory/)],
      ["an infinite loop (Python)", "python", py("while True:\n    pass"), (o) => expect(o.error).toMatch(/did not finish within 3 s/)],
      ["an infinite loop (JavaScript)", "javascript", "function main() { for (;;) {} }", (o) => expect(o.error).toMatch(/did not finish within 3 s/)],
      ["100 MB of output (Python)", "python", py("import sys\nfor _ in range(100):\n    sys.stdout.write('x' * (1 << 20))"), (o) => expect(o.error).toMatch(/printed more than 1 MiB/)],
      ["100 MB of output (JavaScript)", "javascript", "function main() { return 'x'.repeat(100 * 1024 * 1024); }", (o) => expect(o.error).toMatch(/larger than 1 MiB|ran out of memory/)],
    ];
    try {
      for (const [name, lang, script, check] of attacks) {
        const outcome = await run(server.attacker, await createAgent(server.attacker, attack(lang, script)));
        try {
          check(outcome);
        } catch (error) {
          throw new Error(`${name}: ${(error as Error).message}\n(outcome: ${JSON.stringify(outcome).slice(0, 400)})`);
        }
      }
    } finally {
      attacking = false;
      await background;
    }
    expect(refused).toEqual([]);
    expect(served).toBeGreaterThan(5);
    // Still up, and the model key never reached anything the attacker saw.
    expect(server.proc.child.exitCode).toBeNull();
    expect((await fetch(`${server.base}/api/v1/agents`, { headers: headers(server.victim) })).status).toBe(200);
  }, 180_000);
});
