/**
 * SSRF guard for outgoing HTTP: every address a host resolves to must be public, and the
 * connection then goes to those checked addresses only (DNS pinning), so a second lookup
 * cannot rebind the name to an internal address between the check and the connect. Names
 * spelled with a trailing dot ("localhost.") are refused.
 * Mirrors RAGFlow's common/ssrf_guard.py (an allowlist: anything that is not globally routable
 * is refused), with the kind of range named in the error.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to its addresses (the default is the system resolver, like getaddrinfo). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

type Range = readonly [address: string, prefix: number];

/** Non-public ranges by kind, checked in this order (IANA special-purpose registries). */
const NON_PUBLIC: ReadonlyArray<readonly [kind: string, ranges: readonly Range[]]> = [
  ["unspecified", [["0.0.0.0", 8], ["::", 128]]],
  ["loopback", [["127.0.0.0", 8], ["::1", 128]]],
  ["link-local (this includes cloud metadata at 169.254.169.254)", [["169.254.0.0", 16], ["fe80::", 10]]],
  ["private", [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["fc00::", 7]]],
  ["shared (carrier-grade NAT)", [["100.64.0.0", 10]]],
  ["multicast", [["224.0.0.0", 4], ["ff00::", 8]]],
  [
    "reserved",
    [
      ["192.0.0.0", 24], ["192.0.2.0", 24], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24],
      ["240.0.0.0", 4], ["::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32],
      ["2002::", 16], ["3fff::", 20], ["fec0::", 10],
    ],
  ],
];

const BLOCK_LISTS: ReadonlyArray<readonly [string, BlockList]> = NON_PUBLIC.map(([kind, ranges]) => {
  const list = new BlockList();
  for (const [address, prefix] of ranges) list.addSubnet(address, prefix, isIP(address) === 6 ? "ipv6" : "ipv4");
  return [kind, list] as const;
});

/**
 * The kind of non-public range an IP address is in, or undefined for a public address.
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are judged by their IPv4 address.
 */
export function nonPublicKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return "not an IP address";
  const type = family === 6 ? "ipv6" : "ipv4";
  for (const [kind, list] of BLOCK_LISTS) if (list.check(address, type)) return kind;
  return undefined;
}

export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlockedAddressError";
  }
}

/** URL hostnames keep IPv6 literals in brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

export interface AddressCheck {
  /** What the host belongs to, for messages: "url" or "proxy". */
  readonly role: string;
  readonly allowPrivateNetwork: boolean;
  readonly resolver: HostResolver;
  /** How to allow a blocked address (default PRIVATE_NETWORK_HINT). */
  readonly hint?: string;
}

export const PRIVATE_NETWORK_HINT =
  "run the CLI with --allow-private-network, or set services.http.allowPrivateNetwork = true or the environment variable CANVASFLOW_ALLOW_PRIVATE_NETWORK=1 to allow it";

/**
 * Resolve a host once and check every address it resolves to. Returns the addresses the
 * connection must use. IP literals are checked as they are, without a lookup. While the guard
 * is on, a name ending with a dot is refused before any lookup.
 */
export async function resolveCheckedHost(hostname: string, check: AddressCheck): Promise<ResolvedAddress[]> {
  // Checked on the name as given ("[::1]." too): "localhost." is localhost to a resolver, but
  // not to any rule, here or in a proxy, that compares names, so the spelling is refused outright.
  if (!check.allowPrivateNetwork && hostname.endsWith(".")) {
    throw new BlockedAddressError(
      `${check.role} host "${hostname}" ends with a dot: a name spelled with a trailing dot is refused, because it can slip past checks made on the name ("localhost." is localhost); ${check.hint ?? PRIVATE_NETWORK_HINT}`,
    );
  }
  const host = bareHost(hostname);
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = (await check.resolver(host)).filter((entry) => isIP(entry.address) !== 0);
    } catch (error) {
      throw new Error(`${check.role} host "${host}" could not be resolved: ${(error as Error).message ?? String(error)}`);
    }
    if (addresses.length === 0) throw new Error(`${check.role} host "${host}" resolved to no address`);
  }
  if (!check.allowPrivateNetwork) {
    for (const { address } of addresses) {
      const kind = nonPublicKind(address);
      if (kind === undefined) continue;
      const resolved = literal !== 0 ? `is ${address}` : `resolves to ${address}`;
      throw new BlockedAddressError(
        `${check.role} host "${host}" ${resolved}, a non-public address (${kind}): requests to loopback, private and link-local networks are blocked; ${check.hint ?? PRIVATE_NETWORK_HINT}`,
      );
    }
  }
  return addresses;
}

/**
 * A `lookup` for net/tls.connect that answers with the pinned addresses whatever name it is
 * asked for, so the socket connects to what was checked (the Host header and TLS name stay).
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  if (addresses.length === 0) throw new Error("pinnedLookup needs at least one address");
  return (_hostname, options, callback) => {
    const wanted = typeof options === "object" && options !== null ? options.family : undefined;
    const family = wanted === 4 || wanted === "IPv4" ? 4 : wanted === 6 || wanted === "IPv6" ? 6 : undefined;
    const matching = family === undefined ? addresses : addresses.filter((entry) => entry.family === family);
    const usable = matching.length > 0 ? matching : addresses;
    if (typeof options === "object" && options !== null && options.all) {
      (callback as unknown as (err: null, all: ResolvedAddress[]) => void)(null, usable.map((entry) => ({ ...entry })));
    } else {
      callback(null, usable[0].address, usable[0].family);
    }
  };
}
