/**
 * The operator's allow-list: how entries are read (names, addresses, host:port, [v6]:port, CIDR
 * ranges) and what they match, with property tests over the spellings of one address (IPv4-mapped
 * IPv6, brackets, upper case, ports), and the guard that uses it (checkEgress).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AllowEntryError, AllowList, canonicalAddress, parseAllowEntry } from "../../../src/sandbox/egress/allow-list.js";
import { BlockedAddressError, checkEgress, createEgressPolicy, type HostResolver } from "../../../src/sandbox/egress/guard.js";

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join("."));
const port = fc.integer({ min: 1, max: 65535 });

/** Other spellings of the same IPv4 address, as a resolver or a URL may give it. */
function mappedSpellings(v4: string): string[] {
  const [a, b, c, d] = v4.split(".").map(Number);
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return [`::ffff:${v4}`, `::FFFF:${v4}`, `::ffff:${hex(a, b)}:${hex(c, d)}`, `0:0:0:0:0:ffff:${v4}`];
}

describe("reading allow-list entries", () => {
  it("reads names, addresses, ports and ranges", () => {
    expect(parseAllowEntry("DB.Internal")).toEqual({ text: "db.internal", port: undefined, name: "db.internal" });
    expect(parseAllowEntry(" db.internal:5432 ")).toEqual({ text: "db.internal:5432", port: 5432, name: "db.internal" });
    expect(parseAllowEntry("localhost")).toMatchObject({ name: "localhost" });
    expect(parseAllowEntry("127.0.0.1")).toMatchObject({ port: undefined, range: { address: "127.0.0.1", prefix: 32, family: 4 } });
    expect(parseAllowEntry("127.0.0.1:5432")).toMatchObject({ port: 5432, range: { address: "127.0.0.1", prefix: 32, family: 4 } });
    expect(parseAllowEntry("::1")).toMatchObject({ port: undefined, range: { address: "::1", prefix: 128, family: 6 } });
    expect(parseAllowEntry("[::1]")).toMatchObject({ port: undefined, range: { address: "::1", prefix: 128, family: 6 } });
    expect(parseAllowEntry("[0:0:0:0:0:0:0:1]:8080")).toMatchObject({ port: 8080, range: { address: "::1", prefix: 128, family: 6 } });
    expect(parseAllowEntry("[::ffff:127.0.0.1]:5432")).toMatchObject({ port: 5432, range: { address: "127.0.0.1", prefix: 32, family: 4 } });
    expect(parseAllowEntry("10.0.0.0/8")).toMatchObject({ port: undefined, range: { address: "10.0.0.0", prefix: 8, family: 4 } });
    expect(parseAllowEntry("10.0.0.0/8:5432")).toMatchObject({ port: 5432, range: { address: "10.0.0.0", prefix: 8 } });
    expect(parseAllowEntry("fd00::/8")).toMatchObject({ port: undefined, range: { address: "fd00::", prefix: 8, family: 6 } });
    expect(parseAllowEntry("[fd00::/8]:443")).toMatchObject({ port: 443, range: { address: "fd00::", prefix: 8, family: 6 } });
    expect(parseAllowEntry("::ffff:10.0.0.0/104")).toMatchObject({ range: { address: "10.0.0.0", prefix: 8, family: 4 } });
  });

  it.each([
    ["", "the entry is empty"],
    ["*", "wildcards are not taken"],
    ["*.internal", "wildcards are not taken"],
    ["http://db.internal:5432", "not a URL"],
    ["user@db.internal", "not a URL"],
    ["db.internal:0", 'the port "0" is not a whole number from 1 to 65535'],
    ["db.internal:65536", 'the port "65536" is not a whole number from 1 to 65535'],
    ["db.internal:http", 'the port "http" is not a whole number'],
    ["db.internal.", 'write the name without the final dot ("db.internal")'],
    ["[::1", 'a "[" without its "]"'],
    ["[::1]x", '"x" after "]" is not ":PORT"'],
    ["10.0.0.0/33", "the prefix length 33 is outside 0-32"],
    ["fd00::/129", "the prefix length 129 is outside 0-128"],
    ["10.0.0.0/x", 'the prefix length "x" is not a whole number'],
    ["db.internal/8", '"db.internal" is not an IP address'],
    ["fe80::1%eth0", "zone ids such as %eth0 are not taken"],
    ["127.1", "looks like an IP address in a short or hexadecimal spelling"],
    ["0x7f.0.0.1", "looks like an IP address in a short or hexadecimal spelling"],
    ["999.1.1.1", "looks like an IP address"],
    ["bad_name!", "is not a host name, an IP address or a CIDR range"],
  ])("refuses %j: %s", (text, problem) => {
    expect(() => parseAllowEntry(text)).toThrow(AllowEntryError);
    expect(() => parseAllowEntry(text)).toThrow(problem);
  });

  it("names the list and the entry's index in errors", () => {
    expect(() => AllowList.parse(["127.0.0.1", "10.0.0.0/33"], "egress.allow")).toThrow('egress.allow[1] "10.0.0.0/33": the prefix length 33 is outside 0-32');
    expect(() => AllowList.parse([5432 as unknown as string], "egress.allow")).toThrow('egress.allow[0] must be a string such as "db.internal:5432", not 5432');
  });

  it("reads any IPv4 address with any port, and writes it back as it was given", () => {
    fc.assert(
      fc.property(ipv4, port, (address, p) => {
        expect(parseAllowEntry(`${address}:${p}`)).toEqual({ text: `${address}:${p}`, port: p, range: { address, prefix: 32, family: 4 } });
      }),
    );
  });
});

describe("matching", () => {
  const list = AllowList.parse(["db.internal:5432", "cache.internal", "127.0.0.1:5432", "[::1]:8080", "10.0.0.0/8", "[fd00::/8]:443"], "egress.allow");

  it("matches a name entry on the name the canvas gave, whatever it resolved to", () => {
    expect(list.match({ name: "db.internal", address: "10.9.9.9", port: 5432 })?.text).toBe("db.internal:5432");
    expect(list.match({ name: "DB.INTERNAL", address: "192.168.1.1", port: 5432 })?.text).toBe("db.internal:5432");
    expect(list.match({ name: "db.internal", address: "192.168.1.1", port: 5433 })).toBeUndefined();
    expect(list.match({ name: "cache.internal", address: "192.168.1.1", port: 6379 })?.text).toBe("cache.internal");
    // A name never matches by being the address: "127.0.0.1" given as an address is not a name.
    expect(list.match({ address: "192.168.1.1", port: 5432 })).toBeUndefined();
    expect(list.match({ name: "other.internal", address: "192.168.1.1", port: 5432 })).toBeUndefined();
  });

  it("matches address and range entries on the resolved address, whatever name led there", () => {
    expect(list.match({ address: "127.0.0.1", port: 5432 })?.text).toBe("127.0.0.1:5432");
    expect(list.match({ name: "localhost", address: "127.0.0.1", port: 5432 })?.text).toBe("127.0.0.1:5432");
    expect(list.match({ address: "127.0.0.1", port: 5433 })).toBeUndefined();
    expect(list.match({ address: "127.0.0.2", port: 5432 })).toBeUndefined();
    expect(list.match({ address: "::1", port: 8080 })?.text).toBe("[::1]:8080");
    expect(list.match({ address: "::1", port: 5432 })).toBeUndefined();
    expect(list.match({ address: "10.255.0.1", port: 1 })?.text).toBe("10.0.0.0/8");
    expect(list.match({ address: "11.0.0.1", port: 1 })).toBeUndefined();
    expect(list.match({ address: "fd12::1", port: 443 })?.text).toBe("[fd00::/8]:443");
    expect(list.match({ address: "fd12::1", port: 80 })).toBeUndefined();
  });

  it("an IPv4 entry matches every spelling of its address, and only its port", () => {
    fc.assert(
      fc.property(ipv4, port, port, (address, listed, asked) => {
        const entries = AllowList.parse([`${address}:${listed}`], "allow");
        for (const spelling of [address, ...mappedSpellings(address)]) {
          expect(entries.match({ address: spelling, port: listed })?.text, spelling).toBe(`${address}:${listed}`);
          if (asked !== listed) expect(entries.match({ address: spelling, port: asked }), spelling).toBeUndefined();
        }
      }),
    );
  });

  it("an entry written as a mapped address matches the IPv4 address and its mapped spellings alike", () => {
    fc.assert(
      fc.property(ipv4, port, (address, p) => {
        for (const written of mappedSpellings(address)) {
          const entries = AllowList.parse([`[${written}]:${p}`], "allow");
          expect(entries.match({ address, port: p }), written).toBeDefined();
          expect(entries.match({ address: `::ffff:${address}`, port: p }), written).toBeDefined();
        }
      }),
    );
  });

  it("a /N range holds exactly the addresses that share its first N bits", () => {
    const toInt = (address: string) => address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
    fc.assert(
      fc.property(ipv4, ipv4, fc.integer({ min: 0, max: 32 }), (base, probe, prefix) => {
        const mask = prefix === 0 ? 0 : Number((0xffffffffn << BigInt(32 - prefix)) & 0xffffffffn);
        const inside = ((toInt(base) & mask) >>> 0) === ((toInt(probe) & mask) >>> 0);
        const entries = AllowList.parse([`${base}/${prefix}`], "allow");
        expect(entries.match({ address: probe, port: 80 }) !== undefined).toBe(inside);
      }),
    );
  });

  it("canonical addresses: mapped IPv6 as IPv4, IPv6 compressed", () => {
    expect(canonicalAddress("::ffff:7f00:1")).toEqual({ address: "127.0.0.1", family: 4 });
    expect(canonicalAddress("0:0:0:0:0:0:0:1")).toEqual({ address: "::1", family: 6 });
    expect(canonicalAddress("FD00::1")).toEqual({ address: "fd00::1", family: 6 });
    expect(canonicalAddress("db.internal")).toBeUndefined();
  });
});

describe("the guard with an allow-list", () => {
  const resolveTo =
    (...addresses: string[]): HostResolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  const target = (host: string, p: number) => ({ host, port: p, role: "ExeSQL host" });

  it("lets a listed address or name through and returns the addresses to connect to", async () => {
    const policy = createEgressPolicy({ allow: ["127.0.0.1:5432", "db.internal"], resolver: resolveTo("10.1.2.3") });
    await expect(checkEgress(target("127.0.0.1", 5432), policy)).resolves.toEqual([{ address: "127.0.0.1", family: 4 }]);
    await expect(checkEgress(target("[::ffff:127.0.0.1]", 5432), policy)).resolves.toEqual([{ address: "::ffff:127.0.0.1", family: 6 }]);
    await expect(checkEgress(target("db.internal", 3306), policy)).resolves.toEqual([{ address: "10.1.2.3", family: 4 }]);
  });

  it("refuses what the list does not cover, naming the host, the address, its kind and the entry that would allow it", async () => {
    const policy = createEgressPolicy({ allow: ["127.0.0.1:5432"], resolver: resolveTo("127.0.0.1") });
    const refusal = await checkEgress(target("127.0.0.1", 3306), policy).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BlockedAddressError);
    expect(refusal).toMatchObject({ host: "127.0.0.1", port: 3306, address: "127.0.0.1", kind: "loopback", entry: "127.0.0.1:3306" });
    expect((refusal as Error).message).toMatch(/^ExeSQL host "127\.0\.0\.1" is 127\.0\.0\.1, a non-public address \(loopback\): .* add "127\.0\.0\.1:3306" to egress\.allow/);
    // A name that resolves to loopback is refused by its name, with the entry for the name.
    await expect(checkEgress(target("evil.example", 5433), policy)).rejects.toThrow('ExeSQL host "evil.example" resolves to 127.0.0.1, a non-public address (loopback)');
    await expect(checkEgress(target("evil.example", 5433), policy)).rejects.toThrow('add "evil.example:5433" to egress.allow');
    // A mapped address is suggested as its IPv4 address, an IPv6 one in brackets.
    await expect(checkEgress(target("::ffff:10.0.0.1", 80), policy)).rejects.toThrow('add "10.0.0.1:80"');
    await expect(checkEgress(target("[fd00::1]", 80), policy)).rejects.toThrow('add "[fd00::1]:80"');
  });

  it("refuses a name when one of its addresses is not covered, even if another one is", async () => {
    const policy = createEgressPolicy({ allow: ["10.0.0.0/8"], resolver: resolveTo("10.0.0.5", "169.254.169.254") });
    await expect(checkEgress(target("two.example", 80), policy)).rejects.toThrow('resolves to 169.254.169.254, a non-public address (link-local');
  });

  it("a listed name is allowed in any letter case, and never when written with a trailing dot", async () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
    const name = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join("."));
    await fc.assert(
      fc.asyncProperty(name, port, fc.boolean(), async (host, p, upper) => {
        const policy = createEgressPolicy({ allow: [`${host}:${p}`], resolver: resolveTo("10.0.0.1") });
        const asked = upper ? host.toUpperCase() : host;
        await expect(checkEgress(target(asked, p), policy)).resolves.toEqual([{ address: "10.0.0.1", family: 4 }]);
        await expect(checkEgress(target(`${asked}.`, p), policy)).rejects.toThrow("ends with a dot");
        await expect(checkEgress(target(asked, p === 65535 ? 1 : p + 1), policy)).rejects.toThrow("a non-public address (private)");
      }),
      { numRuns: 50 },
    );
  });

  it("refuses hosts that are not names or addresses (a socket path, a URL) before resolving them", async () => {
    const asked: string[] = [];
    const policy = createEgressPolicy({ allowPrivateNetwork: true, resolver: async (name) => (asked.push(name), []) });
    await expect(checkEgress(target("/var/run/postgresql", 5432), policy)).rejects.toThrow('ExeSQL host "/var/run/postgresql" is not a host name or an IP address (socket paths are not opened)');
    await expect(checkEgress(target("db.internal/x", 5432), policy)).rejects.toThrow("is not a host name or an IP address");
    await expect(checkEgress(target("", 5432), policy)).rejects.toThrow('ExeSQL host "" is not a host name or an IP address');
    expect(asked).toEqual([]);
  });
});
