/**
 * Who wrote a memory message, for moving memories of earlier releases to their tenants: a
 * message's session_id is the task id of the run that wrote it, which on this server is the
 * session id (sessions.ts), and the session records say each session's tenant.
 */
import type { MemoryOwners } from "../memories/legacy.js";
import type { SessionRecordStore } from "../backends/contracts.js";

export function sessionOwners(sessions: Pick<SessionRecordStore, "tenantOf">): MemoryOwners {
  return {
    async tenantsOf(sessionIds) {
      const owners = new Map<string, string>();
      for (const id of sessionIds) {
        const tenant = await sessions.tenantOf(id);
        if (tenant !== undefined) owners.set(id, tenant);
      }
      return owners;
    },
  };
}
