/**
 * The MCP reference servers from npm (devDependencies, unmodified) as tests start them: over stdio
 * (a config entry canvasflow spawns) or over HTTP (a child process on a free loopback port, ended
 * after the test).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import type { McpServerConfig } from "../../src/config/types.js";
import { closedPort } from "./http.js";

const require = createRequire(import.meta.url);

function serverEntry(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), "dist", "index.js");
}

export const EVERYTHING_SERVER = serverEntry("@modelcontextprotocol/server-everything");
export const FILESYSTEM_SERVER = serverEntry("@modelcontextprotocol/server-filesystem");

/** server-everything over stdio. */
export function everythingStdio(): McpServerConfig {
  return { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] };
}

/** server-filesystem over stdio, allowed to read and write `dir` only. */
export function filesystemStdio(dir: string): McpServerConfig {
  return { command: process.execPath, args: [FILESYSTEM_SERVER, dir] };
}

const started: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map(stopChild));
});

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * server-everything over HTTP ("streamableHttp" serves /mcp, "sse" serves /sse and /message) on a
 * free port; resolves once it says it listens. Returns its base URL.
 */
export async function everythingHttp(mode: "streamableHttp" | "sse"): Promise<{ base: string; child: ChildProcess }> {
  const port = await closedPort();
  const child = spawn(process.execPath, [EVERYTHING_SERVER, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start within 30s: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening|running/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr!.on("data", onData);
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited with ${code}: ${output}`));
    });
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

/** True while a process with this id exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
