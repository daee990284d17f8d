/**
 * Outgoing HTTP reuses kept-alive connections (dispatchers.ts), but only to the addresses its own
 * SSRF check returned: real loopback servers count the TCP connections they accept.
 */
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { closePinnedDispatchers, MAX_POOLS, pinnedDispatcherCount } from "../../src/sandbox/egress/dispatchers.js";
import { sendHttpRequest, type HttpRequestSpec } from "../../src/components/http/request.js";
import { createEgressPolicy, type HostResolver } from "../../src/sandbox/egress/guard.js";
import { listenForTest } from "../helpers/http.js";

/** A server that answers "ok from <name>" and counts the connections it accepted. */
async function countingServer(name: string, host = "127.0.0.1"): Promise<{ port: number; connections: () => number; server: Server }> {
  let connections = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end(`ok from ${name}`));
  });
  server.on("connection", () => connections++);
  closeLater.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { port: (server.address() as { port: number }).port, connections: () => connections, server };
}

const closeLater: Server[] = [];
afterEach(async () => {
  await closePinnedDispatchers();
  for (const server of closeLater.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function spec(url: string, resolver?: HostResolver): HttpRequestSpec {
  return {
    method: "POST",
    url: new URL(url),
    headers: { "content-type": "text/plain" },
    body: "hello",
    timeoutMs: 10_000,
    egress: createEgressPolicy({ allowPrivateNetwork: true, resolver: resolver ?? (async () => [{ address: "127.0.0.1", family: 4 }]) }),
    signal: new AbortController().signal,
  };
}

describe("outgoing HTTP connections", () => {
  it("requests one after another to the same server share one connection", async () => {
    const target = await countingServer("a");
    for (let i = 0; i < 5; i++) {
      const response = await sendHttpRequest(spec(`http://127.0.0.1:${target.port}/call`));
      expect(response.text).toBe("ok from a");
      // Spaced as a canvas's steps are: the previous answer's connection is back in the pool.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(target.connections()).toBe(1);
  });

  it("a host that resolves to another address gets a connection to that address, never the old one", async () => {
    // Two servers on one port number cannot be had; two loopback addresses can (127.0.0.1 and 127.0.0.2).
    const first = await countingServer("first", "127.0.0.1");
    const second = new Promise<{ port: number; connections: () => number }>((resolve, reject) => {
      let connections = 0;
      const server = createServer((req, res) => {
        req.resume();
        req.on("end", () => res.end("ok from second"));
      });
      server.on("connection", () => connections++);
      server.on("error", reject);
      closeLater.push(server);
      server.listen(first.port, "127.0.0.2", () => resolve({ port: first.port, connections: () => connections }));
    });
    const other = await second.catch(() => undefined);
    if (!other) return expect.fail("cannot listen on 127.0.0.2 on this machine");
    let answer = "127.0.0.1";
    const resolver: HostResolver = async () => [{ address: answer, family: 4 }];
    const url = `http://service.test:${first.port}/call`;
    expect((await sendHttpRequest(spec(url, resolver))).text).toBe("ok from first");
    answer = "127.0.0.2";
    expect((await sendHttpRequest(spec(url, resolver))).text).toBe("ok from second");
    answer = "127.0.0.1";
    expect((await sendHttpRequest(spec(url, resolver))).text).toBe("ok from first");
    expect(first.connections()).toBe(1);
    expect(other.connections()).toBe(1);
  });

  it("keeps at most MAX_POOLS pools, closing the least recently used", async () => {
    const target = await countingServer("a");
    // Each connect timeout is a pool of its own.
    for (let i = 0; i < MAX_POOLS + 5; i++) {
      const response = await sendHttpRequest({ ...spec(`http://127.0.0.1:${target.port}/`), timeoutMs: 10_000 + i });
      expect(response.text).toBe("ok from a");
    }
    expect(pinnedDispatcherCount()).toBe(MAX_POOLS);
  });

  it("a request cut by its deadline leaves the pool usable for the next", async () => {
    let slow = true;
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => (slow ? setTimeout(() => res.end("late"), 2_000) : res.end("fast")));
    });
    const port = await listenForTest(server);
    await expect(sendHttpRequest({ ...spec(`http://127.0.0.1:${port}/`), timeoutMs: 200 })).rejects.toThrow("timed out after 0.2s");
    slow = false;
    expect((await sendHttpRequest({ ...spec(`http://127.0.0.1:${port}/`), timeoutMs: 200 })).text).toBe("fast");
  });
});
