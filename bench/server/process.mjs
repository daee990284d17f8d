/**
 * The server benchmarks' two processes: the servers run in a child (forked, talked to over IPC),
 * the load comes from the parent. A server and the client loading it in one process would share
 * one event loop: every request the client builds, and every response it parses, would delay the
 * server and be counted as the server's latency (and the 500 SSE readers would compete with the
 * 500 streams they time). Two processes on two cores keep the figures the server's own.
 *
 * Child side: `serveCommands(handlers)` answers the parent's `{id, cmd, args}` messages with
 * `{id, result}` or `{id, error}`; it sends `{ready, info}` itself once set up.
 */
import { fork } from "node:child_process";
import { Redis } from "ioredis";

/** Fork `script`, wait for its ready message; resolves to its info, a `call(cmd, args)` and `stop()`. */
export async function startServerProcess(script, { execArgv = [], readyTimeoutMs = 60_000 } = {}) {
  const child = fork(script, [], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map();
  let nextId = 0;
  let exited = false;
  const failAll = (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not get ready in ${readyTimeoutMs} ms`)), readyTimeoutMs);
    child.on("message", (message) => {
      if (message.ready) {
        clearTimeout(timer);
        resolve(message.info);
        return;
      }
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${script}: ${message.error}`));
      else waiter.resolve(message.result);
    });
    child.on("exit", (code, signal) => {
      exited = true;
      clearTimeout(timer);
      const error = new Error(`${script} exited (${signal ?? code})`);
      reject(error);
      failAll(error);
    });
  });
  const info = await ready;
  return {
    info,
    pid: child.pid,
    call(cmd, args = {}) {
      if (exited) return Promise.reject(new Error(`${script} has exited`));
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, cmd, args });
      });
    },
    /** Ask it to clean up and exit ("close"), then wait for the exit. */
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      await this.call("close").catch(() => undefined);
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (!exited) child.kill("SIGKILL");
    },
  };
}

/** In the child: answer the parent's commands; "close" runs `handlers.close` and exits. */
export function serveCommands(info, handlers) {
  process.on("message", async ({ id, cmd, args }) => {
    try {
      const handler = handlers[cmd];
      if (!handler) throw new Error(`unknown command ${cmd}`);
      const result = await handler(args);
      process.send({ id, result: result ?? null });
      if (cmd === "close") process.disconnect();
    } catch (error) {
      process.send({ id, error: error instanceof Error ? error.stack ?? error.message : String(error) });
    }
  });
  // The parent went away without closing: do not outlive it.
  process.on("disconnect", () => setTimeout(() => process.exit(0), 100).unref());
  process.send({ ready: true, info });
}

/** Nearest-rank percentile of sorted numbers. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export const round = (x, digits = 2) => (x === undefined || x === null ? null : Number(x.toFixed(digits)));

/** Delete every key under `prefix` (a benchmark's own keys). */
export async function deleteRedisKeys(url, prefix) {
  const admin = new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await admin.del(...keys);
    } while (cursor !== "0");
  } finally {
    admin.disconnect();
  }
}
