/**
 * The OpenAPI 3.1 document at `/openapi.json` and its pages at `/docs` (@fastify/swagger and
 * @fastify/swagger-ui), generated from the routes and the very schemas they validate with
 * (`schemas/server/*.json`, JSON Schema 2020-12, which OpenAPI 3.1 takes as it is). Both are served
 * without a key: they describe the API, not anyone's data.
 *
 * The schemas refer to each other by relative file names (`openai-completion.schema.json#/…`)
 * and to their own `$defs`; the document generator resolves only absolute references, so each
 * reference is made absolute against its schema's `$id` before the generator sees it. Each schema
 * becomes a component named after its file (`completion`, `openai-completion`, …).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifySchema } from "fastify";
import { packageRoot } from "../dsl/schemas.js";
import { serverSchema } from "./validation.js";
import { serverPackages } from "./packages.js";

export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PATH = "/docs";

/** `$ref`s made absolute against `base` (the schema's `$id`), in a copy. */
export function absoluteRefs(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((item) => absoluteRefs(item, base));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === "$ref" && typeof value === "string" ? new URL(value, base).href : absoluteRefs(value, base);
  return out;
}

/** `https://…/server/completion.schema.json` → `completion`: a component name OpenAPI accepts. */
export function componentName(id: string): string {
  return (id.split("/").pop() ?? id).replace(/\.schema\.json$/, "").replace(/[^A-Za-z0-9._-]/g, "_");
}

/** The route's part of the API, for the document's tags. */
function tagOf(url: string): string {
  if (/\/completions$/.test(url)) return "completions";
  if (url.includes("/sessions")) return "sessions";
  if (url.startsWith("/api/v1/agents")) return "agents";
  if (url.startsWith("/api/v1/tasks")) return "tasks";
  return "system";
}

/** Routes served without a key: health and the like (everything outside /api/v1, and /api/v1/system). */
function keyless(url: string): boolean {
  return !url.startsWith("/api/v1/") || url.startsWith("/api/v1/system/");
}

/** RAGFlow's envelope: code 0 is success; other codes are errors (most with HTTP 200, as RAGFlow answers them). */
const ENVELOPE = {
  type: "object",
  properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
};

const KEYED_RESPONSES = {
  200: { description: "RAGFlow's envelope {code, message, data} (a completion with stream: true answers text/event-stream instead)", ...ENVELOPE },
  401: { description: "A missing or unknown API key", ...ENVELOPE },
  413: { description: "A body beyond the size limit", ...ENVELOPE },
  429: { description: "A rate limit was reached; retry after the retry-after header's seconds", ...ENVELOPE },
};

function documented(schema: FastifySchema | undefined, url: string): Record<string, unknown> {
  const given = (schema ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...given, tags: [tagOf(url)] };
  for (const part of ["body", "querystring", "params", "headers"]) {
    const value = given[part] as { $id?: string } | undefined;
    if (value?.$id !== undefined) out[part] = absoluteRefs(value, value.$id);
  }
  if (keyless(url)) out.security = [];
  else if (given.response === undefined) out.response = KEYED_RESPONSES;
  return out;
}

export interface OpenApiOptions {
  version: string;
}

/**
 * Register the generator, the pages and `/openapi.json` on the root instance, before the plugins
 * that hold the routes (the generator sees the routes registered after it loaded).
 */
export function installOpenApi(app: FastifyInstance, options: OpenApiOptions): void {
  const { swagger, swaggerUi } = serverPackages();
  app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "canvasflow: RAGFlow's agent API",
        description: "RAGFlow's agent HTTP API (agents, sessions, completions native and OpenAI-compatible, cancel, health), served by canvasflow. See docs/server.md.",
        version: options.version,
      },
      components: { securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key> (canvasflow keys create)" } } },
      security: [{ apiKey: [] }],
      tags: ["agents", "sessions", "completions", "tasks", "system"].map((name) => ({ name })),
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === "string" ? componentName(json.$id) : `def-${i}`),
    },
    transform: ({ schema, url }) => ({ schema: documented(schema, url) as FastifySchema, url }),
  });
  // The shared schemas the references point to (only the generator reads them: validation has its own ajv).
  for (const file of readdirSync(join(packageRoot(), "schemas", "server")).filter((f) => f.endsWith(".schema.json")).sort()) {
    const schema = serverSchema(file);
    app.addSchema(absoluteRefs(schema, schema.$id) as { $id: string });
  }
  app.register(swaggerUi, { routePrefix: DOCS_PATH });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
