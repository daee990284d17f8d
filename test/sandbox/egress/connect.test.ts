/**
 * TCP sockets pinned to the addresses the guard checked: whatever name a driver connects to, the
 * socket goes to those addresses (a name the system cannot resolve reaches the loopback server),
 * and a socket path is never opened.
 */
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedConnect, pinnedSocket } from "../../../src/sandbox/egress/connect.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A TCP server on `host` that answers each connection with the address it was reached on. */
async function sayWhere(host: string): Promise<number> {
  const server = createServer((socket) => socket.end(`${socket.localAddress}`));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as { port: number }).port;
}

function readAll(socket: import("node:net").Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("pinned TCP connections", () => {
  it("connect(port, name) goes to the pinned address, not to what the name resolves to", async () => {
    const port = await sayWhere("127.0.0.2");
    const socket = pinnedSocket([{ address: "127.0.0.2", family: 4 }]);
    socket.connect(port, "db.example.test");
    expect(await readAll(socket)).toBe("127.0.0.2");
    // localhost resolves to 127.0.0.1 (or ::1), where nothing listens on that port: the pin wins.
    const again = pinnedConnect([{ address: "127.0.0.2", family: 4 }], "localhost", port);
    expect(await readAll(again)).toBe("127.0.0.2");
  });

  it("refuses to open a socket path", async () => {
    const socket = pinnedSocket([{ address: "127.0.0.1", family: 4 }]);
    (socket.connect as (path: string) => unknown)("/var/run/postgresql/.s.PGSQL.5432");
    await expect(new Promise((_resolve, reject) => socket.on("error", reject))).rejects.toThrow("this socket only connects over TCP to the addresses the egress guard checked");
  });
});
