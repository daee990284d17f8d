/**
 * The unit project's setup file: a unit test opens no socket and starts no process. Listening,
 * connecting or spawning throws, naming what was tried, so a file that needs a server, a service
 * or a child process is moved to the integration project (vitest.config.ts) instead of slowing
 * the unit run down or depending on what the machine has.
 */
import childProcess from "node:child_process";
import net from "node:net";
import { syncBuiltinESMExports } from "node:module";

const GUARDED = Symbol.for("canvasflow.unit-guard");

function refuse(what: string): never {
  throw new Error(`a unit test may not ${what}: move this file to the integration project (vitest.config.ts)`);
}

const globals = globalThis as { [GUARDED]?: true };
if (!globals[GUARDED]) {
  globals[GUARDED] = true;
  net.Server.prototype.listen = function listen() {
    refuse("listen on a socket");
  };
  net.Socket.prototype.connect = function connect() {
    refuse("open a connection");
  };
  // spawn, execFile, exec and fork all end in ChildProcess.prototype.spawn (not in its types).
  (childProcess.ChildProcess.prototype as unknown as { spawn(options: { file?: string }): void }).spawn = function spawn(options) {
    refuse(`start a process (${String(options?.file)})`);
  };
  for (const name of ["spawnSync", "execFileSync", "execSync"] as const) {
    (childProcess as unknown as Record<string, unknown>)[name] = (command: unknown) => refuse(`start a process (${String(command)})`);
  }
  syncBuiltinESMExports();
}
