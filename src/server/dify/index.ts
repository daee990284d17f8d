/**
 * Dify's service API on `canvasflow serve` (research/dify-import.md §4), for one Dify app: the
 * agent named by the server's `difyApp`. Its routes live in a context of their own inside the
 * keyed API: the same Bearer keys, tenants, rate limits (its run routes count as completions),
 * run slots, session store and run time limit as RAGFlow's API, with Dify's error shape.
 */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.js";
import { difyErrorHandler } from "./errors.js";
import { difyAppInfoRoutes } from "./routes/app-info.js";
import { difyConversationRoutes } from "./routes/conversations.js";
import { difyFeedbackRoutes } from "./routes/feedbacks.js";
import { difyFileRoutes } from "./routes/files.js";
import { difyRunRoutes } from "./routes/run.js";
import { UploadedFiles } from "./uploads.js";

export { DIFY_RUN_ROUTES } from "./routes/run.js";

/** The largest upload (Dify's default file_size_limit is 15 MB). */
const DIFY_UPLOAD_BYTES = 15 * 1024 * 1024;

export async function difyApiRoutes(api: FastifyInstance, ctx: ServerContext, appId: string): Promise<void> {
  await api.register(async (dify) => {
    dify.setErrorHandler(difyErrorHandler);
    const uploads = new UploadedFiles(ctx.store.uploads);
    difyRunRoutes(dify, ctx, appId, uploads);
    difyConversationRoutes(dify, ctx, appId, DIFY_UPLOAD_BYTES);
    difyFileRoutes(dify, uploads, DIFY_UPLOAD_BYTES);
    difyAppInfoRoutes(dify, ctx, appId);
    difyFeedbackRoutes(dify, ctx, appId);
  });
}
