/**
 * Agents and session records as the SQL backends (PostgreSQL, SQLite) store them: one column per
 * field, the DSL and the message list as JSON text. Reading a row back applies the same checks as
 * every other backend (records.ts); the backends differ only in how a time column arrives (pg
 * returns a bigint as text), so each passes its own `time`.
 */
import type { AgentRecord, SessionRecord } from "../contracts.js";
import { StoredRecordError } from "../errors.js";
import { checkStoredRecord, parseStoredJson, titleKey } from "./records.js";

export interface AgentRow<Time> {
  id: string;
  tenant: string;
  title: string;
  title_key: string;
  description: string;
  dsl: string;
  canvas_type: string;
  avatar: string | null;
  create_time: Time;
  update_time: Time;
}

export interface SessionRow<Time> {
  id: string;
  tenant: string;
  agent_id: string;
  user_id: string;
  name: string;
  message: string;
  source: string;
  create_time: Time;
  update_time: Time;
}

/** An agent row as a record; `where` names the store and the row. Its title_key must still be its title's. */
export function agentFromRow<Time>(row: AgentRow<Time>, where: string, time: (value: Time) => unknown): AgentRecord {
  const record = checkStoredRecord<AgentRecord>(
    "agent",
    {
      id: row.id,
      tenant: row.tenant,
      title: row.title,
      description: row.description,
      dsl: parseStoredJson(row.dsl, "its dsl column", where),
      canvas_type: row.canvas_type,
      avatar: row.avatar,
      create_time: time(row.create_time),
      update_time: time(row.update_time),
    },
    where,
  );
  if (row.title_key !== titleKey(record.title)) {
    throw new StoredRecordError(`${where}: its title_key column (${JSON.stringify(row.title_key)}) is not its title lower-cased (${JSON.stringify(titleKey(record.title))}); title uniqueness depends on it`, where);
  }
  return record;
}

/** A session-record row as a record; `where` names the store and the row. */
export function sessionFromRow<Time>(row: SessionRow<Time>, where: string, time: (value: Time) => unknown): SessionRecord {
  return checkStoredRecord<SessionRecord>(
    "session record",
    {
      id: row.id,
      tenant: row.tenant,
      agent_id: row.agent_id,
      user_id: row.user_id,
      name: row.name,
      message: parseStoredJson(row.message, "its message column", where),
      source: row.source,
      create_time: time(row.create_time),
      update_time: time(row.update_time),
    },
    where,
  );
}
