/**
 * GET /v1/info (the app's name, description, tags and mode) and POST /v1/completion-messages,
 * which only Dify's completion apps answer: here the served app is a workflow or a chatflow, so
 * the route answers Dify's app_unavailable error rather than a bare 404.
 */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../../context.js";
import { difyAppOf } from "../app.js";
import { DifyApiError } from "../errors.js";

export function difyAppInfoRoutes(api: FastifyInstance, ctx: ServerContext, appId: string): void {
  api.get("/v1/info", async (request) => {
    const app = await difyAppOf(ctx, request.tenant, appId);
    // An agent made from a YAML file has no description of its own: the app's is in the YAML.
    const yamlApp = (app.agent.dsl as unknown as { app?: { description?: unknown } }).app;
    const description = app.agent.description || (typeof yamlApp?.description === "string" ? yamlApp.description : "");
    return { name: app.graph.name || app.agent.title, description, tags: [], mode: app.mode, author_name: "" };
  });

  api.post("/v1/completion-messages", async (request) => {
    const app = await difyAppOf(ctx, request.tenant, appId);
    const route = app.mode === "workflow" ? "/workflows/run" : "/chat-messages";
    throw new DifyApiError(400, "app_unavailable", `App unavailable: completion apps are not served here; this app is a ${app.mode === "workflow" ? "workflow" : "chatflow"} (use ${route}).`);
  });
}
