/**
 * Keep-alive connection pools for outgoing HTTP, shared by the requests of every run in this
 * process. A new Agent per request (as before) paid a TCP (and TLS) handshake and a pool's setup
 * on every Invoke: on a queue worker running an I/O-bound canvas that was about a tenth of its CPU.
 *
 * A pool is keyed by the checked, pinned addresses it may connect to (and the connect timeout):
 * each request still resolves and checks its host first (guard.ts), and only reuses a pool whose
 * sockets go to exactly the addresses that check returned, so a host that starts resolving
 * somewhere else gets a new pool, never a connection to the old address. Within a pool undici
 * keeps one set of connections per origin, so the Host header and TLS name are the request's own.
 *
 * Bounded: at most MAX_POOLS pools, least recently used closed first (its requests under way
 * finish). Idle connections close after a few seconds (undici's keep-alive timeout, shortened by
 * the server's `Keep-Alive: timeout` hint) and never keep the process alive.
 */
import type { Agent, Dispatcher } from "undici";
import { undici } from "../../util/undici.js";
import { pinnedLookup, type ResolvedAddress } from "./guard.js";

/** Pools kept at once (one per distinct address set a canvas's hosts resolve to). */
export const MAX_POOLS = 32;
/** How long an idle connection is kept when the server gives no hint (undici's default). */
const KEEP_ALIVE_MS = 4_000;

const pools = new Map<string, Agent>();

/** The shared pool for connections to these checked addresses. */
export function pinnedDispatcher(addresses: readonly ResolvedAddress[], connectTimeoutMs: number): Dispatcher {
  const key = `${connectTimeoutMs} ${addresses.map((entry) => `${entry.family}/${entry.address}`).join(" ")}`;
  const found = pools.get(key);
  if (found) {
    // Most recently used last: the first in the map is the one to close when there are too many.
    pools.delete(key);
    pools.set(key, found);
    return found;
  }
  const agent = new (undici().Agent)({ connect: { lookup: pinnedLookup(addresses), timeout: connectTimeoutMs }, keepAliveTimeout: KEEP_ALIVE_MS });
  pools.set(key, agent);
  if (pools.size > MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value as [string, Agent];
    pools.delete(oldestKey);
    oldest.close().catch(() => undefined);
  }
  return agent;
}

/** How many pools are open (for tests). */
export function pinnedDispatcherCount(): number {
  return pools.size;
}

/** Close every pool (its requests under way finish first): for a process that wants its sockets gone now. */
export async function closePinnedDispatchers(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((agent) => agent.close().catch(() => undefined)));
}
