/**
 * API keys: made here, shown once, stored only as their SHA-256 (with the last four characters,
 * to tell keys apart in a list). A key is `cf-` and 43 base64url characters: 32 random bytes.
 */
import { randomBytes } from "node:crypto";
import { sha256Hex, tenantProblem } from "../../backends/shared/records.js";
import { ServerStoreError } from "../../backends/errors.js";
import type { ApiKeyRecord, ApiKeyStore } from "../../backends/contracts.js";

export const API_KEY_PREFIX = "cf-";

export interface CreateApiKeyOptions {
  tenant: string;
  /** What the key is for ("ci", "alice's laptop"): 1 to 128 printable characters. */
  name: string;
  /** Creation time, epoch ms (default now). */
  now?: number;
}

export interface CreatedApiKey {
  /** The key itself: give it to its user; it is not stored and cannot be shown again. */
  key: string;
  record: ApiKeyRecord;
}

/** The SHA-256 of a key, in lowercase hex: what the store finds a key by. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** What is wrong with a key's name, if anything. */
export function apiKeyNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name.trim() === "" || name.length > 128 || /[\u0000-\u001f\u007f]/.test(name)) {
    return `an API key's name must be 1 to 128 printable characters, got ${typeof name === "string" ? JSON.stringify(name.slice(0, 80)) : typeof name}`;
  }
  return undefined;
}

/** Make a new key for `tenant` and store its hash. */
export async function createApiKey(store: { keys: ApiKeyStore }, options: CreateApiKeyOptions): Promise<CreatedApiKey> {
  const problem = tenantProblem(options.tenant) ?? apiKeyNameProblem(options.name);
  if (problem) throw new ServerStoreError(problem.startsWith("tenant") ? `an API key's ${problem}` : problem);
  const key = API_KEY_PREFIX + randomBytes(32).toString("base64url");
  const record: ApiKeyRecord = {
    id: randomBytes(8).toString("hex"),
    tenant: options.tenant,
    name: options.name,
    hash: hashApiKey(key),
    last4: key.slice(-4),
    create_time: options.now ?? Date.now(),
    revoked: false,
  };
  return { key, record: await store.keys.create(record) };
}
