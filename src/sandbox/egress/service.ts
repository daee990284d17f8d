/**
 * The runtime services that configure the egress guard for a run's components:
 * `services.egress` = `{ allow, allowPrivateNetwork, hint, lookup }` (loadCanvas(dsl, { services:
 * { egress: { … } } })), and the older `services.http` = `{ allowPrivateNetwork,
 * privateNetworkHint, lookup }`, still read. `egressPolicyOf(services)` turns them into the
 * policy every connector checks its connections with.
 */
import { AllowList } from "./allow-list.js";
import { PRIVATE_NETWORK_HINT, systemResolver, type EgressPolicy, type HostResolver } from "./guard.js";

export interface EgressServiceOptions {
  /**
   * Non-public addresses allowed anyway: host names (`db.internal`), IP addresses, `host:port`,
   * `[v6]:port` and CIDR ranges (`10.0.0.0/8`). Default: none.
   */
  allow?: readonly string[];
  /**
   * Allow every address, the guard off. Default: false, unless the environment variable
   * CANVASFLOW_ALLOW_PRIVATE_NETWORK is 1/true/yes/on. An explicit boolean wins over the environment.
   */
  allowPrivateNetwork?: boolean;
  /** How the operator allows a refused address, as the refusal ends; `{entry}` is the allow-list entry that would allow it. */
  hint?: string;
  /** Resolves host names (default: the system resolver). Every address it returns is checked and pinned. */
  lookup?: HostResolver;
}

/** `services.http`, the older spelling (Invoke's network policy before the guard covered every connector). */
export interface HttpServiceOptions {
  /** As `services.egress.allowPrivateNetwork`. */
  allowPrivateNetwork?: boolean;
  /** As `services.egress.hint`. */
  privateNetworkHint?: string;
  /** As `services.egress.lookup`. */
  lookup?: HostResolver;
}

export const EGRESS_SERVICE = "egress";
export const PRIVATE_NETWORK_ENV = "CANVASFLOW_ALLOW_PRIVATE_NETWORK";

type Services = Readonly<Record<string, unknown>>;

function objectAt(services: Services, key: string, example: string): Record<string, unknown> | undefined {
  const value = services[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new Error(`services.${key} must be an object like ${example}`);
  return value as Record<string, unknown>;
}

/** `services.http`, checked: a wrong shape is a configuration error worth naming. */
export function httpServiceOptions(services: Services): HttpServiceOptions {
  const options = objectAt(services, "http", "{ allowPrivateNetwork: true }");
  if (!options) return {};
  if (options.allowPrivateNetwork !== undefined && typeof options.allowPrivateNetwork !== "boolean") {
    throw new Error("services.http.allowPrivateNetwork must be true or false");
  }
  if (options.privateNetworkHint !== undefined && typeof options.privateNetworkHint !== "string") {
    throw new Error("services.http.privateNetworkHint must be a string");
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw new Error("services.http.lookup must be a function (hostname) => Promise<{address, family}[]>");
  }
  return options as HttpServiceOptions;
}

/** `services.egress`, checked (its allow entries are read by egressPolicyOf). */
export function egressServiceOptions(services: Services): EgressServiceOptions {
  const options = objectAt(services, EGRESS_SERVICE, '{ allow: ["db.internal:5432"] }');
  if (!options) return {};
  if (options.allow !== undefined && !Array.isArray(options.allow)) throw new Error('services.egress.allow must be an array of strings such as ["127.0.0.1:5432", "10.0.0.0/8"]');
  if (options.allowPrivateNetwork !== undefined && typeof options.allowPrivateNetwork !== "boolean") {
    throw new Error("services.egress.allowPrivateNetwork must be true or false");
  }
  if (options.hint !== undefined && typeof options.hint !== "string") throw new Error("services.egress.hint must be a string");
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw new Error("services.egress.lookup must be a function (hostname) => Promise<{address, family}[]>");
  }
  return options as EgressServiceOptions;
}

export function privateNetworkAllowed(options: { allowPrivateNetwork?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (typeof options.allowPrivateNetwork === "boolean") return options.allowPrivateNetwork;
  const flag = env[PRIVATE_NETWORK_ENV]?.trim().toLowerCase();
  return flag === "1" || flag === "true" || flag === "yes" || flag === "on";
}

/** Allow-lists already read, by the array they were read from (a run's services are read per connection). */
const readLists = new WeakMap<readonly string[], AllowList>();

function allowListOf(entries: readonly string[] | undefined): AllowList {
  if (entries === undefined || entries.length === 0) return AllowList.EMPTY;
  let list = readLists.get(entries);
  if (!list) {
    list = AllowList.parse(entries, "services.egress.allow");
    readLists.set(entries, list);
  }
  return list;
}

/**
 * The policy a run's connections are checked with, from `services.egress` and `services.http`
 * (the first wins where both say something; they may not disagree on allowPrivateNetwork).
 */
export function egressPolicyOf(services: Services, env: NodeJS.ProcessEnv = process.env): EgressPolicy {
  const egress = egressServiceOptions(services);
  const http = httpServiceOptions(services);
  if (egress.allowPrivateNetwork !== undefined && http.allowPrivateNetwork !== undefined && egress.allowPrivateNetwork !== http.allowPrivateNetwork) {
    throw new Error(`services.egress.allowPrivateNetwork is ${egress.allowPrivateNetwork} but services.http.allowPrivateNetwork is ${http.allowPrivateNetwork}: set one of them`);
  }
  return {
    allowPrivateNetwork: privateNetworkAllowed({ allowPrivateNetwork: egress.allowPrivateNetwork ?? http.allowPrivateNetwork }, env),
    allow: allowListOf(egress.allow),
    resolver: egress.lookup ?? http.lookup ?? systemResolver,
    hint: egress.hint ?? http.privateNetworkHint ?? PRIVATE_NETWORK_HINT,
  };
}
