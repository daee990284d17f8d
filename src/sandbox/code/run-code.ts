/**
 * Running a script of a canvas's code node (RAGFlow's CodeExec, Dify's code node): JavaScript in
 * QuickJS (javascript.ts), Python in the bubblewrap sandbox (python.ts) — or, for a user who
 * trusts the canvas, as a plain Python process. A script's network, when the operator allows any,
 * goes through the egress proxy given as `network`.
 */
import { runJavaScript } from "./javascript.js";
import type { CodeSandboxSettings } from "./options.js";
import { runPython } from "./python.js";

export type CodeLanguage = "python" | "javascript";

export interface CodeRunOptions {
  signal?: AbortSignal;
  /** The unix socket of an egress proxy for this run, when the script may reach listed hosts. */
  proxySocket?: string;
}

/** The JSON value main returned; rejects with an error naming what went wrong. */
export function runCode(language: CodeLanguage, script: string, args: Record<string, unknown>, settings: CodeSandboxSettings, options: CodeRunOptions = {}): Promise<unknown> {
  if (language === "javascript") return runJavaScript(script, args, settings, options.signal);
  return runPython(script, args, settings, options.signal, options.proxySocket !== undefined ? { proxySocket: options.proxySocket } : {});
}
