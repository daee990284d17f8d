/**
 * The DSL of an agent write: JSON text or an object, a bare canvas or a template envelope (which
 * is unwrapped; the bare DSL is stored). An older format (a RAGFlow v0.19 canvas with Answer or
 * Generate, a graph-only export, renamed components) is migrated first, as `canvasflow migrate`
 * does (positions and names kept), and the write says so: RAGFlow stores such DSLs, so its clients
 * send them. The result must be a valid agent canvas: an invalid one is refused with code 101,
 * naming each problem by its JSON pointer in the request body (`/dsl/components/…`; after a
 * migration, in the migrated DSL, whose component ids are the sent ones).
 *
 * A write whose `canvas_category` is "dataflow_canvas" (RAGFlow's ingestion pipelines) must send a
 * pipeline: another kind of DSL is refused, naming the field.
 *
 * Before any of that, its size: at most `dslBytes` bytes as JSON and `dslComponents` components
 * (the server's limits), so a huge canvas is refused before it is validated or stored.
 */
import { isDifyDocument } from "../dify/document.js";
import { detectKind } from "../dsl/kind.js";
import { isTemplateEnvelope, unwrapDsl } from "../dsl/source.js";
import { migrateDsl, needsMigration } from "../migrate/runner.js";
import { MigrationError, type MigrationNote } from "../migrate/types.js";
import { readSource, validateDsl } from "../api.js";
import type { CanvasDsl } from "../dsl/types.js";
import type { ComponentRegistry } from "../components/registry.js";
import { argumentError } from "./envelope.js";
import type { ServerLimits } from "./settings.js";

/**
 * What a write's answer says about a migrated DSL (`data.migration`, in the API's snake_case):
 * the steps that applied and each change, by component.
 */
export interface MigrationView {
  applied: string[];
  notes: Array<{ step: string; component_id?: string; component_type?: string; change: string; reason: string }>;
}

interface CheckedDsl {
  /** The bare DSL to store. */
  dsl: CanvasDsl;
  /** Set when the DSL sent was in an older format and was migrated. */
  migration?: MigrationView;
}

/** Problems shown in the message (all of them are in `data.issues`). */
const SHOWN_ISSUES = 10;

export async function checkAgentDsl(value: unknown, registry: ComponentRegistry, limits: Pick<ServerLimits, "dslBytes" | "dslComponents">, category?: string | null): Promise<CheckedDsl> {
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
  const migrated = migrateOlderFormat(dsl);
  let current: object = dsl;
  if (migrated) {
    current = migrated.dsl;
    // A graph-only export gets its components from its nodes: counted again.
    checkDslComponents(current, limits.dslComponents);
  }
  if (category === PIPELINE_CATEGORY) refuseOtherKind(current);
  const report = validateDsl(current, { registry });
  const errors = report.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    const issues = errors.map((issue) => ({
      pointer: issue.pointer === "/" || issue.pointer === "" ? "/dsl" : `/dsl${issue.pointer}`,
      message: issue.message,
      ...(issue.componentId ? { component_id: issue.componentId } : {}),
    }));
    const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => `${issue.pointer}: ${issue.message}`);
    const more = issues.length > SHOWN_ISSUES ? `; … and ${issues.length - SHOWN_ISSUES} more (see data.issues)` : "";
    const after = migrated ? ` after its migration (${migrated.migration.applied.join(", ")})` : "";
    throw argumentError(`The DSL is not a valid agent canvas${after} (${issues.length} error${issues.length === 1 ? "" : "s"}): ${shown.join("; ")}${more}`, { issues, ...(migrated ? { migration: migrated.migration } : {}) });
  }
  const bare = (await readSource(current)).dsl;
  return migrated ? { dsl: bare, migration: migrated.migration } : { dsl: bare };
}

/** RAGFlow's category of an ingestion pipeline (a write's `canvas_category`, a template envelope's). */
const PIPELINE_CATEGORY = "dataflow_canvas";

/** A write that says `canvas_category: "dataflow_canvas"` and sends another kind of DSL is refused, naming both. */
function refuseOtherKind(dsl: object): void {
  const source = unwrapDsl(dsl);
  const found = detectKind(source);
  if (found.kind === "pipeline") return;
  const why = found.kind === "agent" ? "it is an agent canvas" : `it is ${found.kind === "unknown" ? "no canvas" : `a ${found.kind} DSL`}${found.reason ? ` (${found.reason})` : ""}`;
  throw argumentError(`\`canvas_category\` is "${PIPELINE_CATEGORY}", but \`dsl\` is not an ingestion pipeline: ${why}; a pipeline is a chain of steps from a File (Parser, a chunker, Extractor, Tokenizer…) with no Begin`);
}

/** The DSL brought to the current format, when it is in an older one (a Dify document is not: its front end reads it). */
function migrateOlderFormat(dsl: object): { dsl: object; migration: MigrationView } | undefined {
  const bare = isTemplateEnvelope(dsl) ? dsl.dsl : dsl;
  if (bare !== null && typeof bare === "object" && isDifyDocument(bare as Record<string, unknown>)) return undefined;
  if (!needsMigration(dsl)) return undefined;
  let result;
  try {
    result = migrateDsl(dsl);
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    throw argumentError(`The DSL is in an older format and could not be migrated: ${error.message}`);
  }
  return { dsl: result.dsl, migration: { applied: result.applied, notes: result.notes.map(noteView) } };
}

function noteView(note: MigrationNote): MigrationView["notes"][number] {
  return {
    step: note.step,
    ...(note.component !== undefined ? { component_id: note.component } : {}),
    ...(note.componentType !== undefined ? { component_type: note.componentType } : {}),
    change: note.change,
    reason: note.reason,
  };
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
