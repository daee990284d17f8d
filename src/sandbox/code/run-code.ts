/**
 * Running a script of a canvas's code node (RAGFlow's CodeExec, Dify's code node): JavaScript in
 * QuickJS (javascript.ts), Python in the bubblewrap sandbox (python.ts) — or, for a user who
 * trusts the canvas, as a plain Python process.
 *
 * A sandboxed Python script has no network. When the operator lists hosts
 * (`codeExec.networkAllow`), the run gets an egress proxy of its own (sandbox/egress/proxy.ts) on
 * a unix socket in a private folder, bound into the sandbox: only the listed hosts, each checked
 * by the egress guard at connect time, and nothing else. The proxy ends with the run.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EgressPolicy } from "../egress/guard.js";
import { startEgressProxy, type EgressProxy } from "../egress/proxy.js";
import { runJavaScript } from "./javascript.js";
import type { CodeSandboxSettings } from "./options.js";
import { runPython } from "./python.js";

type CodeLanguage = "python" | "javascript";

interface CodeRunOptions {
  signal?: AbortSignal;
  /** The egress guard of the run (asked for only when the script may use the network). */
  egress?: () => EgressPolicy;
}

/** Connections one script may have open through its proxy at once. */
const CODE_PROXY_CONNECTIONS = 16;

/** The JSON value main returned; rejects with an error naming what went wrong. */
export async function runCode(language: CodeLanguage, script: string, args: Record<string, unknown>, settings: CodeSandboxSettings, options: CodeRunOptions = {}): Promise<unknown> {
  if (language === "javascript") return runJavaScript(script, args, settings, options.signal);
  if (settings.trustCode || settings.network.size === 0) return runPython(script, args, settings, options.signal);
  if (!options.egress) throw new Error("codeExec.networkAllow lists hosts, but this run has no egress guard to check them with");
  const proxy = await codeProxy(settings, options.egress());
  try {
    return await runPython(script, args, settings, options.signal, { proxySocket: proxy.path });
  } finally {
    await proxy.close();
  }
}

/** A proxy for one run, on a socket that only the sandbox sees (its folder is this user's alone). */
async function codeProxy(settings: CodeSandboxSettings, policy: EgressPolicy): Promise<EgressProxy & { path: string }> {
  const folder = await mkdtemp(path.join(tmpdir(), "canvasflow-code-net-"));
  const socket = path.join(folder, "egress.sock");
  let proxy: EgressProxy;
  try {
    proxy = await startEgressProxy({
      policy,
      only: { allow: settings.network, where: "codeExec.networkAllow" },
      listen: { path: socket },
      maxConnections: CODE_PROXY_CONNECTIONS,
      role: "the script's host",
    });
    // The script may run as another user (a server run as root): it must be able to connect. No
    // one else can reach the socket, whose folder is private.
    await chmod(socket, 0o666);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    ...proxy,
    path: socket,
    get connections() {
      return proxy.connections;
    },
    async close() {
      await proxy.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
