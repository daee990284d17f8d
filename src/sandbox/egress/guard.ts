/**
 * The egress guard: every address a host resolves to must be public, or allowed by the
 * operator's allow-list (allow-list.ts), and the connection then goes to those checked addresses
 * only (DNS pinning), so a second lookup cannot rebind the name to an internal address between
 * the check and the connect. Names spelled with a trailing dot ("localhost.") are refused.
 * Mirrors RAGFlow's common/ssrf_guard.py (anything that is not globally routable is refused),
 * with the kind of range named in the error and the entry that would allow it.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { addressWithPort, AllowList, canonicalAddress } from "./allow-list.js";

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

/** A connection the guard refused: what was asked, what it resolved to, and why. */
export class BlockedAddressError extends Error {
  constructor(
    message: string,
    /** The host as given. */
    readonly host: string,
    readonly port: number,
    /** The refused address (undefined when the spelling of the host was refused). */
    readonly address?: string,
    /** Its kind of range ("loopback", "private", …). */
    readonly kind?: string,
    /** The allow-list entry that would allow it. */
    readonly entry?: string,
  ) {
    super(message);
    this.name = "BlockedAddressError";
  }
}

/** URL hostnames keep IPv6 literals in brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** The default port of an http(s) URL when it names none. */
export function urlPort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" || url.protocol === "wss:" ? 443 : 80;
}

/** What the guard allows: every rule that decides whether a connection may be made. */
export interface EgressPolicy {
  /** Every address is allowed: the guard is off (the CLI's --allow-private-network, server.allowPrivateNetwork). */
  readonly allowPrivateNetwork: boolean;
  /** Non-public addresses allowed anyway (egress.allow). */
  readonly allow: AllowList;
  /** Resolves host names; every address it returns is checked, and the connection goes to those only. */
  readonly resolver: HostResolver;
  /**
   * How the operator allows a refused address, as the refusal ends; `{entry}` is replaced by the
   * allow-list entry that would allow it ("127.0.0.1:5432").
   */
  readonly hint: string;
}

/** One connection to be made. */
export interface EgressTarget {
  /** The host as the canvas gave it: a name or an IP address ([v6] too). */
  readonly host: string;
  readonly port: number;
  /** What the host is, as the refusal names it: "url host", "proxy host", "ExeSQL host". */
  readonly role: string;
}

export const PRIVATE_NETWORK_HINT =
  'to allow it, add "{entry}" to egress.allow in the config file (library: services.egress.allow); to allow every address, run the CLI with --allow-private-network or set the environment variable CANVASFLOW_ALLOW_PRIVATE_NETWORK=1 (library: services.egress.allowPrivateNetwork = true)';

export interface EgressPolicyOptions {
  allowPrivateNetwork?: boolean;
  /** Entries as written, or a list already read. */
  allow?: readonly string[] | AllowList;
  resolver?: HostResolver;
  hint?: string;
}

/** A policy from plain values: nothing allowed beyond public addresses unless said. */
export function createEgressPolicy(options: EgressPolicyOptions = {}): EgressPolicy {
  const allow = options.allow instanceof AllowList ? options.allow : AllowList.parse(options.allow ?? [], "allow");
  return { allowPrivateNetwork: options.allowPrivateNetwork === true, allow, resolver: options.resolver ?? systemResolver, hint: options.hint ?? PRIVATE_NETWORK_HINT };
}

/** A host this guard can check: an IP address or a DNS name (not a socket path, not a URL). */
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/i;

/**
 * Resolve a host once and check every address it resolves to: each must be public, or allowed
 * by the policy's allow-list (for this name or this address, and this port). Returns the
 * addresses the connection must use (DNS pinning: connect to these, never look the name up
 * again). IP literals are checked as they are, without a lookup. While the guard is on, a name
 * ending with a dot is refused before any lookup.
 */
export async function checkEgress(target: EgressTarget, policy: EgressPolicy): Promise<ResolvedAddress[]> {
  const { role, port } = target;
  // Checked on the name as given ("[::1]." too): "localhost." is localhost to a resolver, but
  // not to any rule, here or in a proxy, that compares names, so the spelling is refused outright.
  if (!policy.allowPrivateNetwork && target.host.endsWith(".")) {
    throw new BlockedAddressError(
      `${role} "${target.host}" ends with a dot: a name spelled with a trailing dot is refused, because it can slip past checks made on the name ("localhost." is localhost); write it without the final dot`,
      target.host,
      port,
    );
  }
  const host = bareHost(target.host);
  if (isIP(host) === 0 && (!HOST_NAME.test(host) || host.length > 254)) {
    throw new BlockedAddressError(`${role} "${target.host.slice(0, 200)}" is not a host name or an IP address${host.startsWith("/") ? " (socket paths are not opened)" : ""}`, target.host, port);
  }
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = (await policy.resolver(host)).filter((entry) => isIP(entry.address) !== 0);
    } catch (error) {
      throw new Error(`${role} "${host}" could not be resolved: ${(error as Error).message ?? String(error)}`);
    }
    if (addresses.length === 0) throw new Error(`${role} "${host}" resolved to no address`);
  }
  if (policy.allowPrivateNetwork) return addresses;
  const name = literal === 0 ? host.toLowerCase() : undefined;
  for (const { address } of addresses) {
    const kind = nonPublicKind(address);
    if (kind === undefined || policy.allow.match({ name, address, port })) continue;
    const shown = canonicalAddress(address)?.address ?? address;
    const entry = name !== undefined ? `${name}:${port}` : addressWithPort(shown, port);
    const resolved = literal !== 0 ? `is ${address}` : `resolves to ${address}`;
    throw new BlockedAddressError(
      `${role} "${host}" ${resolved}, a non-public address (${kind}): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; ${policy.hint.replaceAll("{entry}", entry)}`,
      target.host,
      port,
      address,
      kind,
      entry,
    );
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
