/**
 * HTTP for libraries that take a `fetch` (the MCP SDK's transports): every new connection is
 * checked by the egress guard when it is made, on the origin's host and port, and goes to the
 * checked addresses only. A redirect to another origin opens a new connection, so it is checked
 * too. A refusal comes out as the BlockedAddressError itself, not as fetch's bare "fetch failed".
 */
import type { Dispatcher, fetch as undiciFetch } from "undici";
import { undici } from "../../util/undici.js";
import { BlockedAddressError, checkEgress, pinnedLookup, type EgressPolicy } from "./guard.js";

export interface EgressDispatcherOptions {
  /** What the hosts are, as a refusal names them ("MCP server docs host"). */
  role: string;
  /** How long making one connection may take (resolving included). */
  connectTimeoutMs: number;
}

/** An undici dispatcher whose connections pass the guard; close it when done. */
export function egressDispatcher(policy: EgressPolicy, options: EgressDispatcherOptions): Dispatcher {
  return new (undici().Agent)({
    connect: (target, callback) => {
      const port = target.port !== "" ? Number(target.port) : target.protocol === "https:" ? 443 : 80;
      checkEgress({ host: target.hostname, port, role: options.role }, policy).then(
        (addresses) => undici().buildConnector({ timeout: options.connectTimeoutMs, lookup: pinnedLookup(addresses) })(target, callback),
        (error: Error) => callback(error, null),
      );
    },
  });
}

/** The refusal inside fetch's TypeError, when there is one. */
function refusalIn(error: unknown): BlockedAddressError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof BlockedAddressError) return cause;
  }
  return undefined;
}

export interface EgressFetch {
  /** WHATWG fetch through the guard. */
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Close its connections. */
  close(): Promise<void>;
}

/** A fetch whose connections pass the guard (see egressDispatcher). */
export function egressFetch(policy: EgressPolicy, options: EgressDispatcherOptions): EgressFetch {
  const dispatcher = egressDispatcher(policy, options);
  const guarded = (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      // undici's own fetch with its own dispatcher: the global fetch may be another undici.
      // A Request made by another fetch implementation is not undici's: pass on what it holds.
      const fromRequest = typeof input === "object" && !(input instanceof URL) ? { method: input.method, headers: input.headers, body: input.body, signal: input.signal, ...(input.body ? { duplex: "half" } : {}) } : {};
      const url = typeof input === "object" && !(input instanceof URL) ? input.url : input;
      return (await undici().fetch(url, { ...fromRequest, ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
    } catch (error) {
      throw refusalIn(error) ?? error;
    }
  }) as EgressFetch;
  guarded.close = () => dispatcher.close();
  return guarded;
}
