/**
 * The egress guard: one check for every outbound connection a canvas can cause. Non-public
 * addresses (loopback, private, link-local and metadata, …) are refused unless the operator
 * allows them (egress.allow, or allowPrivateNetwork for every address); a host is resolved once,
 * every address checked, and the connection goes to the checked addresses only.
 *
 * - guard.ts: the policy, checkEgress, pinned lookups;
 * - allow-list.ts: the operator's entries and their matching;
 * - service.ts: the runtime services (services.egress, services.http) → a policy;
 * - dispatchers.ts, fetch.ts: HTTP through undici (pooled pinned connections; a guarded fetch);
 * - connect.ts: pinned TCP sockets for drivers (PostgreSQL, MySQL);
 * - proxy.ts: a guarded forward proxy for clients that resolve names themselves (Chromium, code).
 */
export { AllowEntryError, AllowList, canonicalAddress, parseAllowEntry, type AllowEntry, type AllowQuery } from "./allow-list.js";
export {
  BlockedAddressError,
  checkEgress,
  createEgressPolicy,
  nonPublicKind,
  pinnedLookup,
  PRIVATE_NETWORK_HINT,
  systemResolver,
  urlPort,
  type EgressPolicy,
  type EgressPolicyOptions,
  type EgressTarget,
  type HostResolver,
  type ResolvedAddress,
} from "./guard.js";
export { egressPolicyOf, egressServiceOptions, EGRESS_SERVICE, PRIVATE_NETWORK_ENV, type EgressServiceOptions, type HttpServiceOptions } from "./service.js";
export { egressDispatcher, egressFetch, type EgressDispatcherOptions, type EgressFetch } from "./fetch.js";
export { pinnedConnect, pinnedSocket } from "./connect.js";
export { EGRESS_PROXY_DEFAULTS, startEgressProxy, type EgressProxy, type EgressProxyOptions, type EgressRefusal } from "./proxy.js";
