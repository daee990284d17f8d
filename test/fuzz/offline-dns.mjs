/**
 * No name lookups leave this process: every DNS lookup of a name fails with ENOTFOUND (and is
 * recorded), so a fuzzed DSL naming a host (an ExeSQL server, an Invoke URL) cannot reach the
 * network. IP literals (the mock LLM and the stand-in tool endpoints are on 127.0.0.1) are
 * answered as before: that needs no DNS.
 * Installed on import: the fuzz test imports it, and its child processes get `--import` of it.
 */
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import { isIP } from "node:net";

/** The names something tried to look up. */
export const refusedLookups = [];

function notFound(hostname) {
  refusedLookups.push(String(hostname));
  const error = new Error(`getaddrinfo ENOTFOUND ${hostname} (name lookups are off in the fuzz test)`);
  error.code = "ENOTFOUND";
  error.hostname = hostname;
  return error;
}

const lookup = dns.lookup;
const promisesLookup = dns.promises.lookup;

dns.lookup = (hostname, options, callback) => {
  if (isIP(String(hostname))) return lookup(hostname, options, callback);
  const done = typeof options === "function" ? options : callback;
  process.nextTick(() => done(notFound(hostname)));
};
dns.promises.lookup = async (hostname, options) => {
  if (isIP(String(hostname))) return promisesLookup(hostname, options);
  throw notFound(hostname);
};
// ESM importers of node:dns and node:dns/promises see the replacements too.
syncBuiltinESMExports();
