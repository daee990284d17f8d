/**
 * The engine options of a tenant's run: the server's, with the tenant's memories (a canvas names
 * memories by id only; which tenant's they are is decided here, from the API key's tenant) and the
 * tenant's uploads as its documents (an ingestion pipeline reads those, never a local path: a
 * `documents` service in the server's options is replaced).
 */
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import { withTenantMemories } from "../memories/scope.js";
import { DOCUMENTS_SERVICE } from "../pipelines/documents.js";
import type { ServerContext } from "./context.js";
import { uploadDocuments } from "./upload-documents.js";
import { TenantUploads } from "./uploads.js";

export function tenantCanvas(ctx: Pick<ServerContext, "canvas" | "memories" | "store" | "limits">, tenant: string, run: Pick<CanvasRuntimeOptions, "taskId" | "userId">): CanvasRuntimeOptions {
  const documents = uploadDocuments(new TenantUploads(ctx.store.uploads), tenant, ctx.limits.uploadBytes);
  const options = { ...ctx.canvas, ...run, services: { ...ctx.canvas.services, [DOCUMENTS_SERVICE]: documents } };
  return withTenantMemories(options, ctx.memories, tenant);
}
