/**
 * TCP connections to checked addresses, for the drivers that open their own sockets (PostgreSQL,
 * MySQL, SMTP): the host name stays what the canvas gave (TLS checks the certificate against it
 * and sends it as SNI), but the only addresses the socket may go to are the ones checkEgress
 * returned, so the driver never looks the name up again.
 */
import { Socket, connect as netConnect } from "node:net";
import { pinnedLookup, type ResolvedAddress } from "./guard.js";

/**
 * A TCP socket, not yet connected, whose `connect(port, host)` goes to the checked addresses only
 * (for a driver that calls connect itself, as pg does). Connecting it any other way (a socket
 * path) fails.
 */
export function pinnedSocket(addresses: readonly ResolvedAddress[]): Socket {
  const lookup = pinnedLookup(addresses);
  const socket = new Socket();
  const connect = socket.connect.bind(socket) as (options: { port: number; host: string; lookup: typeof lookup; autoSelectFamily: boolean }, listener?: () => void) => Socket;
  socket.connect = ((port: unknown, host: unknown, listener?: () => void) => {
    if ((typeof port !== "number" && typeof port !== "string") || typeof host !== "string" || !/^[0-9]+$/.test(String(port))) {
      process.nextTick(() => socket.destroy(new Error("this socket only connects over TCP to the addresses the egress guard checked")));
      return socket;
    }
    return connect({ port: Number(port), host, lookup, autoSelectFamily: addresses.length > 1 }, listener);
  }) as Socket["connect"];
  return socket;
}

/** Open a TCP connection to `host`:`port` on the checked addresses (for a driver that takes a stream, as mysql2 does). */
export function pinnedConnect(addresses: readonly ResolvedAddress[], host: string, port: number): Socket {
  return netConnect({ host, port, lookup: pinnedLookup(addresses), autoSelectFamily: addresses.length > 1 });
}
