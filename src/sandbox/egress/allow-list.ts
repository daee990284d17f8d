/**
 * The operator's allow-list (`egress.allow` in the config file, `services.egress.allow` in the
 * library): the non-public addresses a canvas may reach anyway. An entry is
 *
 * - a host name: `db.internal` (any port) or `db.internal:5432`; it matches the name a canvas
 *   gives, whatever the name resolves to, and the connection still goes to the addresses that
 *   one lookup returned;
 * - an IP address: `127.0.0.1`, `::1`, `127.0.0.1:5432`, `[::1]:8080`; it matches the resolved
 *   address, whatever name led there (IPv4-mapped IPv6 addresses count as their IPv4 address);
 * - a CIDR range: `10.0.0.0/8`, `fd00::/8`, with a port as `10.0.0.0/8:5432` or `[fd00::/8]:5432`.
 *
 * Entries are checked when they are read, so a typo is a configuration error, not a silent miss.
 */
import { BlockList, isIP } from "node:net";

export interface AllowEntry {
  /** The entry as written (trimmed, lower case): what messages quote. */
  readonly text: string;
  /** The only port it allows; undefined: every port. */
  readonly port: number | undefined;
  /** A host name entry: the name, lower case, without a port. */
  readonly name?: string;
  /** An address or range entry (a single address is a /32 or /128). */
  readonly range?: { readonly address: string; readonly prefix: number; readonly family: 4 | 6 };
}

/** An entry that cannot be read; the message says what is wrong with it. */
export class AllowEntryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AllowEntryError";
  }
}

/** Characters a DNS name may hold here (underscores occur in internal names); labels of 1-63. */
const NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A last label that URL parsers read as part of an IPv4 address ("127.1", "0x7f.1"). */
const NUMERIC_LAST_LABEL = /(?:^|\.)(?:0x[0-9a-f]*|[0-9]+)$/;

/** ::ffff:0:0/96, the IPv4-mapped IPv6 addresses. */
const MAPPED = new BlockList();
MAPPED.addSubnet("::ffff:0:0", 96, "ipv6");

/**
 * An IP address in one spelling: IPv4-mapped IPv6 as its IPv4 address, IPv6 compressed and in
 * lower case (what URL parsers print). Undefined for anything that is not an IP address.
 */
export function canonicalAddress(address: string): { address: string; family: 4 | 6 } | undefined {
  const family = isIP(address);
  if (family === 4) return { address, family: 4 };
  if (family !== 6 || address.includes("%")) return undefined;
  const compressed = new URL(`http://[${address}]`).hostname.slice(1, -1);
  if (MAPPED.check(compressed, "ipv6")) {
    // The URL parser prints a mapped address as ::ffff:HHHH:HHHH.
    const [high, low] = compressed.split(":").slice(-2).map((hex) => parseInt(hex, 16));
    return { address: [high >> 8, high & 255, low >> 8, low & 255].join("."), family: 4 };
  }
  return { address: compressed, family: 6 };
}

/** How an address is written with a port after it: IPv6 in brackets. */
export function addressWithPort(address: string, port: number): string {
  return isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) throw new AllowEntryError(`the port "${text}" is not a whole number from 1 to 65535`);
  return Number(text);
}

/** "host", "host:port", "[v6]", "[v6]:port" or a bare IPv6 address (more than one colon, no port). */
function splitPort(text: string): { host: string; port: number | undefined } {
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) throw new AllowEntryError('a "[" without its "]": write IPv6 addresses as [::1] or [::1]:8080');
    const rest = text.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) throw new AllowEntryError(`"${rest}" after "]" is not ":PORT"`);
    return { host: text.slice(1, close), port: rest === "" ? undefined : parsePort(rest.slice(1)) };
  }
  const colons = text.split(":").length - 1;
  if (colons === 0) return { host: text, port: undefined };
  if (colons === 1) {
    const at = text.indexOf(":");
    return { host: text.slice(0, at), port: parsePort(text.slice(at + 1)) };
  }
  // More than one colon without brackets: an IPv6 address or range, without a port.
  return { host: text, port: undefined };
}

function parseRange(host: string): AllowEntry["range"] {
  const slash = host.indexOf("/");
  const addressText = slash < 0 ? host : host.slice(0, slash);
  const address = canonicalAddress(addressText);
  if (!address) throw new AllowEntryError(`"${addressText}" is not an IP address${addressText.includes("%") ? " (zone ids such as %eth0 are not taken)" : ""}`);
  const wasMapped = isIP(addressText) === 6 && address.family === 4;
  const max = address.family === 4 ? 32 : 128;
  if (slash < 0) return { address: address.address, prefix: max, family: address.family };
  const prefixText = host.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(prefixText)) throw new AllowEntryError(`the prefix length "${prefixText}" is not a whole number`);
  // A mapped range (::ffff:10.0.0.0/104) is the IPv4 range it maps (10.0.0.0/8).
  const prefix = Number(prefixText) - (wasMapped ? 96 : 0);
  if (prefix < 0 || prefix > max) throw new AllowEntryError(`the prefix length ${prefixText} is outside 0-${wasMapped ? 128 : max}`);
  return { address: address.address, prefix, family: address.family };
}

/** Read one entry; an AllowEntryError says what is wrong. */
export function parseAllowEntry(raw: string): AllowEntry {
  const text = raw.trim().toLowerCase();
  if (text === "") throw new AllowEntryError("the entry is empty");
  if (text === "*" || text.includes("*")) throw new AllowEntryError("wildcards are not taken: list the names, addresses or CIDR ranges, or set allowPrivateNetwork to allow every address");
  if (/[\s\\@?#]/.test(text) || text.includes("://")) throw new AllowEntryError("write a host name, an IP address or a CIDR range, optionally with :PORT; not a URL");
  const { host, port } = splitPort(text);
  if (host.includes("/") || isIP(host) !== 0 || host.includes(":") || host.includes("%")) return { text, port, range: parseRange(host) };
  if (host.endsWith(".")) throw new AllowEntryError(`write the name without the final dot ("${host.slice(0, -1)}")`);
  if (!NAME.test(host)) throw new AllowEntryError(`"${host}" is not a host name, an IP address or a CIDR range`);
  if (NUMERIC_LAST_LABEL.test(host)) throw new AllowEntryError(`"${host}" looks like an IP address in a short or hexadecimal spelling: write it as four decimal numbers (127.0.0.1)`);
  return { text, port, name: host };
}

/** A non-public address that a target may reach, and why: the entry that allows it. */
export interface AllowQuery {
  /** The host name the canvas gave (lower case); undefined when it gave an IP address. */
  readonly name?: string;
  /** One address the name resolved to (or the IP address given). */
  readonly address: string;
  readonly port: number;
}

export class AllowList {
  static readonly EMPTY = new AllowList([]);

  private readonly byName = new Map<string, AllowEntry[]>();
  private readonly ranges: Array<{ entry: AllowEntry; list: BlockList }> = [];

  private constructor(readonly entries: readonly AllowEntry[]) {
    for (const entry of entries) {
      if (entry.name !== undefined) {
        const list = this.byName.get(entry.name) ?? [];
        list.push(entry);
        this.byName.set(entry.name, list);
      } else if (entry.range) {
        const list = new BlockList();
        const type = entry.range.family === 6 ? "ipv6" : "ipv4";
        if (entry.range.prefix === (entry.range.family === 6 ? 128 : 32)) list.addAddress(entry.range.address, type);
        else list.addSubnet(entry.range.address, entry.range.prefix, type);
        this.ranges.push({ entry, list });
      }
    }
  }

  /**
   * Read entries; `where` names the list in errors (e.g. `egress.allow`), so a bad entry reads
   * `egress.allow[2] "10.0.0.0/33": the prefix length 33 is outside 0-32`.
   */
  static parse(entries: readonly string[], where: string): AllowList {
    if (entries.length === 0) return AllowList.EMPTY;
    return new AllowList(
      entries.map((text, i) => {
        if (typeof text !== "string") throw new AllowEntryError(`${where}[${i}] must be a string such as "db.internal:5432", not ${JSON.stringify(text)}`);
        try {
          return parseAllowEntry(text);
        } catch (error) {
          throw new AllowEntryError(`${where}[${i}] ${JSON.stringify(text)}: ${(error as Error).message}`);
        }
      }),
    );
  }

  get size(): number {
    return this.entries.length;
  }

  /** Whether it has address or range entries (else only names match, and no lookup can help). */
  get hasRanges(): boolean {
    return this.ranges.length > 0;
  }

  /** The entry that allows this address for this target, or undefined. */
  match(query: AllowQuery): AllowEntry | undefined {
    const portFits = (entry: AllowEntry) => entry.port === undefined || entry.port === query.port;
    if (query.name !== undefined) {
      const named = this.byName.get(query.name.toLowerCase())?.find(portFits);
      if (named) return named;
    }
    const family = isIP(query.address);
    if (family === 0) return undefined;
    const type = family === 6 ? "ipv6" : "ipv4";
    return this.ranges.find(({ entry, list }) => portFits(entry) && list.check(query.address, type))?.entry;
  }
}
