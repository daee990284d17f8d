/**
 * Health (registered outside the keyed API: no key needed): RAGFlow's `healthz` (also at its legacy path), `ping` and `version`, and
 * `/livez` (the process answers) and `/readyz` (its store answers) for orchestrators.
 */
import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.js";
import { success } from "../envelope.js";

async function storeProblem(ctx: ServerContext): Promise<string | undefined> {
  try {
    await ctx.store.ping();
    return undefined;
  } catch (error) {
    // Unauthenticated callers see "nok" only; the reason goes to the log.
    ctx.log.warn({ err: error, store: ctx.store.location }, "the store does not answer");
    return error instanceof Error ? error.message : String(error);
  }
}

export function systemRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const healthz = async (_request: unknown, reply: { code(status: number): unknown }) => {
    const problem = await storeProblem(ctx);
    if (problem === undefined) return { store: "ok", status: "ok" };
    reply.code(500);
    return { store: "nok", status: "nok" };
  };
  app.get("/api/v1/system/healthz", healthz);
  app.get("/v1/system/healthz", healthz);

  app.get("/api/v1/system/ping", async (_request, reply) => {
    reply.type("text/plain; charset=utf-8");
    return "pong";
  });

  app.get("/api/v1/system/version", async () => success(ctx.version));

  app.get("/livez", async () => ({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    const problem = await storeProblem(ctx);
    if (problem === undefined) return { status: "ok" };
    reply.code(503);
    return { status: "nok", store: "nok" };
  });
}
