/**
 * The playground (docs/server.md, "Playground"): `GET /` serves a page that talks to this
 * server's own API with the key its user gives, and `/playground/app.js` and `/playground/app.css`
 * its script and style. All of it is built into the package as strings (no files to copy, no
 * CDN, no network). The page is public but holds nothing: every call it makes carries the key.
 *
 * Its Content-Security-Policy allows scripts from this server only, plus the trace page's own
 * inline scripts by hash (a trace is shown in a sandboxed srcdoc frame, which inherits the policy).
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { renderTrace } from "../../render/index.js";
import { CLIENT_API } from "./client-api.js";
import { CLIENT_APP } from "./client-app.js";
import { CLIENT_CHAT } from "./client-chat.js";
import { CLIENT_DIAGRAM } from "./client-diagram.js";
import { CLIENT_FORM } from "./client-form.js";
import { PLAYGROUND_PAGE } from "./page.js";
import { PLAYGROUND_STYLE } from "./style.js";

/** The page's script: the pieces in one strict-mode function scope. */
export const PLAYGROUND_SCRIPT = `(function () {\n'use strict';\n${CLIENT_API}\n${CLIENT_DIAGRAM}\n${CLIENT_FORM}\n${CLIENT_CHAT}\n${CLIENT_APP}\n})();\n`;

export { PLAYGROUND_PAGE, PLAYGROUND_STYLE };

/** Where the page's assets are served. */
const PLAYGROUND_PREFIX = "/playground/";

/** `'sha256-…'` of every inline script (not data blocks) of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
    hashes.add(`'sha256-${createHash("sha256").update(match[1], "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

let policy: Promise<string> | undefined;

/** The page's Content-Security-Policy (made once: the trace's scripts are constants). */
function playgroundPolicy(): Promise<string> {
  policy ??= renderTrace([]).then((trace) =>
    [
      "default-src 'none'",
      `script-src 'self' ${inlineScriptHashes(trace).join(" ")}`,
      // The diagrams carry their own <style>; style cannot run code.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "frame-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  return policy;
}

function common(reply: FastifyReply, type: string): FastifyReply {
  return reply
    .type(type)
    .header("cache-control", "no-cache")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer");
}

/** The page and its assets; registered outside the keyed API (they hold no data). */
export function playgroundRoutes(app: FastifyInstance): void {
  // Pages, not API: left out of the OpenAPI document.
  const page = { schema: { hide: true } };
  app.get("/", page, async (_request, reply) => {
    common(reply, "text/html; charset=utf-8").header("content-security-policy", await playgroundPolicy()).header("x-frame-options", "DENY");
    return PLAYGROUND_PAGE;
  });
  app.get(`${PLAYGROUND_PREFIX}app.js`, page, async (_request, reply) => {
    common(reply, "text/javascript; charset=utf-8");
    return PLAYGROUND_SCRIPT;
  });
  app.get(`${PLAYGROUND_PREFIX}app.css`, page, async (_request, reply) => {
    common(reply, "text/css; charset=utf-8");
    return PLAYGROUND_STYLE;
  });
}
