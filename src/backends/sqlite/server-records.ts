/**
 * Agents and their session records in a SQLite database file (tables `agents` and
 * `session_records`, migration 3 of schema.ts), as the PostgreSQL store keeps them: one row each,
 * the JSON parts as the text given, titles unique per tenant through `title_key`. A read is one
 * statement; an update reads, merges in JavaScript and writes back in one immediate transaction,
 * so no other process writes the row in between.
 */
import type { AgentPatch, AgentRecord, AgentStore, ListQuery, Page, SessionPatch, SessionRecord, SessionRecordStore } from "../contracts.js";
import { DuplicateTitleError, ServerStoreError } from "../errors.js";
import { checkNewRecord, isRecordId, ownedRecord, pageOfRows, patchedAgent, patchedSession, titleKey } from "../shared/records.js";
import { agentFromRow, sessionFromRow, type AgentRow as SqlAgentRow, type SessionRow as SqlSessionRow } from "../shared/record-rows.js";
import { violatedConstraint, type ServerDatabase } from "./server-database.js";

type AgentRow = SqlAgentRow<number>;

interface SessionRow extends SqlSessionRow<number> {
  name_key: string;
}

export class SqliteAgents implements AgentStore {
  constructor(private readonly store: ServerDatabase) {}

  async create(agent: AgentRecord): Promise<AgentRecord> {
    checkNewRecord("agent", agent, this.store.location);
    try {
      this.store.run(`creating agent ${agent.id}`, () =>
        this.store
          .sql("INSERT INTO agents (id, tenant, title, title_key, description, dsl, canvas_type, avatar, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
          .run(agent.id, agent.tenant, agent.title, titleKey(agent.title), agent.description, JSON.stringify(agent.dsl), agent.canvas_type, agent.avatar, agent.create_time, agent.update_time),
      );
    } catch (error) {
      throw this.conflict(error, agent) ?? error;
    }
    return structuredClone(agent);
  }

  async get(tenant: string, id: string): Promise<AgentRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    const row = this.store.run(`reading agent ${id}`, () => this.store.sql<[string, string], AgentRow>("SELECT * FROM agents WHERE id = ? AND tenant = ?").get(id, tenant));
    return row && ownedRecord("agent", row, (found) => this.record(found), this.store.damage);
  }

  async list(tenant: string, query: ListQuery): Promise<Page<AgentRecord>> {
    if (query.id !== undefined && !isRecordId(query.id)) return { items: [], total: 0 };
    const { rows, total } = this.store.list<AgentRow>(`listing the agents of tenant ${JSON.stringify(tenant)}`, "agents", "title_key", ["tenant = ?"], [tenant], query);
    return pageOfRows("agent", rows, total, (row) => this.record(row), this.store.damage);
  }

  async update(tenant: string, id: string, patch: AgentPatch, now: number): Promise<AgentRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    let updated: AgentRecord | undefined;
    try {
      return this.store.write(`updating agent ${id}`, () => {
        const row = this.store.sql<[string, string], AgentRow>("SELECT * FROM agents WHERE id = ? AND tenant = ?").get(id, tenant);
        if (!row) return undefined;
        updated = patchedAgent(this.record(row), patch, now, this.store.location);
        this.store
          .sql("UPDATE agents SET title = ?, title_key = ?, description = ?, dsl = ?, canvas_type = ?, avatar = ?, update_time = ? WHERE id = ? AND tenant = ?")
          .run(updated.title, titleKey(updated.title), updated.description, JSON.stringify(updated.dsl), updated.canvas_type, updated.avatar, updated.update_time, id, tenant);
        return updated;
      });
    } catch (error) {
      throw (updated && this.conflict(error, updated)) ?? error;
    }
  }

  async delete(tenant: string, id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    // One transaction: the agent and its session records go together or not at all.
    return this.store.write(`deleting agent ${id}`, () => {
      const gone = this.store.sql("DELETE FROM agents WHERE id = ? AND tenant = ?").run(id, tenant).changes > 0;
      if (gone) this.store.sql("DELETE FROM session_records WHERE tenant = ? AND agent_id = ?").run(tenant, id);
      return gone;
    });
  }

  /** A refused insert or update as the error it stands for: a title the tenant has, or an id in use. */
  private conflict(error: unknown, agent: AgentRecord): Error | undefined {
    const constraint = violatedConstraint(error);
    if (constraint === "unique") return new DuplicateTitleError(agent.title);
    if (constraint === "primary key") return new ServerStoreError(`${this.store.location}: agent ${agent.id} already exists`);
    return undefined;
  }

  private record(row: AgentRow): AgentRecord {
    return agentFromRow(row, this.store.rowWhere("agents", row.id), (value) => value);
  }
}

export class SqliteSessionRecords implements SessionRecordStore {
  constructor(private readonly store: ServerDatabase) {}

  async create(record: SessionRecord): Promise<SessionRecord> {
    checkNewRecord("session record", record, this.store.location);
    try {
      this.store.run(`creating session record ${record.id}`, () =>
        this.store
          .sql("INSERT INTO session_records (id, tenant, agent_id, user_id, name, name_key, message, source, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
          .run(record.id, record.tenant, record.agent_id, record.user_id, record.name, record.name.toLowerCase(), JSON.stringify(record.message), record.source, record.create_time, record.update_time),
      );
    } catch (error) {
      if (violatedConstraint(error) === "primary key") throw new ServerStoreError(`${this.store.location}: session record ${record.id} already exists`);
      throw error;
    }
    return structuredClone(record);
  }

  async get(tenant: string, id: string): Promise<SessionRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    const row = this.store.run(`reading session record ${id}`, () => this.store.sql<[string, string], SessionRow>("SELECT * FROM session_records WHERE id = ? AND tenant = ?").get(id, tenant));
    return row && ownedRecord("session record", row, (found) => this.record(found), this.store.damage);
  }

  async tenantOf(id: string): Promise<string | undefined> {
    if (!isRecordId(id)) return undefined;
    return this.store.run(`reading session record ${id}`, () => this.store.sql<[string], { tenant: string }>("SELECT tenant FROM session_records WHERE id = ?").get(id))?.tenant;
  }

  async list(tenant: string, agentId: string, query: ListQuery): Promise<Page<SessionRecord>> {
    if (query.id !== undefined && !isRecordId(query.id)) return { items: [], total: 0 };
    const { rows, total } = this.store.list<SessionRow>(`listing the session records of agent ${agentId}`, "session_records", "name_key", ["tenant = ?", "agent_id = ?"], [tenant, agentId], query);
    return pageOfRows("session record", rows, total, (row) => this.record(row), this.store.damage);
  }

  /** `known` is not needed: the row is read and written in one transaction. */
  async update(tenant: string, id: string, patch: SessionPatch, now: number): Promise<SessionRecord | undefined> {
    if (!isRecordId(id)) return undefined;
    return this.store.write(`updating session record ${id}`, () => {
      const row = this.store.sql<[string, string], SessionRow>("SELECT * FROM session_records WHERE id = ? AND tenant = ?").get(id, tenant);
      if (!row) return undefined;
      const updated = patchedSession(this.record(row), patch, now, this.store.location);
      this.store
        .sql("UPDATE session_records SET name = ?, name_key = ?, message = ?, update_time = ? WHERE id = ? AND tenant = ?")
        .run(updated.name, updated.name.toLowerCase(), JSON.stringify(updated.message), updated.update_time, id, tenant);
      return updated;
    });
  }

  async delete(tenant: string, ids: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(ids)].filter(isRecordId);
    if (wanted.length === 0) return [];
    const rows = this.store.run("deleting session records", () =>
      this.store.sql<[string, string], { id: string }>("DELETE FROM session_records WHERE tenant = ? AND id IN (SELECT value FROM json_each(?)) RETURNING id").all(tenant, JSON.stringify(wanted)),
    );
    const deleted = new Set(rows.map((row) => row.id));
    return wanted.filter((id) => deleted.has(id));
  }

  private record(row: SessionRow): SessionRecord {
    return sessionFromRow(row, this.store.rowWhere("session_records", row.id), (value) => value);
  }
}
