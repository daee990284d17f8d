/**
 * The server's packages (Fastify's plugins for CORS, WebSockets, rate limits and the OpenAPI
 * document, and prom-client for /metrics), loaded when the first server is made rather than when
 * `canvasflow/server` is imported. Most are optional dependencies: an install without them
 * (`npm install canvasflow --omit=optional`) still imports the entry and uses its stores and API
 * keys, and `createServer` then fails with one MissingPackageError naming every missing package.
 */
import type CorsPlugin from "@fastify/cors";
import type RateLimitPlugin from "@fastify/rate-limit";
import type SwaggerPlugin from "@fastify/swagger";
import type SwaggerUiPlugin from "@fastify/swagger-ui";
import type WebSocketPlugin from "@fastify/websocket";
import type * as FastifyModule from "fastify";
import type * as PromClient from "prom-client";
import { requirePackages } from "../util/optional-package.js";

export const SERVER_FEATURE = "The HTTP server (createServer, canvasflow serve)";

export interface ServerPackages {
  fastify: typeof FastifyModule.fastify;
  cors: typeof CorsPlugin;
  websocket: typeof WebSocketPlugin;
  rateLimit: typeof RateLimitPlugin;
  swagger: typeof SwaggerPlugin;
  swaggerUi: typeof SwaggerUiPlugin;
  prom: typeof PromClient;
}

/** What `serverPackages()` loads, in order. */
export const SERVER_PACKAGE_NAMES = ["fastify", "@fastify/cors", "@fastify/websocket", "@fastify/rate-limit", "@fastify/swagger", "@fastify/swagger-ui", "prom-client"] as const;

let loaded: ServerPackages | undefined;

/** The packages, loaded (CommonJS, synchronously) on the first call. */
export function serverPackages(): ServerPackages {
  if (!loaded) {
    // Each plugin's CommonJS exports are the plugin, which also sits on `.default`.
    const [fastify, cors, websocket, rateLimit, swagger, swaggerUi, prom] = requirePackages<
      [typeof FastifyModule, { default: typeof CorsPlugin }, { default: typeof WebSocketPlugin }, { default: typeof RateLimitPlugin }, { default: typeof SwaggerPlugin }, { default: typeof SwaggerUiPlugin }, typeof PromClient]
    >([...SERVER_PACKAGE_NAMES], SERVER_FEATURE);
    loaded = { fastify: fastify.fastify, cors: cors.default, websocket: websocket.default, rateLimit: rateLimit.default, swagger: swagger.default, swaggerUi: swaggerUi.default, prom };
  }
  return loaded;
}
