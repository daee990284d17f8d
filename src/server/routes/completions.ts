/**
 * Completions (research/ragflow-api.md §2.3, §2.4): the canonical
 * `POST /api/v1/agents/chat/completions` (agent_id in the body; `"openai-compatible": true`
 * switches to OpenAI's format) and RAGFlow's two aliases, `/api/v1/agents/{id}/completions`
 * (native) and `/api/v1/agents_openai/{id}/chat/completions` (OpenAI). `stream` defaults to false.
 * On an ingestion pipeline the native routes start a run per document and answer at once
 * (pipeline-completion.ts).
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.js";
import { answerNative, answerOpenAi, streamNative, streamOpenAi } from "../deliver.js";
import { argumentError, dataError } from "../envelope.js";
import { fileListProblem } from "../file-names.js";
import { lastUserContent } from "../formats/openai.js";
import { openTurn } from "../open-turn.js";
import { completePipeline } from "../pipeline-completion.js";
import { isPipelineAgent } from "../pipeline-files.js";
import { shuttingDown } from "../shutdown.js";
import type { Turn, TurnInput } from "../turn.js";
import { serverSchema } from "../validation.js";
import { requestTraceContext } from "../request-span.js";
import type { TraceCarrier } from "../../tracing/w3c.js";

export interface CompletionBody {
  agent_id?: string | null;
  query?: string | null;
  question?: string | null;
  stream?: boolean | null;
  session_id?: string | null;
  inputs?: Record<string, unknown> | null;
  files?: unknown[] | null;
  user_id?: string | null;
  /** OpenAI's end-user field: taken as user_id when that is absent. */
  user?: string | null;
  name?: string | null;
  return_trace?: boolean | null;
  "openai-compatible"?: boolean | null;
  messages?: Array<{ role: string; content?: unknown }> | null;
  id?: string | null;
  metadata?: { id?: unknown } | null;
}

/** Route config of the routes whose errors also carry OpenAI's `error` object. */
interface CompletionRouteConfig {
  openAi?: boolean;
}

/**
 * Whether a request's errors are answered for OpenAI's clients: a real HTTP status and `error`
 * for the openai SDK. Only the `/agents_openai/{id}` route, where such clients are pointed; the
 * native routes answer RAGFlow's way even with `"openai-compatible": true` (HTTP 200 and the
 * envelope, as RAGFlow's test_agent_openai_compatible_mode asserts).
 */
export function speaksOpenAi(request: FastifyRequest): boolean {
  return (request.routeOptions.config as CompletionRouteConfig | undefined)?.openAi === true;
}

/** The completion routes, as declared: rate limits count them as completions. */
export const COMPLETION_ROUTES: ReadonlySet<string> = new Set([
  "/api/v1/agents/chat/completions",
  "/api/v1/agents/:agent_id/completions",
  "/api/v1/agents_openai/:agent_id/chat/completions",
]);

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Who asks for a turn: the key's tenant, its rate-limit identity, and the request's logger. */
export interface TurnCaller {
  tenant: string;
  caller: string;
  log?: FastifyBaseLogger;
  /** The request's span, the run's parent (when tracing). */
  traceContext?: TraceCarrier;
}

/** What a body says about the turn, besides the question and the session (its files' names checked). */
function commonInput(who: TurnCaller, agentId: string, body: CompletionBody) {
  const badName = fileListProblem(body.files);
  if (badName) throw argumentError(badName, null);
  return {
    tenant: who.tenant,
    caller: who.caller,
    ...(who.log ? { log: who.log } : {}),
    ...(who.traceContext ? { traceContext: who.traceContext } : {}),
    agentId,
    ...(body.inputs ? { inputs: body.inputs } : {}),
    ...(body.files ? { files: body.files } : {}),
    ...(nonEmpty(body.user_id ?? body.user) ? { userId: body.user_id ?? body.user! } : {}),
    ...(nonEmpty(body.name) ? { name: body.name! } : {}),
  };
}

/** The turn a native completion body asks for (the WebSocket's run frames take the same fields). */
export function nativeTurnInput(who: TurnCaller, agentId: string, body: CompletionBody): TurnInput {
  const sessionId = nonEmpty(body.session_id);
  return { ...commonInput(who, agentId, body), query: body.query ?? body.question ?? "", returnTrace: body.return_trace === true, ...(sessionId ? { sessionId } : {}) };
}

async function complete(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, agentId: string | null | undefined, openAi: boolean) {
  const body = request.body as CompletionBody;
  if (!agentId) throw argumentError("`agent_id` is required.");
  const traceContext = requestTraceContext(request);
  const who: TurnCaller = { tenant: request.tenant, caller: request.caller, log: request.log, ...(traceContext ? { traceContext } : {}) };
  // The agent is read once here (the turn takes it): an ingestion pipeline's documents run in the
  // background. The read is the first step of a turn's setup, so it takes the turn's place among
  // the setups at once (limits.setupsAtOnce) here; queued turns take none.
  const setupPlace = ctx.queue ? undefined : await ctx.setups.enter();
  // The place goes with the turn that opens; anything before that gives it back.
  let handedOver = false;
  const opened = (input: TurnInput): Promise<Turn> => {
    handedOver = true;
    return openTurn(ctx, setupPlace ? { ...input, setupPlace } : input);
  };
  try {
    if (setupPlace && ctx.shutdown.draining) throw shuttingDown();
    const agent = await ctx.agents.get(request.tenant, agentId);
    const common = { ...commonInput(who, agentId, body), ...(agent ? { agent } : {}) };
    if (agent && isPipelineAgent(ctx.registry, agent)) {
      // A pipeline's runs take their places later, one by one.
      const sessionId = nonEmpty(body.session_id);
      return await completePipeline(ctx, agent, {
        tenant: request.tenant,
        caller: request.caller,
        log: request.log,
        files: body.files,
        query: body.query ?? body.question ?? "",
        openAi,
        ...(sessionId ? { sessionId } : {}),
        ...(common.userId !== undefined ? { userId: common.userId } : {}),
        ...(common.name !== undefined ? { name: common.name } : {}),
      });
    }
    if (openAi) {
      const messages = body.messages ?? [];
      if (messages.length === 0) throw dataError("You must provide at least one message.");
      const question = lastUserContent(messages);
      const sessionId = nonEmpty(body.session_id) ?? nonEmpty(body.id) ?? nonEmpty(body.metadata?.id);
      const turn = await opened({ ...common, query: question, ...(sessionId ? { sessionId } : {}) });
      if (body.stream === true) return streamOpenAi(ctx, reply, turn, question);
      return answerOpenAi(ctx, reply, turn, question);
    }
    const input = { ...nativeTurnInput(who, agentId, body), ...(agent ? { agent } : {}) };
    const turn = await opened(input);
    if (body.stream === true) return streamNative(ctx, reply, turn);
    return answerNative(ctx, reply, turn, input.returnTrace === true);
  } finally {
    if (!handedOver) setupPlace?.();
  }
}

export function completionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const native = { body: serverSchema("completion.schema.json") };
  app.post("/api/v1/agents/chat/completions", { schema: native, config: { openAi: false } }, async (request, reply) => {
    const body = request.body as CompletionBody;
    return complete(ctx, request, reply, body.agent_id, body["openai-compatible"] === true);
  });

  app.post("/api/v1/agents/:agent_id/completions", { schema: native }, async (request, reply) => {
    const { agent_id } = request.params as { agent_id: string };
    return complete(ctx, request, reply, agent_id, (request.body as CompletionBody)["openai-compatible"] === true);
  });

  app.post("/api/v1/agents_openai/:agent_id/chat/completions", { schema: { body: serverSchema("openai-completion.schema.json") }, config: { openAi: true } }, async (request, reply) => {
    const { agent_id } = request.params as { agent_id: string };
    return complete(ctx, request, reply, agent_id, true);
  });
}
