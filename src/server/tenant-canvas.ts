/**
 * The engine options of a tenant's run: the server's, with the tenant's memories (a canvas names
 * memories by id only; which tenant's they are is decided here, from the API key's tenant).
 */
import type { CanvasRuntimeOptions } from "../engine/canvas.js";
import { withTenantMemories } from "../memories/scope.js";
import type { ServerContext } from "./context.js";

export function tenantCanvas(ctx: Pick<ServerContext, "canvas" | "memories">, tenant: string, run: Pick<CanvasRuntimeOptions, "taskId" | "userId">): CanvasRuntimeOptions {
  return withTenantMemories({ ...ctx.canvas, ...run }, ctx.memories, tenant);
}
