/**
 * Ingestion pipelines on RAGFlow's routes (research/ragflow-pipelines.md §6.4, §9), beside the
 * completion that starts their runs (routes/completions.ts, pipeline-runs.ts):
 *
 * - `POST /api/v1/agents/{agent_id}/upload` (multipart field `file`, once or more): each file is
 *   kept in the server's upload store for the key's tenant (uploads.ts: an hour, 100 files and
 *   100 MiB a tenant) and answered as RAGFlow's file dict (one file: the dict; several: a list).
 *   The body may take `limits.uploadBytes`: beyond it HTTP 413, naming the setting.
 * - `GET /api/v1/agents/{agent_id}/logs/{message_id}`: a run's log (pipeline-log.ts), as far as
 *   it has gone. A message id that is no run of this agent in the tenant's sessions is code 102.
 *
 * Both answer code 103 for an agent the key cannot reach, as every route on an agent does.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { accessibleAgent } from "../agent-access.js";
import type { ServerContext } from "../context.js";
import { ApiError, argumentError, dataError, RET, success } from "../envelope.js";
import { fileNameProblem } from "../file-names.js";
import { boundaryOf, parseMultipart, type FormPart } from "../multipart.js";
import { fileDict } from "../pipeline-files.js";
import { pipelineLog } from "../pipeline-log.js";
import { sessionOfRun } from "../run-ids.js";
import { ownSessionRecord } from "../sessions.js";
import { TenantUploads } from "../uploads.js";
import type { CanvasEvent } from "../../engine/events.js";

/** Room for the multipart framing around the files (boundaries, part headers, a long file name). */
const MULTIPART_FRAMING_BYTES = 64 * 1024;

function uploadTooLarge(limit: number): ApiError {
  return new ApiError(RET.tooLarge, `The upload is too large: the files of one request may take ${limit} bytes (server.limits.uploadBytes)`, null, 413);
}

/** The `file` parts of an upload's body, checked (a name without a path or a control character). */
function fileParts(request: FastifyRequest): FormPart[] {
  const boundary = boundaryOf(request.headers["content-type"]);
  if (!Buffer.isBuffer(request.body) || boundary === undefined) throw argumentError("The upload must be multipart/form-data with the document in the field `file`.", null);
  let parts: FormPart[];
  try {
    parts = parseMultipart(request.body, boundary);
  } catch (error) {
    throw argumentError(`The multipart body is malformed: ${(error as Error).message}`, null);
  }
  const files = parts.filter((part) => part.name === "file");
  if (files.length === 0) throw argumentError("No file in the request: send the document as the multipart field `file`.", null);
  files.forEach((file, i) => {
    const field = files.length === 1 ? "The field `file`" : `The field \`file\` (part ${i + 1} of ${files.length})`;
    const name = file.filename ?? "";
    if (name === "" || name.length > 255 || /[/\\]/.test(name)) throw argumentError(`${field} needs a file name (its filename, without a path, at most 255 characters).`, null);
    const problem = fileNameProblem(name);
    if (problem) throw argumentError(`${field}'s file name ${problem}.`, null);
  });
  return files;
}

export function pipelineRoutes(api: FastifyInstance, ctx: ServerContext): void {
  const uploads = new TenantUploads(ctx.store.uploads);
  const limit = ctx.limits.uploadBytes;

  api.register(async (scope) => {
    // Multipart bodies are read whole, up to the upload limit, in this context only.
    scope.addContentTypeParser("multipart/form-data", { parseAs: "buffer", bodyLimit: limit + MULTIPART_FRAMING_BYTES }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, _request, _reply) => {
      // The body limit names its setting here; every other error goes to the server's handler.
      throw error.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? uploadTooLarge(limit) : error;
    });

    scope.post("/api/v1/agents/:agent_id/upload", async (request: FastifyRequest, _reply: FastifyReply) => {
      const { agent_id } = request.params as { agent_id: string };
      await accessibleAgent(ctx, request.tenant, agent_id);
      if ((request.query as Record<string, unknown>).url !== undefined) throw argumentError("The query parameter `url` (RAGFlow crawls that page into an upload) is not supported: upload the document itself.", null);
      const files = fileParts(request);
      if (files.reduce((sum, file) => sum + file.data.length, 0) > limit) throw uploadTooLarge(limit);
      const kept = [];
      for (const file of files) kept.push(fileDict(await uploads.add(request.tenant, request.tenant, file.filename!, file.contentType ?? "application/octet-stream", file.data)));
      return success(kept.length === 1 ? kept[0] : kept);
    });
  });

  api.get("/api/v1/agents/:agent_id/logs/:message_id", async (request) => {
    const { agent_id, message_id } = request.params as { agent_id: string; message_id: string };
    await accessibleAgent(ctx, request.tenant, agent_id);
    const sessionId = sessionOfRun(message_id);
    const record = sessionId === undefined ? undefined : await ownSessionRecord(ctx, request.tenant, sessionId);
    const asked = record?.agent_id === agent_id ? record.message.find((m) => m.id === message_id && m.role === "user") : undefined;
    if (!record || !asked) throw dataError(`Field \`message_id\` names no run of agent ${agent_id} (${JSON.stringify(message_id.slice(0, 80))}): a run's id is the message_id its completion answered`);
    const events = (await ctx.store.runs.events(record.id)).filter((logged) => logged.event.message_id === message_id).map((logged) => logged.event as unknown as CanvasEvent);
    const answer = record.message.find((m) => m.id === message_id && m.role === "assistant");
    return success(pipelineLog(events, answer?.run));
  });
}
