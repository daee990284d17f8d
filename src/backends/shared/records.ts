/**
 * The rules every ServerStore backend applies to the records it is given and the records it reads
 * back, so that all of them refuse the same input and report a damaged record the same way:
 * - a record to store is checked field by field (a caller's mistake: ServerStoreError naming the
 *   record kind and field), before anything is written;
 * - a stored record that does not read back as one (not JSON, a field missing or of the wrong
 *   type, another id or tenant than where it was found) is a StoredRecordError naming the store,
 *   the file, key or row, and what is wrong;
 * - ids name files and keys: 1 to 128 letters, digits, "_" or "-". An id outside that rule is
 *   refused on create and reads as missing everywhere else (it comes from a URL: no such record).
 */
import { createHash } from "node:crypto";
import { isPlainObject } from "../../util/values.js";
import { DamagedRecordError, ServerStoreError, StoredRecordError } from "../errors.js";
import type { AgentPatch, AgentRecord, ApiKeyRecord, DamagedRecord, DamageListener, Page, SessionPatch, SessionRecord } from "../contracts.js";

export type RecordKind = "agent" | "session record" | "API key";

const ID = /^[A-Za-z0-9_-]{1,128}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether `id` can name a record (see the module comment). */
export function isRecordId(id: unknown): id is string {
  return typeof id === "string" && ID.test(id);
}

/** Whether `hash` is a SHA-256 in lowercase hex, as keys are stored by. */
export function isKeyHash(hash: unknown): hash is string {
  return typeof hash === "string" && SHA256_HEX.test(hash);
}

/** A tenant names where records live: non-empty, printable, at most 256 characters. */
export function tenantProblem(tenant: unknown): string | undefined {
  if (typeof tenant !== "string") return `tenant must be a string, got ${typeName(tenant)}`;
  if (tenant === "" || tenant.length > 256 || CONTROL.test(tenant)) return `tenant must be 1 to 256 printable characters, got ${JSON.stringify(tenant.slice(0, 80))}`;
  return undefined;
}

/** The case-folded title that uniqueness is decided on (computed here, not by a database's locale). */
export function titleKey(title: string): string {
  return title.toLowerCase();
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

type Field = "string" | "nonEmptyString" | "time" | "boolean" | "stringOrNull" | "object" | "messages" | "id" | "tenant" | "hash" | "source";

const AGENT_FIELDS: Record<keyof AgentRecord, Field> = {
  id: "id",
  tenant: "tenant",
  title: "nonEmptyString",
  description: "string",
  dsl: "object",
  canvas_type: "string",
  avatar: "stringOrNull",
  create_time: "time",
  update_time: "time",
};

const SESSION_FIELDS: Record<keyof SessionRecord, Field> = {
  id: "id",
  tenant: "tenant",
  agent_id: "string",
  user_id: "string",
  name: "string",
  message: "messages",
  source: "source",
  create_time: "time",
  update_time: "time",
};

const KEY_FIELDS: Record<keyof ApiKeyRecord, Field> = {
  id: "id",
  tenant: "tenant",
  name: "string",
  hash: "hash",
  last4: "string",
  create_time: "time",
  revoked: "boolean",
};

const FIELDS: Record<RecordKind, Record<string, Field>> = { agent: AGENT_FIELDS, "session record": SESSION_FIELDS, "API key": KEY_FIELDS };

/** What is wrong with `value` as a record of `kind`; undefined when nothing is. */
export function recordProblem(kind: RecordKind, value: unknown): string | undefined {
  if (!isPlainObject(value)) return `a${kind === "agent" || kind === "API key" ? "n" : ""} ${kind} must be a JSON object, got ${typeName(value)}`;
  for (const [name, field] of Object.entries(FIELDS[kind])) {
    const problem = fieldProblem(field, (value as Record<string, unknown>)[name]);
    if (problem) return `${name}${problem.startsWith("[") ? "" : " "}${problem}`;
  }
  return undefined;
}

function fieldProblem(field: Field, value: unknown): string | undefined {
  switch (field) {
    case "string":
      return typeof value === "string" ? undefined : `must be a string, got ${typeName(value)}`;
    case "nonEmptyString":
      return typeof value === "string" && value !== "" ? undefined : `must be a non-empty string, got ${typeName(value)}`;
    case "stringOrNull":
      return typeof value === "string" || value === null ? undefined : `must be a string or null, got ${typeName(value)}`;
    case "time":
      return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? undefined : `must be a time in epoch milliseconds (a whole number), got ${typeName(value)}`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `must be true or false, got ${typeName(value)}`;
    case "object":
      return isPlainObject(value) ? undefined : `must be a JSON object, got ${typeName(value)}`;
    case "id":
      return isRecordId(value) ? undefined : `must be 1 to 128 letters, digits, "_" or "-", got ${typeName(value)}`;
    case "tenant":
      return tenantProblem(value)?.replace(/^tenant /, "");
    case "hash":
      return isKeyHash(value) ? undefined : `must be a SHA-256 in lowercase hex (64 characters), got ${typeName(value)}`;
    case "source":
      return value === "agent" ? undefined : `must be "agent", got ${typeName(value)}`;
    case "messages":
      return messagesProblem(value);
  }
}

function messagesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `must be an array of messages, got ${typeName(value)}`;
  for (let i = 0; i < value.length; i++) {
    const message: unknown = value[i];
    if (!isPlainObject(message)) return `[${i}] must be an object, got ${typeName(message)}`;
    if (message.role !== "user" && message.role !== "assistant") return `[${i}].role must be "user" or "assistant", got ${typeName(message.role)}`;
    if (typeof message.content !== "string") return `[${i}].content must be a string, got ${typeName(message.content)}`;
    if (message.id !== undefined && typeof message.id !== "string") return `[${i}].id must be a string, got ${typeName(message.id)}`;
  }
  return undefined;
}

/** `record` as a record of `kind` ready to store, or a ServerStoreError naming the field (`store` names the backend). */
export function checkNewRecord<T>(kind: RecordKind, record: T, store: string): T {
  const problem = recordProblem(kind, record);
  if (problem) throw new ServerStoreError(`${store}: cannot store ${article(kind)} ${kind}: ${problem}`);
  return record;
}

/** An agent with `patch` applied (absent fields left alone), checked before it is stored. */
export function patchedAgent(agent: AgentRecord, patch: AgentPatch, now: number, store: string): AgentRecord {
  return checkNewRecord("agent", { ...agent, ...definedOnly(patch), update_time: now }, store);
}

export function patchedSession(record: SessionRecord, patch: SessionPatch, now: number, store: string): SessionRecord {
  return checkNewRecord("session record", { ...record, ...definedOnly(patch), update_time: now }, store);
}

/** The fields a patch sets (undefined means "leave it", as RAGFlow's PUT does with absent fields). */
export function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface Expected {
  id?: string;
  tenant?: string;
}

/**
 * Read stored JSON text back as a record of `kind`. `where` names the store and the file, key or
 * row ("data folder /srv/.canvasflow: agents/acme/3f2a….json"); `expected` what it must say about
 * itself given where it was found.
 */
export function parseStoredRecord<T>(kind: RecordKind, text: string, where: string, expected: Expected = {}): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoredRecordError(`${where}: the stored ${kind} is not valid JSON (${(error as Error).message})`, where);
  }
  return checkStoredRecord<T>(kind, value, where, expected);
}

/** A stored record already parsed (a database row put together): the same checks as parseStoredRecord. */
export function checkStoredRecord<T>(kind: RecordKind, value: unknown, where: string, expected: Expected = {}): T {
  const problem = recordProblem(kind, value);
  if (problem) throw new StoredRecordError(`${where}: the stored ${kind} is damaged: ${problem}`, where);
  const record = value as { id: string; tenant: string };
  if (expected.id !== undefined && record.id !== expected.id) {
    throw new StoredRecordError(`${where}: the stored ${kind} says its id is ${JSON.stringify(record.id)}, but it is stored as ${JSON.stringify(expected.id)}`, where);
  }
  if (expected.tenant !== undefined && record.tenant !== expected.tenant) {
    throw new StoredRecordError(`${where}: the stored ${kind} says it belongs to tenant ${JSON.stringify(record.tenant)}, but it is stored as tenant ${JSON.stringify(expected.tenant)}'s`, where);
  }
  return value as T;
}

/** A JSON value stored as text in a column or field (a DSL, a message list), parsed or reported. */
export function parseStoredJson(text: string, what: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StoredRecordError(`${where}: ${what} is not valid JSON (${(error as Error).message})`, where);
  }
}

function article(kind: RecordKind): string {
  return kind === "session record" ? "a" : "an";
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}…` : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value === "object" ? "an object" : typeof value;
}

const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/** How every record is written: `{"id":…,"tenant":…` first (a session record: then `"agent_id":…`). */
const RECORD_HEAD = new RegExp(String.raw`^\s*\{"id":(${JSON_STRING}),"tenant":(${JSON_STRING})(?:,"agent_id":(${JSON_STRING}))?`);

/**
 * Who a damaged record's text belongs to, as far as it can be told: the fields of a JSON object,
 * or (a truncated file) the id and tenant its first bytes still hold, as records are written.
 */
export function damagedOwner(text: string): { id?: string; tenant?: string; agent_id?: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (!isPlainObject(value)) return {};
    const str = (field: unknown) => (typeof field === "string" ? field : undefined);
    return { id: str(value.id), tenant: str(value.tenant), agent_id: str(value.agent_id) };
  } catch {
    const head = RECORD_HEAD.exec(text);
    if (!head) return {};
    const read = (json: string | undefined) => (json === undefined ? undefined : (JSON.parse(json) as string));
    return { id: read(head[1]), tenant: read(head[2]), agent_id: read(head[3]) };
  }
}

/** A StoredRecordError as a damaged record: its message without the store's location for the owner. */
export function damagedRecord(kind: RecordKind, error: StoredRecordError, owner: { id?: string; tenant?: string; agent_id?: string }): DamagedRecord {
  const prefix = `${error.where}: `;
  const problem = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : `the stored ${kind} cannot be read`;
  const damaged: DamagedRecord = { kind, problem, detail: error.message };
  if (owner.id !== undefined) damaged.id = owner.id;
  if (owner.tenant !== undefined) damaged.tenant = owner.tenant;
  if (owner.agent_id !== undefined) damaged.agent_id = owner.agent_id;
  return damaged;
}

/** The listeners of a store's damaged records (ServerStore.onDamaged). */
export class DamageListeners {
  private readonly listeners = new Set<DamageListener>();

  add(listener: DamageListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  report(damaged: DamagedRecord): void {
    for (const listener of this.listeners) listener(damaged);
  }
}

/**
 * One record its owner asked for by id (a row of the owner's, found with its tenant), read; a row
 * that cannot be read is reported to `damage` and told to the owner as DamagedRecordError (what
 * is wrong, no path), as lists tell it beside their page.
 */
export function ownedRecord<Row extends { id: string; tenant: string; agent_id?: string }, T>(kind: RecordKind, row: Row, read: (row: Row) => T, damage: DamageListeners): T {
  try {
    return read(row);
  } catch (error) {
    if (!(error instanceof StoredRecordError)) throw error;
    const found = damagedRecord(kind, error, { id: row.id, tenant: row.tenant, ...(row.agent_id !== undefined ? { agent_id: row.agent_id } : {}) });
    damage.report(found);
    throw new DamagedRecordError(`${kind} ${row.id} is damaged in the store: ${found.problem}`);
  }
}

/**
 * A database's rows as a page of records: a row that cannot be read (edited by hand) costs its own
 * place, not the page. It is reported to `damage` and, since a row's tenant column is the tenant
 * the page was asked for, named to that tenant in `damaged`.
 */
export function pageOfRows<Row extends { id: string; tenant: string; agent_id?: string }, T>(kind: RecordKind, rows: readonly Row[], total: number, read: (row: Row) => T, damage: DamageListeners): Page<T> {
  const items: T[] = [];
  const damaged: DamagedRecord[] = [];
  for (const row of rows) {
    try {
      items.push(read(row));
    } catch (error) {
      if (!(error instanceof StoredRecordError)) throw error;
      const found = damagedRecord(kind, error, { id: row.id, tenant: row.tenant, ...(row.agent_id !== undefined ? { agent_id: row.agent_id } : {}) });
      damage.report(found);
      damaged.push(found);
    }
  }
  return { items, total: total - damaged.length, ...(damaged.length > 0 ? { damaged } : {}) };
}
