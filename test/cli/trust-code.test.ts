/**
 * Who may run code outside the sandbox: `canvasflow run --trust-code` only. The config's codeExec
 * section reaches the sandbox; a server, its workers and createServer refuse trustCode.
 */
import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { ServerOptionsError } from "../../src/server/settings.js";
import { createWorker } from "../../src/worker/worker.js";
import { RunQueueError } from "../../src/worker/run-queue.js";
import { cli } from "../helpers/cli.js";
import { canvasDsl, finished, messageText, node, nodeFinished } from "../helpers/dsl.js";
import { defaultRegistry } from "../../src/api.js";
import { scratchDir } from "../helpers/scratch.js";

const { write } = scratchDir("canvasflow-cli-trust-");

const pythonCanvas = write(
  "python.json",
  canvasDsl({
    begin: node("Begin", {}, ["CodeExec:Py"]),
    "CodeExec:Py": node("CodeExec", { lang: "python", script: "import os\ndef main():\n    return 'uid ' + ('0' if os.getuid() == 0 else 'other')", arguments: {}, outputs: { result: { type: "String", value: "" } } }, ["Message:Out"]),
    "Message:Out": node("Message", { content: ["{CodeExec:Py@result}"] }),
  }),
);

describe("canvasflow run and the code sandbox", () => {
  it("runs Python in the sandbox by default, with the config's codeExec limits", async () => {
    const r = await cli(["run", pythonCanvas, "-q", "x"]);
    expect(finished(r.events).error).toBeUndefined();
    // As root, the sandbox runs the script as an unprivileged user.
    expect(messageText(r.events)).toBe("uid other");
    const slow = write("slow.json", canvasDsl({ begin: node("Begin", {}, ["CodeExec:Py"]), "CodeExec:Py": node("CodeExec", { lang: "python", script: "import time\ndef main():\n    time.sleep(30)", arguments: {} }) }));
    const config = write("limits.json", { codeExec: { timeoutMs: 500 } });
    const limited = await cli(["run", slow, "-q", "x", "--config", config]);
    expect(nodeFinished(limited.events, "CodeExec:Py").error).toBe("Python main did not finish within 0.5 s: the process was killed");
  });

  it("where no sandbox can start, fails with a clear error; --trust-code runs it anyway", async () => {
    const config = write("no-sandbox.json", { codeExec: { bwrap: "/nonexistent/bwrap" } });
    const refused = await cli(["run", pythonCanvas, "-q", "x", "--config", config]);
    expect(nodeFinished(refused.events, "CodeExec:Py").error).toContain("the code sandbox cannot start on this machine: /nonexistent/bwrap was not found");
    expect(nodeFinished(refused.events, "CodeExec:Py").error).toContain("pass --trust-code");
    const trusted = await cli(["run", pythonCanvas, "-q", "x", "--config", config, "--trust-code"]);
    expect(finished(trusted.events).error).toBeUndefined();
    expect(messageText(trusted.events)).toBe(process.getuid?.() === 0 ? "uid 0" : "uid other");
  });

  it("a config with an unknown codeExec key is refused, naming it", async () => {
    const config = write("bad.json", { codeExec: { timeout: 5 } });
    const r = await cli(["run", pythonCanvas, "-q", "x", "--config", config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("codeExec");
    expect(r.stderr).toContain("timeout");
  });
});

describe("servers refuse to trust code", () => {
  it("canvasflow serve and worker refuse a config with codeExec.trustCode", async () => {
    const config = write("trusting.json", { codeExec: { trustCode: true } });
    const data = scratchDir("canvasflow-trust-serve-").dir;
    const served = await cli(["serve", "--port", "0", "--data", data, "--config", config]);
    expect(served.code).toBe(2);
    expect(served.stderr).toContain("canvasflow: the config's codeExec.trustCode is true, but a server and its workers run every tenant's canvases as untrusted code");
    const worker = await cli(["worker", "--redis", "redis://127.0.0.1:6379", "--config", config]);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain("codeExec.trustCode is true");
  });

  it("createServer and createWorker refuse a codeExec service that trusts code", async () => {
    const make = () => createServer({ store: new InProcessServerStore(), canvas: { services: { codeExec: { trustCode: true } } } });
    expect(make).toThrow(ServerOptionsError);
    expect(make).toThrow("/canvas/services/codeExec/trustCode: is true, but a server and its workers run every tenant's canvases as untrusted code");
    await expect(createWorker({ redis: "redis://127.0.0.1:6379", registry: defaultRegistry, canvas: { services: { codeExec: { trustCode: true } } } })).rejects.toThrow(RunQueueError);
  });
});
