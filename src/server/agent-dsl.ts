/**
 * The DSL of an agent write: JSON text or an object, a bare canvas or a template envelope (which
 * is unwrapped; the bare DSL is stored). It must be a valid agent canvas in the current format: an
 * invalid one is refused with code 101, naming each problem by its JSON pointer in the request body
 * (`/dsl/components/…`). Legacy RAGFlow canvases (v0.19 and older) are refused too, pointing to
 * `canvasflow migrate`: an agent is stored as sent, and a migration's notes deserve a look first.
 *
 * Before any of that, its size: at most `dslBytes` bytes as JSON and `dslComponents` components
 * (the server's limits), so a huge canvas is refused before it is validated or stored.
 */
import { isTemplateEnvelope } from "../dsl/source.js";
import { readSource, validateDsl, type CanvasDsl, type ComponentRegistry } from "../index.js";
import { argumentError } from "./envelope.js";
import type { ServerLimits } from "./settings.js";

/** Problems shown in the message (all of them are in `data.issues`). */
const SHOWN_ISSUES = 10;

export async function checkAgentDsl(value: unknown, registry: ComponentRegistry, limits: Pick<ServerLimits, "dslBytes" | "dslComponents">): Promise<CanvasDsl> {
  checkDslBytes(value, limits.dslBytes);
  let dsl = value;
  if (typeof value === "string") {
    try {
      dsl = JSON.parse(value);
    } catch (error) {
      throw argumentError(`\`dsl\` is a string but not valid JSON: ${(error as Error).message}`);
    }
  }
  if (dsl === null || typeof dsl !== "object" || Array.isArray(dsl)) {
    throw argumentError(`\`dsl\` must be a canvas DSL object (or a template envelope), got ${Array.isArray(dsl) ? "an array" : dsl === null ? "null" : typeof dsl}`);
  }
  checkDslComponents(dsl, limits.dslComponents);
  const report = validateDsl(dsl, { registry });
  const errors = report.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    const issues = errors.map((issue) => ({
      pointer: issue.pointer === "/" || issue.pointer === "" ? "/dsl" : `/dsl${issue.pointer}`,
      message: issue.message,
      ...(issue.componentId ? { component_id: issue.componentId } : {}),
    }));
    const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => `${issue.pointer}: ${issue.message}`);
    const more = issues.length > SHOWN_ISSUES ? `; … and ${issues.length - SHOWN_ISSUES} more (see data.issues)` : "";
    throw argumentError(`The DSL is not a valid agent canvas (${issues.length} error${issues.length === 1 ? "" : "s"}): ${shown.join("; ")}${more}`, { issues });
  }
  return (await readSource(dsl)).dsl;
}

/** The DSL's size as JSON (as sent, when it came as text). */
function checkDslBytes(value: unknown, limit: number): void {
  const bytes = Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value) ?? "");
  if (bytes > limit) {
    throw argumentError(`\`dsl\` is ${bytes} bytes as JSON; this server accepts DSLs of at most ${limit} bytes (server.limits.dslBytes)`, { limit: "dslBytes", max: limit, actual: bytes });
  }
}

/** The number of components (of the DSL inside a template envelope). */
function checkDslComponents(dsl: object, limit: number): void {
  const bare = isTemplateEnvelope(dsl) ? dsl.dsl : dsl;
  const components = (bare as { components?: unknown }).components;
  if (components === null || typeof components !== "object") return; // validation says what is wrong
  const count = Object.keys(components).length;
  if (count > limit) {
    throw argumentError(`\`dsl\` has ${count} components; this server accepts DSLs of at most ${limit} components (server.limits.dslComponents)`, { limit: "dslComponents", max: limit, actual: count });
  }
}
