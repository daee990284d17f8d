/**
 * A completion on an ingestion pipeline (RAGFlow's POST /agents/chat/completions on a dataflow
 * canvas, research/ragflow-pipelines.md §6.4): its `files` are checked (pipeline-files.ts), a
 * run per document that can run is started in the background (pipeline-runs.ts), and the answer
 * comes at once, as RAGFlow's: `{message_id, session_id}` (the first document's run), with every
 * run in `runs` and the entries that cannot run in `errors`, each naming its field. When no entry
 * can run, nothing starts: code 101 with every refusal.
 */
import { CanvasValidationError } from "../api.js";
import type { AgentRecord } from "../backends/contracts.js";
import { refuseDenied } from "./component-policy.js";
import type { ServerContext } from "./context.js";
import { argumentError, dataError, operatingError, success, type Envelope } from "./envelope.js";
import { pipelineDocuments } from "./pipeline-files.js";
import { startPipelineRuns } from "./pipeline-runs.js";
import { TenantUploads } from "./uploads.js";
import type { FastifyBaseLogger } from "fastify";

/** What a completion body gives a pipeline's runs. */
export interface PipelineCompletion {
  tenant: string;
  caller: string;
  log: FastifyBaseLogger;
  files: unknown[] | null | undefined;
  query: string;
  sessionId?: string;
  userId?: string;
  name?: string;
  openAi: boolean;
}

export async function completePipeline(ctx: ServerContext, agent: AgentRecord, request: PipelineCompletion): Promise<Envelope> {
  if (request.openAi) throw argumentError(`Agent ${agent.id} is an ingestion pipeline: its runs start with the native completion and its \`files\`, not with OpenAI's format`, null);
  if (request.sessionId !== undefined) throw argumentError("Field `session_id` is not taken by an ingestion pipeline: each request's documents run in a new session (its id comes back as session_id)", null);
  if (ctx.queue) throw operatingError(`Agent ${agent.id} is an ingestion pipeline, and this server hands its runs to queue workers (--queue), which cannot read its uploads yet: run pipelines on a server without --queue`);
  let graph;
  try {
    graph = (await ctx.compiled.get(agent)).graph;
  } catch (error) {
    if (error instanceof CanvasValidationError) throw dataError(`Agent ${agent.id} cannot run: ${error.message}`);
    throw error;
  }
  if (ctx.policy.restrictsAnything) refuseDenied(ctx.policy, graph, request.tenant);
  const { documents, refused } = await pipelineDocuments(request.files, graph, new TenantUploads(ctx.store.uploads), request.tenant, ctx.limits.uploadBytes);
  if (documents.length === 0) throw argumentError(`No document of \`files\` can run: ${refused.map((refusal) => refusal.message).join("; ")}`, { errors: refused });
  const { sessionId, runs } = await startPipelineRuns(ctx, {
    tenant: request.tenant,
    caller: request.caller,
    log: request.log,
    agent,
    query: request.query,
    documents,
    ...(request.userId !== undefined ? { userId: request.userId } : {}),
    ...(request.name !== undefined ? { name: request.name } : {}),
  });
  return success({ message_id: runs[0].message_id, session_id: sessionId, runs, ...(refused.length > 0 ? { errors: refused } : {}) });
}
