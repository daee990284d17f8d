/**
 * One tenant's memories: what a run gets as its `memories` service. Components name memories by
 * id only (a DSL's memory_ids); the tenant comes from whoever set the run up (the server from the
 * API key, a worker from the job), never from the canvas, so a canvas cannot reach another
 * tenant's memories whatever ids it names.
 */
import { checkTenant, DEFAULT_MEMORY_TENANT } from "../backends/shared/memories.js";
import { MemoryStoreError } from "../backends/errors.js";
import type { MemoryMessage, MemoryStore, NewMemoryMessage } from "../backends/contracts.js";

export class TenantMemories {
  readonly tenant: string;

  constructor(
    readonly store: MemoryStore,
    tenant: string,
  ) {
    if (!isMemoryStore(store)) throw notAStore(store, "TenantMemories' store");
    this.tenant = checkTenant(tenant);
  }

  /** Where they are, for messages: the store and the tenant. */
  get location(): string {
    return `${this.store.location}, tenant ${JSON.stringify(this.tenant)}`;
  }

  add(id: string, message: NewMemoryMessage): Promise<boolean> {
    return this.store.add({ tenant: this.tenant, id }, message);
  }

  messages(id: string): Promise<MemoryMessage[]> {
    return this.store.messages({ tenant: this.tenant, id });
  }
}

export function isMemoryStore(value: unknown): value is MemoryStore {
  return looksLikeStore(value) && (value as MemoryStore).scope === "tenant";
}

function looksLikeStore(value: unknown): boolean {
  return typeof value === "object" && value !== null && !(value instanceof TenantMemories) && typeof (value as MemoryStore).add === "function" && typeof (value as MemoryStore).messages === "function";
}

/** Why a value that is not a MemoryStore is not one. */
function notAStore(value: unknown, where: string): MemoryStoreError {
  if (looksLikeStore(value)) {
    return new MemoryStoreError(
      `${where} has add and messages but does not say scope: "tenant": a store written for the interface before tenants (add(id, message)) would keep every tenant's memory under one key; its methods must take { tenant, id }`,
    );
  }
  return new MemoryStoreError(`${where} must be a MemoryStore (scope "tenant", with add, messages and close)`);
}

/**
 * The memories a run's `memories` service gives: one tenant's as they are, a whole store as the
 * tenant "default"'s (a library or CLI run, which has no tenant); undefined when there is none.
 */
export function runMemories(service: unknown): TenantMemories | undefined {
  if (service instanceof TenantMemories) return service;
  if (isMemoryStore(service)) return new TenantMemories(service, DEFAULT_MEMORY_TENANT);
  if (looksLikeStore(service)) throw notAStore(service, "services.memories");
  return undefined;
}

interface WithServices {
  services?: Record<string, unknown>;
}

/**
 * Take the memory store out of the services every run of a server or worker shares, so a run only
 * ever gets it scoped to its tenant (withTenantMemories): a run set up without a tenant then has
 * no memories at all, rather than the tenant "default"'s. `where` names the option in errors.
 */
export function takeMemoryStore<T extends WithServices>(options: T, where: string): { options: T; store: MemoryStore | undefined } {
  const services = options.services;
  if (!services || services.memories === undefined) return { options, store: undefined };
  const { memories, ...rest } = services;
  if (memories instanceof TenantMemories) {
    throw new MemoryStoreError(`${where} is one tenant's memories (tenant ${JSON.stringify(memories.tenant)}); give the MemoryStore itself: each run gets its own tenant's memories from it`);
  }
  if (!isMemoryStore(memories)) throw notAStore(memories, where);
  return { options: { ...options, services: rest }, store: memories };
}

/** Run options whose `memories` service is `tenant`'s memories in `store` (unchanged when there is no store). */
export function withTenantMemories<T extends WithServices>(options: T, store: MemoryStore | undefined, tenant: string): T {
  if (store === undefined) return options;
  return { ...options, services: { ...(options.services ?? {}), memories: new TenantMemories(store, tenant) } };
}
