/**
 * One turn of a session, whatever the transport (SSE, a JSON answer; later WebSocket): every check
 * that can refuse it happens in `startTurn`, before anything is sent, so a refusal is an envelope;
 * then `events` runs the turn and yields its events with `session_id`. When the run ends, a turn
 * that finished or paused is added to the session's messages, and the session's lease is let go.
 *
 * A turn first waits for its place among the turns setting up (setup-gate.ts,
 * limits.setupsAtOnce) and gives it back with its run's first event, or when its setup fails.
 *
 * A turn without a session id creates the session first and runs its first turn. One run per
 * session at a time: this process refuses a second one at once, and the session's lease refuses
 * one from another process (both code 103). Before any of that, the run takes a slot of its API
 * key and one of the process (run-slots.ts; full: 429), given back when it ends.
 *
 * A run has `limits.runMs` of wall-clock time: then it is cancelled, and its workflow_finished
 * says which limit stopped it (the session stays usable). The metrics count each run and step;
 * the log says when a run starts and how it ended, never what it was asked or answered.
 */
import type { FastifyBaseLogger } from "fastify";
import { MAX_DSL_DEPTH } from "../dsl/structure.js";
import type { DurableSession } from "../durable/session.js";
import type { RunRequest } from "../engine/run.js";
import { CanvasValidationError } from "../api.js";
import type { CompiledCanvas } from "../engine/canvas.js";
import { refuseDenied } from "./component-policy.js";
import { isPipelineAgent, refuseDocumentFiles } from "./pipeline-files.js";
import { pathDeeperThan } from "../util/nesting.js";
import { once } from "../util/once.js";
import { noAgentAccess } from "./agent-access.js";
import { argumentError, operatingError } from "./envelope.js";
import { newId, type ServerContext } from "./context.js";
import type { RunOutcome } from "./metrics.js";
import { FOREIGN_SESSION, findSession, openNewSession, openSession, refuseFullSession, runInProgress } from "./sessions.js";
import { shuttingDown } from "./shutdown.js";
import type { AgentRecord, SessionRecord } from "../backends/contracts.js";
import { TurnTranscript, type SessionEvent } from "./transcript.js";
import { keepTurn, settlePreviousTurn, turnMessages } from "./turn-record.js";
import { removeOrphanRunState } from "./agent-removal.js";

export interface TurnInput {
  tenant: string;
  /**
   * Whom the run counts against for runs at once: `request.caller` (the key's rate-limit
   * identity), whatever the transport, so a key's runs are counted together.
   */
  caller: string;
  /** The request's logger (its lines carry the request id; default: the server's). */
  log?: FastifyBaseLogger;
  agentId: string;
  /** The agent, when the caller read it already (its id is `agentId`, its tenant `tenant`): not read again. */
  agent?: AgentRecord;
  /** The place among the setups at once (limits.setupsAtOnce) that the caller took to read the agent: the turn keeps it. */
  setupPlace?: () => void;
  /** Left out: a new session. */
  sessionId?: string;
  query: string;
  /** Begin's inputs on a new turn, or the answers a paused run waits for. */
  inputs?: Record<string, unknown>;
  files?: unknown[];
  /** The end user (a new session's user_id; defaults to the tenant). */
  userId?: string;
  /** A new session's name. */
  name?: string;
  /** Add `trace` (cumulative, RAGFlow's shape) to node_finished events. */
  returnTrace?: boolean;
  /** The run's parent span (the request's: request-span.ts), in this process or on a queue worker. */
  traceContext?: RunRequest["traceContext"];
  /** The run's id (its events' message_id), made from the session's id (default: a random one). */
  runIdOf?: (sessionId: string) => string;
  /** Called when the run has ended and its messages were added, before the session is let go (a failure is the caller's to log). */
  afterRun?: (ended: { transcript: TurnTranscript; steps: number }) => Promise<void>;
}

export interface Turn {
  readonly sessionId: string;
  readonly agent: AgentRecord;
  /** Whether the session was created for this turn. */
  readonly newSession: boolean;
  readonly transcript: TurnTranscript;
  /** The run's events; read them to the end (the run and its bookkeeping finish with them). */
  readonly events: AsyncIterable<SessionEvent>;
  /** Stop the run: it ends with workflow_finished error "cancelled". */
  stop(reason: string): void;
  /** Give the turn up before reading its events (the response could not be started): lets the session go. */
  abandon(): Promise<void>;
}

export const AGENT_NOT_FOUND = "Agent not found.";

/**
 * The checks every turn passes first, wherever it runs: its inputs' depth, its agent (resolved
 * to), its files (no path; an upload id only for a pipeline: pipeline-files.ts), and the component
 * policy against the agent's DSL (it may predate the policy).
 */
export async function turnAgent(ctx: ServerContext, input: TurnInput): Promise<AgentRecord> {
  if (input.inputs !== undefined) {
    const tooDeep = pathDeeperThan(input.inputs, MAX_DSL_DEPTH);
    if (tooDeep) throw argumentError(`\`inputs\` is nested deeper than ${MAX_DSL_DEPTH} levels (at inputs.${tooDeep.join(".")})`);
  }
  const agent = input.agent ?? (await ctx.agents.get(input.tenant, input.agentId));
  if (!agent) throw await unreachableAgent(ctx, input);
  if (input.files !== undefined && input.files.length > 0) refuseDocumentFiles(input.files, isPipelineAgent(ctx.registry, agent));
  if (ctx.policy.restrictsAnything) {
    let compiled: CompiledCanvas | undefined;
    try {
      compiled = await ctx.compiled.get(agent);
    } catch (error) {
      // A DSL that no longer compiles is refused where its session is opened, saying why.
      if (!(error instanceof CanvasValidationError)) throw error;
    }
    if (compiled) refuseDenied(ctx.policy, compiled.graph, input.tenant);
  }
  return agent;
}

/**
 * RAGFlow's answer for a turn of an agent the caller cannot reach (unknown or another tenant's):
 * with a session id the session is checked first (102 unknown, 103 another agent's or another
 * tenant's; 103 when it is this agent's), else code 103 "Make sure you have permission…".
 */
async function unreachableAgent(ctx: ServerContext, input: TurnInput): Promise<Error> {
  if (input.sessionId === undefined) return noAgentAccess();
  await findSession(ctx, input.tenant, input.agentId, input.sessionId);
  return operatingError(FOREIGN_SESSION);
}

export async function startTurn(ctx: ServerContext, input: TurnInput): Promise<Turn> {
  const endSetup = input.setupPlace ?? (await ctx.setups.enter());
  try {
    // The server began closing while this turn waited for its place: it takes nothing on. (A
    // caller that took the place for it checked when it got it.)
    if (!input.setupPlace && ctx.shutdown.draining) throw shuttingDown();
    return await setUpTurn(ctx, input, endSetup);
  } catch (error) {
    endSetup();
    throw error;
  }
}

async function setUpTurn(ctx: ServerContext, input: TurnInput, endSetup: () => void): Promise<Turn> {
  const agent = await turnAgent(ctx, input);
  const giveSlotsBack = await ctx.admission.admit(input.caller, newId());
  const controller = new AbortController();
  let record: SessionRecord;
  let session: DurableSession;
  let newSession = false;
  try {
    if (input.sessionId === undefined) {
      ({ record, session } = await openNewSession(ctx, input.tenant, agent, { userId: input.userId ?? input.tenant, name: input.name ?? "" }));
      newSession = true;
      ctx.runs.claim(record.id, controller);
    } else {
      record = await findSession(ctx, input.tenant, agent.id, input.sessionId);
      refuseFullSession(ctx, record);
      if (!ctx.runs.claim(record.id, controller)) throw runInProgress();
      try {
        session = await openSession(ctx, record, agent);
      } catch (error) {
        ctx.runs.release(record.id, controller);
        throw error;
      }
      try {
        // What the previous turn left unrecorded (a crash) is recorded under its own question first.
        // Again if the reopened session holds a dead run too (another process died on it meanwhile).
        for (let reopened = 0; reopened < 3; reopened++) {
          const settled = await settlePreviousTurn(ctx, record, session);
          record = settled.record;
          if (!settled.reopen) break;
          await session.close();
          session = await openSession(ctx, record, agent);
        }
      } catch (error) {
        await session.close();
        ctx.runs.release(record.id, controller);
        throw error;
      }
      try {
        // The session runs its own DSL, which may be older than the agent's.
        refuseDenied(ctx.policy, session.canvas.compiledGraph, input.tenant);
      } catch (error) {
        await session.close();
        ctx.runs.release(record.id, controller);
        throw error;
      }
    }
  } catch (error) {
    await giveBack(ctx, giveSlotsBack);
    throw error;
  }
  const transcript = new TurnTranscript();
  const sessionId = record.id;
  let started = false;
  // After the run's events (or instead of them, when the turn is given up).
  const release = once(async () => {
    endSetup();
    try {
      await session.close();
    } finally {
      ctx.runs.release(sessionId, controller);
      await giveBack(ctx, giveSlotsBack);
    }
  });
  return {
    sessionId,
    agent,
    newSession,
    transcript,
    events: runTurn(ctx, input, record, session, controller, transcript, () => (started = true), release, endSetup),
    stop: (reason) => controller.abort(new Error(reason)),
    // A generator that never started does not run its `finally`: the session is let go here.
    abandon: async () => {
      if (!started) await release();
    },
  };
}

/** Give a run's slots back; a failure (Redis gone) is logged: the slot's lease runs out on its own. */
export async function giveBack(ctx: ServerContext, giveSlotsBack: () => Promise<void>): Promise<void> {
  try {
    await giveSlotsBack();
  } catch (error) {
    ctx.log.warn({ err: error }, "a run's slot could not be given back; its lease will run out");
  }
}

/** The workflow_finished error of a run stopped by its wall-clock limit. */
/**
 * A run's event as its client gets it (direct or queued turn): tagged with the session, counted
 * in the metrics, a time-limit cancel named as such, added to the transcript, and with the trace
 * so far when the client asked for it.
 */
export function clientEvent(ctx: ServerContext, event: object, sessionId: string, transcript: TurnTranscript, options: { timedOut: boolean; returnTrace: boolean }): SessionEvent {
  let sent = { ...event, session_id: sessionId } as SessionEvent;
  if (sent.event === "node_finished") ctx.metrics.stepFinished(sent.data.component_type, sent.data.elapsed_time);
  // The engine says "cancelled"; the client is told which limit cancelled it.
  if (options.timedOut && sent.event === "workflow_finished" && sent.data.error !== undefined) sent = { ...sent, data: { ...sent.data, error: runTimeLimitMessage(ctx.limits.runMs) } };
  transcript.add(sent);
  // A copy: the event itself may still be on its way to the session's log.
  if (options.returnTrace && sent.event === "node_finished") sent = { ...sent, data: { ...sent.data, trace: [...transcript.trace] } } as SessionEvent;
  return sent;
}

/**
 * A turn's last events wait until its messages are recorded: a message_end, and what follows it,
 * waits until more of the reply comes or the turn's end; workflow_finished and user_inputs always
 * wait. A client that stops reading at message_end (RAGFlow's SDK) then finds the turn in the
 * session's messages, and a process that dies before the record is written has sent no end.
 */
export class TurnEndHold {
  private readonly held: SessionEvent[] = [];

  /** What to send now, given the run's next event. */
  pass(event: SessionEvent): SessionEvent[] {
    const now = event.event === "message" ? this.held.splice(0) : [];
    if (this.held.length > 0 || event.event === "message_end" || event.event === "workflow_finished" || event.event === "user_inputs") this.held.push(event);
    else now.push(event);
    return now;
  }

  /** The held events, once the turn's messages are recorded (or could not be). */
  release(): SessionEvent[] {
    return this.held.splice(0);
  }
}

export function runTimeLimitMessage(runMs: number): string {
  return `run time limit reached: the run took longer than ${runMs} ms (server.limits.runMs) and was cancelled`;
}

/** A turn's time limit: past `runMs` it aborts the run, and says afterwards whether that is why it ended. */
export class RunDeadline {
  private reached = false;
  private readonly timer: NodeJS.Timeout;

  constructor(controller: AbortController, runMs: number) {
    this.timer = setTimeout(() => {
      this.reached = true;
      controller.abort(new Error(runTimeLimitMessage(runMs)));
    }, runMs);
    this.timer.unref();
  }

  get timedOut(): boolean {
    return this.reached;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

async function* runTurn(
  ctx: ServerContext,
  input: TurnInput,
  record: SessionRecord,
  session: DurableSession,
  controller: AbortController,
  transcript: TurnTranscript,
  onStart: () => void,
  release: () => Promise<void>,
  endSetup: () => void,
): AsyncGenerator<SessionEvent, void, undefined> {
  onStart();
  const sessionId = record.id;
  const log = (input.log ?? ctx.log).child({ session: sessionId, agent: record.agent_id });
  const startedAt = performance.now();
  const deadline = new RunDeadline(controller, ctx.limits.runMs);
  ctx.metrics.runStarted();
  log.info({ tenant: record.tenant }, "run started");
  let steps = 0;
  /** The session's record was gone when the turn's messages were added (its agent was deleted). */
  let recordGone = false;
  try {
    // A run whose process died was ended by settlePreviousTurn; one found under way all the same
    // (another process died on it between that and this open) goes on with its own inputs.
    const messageId = session.openedAs === "crashed" ? undefined : input.runIdOf?.(sessionId);
    const request: RunRequest =
      session.openedAs === "crashed"
        ? { signal: controller.signal }
        : {
            query: input.query,
            inputs: input.inputs,
            files: input.files,
            userId: input.userId ?? record.user_id,
            signal: controller.signal,
            ...(messageId !== undefined ? { messageId } : {}),
            ...(input.traceContext ? { traceContext: input.traceContext } : {}),
          };
    // Before its first event: a run id a client has seen is known here from then on.
    if (messageId !== undefined) ctx.runs.nameRun(sessionId, controller, messageId);
    // The turn's messages are kept with the run's last checkpoint and added to the record before
    // its last events go out (turn-record.ts).
    const end = keepTurn(ctx, record, input.query, transcript, (kept) => (recordGone = kept.record === undefined));
    const held = new TurnEndHold();
    try {
      for await (const event of session.run({ ...request, end })) {
        const sent = clientEvent(ctx, event, sessionId, transcript, { timedOut: deadline.timedOut, returnTrace: input.returnTrace === true });
        if (sent.event === "node_finished") steps++;
        // The run's first event ends the turn's setup (the calls after it do nothing).
        endSetup();
        yield* held.pass(sent);
      }
    } catch (error) {
      yield* held.release();
      throw error;
    }
    yield* held.release();
    // While the session is still this run's: the next turn reads the record after it.
    if (input.afterRun) await input.afterRun({ transcript, steps });
  } finally {
    deadline.clear();
    // Read here, so a run whose reader stopped early or whose store failed is counted too.
    const outcome = outcomeOf(session.canvas.status, deadline.timedOut);
    ctx.metrics.runEnded(outcome);
    log.info({ outcome: "finished" in outcome ? outcome.finished : outcome.failed, steps, elapsed_ms: Math.round(performance.now() - startedAt) }, "run ended");
    // Its agent was deleted while it ran (the record is gone): its run state goes once the lease is let go.
    const orphan = recordGone || ((controller.signal.aborted || session.canvas.status === "cancelled") && !(await recordExists(ctx, record)));
    await release();
    if (orphan) await removeOrphanRunState(ctx, sessionId);
  }
}

/** Whether the session's record is still there (a store failure counts as yes: nothing is deleted on a guess). */
async function recordExists(ctx: ServerContext, record: SessionRecord): Promise<boolean> {
  return (await ctx.store.sessions.get(record.tenant, record.id).catch(() => record)) !== undefined;
}

/** How a run ended, from the canvas's status after it ("running": it stopped without finishing). */
export function outcomeOf(status: string, timedOut: boolean): RunOutcome {
  if (status === "idle") return { finished: "completed" };
  if (status === "paused") return { finished: "paused" };
  if (status === "cancelled") return { failed: timedOut ? "time_limit" : "cancelled" };
  return { failed: "error" };
}

/** The turn's user message and reply, added to the session's record. */
export async function addMessages(ctx: ServerContext, record: SessionRecord, query: string, transcript: TurnTranscript): Promise<void> {
  await ctx.store.sessions.update(record.tenant, record.id, { message: [...record.message, ...turnMessages(query, transcript)] }, ctx.now(), record);
}
