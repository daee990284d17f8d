/**
 * Sessions of agents: a record in `store.sessions` (RAGFlow's session object: name, messages,
 * times) and the run state in `store.runs` under the same id, which is also the session's task id
 * (so a cancel by task id reaches its runs, as in RAGFlow).
 */
import { Canvas } from "../engine/canvas.js";
import { CanvasValidationError } from "../api.js";
import { DurableSession } from "../durable/session.js";
import { SessionLockedError } from "../backends/errors.js";
import { storeNewSession } from "../durable/create.js";
import { dataError, operatingError } from "./envelope.js";
import { newId, type ServerContext } from "./context.js";
import { tenantCanvas } from "./tenant-canvas.js";
import type { AgentRecord, SessionRecord } from "../backends/contracts.js";

/** Ids the server gives sessions; anything else cannot be one of its sessions. */
const SESSION_ID = /^[0-9a-f]{32}$/;

const SESSION_NOT_FOUND = "Session not found!";
export const FOREIGN_SESSION = "Only authorized users can access this agent session.";
const OTHER_AGENTS_SESSION = "Session does not belong to the requested agent.";

/**
 * The tenant's session of this agent, or the error RAGFlow gives: 102 when there is no such
 * session, 103 when it is another tenant's or another agent's.
 */
export async function findSession(ctx: ServerContext, tenant: string, agentId: string, sessionId: string): Promise<SessionRecord> {
  const record = await findTenantSession(ctx, tenant, sessionId);
  if (record.agent_id !== agentId) throw operatingError(OTHER_AGENTS_SESSION);
  return record;
}

/**
 * The tenant's session of this agent for the session routes (`/agents/{id}/sessions/{sid}`): any
 * other, unknown or another agent's or tenant's, is RAGFlow's 102 "Session not found!"
 * (get_agent_session, delete_agent_session_item).
 */
export async function findAgentSession(ctx: ServerContext, tenant: string, agentId: string, sessionId: string): Promise<SessionRecord> {
  const record = await ownSessionRecord(ctx, tenant, sessionId);
  if (!record || record.agent_id !== agentId) throw dataError(SESSION_NOT_FOUND);
  return record;
}

/** The tenant's own session record (of any agent), if there is one; the id may be anything a client sent. */
export async function ownSessionRecord(ctx: ServerContext, tenant: string, sessionId: string): Promise<SessionRecord | undefined> {
  return SESSION_ID.test(sessionId) ? ctx.store.sessions.get(tenant, sessionId) : undefined;
}

/** The tenant's session (of any agent); 102 when there is none, 103 when it is another tenant's. */
export async function findTenantSession(ctx: ServerContext, tenant: string, sessionId: string): Promise<SessionRecord> {
  if (!SESSION_ID.test(sessionId)) throw dataError(SESSION_NOT_FOUND);
  const record = await ctx.store.sessions.get(tenant, sessionId);
  if (record) return record;
  // Records are per tenant; a session whose run state exists belongs to someone else.
  if (await runStateExists(ctx, sessionId)) throw operatingError(FOREIGN_SESSION);
  throw dataError(SESSION_NOT_FOUND);
}

async function runStateExists(ctx: ServerContext, sessionId: string): Promise<boolean> {
  try {
    return (await ctx.store.runs.load(sessionId)) !== undefined;
  } catch {
    return false;
  }
}

interface NewSessionOptions {
  userId: string;
  name: string;
}

/**
 * Create a session: its run state (the agent's DSL, reset, with the session id as task id) and
 * then its record. Resolves with the session open (its lease held); a failure leaves nothing.
 */
export async function openNewSession(ctx: ServerContext, tenant: string, agent: AgentRecord, options: NewSessionOptions): Promise<{ record: SessionRecord; session: DurableSession }> {
  const id = newId();
  let session: DurableSession;
  try {
    session = await DurableSession.open({
      store: ctx.store.runs,
      key: id,
      compiled: await ctx.compiled.get(agent),
      registry: ctx.registry,
      canvas: tenantCanvas(ctx, tenant, { taskId: id, userId: options.userId }),
      cancel: ctx.store.cancel,
      // The session id, made just now, is its key and task id: nothing is stored or cancelled under it yet.
      fresh: true,
    });
  } catch (error) {
    if (error instanceof CanvasValidationError) throw dataError(`Agent ${agent.id} cannot run: ${error.message}`);
    throw error;
  }
  try {
    const now = ctx.now();
    const record = await ctx.store.sessions.create({
      id,
      tenant,
      agent_id: agent.id,
      user_id: options.userId,
      name: options.name,
      message: [{ role: "assistant", content: session.canvas.prologue }],
      source: "agent",
      create_time: now,
      update_time: now,
    });
    return { record, session };
  } catch (error) {
    await session.close();
    await ctx.store.runs.delete(id).catch(() => undefined);
    throw error;
  }
}

/**
 * Create a session whose turns run on queue workers: its run state (the agent's DSL, reset, with
 * the session id as task id, so a cancel by task id reaches the worker that runs it) and its
 * record, without opening it (a worker does). A failure leaves nothing.
 */
export async function createQueuedSession(ctx: ServerContext, tenant: string, agent: AgentRecord, options: NewSessionOptions): Promise<SessionRecord> {
  const id = newId();
  let prologue: string;
  try {
    const canvas = Canvas.fromCompiled(await ctx.compiled.get(agent), tenantCanvas(ctx, tenant, { taskId: id, userId: options.userId }));
    prologue = canvas.prologue;
    await storeNewSession(ctx.store.runs, id, canvas);
  } catch (error) {
    if (error instanceof CanvasValidationError) throw dataError(`Agent ${agent.id} cannot run: ${error.message}`);
    throw error;
  }
  try {
    const now = ctx.now();
    return await ctx.store.sessions.create({
      id,
      tenant,
      agent_id: agent.id,
      user_id: options.userId,
      name: options.name,
      message: [{ role: "assistant", content: prologue }],
      source: "agent",
      create_time: now,
      update_time: now,
    });
  } catch (error) {
    await ctx.store.runs.delete(id).catch(() => undefined);
    throw error;
  }
}

/** Open an existing session for a turn (its lease held). 103 while another run has it. */
export async function openSession(ctx: ServerContext, record: SessionRecord, agent: AgentRecord): Promise<DurableSession> {
  try {
    return await DurableSession.open({
      store: ctx.store.runs,
      key: record.id,
      // Only used when the run state is gone: the session starts over from the agent.
      dsl: agent.dsl,
      registry: ctx.registry,
      canvas: tenantCanvas(ctx, record.tenant, { taskId: record.id, userId: record.user_id }),
      cancel: ctx.store.cancel,
    });
  } catch (error) {
    if (error instanceof SessionLockedError) throw runInProgress();
    if (error instanceof CanvasValidationError) throw dataError(`Session ${record.id} cannot run: ${error.message}`);
    throw error;
  }
}

/**
 * Refuses a turn on a session whose messages hold `limits.sessionMessageChars` characters or more:
 * each turn rewrites the session's record with all its messages, so the record is bounded. The
 * turn that crosses the limit is kept whole; the next one is refused, naming the setting.
 */
export function refuseFullSession(ctx: ServerContext, record: SessionRecord): void {
  const limit = ctx.limits.sessionMessageChars;
  if (limit === 0) return;
  let chars = 0;
  for (const message of record.message) chars += typeof message.content === "string" ? message.content.length : 0;
  if (chars >= limit) {
    throw operatingError(`session ${record.id} is full: its messages hold ${chars} characters, the most a session may hold is ${limit} (server.limits.sessionMessageChars); start a new session`);
  }
}

export function runInProgress() {
  return operatingError("a run is already in progress on this session");
}

/** A session as the API shows it (the tenant stays inside). */
export function sessionView(record: SessionRecord, dsl?: unknown): Record<string, unknown> {
  const { tenant: _tenant, ...view } = record;
  return dsl === undefined ? view : { ...view, dsl };
}

/** The session's stored DSL with its state (the base snapshot), for the views that show it. */
export async function sessionDsl(ctx: ServerContext, sessionId: string): Promise<unknown> {
  try {
    return (await ctx.store.runs.load(sessionId))?.snapshot ?? null;
  } catch {
    return null;
  }
}

/**
 * Delete the tenant's sessions of an agent: run state first (refused while a run holds it), then
 * the record. Resolves to the ids deleted and one message per id that was not.
 */
export async function deleteSessions(ctx: ServerContext, tenant: string, agentId: string, ids: readonly string[]): Promise<{ deleted: string[]; errors: string[] }> {
  const deleted: string[] = [];
  const errors: string[] = [];
  for (const id of [...new Set(ids)]) {
    const record = SESSION_ID.test(id) ? await ctx.store.sessions.get(tenant, id) : undefined;
    if (!record || record.agent_id !== agentId) {
      errors.push(`The agent doesn't own the session ${id}`);
      continue;
    }
    try {
      await ctx.store.runs.delete(id);
    } catch (error) {
      if (!(error instanceof SessionLockedError)) throw error;
      errors.push(`Session ${id} has a run in progress; cancel it first (POST /api/v1/tasks/${id}/cancel)`);
      continue;
    }
    deleted.push(...(await ctx.store.sessions.delete(tenant, [id])));
  }
  return { deleted, errors };
}

/** Every session id of an agent (to delete their run state with the agent). */
export async function allSessionIds(ctx: ServerContext, tenant: string, agentId: string): Promise<string[]> {
  const ids: string[] = [];
  const pageSize = 1000;
  for (let page = 1; ; page++) {
    const found = await ctx.store.sessions.list(tenant, agentId, { page, page_size: pageSize, orderby: "create_time", desc: false });
    ids.push(...found.items.map((s) => s.id));
    if (found.items.length < pageSize || ids.length >= found.total) return ids;
  }
}
