/**
 * API keys, as RAGFlow (HEAD) reads them: `Authorization: Bearer <key>` (the prefix in any case;
 * a header without it is taken whole as the key). Only SHA-256 hashes of keys are stored; a key's
 * hash is looked up in the store's keys, which say the key's tenant. A single key given to the
 * server (`--api-key-env NAME`) belongs to the tenant "default" and is compared in constant time.
 *
 * With no key configured at all (none in the store, none given), the server is open: every
 * request is the tenant "default" (a known key still names its tenant). `createServer` refuses to
 * listen anywhere but loopback in that case unless told `insecureNoAuth`.
 */
import { timingSafeEqual } from "node:crypto";
import { hashApiKey } from "./store/api-keys.js";
import type { ApiKeyStore } from "../backends/contracts.js";

/** The tenant of the single configured key and of requests to an open server. */
export const DEFAULT_TENANT = "default";

/** The key in an Authorization header: after a case-insensitive `Bearer ` prefix, else the whole value. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const token = /^bearer\s+/i.test(value) ? value.replace(/^bearer\s+/i, "").trim() : value;
  return token === "" ? undefined : token;
}

export interface KeyCheckerOptions {
  keys: ApiKeyStore;
  /** The single key of a one-key deployment (its tenant is "default"). */
  apiKey?: string;
  /** Accept requests without a valid key as the tenant "default". */
  open: boolean;
}

/** Who sent a request: the key's tenant, and the key's id when a known key was given. */
export interface Caller {
  tenant: string;
  /**
   * A stored key's id, or `env-` and the first 16 hex digits of the single key's SHA-256: what
   * rate limits count by (never the key). Undefined on an open server without a known key.
   */
  keyId: string | undefined;
}

/** Who a request is, or undefined when it must be refused (401). */
export class KeyChecker {
  private readonly singleKeyHash: Buffer | undefined;

  constructor(private readonly options: KeyCheckerOptions) {
    this.singleKeyHash = options.apiKey !== undefined ? Buffer.from(hashApiKey(options.apiKey), "hex") : undefined;
  }

  async callerOf(authorization: string | undefined): Promise<Caller | undefined> {
    const token = bearerToken(authorization);
    if (token !== undefined) {
      const hash = hashApiKey(token);
      // Equal-length digests: the comparison takes the same time whatever the key.
      if (this.singleKeyHash && timingSafeEqual(Buffer.from(hash, "hex"), this.singleKeyHash)) return { tenant: DEFAULT_TENANT, keyId: `env-${hash.slice(0, 16)}` };
      // The store is searched by the key's hash; a hash reveals nothing about the keys it misses.
      const record = await this.options.keys.findByHash(hash);
      if (record) return { tenant: record.tenant, keyId: record.id };
    }
    return this.options.open ? { tenant: DEFAULT_TENANT, keyId: undefined } : undefined;
  }

  async tenantOf(authorization: string | undefined): Promise<string | undefined> {
    return (await this.callerOf(authorization))?.tenant;
  }
}

/** Whether any key is configured: a single key, or a live key in the store. */
export async function anyKeyConfigured(keys: ApiKeyStore, apiKey: string | undefined): Promise<boolean> {
  if (apiKey !== undefined) return true;
  return (await keys.list()).some((key) => !key.revoked);
}
