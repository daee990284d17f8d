/**
 * Copy a data folder (the server's store before SQLite, files/data-folder.ts) into a server store
 * and its memories: `canvasflow db import --data-folder DIR`. Agents, API keys (their hashes: the
 * keys themselves were never stored), session records, the sessions' run state (base, checkpoints
 * and event log, as they are), uploads that have not expired, and conversation memories with
 * their message ids and times.
 *
 * Nothing is overwritten. Everything is looked up in the target first: a record already there
 * and the same as the folder's is counted as done (so an import that was cut off can be run
 * again), one that differs is a conflict; any conflict refuses the whole import before it writes
 * anything, naming each record.
 */
import { isDeepStrictEqual } from "node:util";
import type { AgentRecord, ApiKeyRecord, CheckpointStore, MemoryMessage, MemoryRef, MemoryStore, ServerStore, SessionRecord } from "./contracts.js";
import { ServerStoreError } from "./errors.js";
import type { DataFolderReader } from "./files/data-folder.js";

/** A memory store that can keep a message as it was (its id and time), for imports. */
export interface MemoryImportTarget extends MemoryStore {
  /** Keep `message` as it is; false when the memory has a message with its id already. */
  keep(memory: MemoryRef, message: MemoryMessage): Promise<boolean>;
}

export interface ImportCounts {
  /** Copied now. */
  imported: number;
  /** There already, the same as in the folder. */
  present: number;
}

export interface DataFolderImportReport {
  agents: ImportCounts;
  keys: ImportCounts;
  sessionRecords: ImportCounts;
  runs: ImportCounts;
  uploads: ImportCounts & { expired: number };
  memories: ImportCounts & { messages: number };
  /**
   * Messages of memories from before tenants (left in the folder when their session was not
   * known): each goes to its session's tenant when the folder's session records name it; these
   * had none, and stay in the folder, where no run reads them.
   */
  unownedMessages: number;
}

/** The records a target already holds with other content: the import was refused, nothing written. */
export class ImportConflictError extends ServerStoreError {
  constructor(
    readonly target: string,
    readonly conflicts: string[],
  ) {
    const shown = conflicts.slice(0, 20).map((conflict) => `\n  ${conflict}`).join("");
    const more = conflicts.length > 20 ? `\n  … and ${conflicts.length - 20} more` : "";
    super(`${target} already holds ${conflicts.length} record${conflicts.length === 1 ? "" : "s"} the data folder has with other content; nothing was imported:${shown}${more}`);
    this.name = "ImportConflictError";
  }
}

interface Plan<T> {
  copy: T[];
  present: number;
}

const counts = (plan: Plan<unknown>): ImportCounts => ({ imported: plan.copy.length, present: plan.present });

/** The run state of a session as it is stored: base, checkpoints, events. */
async function runState(store: CheckpointStore, key: string) {
  const stored = await store.load(key);
  if (!stored) return undefined;
  const events = await store.events(key);
  return { snapshot: stored.snapshot, deltas: stored.deltas, events };
}

export async function importDataFolder(source: DataFolderReader, target: { store: ServerStore; memories: MemoryImportTarget }, now = Date.now()): Promise<DataFolderImportReport> {
  const { store, memories } = target;
  const conflicts: string[] = [];

  // What is where: read the folder whole (but the uploads' bytes, read when copied).
  const agents = await source.agents();
  const keys = await source.keys();
  const sessionRecords = await source.sessionRecords();
  const tenants = new Set([...agents, ...keys, ...sessionRecords].map((record) => record.tenant));
  const owners = new Map(sessionRecords.map((record) => [record.id, record.tenant]));
  const { memories: memoryList, unowned } = withLegacy(await source.memories(tenants), await source.legacyMemories(), owners);
  const sourceRuns = source.runs();

  const plan = async <T>(items: T[], existing: (item: T) => Promise<unknown>, describe: (item: T) => string, same: (item: T, found: unknown) => boolean): Promise<Plan<T>> => {
    const out: Plan<T> = { copy: [], present: 0 };
    for (const item of items) {
      const found = await existing(item);
      if (found === undefined) out.copy.push(item);
      else if (same(item, found)) out.present++;
      else conflicts.push(describe(item));
    }
    return out;
  };

  try {
    const agentPlan = await plan<AgentRecord>(agents, (a) => store.agents.get(a.tenant, a.id), (a) => `agent ${a.id} ("${a.title}", tenant ${JSON.stringify(a.tenant)})`, isDeepStrictEqual);
    const keyPlan = await plan<ApiKeyRecord>(keys, (k) => store.keys.findByHash(k.hash), (k) => `API key ${k.id} ("${k.name}", tenant ${JSON.stringify(k.tenant)})`, isDeepStrictEqual);
    const sessionPlan = await plan<SessionRecord>(
      sessionRecords,
      async (s) => (await store.sessions.get(s.tenant, s.id)) ?? ((await store.sessions.tenantOf(s.id)) === undefined ? undefined : null),
      (s) => `session record ${s.id} (agent ${s.agent_id}, tenant ${JSON.stringify(s.tenant)})`,
      isDeepStrictEqual,
    );
    // A session's run state is compared when found in the target, else read again when copied.
    const runPlan: Plan<string> = { copy: [], present: 0 };
    for (const key of await source.runKeys()) {
      const found = await runState(store.runs, key);
      if (found === undefined) runPlan.copy.push(key);
      else if (isDeepStrictEqual(found, await runState(sourceRuns, key))) runPlan.present++;
      else conflicts.push(`the run state of session ${key}`);
    }
    const memoryPlan = await plan(
      memoryList,
      async (m) => {
        const found = await memories.messages({ tenant: m.tenant, id: m.id });
        return found.length === 0 ? undefined : found;
      },
      (m) => `memory ${JSON.stringify(m.id)} of tenant ${JSON.stringify(m.tenant)}`,
      (m, found) => isDeepStrictEqual(m.messages, found),
    );
    const uploadPlan = { copy: new Set<string>(), present: 0, expired: 0 };
    for await (const { record, data } of source.uploads()) {
      // An expired upload would be gone at its next read: not copied.
      if (record.expire_time <= now) uploadPlan.expired++;
      else {
        const found = await store.uploads.get(record.tenant, record.id, now);
        if (found === undefined) uploadPlan.copy.add(record.id);
        else if (isDeepStrictEqual(found.record, record) && found.data.equals(data)) uploadPlan.present++;
        else conflicts.push(`upload ${record.id} ("${record.name}", tenant ${JSON.stringify(record.tenant)})`);
      }
    }
    if (conflicts.length > 0) throw new ImportConflictError(store.location, conflicts);

    for (const key of keyPlan.copy) await store.keys.create(key);
    for (const agent of agentPlan.copy) await store.agents.create(agent);
    for (const record of sessionPlan.copy) await store.sessions.create(record);
    for (const key of runPlan.copy) await copyRunState(sourceRuns, store.runs, key);
    // Nothing in an upload's own limits applies to what a tenant already had.
    const roomy = { maxFiles: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };
    for await (const { record, data } of source.uploads()) if (uploadPlan.copy.has(record.id)) await store.uploads.put(record, data, roomy);
    let messages = 0;
    for (const memory of memoryPlan.copy) {
      for (const message of memory.messages) if (await memories.keep({ tenant: memory.tenant, id: memory.id }, message)) messages++;
    }
    return {
      agents: counts(agentPlan),
      keys: counts(keyPlan),
      sessionRecords: counts(sessionPlan),
      runs: counts(runPlan),
      uploads: { imported: uploadPlan.copy.size, present: uploadPlan.present, expired: uploadPlan.expired },
      memories: { ...counts(memoryPlan), messages },
      unownedMessages: unowned,
    };
  } finally {
    await sourceRuns.close();
  }
}

type FolderMemory = { tenant: string; id: string; messages: MemoryMessage[] };

/**
 * The tenants' memories with the legacy ones' messages given to their sessions' tenants (before
 * the tenant's own: they were written earlier); a message already there (by id) is not repeated.
 */
function withLegacy(memories: FolderMemory[], legacy: Array<{ id: string; messages: MemoryMessage[] }>, owners: Map<string, string>): { memories: FolderMemory[]; unowned: number } {
  const byKey = new Map(memories.map((memory) => [JSON.stringify([memory.tenant, memory.id]), memory]));
  let unowned = 0;
  for (const { id, messages } of legacy) {
    for (const message of [...messages].reverse()) {
      const tenant = owners.get(message.session_id);
      if (tenant === undefined) {
        unowned++;
        continue;
      }
      const key = JSON.stringify([tenant, id]);
      const memory = byKey.get(key) ?? { tenant, id, messages: [] };
      byKey.set(key, memory);
      if (!memory.messages.some((m) => m.message_id === message.message_id)) memory.messages.unshift(message);
    }
  }
  return { memories: [...byKey.values()], unowned };
}

/**
 * A session's run state, as it is: its base saved, its events logged, then its checkpoints
 * appended in order under the session's lock (the events first: the log then never lacks an
 * event of a checkpoint it holds).
 */
async function copyRunState(from: CheckpointStore, to: CheckpointStore, key: string): Promise<void> {
  const state = await runState(from, key);
  if (!state) return; // removed from the folder meanwhile
  await to.save(key, state.snapshot, { expectedVersion: null });
  if (state.events.length === 0 && state.deltas.length === 0) return;
  const lock = await to.lock(key);
  try {
    if (state.events.length > 0) await to.logEvents(key, state.events.map((event) => ({ id: event.id, json: JSON.stringify(event.event) })), { lock });
    for (const [index, delta] of state.deltas.entries()) await to.append(key, { seq: index + 1, delta: JSON.stringify(delta), events: [] }, { lock });
  } finally {
    await lock.release();
  }
}
