/**
 * The optional queue dashboard (`@bull-board`, read-only) at an admin path, off unless an admin
 * key is configured. The queue shows every tenant's jobs, and a job carries its turn's query and
 * inputs, so no tenant's API key opens it: only the dashboard's own key, sent as a bearer token or
 * as the password of HTTP Basic authentication (what a browser asks for; any user name).
 *
 * Read-only: jobs can be looked at, not retried, removed or promoted (cancel runs through the API,
 * so their sessions' logs get their end). The libraries are loaded only when it is on.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { ApiError, RET } from "./envelope.js";
import type { RunQueue } from "../worker/run-queue.js";
import { importPackage } from "../util/optional-package.js";

export const DEFAULT_DASHBOARD_PATH = "/admin/queues";
/** Shortest admin key accepted: it guards every tenant's queued queries. */
export const MIN_DASHBOARD_KEY_LENGTH = 16;
const DASHBOARD_UNAUTHORIZED = "The queue dashboard needs its admin key (not an API key): send it as a bearer token, or as the password of Basic authentication.";
const PATH = /^(\/[A-Za-z0-9._~-]+)+$/;

export interface DashboardOptions {
  /** The key that opens it (at least 16 characters). */
  key: string;
  /** Where it is served (default /admin/queues). */
  path?: string;
}

/** Checked dashboard options; throws naming the bad one. */
export function dashboardSettings(options: DashboardOptions): Required<DashboardOptions> {
  const path = options.path ?? DEFAULT_DASHBOARD_PATH;
  if (typeof path !== "string" || !PATH.test(path) || path.startsWith("/api/")) {
    throw new RangeError(`createServer: dashboard.path must be a path such as /admin/queues (letters, digits, ".", "_", "~", "-" between slashes; not under /api/), got ${JSON.stringify(path)}`);
  }
  if (typeof options.key !== "string" || options.key.trim().length < MIN_DASHBOARD_KEY_LENGTH) {
    throw new RangeError(`createServer: dashboard.key must be a string of at least ${MIN_DASHBOARD_KEY_LENGTH} characters (it opens every tenant's queued jobs)`);
  }
  return { path, key: options.key.trim() };
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** The key a request carries: a bearer token, or the password of Basic authentication. */
function presentedKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value = ""] = header.split(/\s+/, 2);
  if (/^bearer$/i.test(scheme)) return value;
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon < 0 ? undefined : decoded.slice(colon + 1);
  }
  return undefined;
}

const DASHBOARD_FEATURE = "The queue dashboard (serve --dashboard)";

export async function installDashboard(app: FastifyInstance, queue: RunQueue, options: Required<DashboardOptions>): Promise<void> {
  const expected = digest(options.key);
  const [{ createBullBoard }, { BullMQAdapter }, { FastifyAdapter }] = await Promise.all([
    importPackage<typeof import("@bull-board/api")>("@bull-board/api", DASHBOARD_FEATURE),
    importPackage<typeof import("@bull-board/api/bullMQAdapter")>("@bull-board/api/bullMQAdapter", DASHBOARD_FEATURE),
    importPackage<typeof import("@bull-board/fastify")>("@bull-board/fastify", DASHBOARD_FEATURE),
  ]);
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(options.path);
  createBullBoard({ queues: [new BullMQAdapter(queue.queue, { readOnlyMode: true })], serverAdapter, options: { uiConfig: { boardTitle: "canvasflow runs" } } });
  await app.register(async (admin) => {
    admin.addHook("onRequest", async (request, reply) => {
      const key = presentedKey(request.headers.authorization);
      if (key !== undefined && timingSafeEqual(digest(key), expected)) return;
      // Answered here: bull-board's own error handler would make a thrown error a 500.
      const refusal = new ApiError(RET.unauthorized, DASHBOARD_UNAUTHORIZED, null, 401);
      return reply.code(401).header("www-authenticate", 'Basic realm="canvasflow queue dashboard", charset="UTF-8"').send(refusal.envelope());
    });
    await admin.register(serverAdapter.registerPlugin(), { prefix: options.path });
  });
}
