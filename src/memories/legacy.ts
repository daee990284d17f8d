/**
 * Memories written before memories had tenants ("legacy": one id space for the whole store) are
 * moved into their tenants' scopes. A message's owner is the tenant of the session that wrote it:
 * every message records its session (`session_id`, the run's task id, which on the server is the
 * session id), and the server's session records say each session's tenant (MemoryOwners).
 *
 * - Each legacy memory moves atomically: after a crash it is either as it was or moved (a folder
 *   gets there by a retry that finds the copies already made; see backends/files/memories.ts).
 * - Running it again changes nothing: what moved is no longer legacy.
 * - No message is lost: a message whose owner is not known (its session was deleted, or written
 *   by a CLI run, which has no session record) stays where it was, in the legacy layout, which no
 *   run reads any more; every migration reports them, and `unownedTo` (`canvasflow db migrate
 *   --unowned-to TENANT`) gives them to a tenant the operator names.
 * - Moved messages keep everything (ids, times); in a tenant's memory that has messages already,
 *   all are in the order written (message ids sort so). None is forgotten by the move even when a
 *   memory is over its size limit (the next message written forgets as usual). A moved message
 *   whose source key the tenant's memory already holds (the same step ran again after the upgrade)
 *   keeps its text and loses its source key.
 */
import { checkTenant } from "../backends/shared/memories.js";
import { MemoryStoreError } from "../backends/errors.js";
import type { MemoryMessage, MemoryStore } from "../backends/contracts.js";

/** Each message's tenant, in order; undefined leaves that message where it is. */
export type LegacyRoute = (messages: readonly MemoryMessage[]) => Promise<ReadonlyArray<string | undefined>>;

export interface LegacyMove {
  /** Messages moved, per tenant. */
  moved: Map<string, number>;
  /** Messages left in the legacy memory. */
  kept: number;
}

/** What a backend that may hold legacy memories offers (every backend that persists does). */
export interface LegacyMemoryLayout {
  /** The ids of the legacy memories still there. */
  legacyMemoryIds(): Promise<string[]>;
  /** Move one legacy memory's messages to the tenants `route` gives, atomically. A memory no longer there moves nothing. */
  moveLegacyMemory(id: string, route: LegacyRoute): Promise<LegacyMove>;
}

export function hasLegacyLayout(store: MemoryStore): store is MemoryStore & LegacyMemoryLayout {
  const s = store as Partial<LegacyMemoryLayout>;
  return typeof s.legacyMemoryIds === "function" && typeof s.moveLegacyMemory === "function";
}

/** Who owns which session: the server's session records (server/memory-owners.ts). */
export interface MemoryOwners {
  /** The tenants of those sessions that have one; the others are left out. */
  tenantsOf(sessionIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

export interface MigrateLegacyOptions {
  /** Whose sessions wrote the messages (none: no owner is known). */
  owners?: MemoryOwners;
  /** The tenant of messages whose owner is not known (left out: they stay where they are). */
  unownedTo?: string;
}

export interface LegacyMigrationReport {
  location: string;
  /** Legacy memories found. */
  memories: number;
  /** Messages moved, per tenant. */
  moved: Record<string, number>;
  /** Messages left in the legacy layout (owner not known), per memory id. */
  unowned: Record<string, number>;
}

/**
 * A tenant's memory with moved messages merged in, in the order written (message ids sort so; a
 * stable sort keeps a memory's own order among equals). A moved message whose source key `own`
 * holds loses its key: the step that wrote it wrote again after the upgrade.
 */
/** A legacy memory's messages split by the tenant each goes to; those of no known owner stay (`kept`). */
export function splitByTenant(messages: readonly MemoryMessage[], tenants: ReadonlyArray<string | undefined>): { byTenant: Map<string, MemoryMessage[]>; kept: MemoryMessage[] } {
  const byTenant = new Map<string, MemoryMessage[]>();
  const kept: MemoryMessage[] = [];
  messages.forEach((message, i) => {
    const tenant = tenants[i];
    if (tenant === undefined) kept.push(message);
    else byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), message]);
  });
  return { byTenant, kept };
}

export function mergeMoved(own: readonly MemoryMessage[], moving: readonly MemoryMessage[]): MemoryMessage[] {
  const taken = new Set(own.map((m) => m.source_key).filter((key) => typeof key === "string" && key !== ""));
  const moved = moving.map((m) => (typeof m.source_key === "string" && m.source_key !== "" && taken.has(m.source_key) ? { ...m, source_key: "" } : m));
  return [...own, ...moved].sort((a, b) => (a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0));
}

/** Move every legacy memory of `store` to its tenants (a store without a legacy layout has none). */
export async function migrateLegacyMemories(store: MemoryStore, options: MigrateLegacyOptions = {}): Promise<LegacyMigrationReport> {
  const unownedTo = options.unownedTo === undefined ? undefined : checkTenant(options.unownedTo, "the tenant of messages without a known owner");
  const report: LegacyMigrationReport = { location: store.location, memories: 0, moved: {}, unowned: {} };
  if (!hasLegacyLayout(store)) return report;
  const route: LegacyRoute = async (messages) => {
    const sessions = [...new Set(messages.map((m) => m.session_id).filter((s): s is string => typeof s === "string" && s !== ""))];
    const owners = options.owners && sessions.length > 0 ? await options.owners.tenantsOf(sessions) : new Map<string, string>();
    return messages.map((m) => owners.get(m.session_id) ?? unownedTo);
  };
  for (const id of await store.legacyMemoryIds()) {
    let move: LegacyMove;
    try {
      move = await store.moveLegacyMemory(id, route);
    } catch (error) {
      throw new MemoryStoreError(`moving legacy memory ${JSON.stringify(id)} in ${store.location} to its tenants: ${(error as Error).message} (it is as it was: run the migration again once the cause is fixed)`);
    }
    report.memories++;
    for (const [tenant, count] of move.moved) report.moved[tenant] = (report.moved[tenant] ?? 0) + count;
    if (move.kept > 0) report.unowned[id] = move.kept;
  }
  return report;
}

/** The report as lines for a log or a command's output. */
export function legacyReportLines(report: LegacyMigrationReport): string[] {
  if (report.memories === 0) return [];
  const moved = Object.entries(report.moved);
  const total = moved.reduce((sum, [, n]) => sum + n, 0);
  const lines = [
    `memories at ${report.location}: ${report.memories} memor${report.memories === 1 ? "y" : "ies"} written before memories had tenants; ${total} message${total === 1 ? "" : "s"} moved to their tenants` +
      (moved.length > 0 ? ` (${moved.map(([tenant, n]) => `${JSON.stringify(tenant)}: ${n}`).join(", ")})` : ""),
  ];
  const unowned = Object.entries(report.unowned);
  if (unowned.length > 0) {
    const count = unowned.reduce((sum, [, n]) => sum + n, 0);
    lines.push(
      `memories at ${report.location}: ${count} message${count === 1 ? "" : "s"} of ${unowned.length} memor${unowned.length === 1 ? "y" : "ies"} (${unowned
        .slice(0, 10)
        .map(([id]) => JSON.stringify(id))
        .join(", ")}${unowned.length > 10 ? ", …" : ""}) have no known owner (their session is gone, or was not a server session): ` +
        "they stay, unscoped, where no run reads them; `canvasflow db migrate --unowned-to TENANT` gives them to a tenant",
    );
  }
  return lines;
}
