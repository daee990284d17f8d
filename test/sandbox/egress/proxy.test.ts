/**
 * The guarded proxy over real sockets on loopback: CONNECT tunnels and absolute-URI forwarding
 * pass the egress guard and the "only these hosts" list, refusals are 403s that say why, names go
 * to the addresses the guard checked, and the limits (connections at once, idle time) and close()
 * end connections.
 */
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createEgressPolicy, type HostResolver } from "../../../src/sandbox/egress/guard.js";
import { startEgressProxy, type EgressProxy, type EgressRefusal } from "../../../src/sandbox/egress/proxy.js";
import { standIn } from "../../helpers/http.js";

const proxies: EgressProxy[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxyWith(options: Parameters<typeof startEgressProxy>[0]): Promise<EgressProxy> {
  const proxy = await startEgressProxy(options);
  proxies.push(proxy);
  return proxy;
}

function reach(proxy: EgressProxy): Socket {
  const socket = proxy.path !== undefined ? connect(proxy.path) : connect(proxy.port!, "127.0.0.1");
  clients.push(socket);
  return socket;
}

/** Read from a socket until `done` says the text is complete (or the socket ends). */
function readUntil(socket: Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const finish = () => {
      socket.off("data", onData);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (done(text)) finish();
    };
    socket.on("data", onData);
    socket.once("close", finish);
  });
}

/** CONNECT through the proxy; the socket is the tunnel when the status is 200. */
async function tunnel(proxy: EgressProxy, target: string): Promise<{ status: number; head: string; socket: Socket }> {
  const socket = reach(proxy);
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  const head = await readUntil(socket, (text) => text.includes("\r\n\r\n") && (!/content-length: (\d+)/i.test(text) || text.split("\r\n\r\n")[1].length >= Number(/content-length: (\d+)/i.exec(text)![1])));
  return { status: Number(head.split(" ")[1]), head, socket };
}

/** A GET for `url` through the proxy as an absolute URI. */
function viaProxy(proxy: EgressProxy, url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ ...(proxy.path !== undefined ? { socketPath: proxy.path } : { host: "127.0.0.1", port: proxy.port }), path: url, headers: { host: URL.canParse(url) ? new URL(url).host : "127.0.0.1" }, agent: false }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("the guarded proxy", () => {
  it("forwards plain HTTP to a listed address and refuses the rest with a 403 that says why", async () => {
    const listed = await standIn((request, res) => res.end(`listed saw ${request.url} for ${request.headers.host}`));
    const hidden = await standIn((_request, res) => res.end("hidden"));
    const refusals: EgressRefusal[] = [];
    const proxy = await proxyWith({ policy: createEgressPolicy({ allow: [`127.0.0.1:${listed.port}`] }), role: "url host", onRefused: (refusal) => refusals.push(refusal) });
    expect(await viaProxy(proxy, `${listed.base}/page?q=1`)).toMatchObject({ status: 200, body: `listed saw /page?q=1 for 127.0.0.1:${listed.port}` });
    const refused = await viaProxy(proxy, `${hidden.base}/admin`);
    expect(refused.status).toBe(403);
    expect(refused.headers["x-canvasflow-egress"]).toBe("refused");
    expect(refused.body).toContain(`url host "127.0.0.1" is 127.0.0.1, a non-public address (loopback)`);
    expect(refused.body).toContain(`add "127.0.0.1:${hidden.port}"`);
    expect(refusals).toEqual([{ host: "127.0.0.1", port: hidden.port, reason: refused.body.trim() }]);
    expect(hidden.requests).toEqual([]);
    // Not a proxy request at all.
    expect((await viaProxy(proxy, "/relative")).status).toBe(400);
  });

  it("tunnels CONNECT to a listed address, refuses others and malformed targets", async () => {
    const listed = await standIn((_request, res) => res.end("through the tunnel"));
    const hidden = await standIn((_request, res) => res.end("hidden"));
    const proxy = await proxyWith({ policy: createEgressPolicy({ allow: [`127.0.0.1:${listed.port}`] }) });
    const open = await tunnel(proxy, `127.0.0.1:${listed.port}`);
    expect(open.status).toBe(200);
    open.socket.write(`GET /x HTTP/1.1\r\nHost: 127.0.0.1:${listed.port}\r\nConnection: close\r\n\r\n`);
    expect(await readUntil(open.socket, () => false)).toContain("through the tunnel");
    const refused = await tunnel(proxy, `127.0.0.1:${hidden.port}`);
    expect(refused.status).toBe(403);
    expect(refused.head).toContain("X-Canvasflow-Egress: refused");
    expect(refused.head).toContain(`proxied host "127.0.0.1" is 127.0.0.1, a non-public address (loopback)`);
    for (const bad of ["localhost", "127.0.0.1:0", "user@127.0.0.1:80", "[::1:80"]) expect((await tunnel(proxy, bad)).status, bad).toBe(400);
    expect((await tunnel(proxy, `[::1]:${hidden.port}`)).status).toBe(403);
    expect((await tunnel(proxy, `localhost.:${hidden.port}`)).head).toContain("ends with a dot");
    expect(hidden.requests).toEqual([]);
  });

  it("connects a name to the address the guard checked (a name only its resolver knows)", async () => {
    const target = await standIn((request, res) => res.end(`pinned: ${request.headers.host}`));
    const resolver: HostResolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const proxy = await proxyWith({ policy: createEgressPolicy({ allow: ["site.example.test"], resolver }) });
    expect((await viaProxy(proxy, `http://site.example.test:${target.port}/`)).body).toBe(`pinned: site.example.test:${target.port}`);
    const open = await tunnel(proxy, `site.example.test:${target.port}`);
    expect(open.status).toBe(200);
    open.socket.write(`GET / HTTP/1.1\r\nHost: site.example.test\r\nConnection: close\r\n\r\n`);
    expect(await readUntil(open.socket, () => false)).toContain("pinned: site.example.test");
  });

  it("an 'only these hosts' list comes first: an unlisted name is refused without being looked up, a listed one still passes the guard", async () => {
    const target = await standIn((_request, res) => res.end("package index"));
    const asked: string[] = [];
    const resolver: HostResolver = async (name) => {
      asked.push(name);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const only = { allow: ["pypi.example.test"], where: "codeExec.network.allow" };
    const guarded = await proxyWith({ policy: createEgressPolicy({ resolver }), only });
    const unlisted = await tunnel(guarded, "secret-data.attacker.example:443");
    expect(unlisted.status).toBe(403);
    expect(unlisted.head).toContain('proxied host "secret-data.attacker.example" port 443 is not in codeExec.network.allow');
    expect(asked).toEqual([]);
    // Listed, but it resolves to loopback, which the operator did not allow.
    expect((await tunnel(guarded, `pypi.example.test:${target.port}`)).head).toContain("a non-public address (loopback)");
    const allowed = await proxyWith({ policy: createEgressPolicy({ resolver, allow: ["pypi.example.test"] }), only });
    expect((await viaProxy(allowed, `http://pypi.example.test:${target.port}/simple/`)).body).toBe("package index");
    expect((await viaProxy(allowed, `http://other.example.test:${target.port}/`)).status).toBe(403);
  });

  it("listens on a unix socket path", async () => {
    const target = await standIn((_request, res) => res.end("over a socket file"));
    const path = join(tmpdir(), `cf-egress-${randomBytes(4).toString("hex")}.sock`);
    const proxy = await proxyWith({ policy: createEgressPolicy({ allow: [`127.0.0.1:${target.port}`] }), listen: { path } });
    expect(proxy.url).toBeUndefined();
    expect(proxy.path).toBe(path);
    expect((await viaProxy(proxy, `${target.base}/`)).body).toBe("over a socket file");
  });

  it("holds at most maxConnections clients, closes idle tunnels, and close() ends the rest", async () => {
    const target = await standIn((_request, res) => res.end("ok"));
    const proxy = await proxyWith({ policy: createEgressPolicy({ allow: [`127.0.0.1:${target.port}`] }), maxConnections: 2, idleTimeoutMs: 2_000 });
    // The idle limit outlasts the steps up to the third client (100 ms did not on a busy machine:
    // the first tunnels were closed as idle before the third came, and it was let in).
    const first = await tunnel(proxy, `127.0.0.1:${target.port}`);
    const second = await tunnel(proxy, `127.0.0.1:${target.port}`);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(proxy.connections).toBe(2);
    // A third client is closed at once, without an answer.
    const third = reach(proxy);
    third.write(`CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\n\r\n`);
    expect(await readUntil(third, () => false)).toBe("");
    // Tunnels with no traffic are closed after idleTimeoutMs.
    await Promise.all([first.socket, second.socket].map((socket) => new Promise((resolve) => (socket.destroyed ? resolve(undefined) : socket.once("close", resolve)))));
    const busy = await proxyWith({ policy: createEgressPolicy({ allow: [`127.0.0.1:${target.port}`] }) });
    const open = await tunnel(busy, `127.0.0.1:${target.port}`);
    const closed = new Promise((resolve) => open.socket.once("close", resolve));
    await busy.close();
    await closed;
    expect(busy.connections).toBe(0);
  });
});
