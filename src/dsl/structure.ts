/**
 * The structural check of an agent canvas DSL: how deeply it nests, then every field's type
 * (schemas/canvas.schema.json, which includes the run state of a snapshot). It runs before
 * anything else reads the DSL: the per-component checks, graph compilation and the run state
 * reader only ever see a DSL that passed it, so none of them can meet a field of the wrong type.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { displayNames } from "../components/params.js";
import { describeJson, isPlainObject, jsonPointer, showValue } from "../util/values.js";
import { pathDeeperThan } from "../util/nesting.js";
import { dslAjv, significantErrors } from "./ajv.js";
import { compiledValidator } from "./compiled-validators.js";
import { loadSchema } from "./schemas.js";
import type { DslSource } from "./source.js";
import type { ValidationIssue } from "./validate.js";

/**
 * How many levels of objects and lists a DSL may nest. Real canvases nest about 15. RAGFlow,
 * in Python, cannot read or write JSON much deeper than 1 000 levels (the recursion limit), so
 * every DSL it wrote is within the limit; the recursive code that walks a DSL here (structuredClone,
 * JSON.stringify, ajv, the reference walkers) overflows only past about 5 000.
 */
export const MAX_DSL_DEPTH = 1000;

let canvasValidator: ValidateFunction | undefined;

/** The structural problems of an agent canvas; none means the per-component checks may run. */
export function structuralIssues(source: DslSource): ValidationIssue[] {
  const base = source.envelope ? ["dsl"] : [];
  const dsl: unknown = source.dsl;
  const tooDeep = pathDeeperThan(dsl, MAX_DSL_DEPTH);
  if (tooDeep) {
    return [
      {
        severity: "error",
        code: "too-deep",
        pointer: jsonPointer(...base, ...tooDeep),
        ...attribution(dsl, tooDeep),
        message: `${fieldLabel(tooDeep)} is nested deeper than ${MAX_DSL_DEPTH} levels (a DSL may nest objects and lists at most ${MAX_DSL_DEPTH} levels deep)`,
      },
    ];
  }
  const validate = (canvasValidator ??= compiledValidator("canvas.schema.json") ?? dslAjv().compile(loadSchema("canvas.schema.json")));
  if (validate(dsl)) return [];
  return significantErrors(validate.errors ?? []).map((error) => {
    const path = pointerSegments(error.instancePath);
    return {
      severity: "error",
      code: "schema",
      pointer: jsonPointer(...base, ...path) || "/",
      ...attribution(dsl, path),
      message: describeSchemaError(error, path, valueAt(dsl, path)),
    };
  });
}

/** The component a pointer falls in (`/components/<id>/…`), as issues name it. */
function attribution(dsl: unknown, path: ReadonlyArray<string | number>): Pick<ValidationIssue, "componentId" | "componentName" | "componentType"> {
  if (path[0] !== "components" || path.length < 2 || !isPlainObject(dsl) || !isPlainObject(dsl.components)) return {};
  const id = String(path[1]);
  if (!Object.hasOwn(dsl.components, id)) return {};
  const entry = dsl.components[id];
  const obj = isPlainObject(entry) ? entry.obj : undefined;
  const type = isPlainObject(obj) && typeof obj.component_name === "string" && obj.component_name ? obj.component_name : undefined;
  const names = displayNames(dsl as Parameters<typeof displayNames>[0]);
  return { componentId: id, componentName: names.get(id) ?? id, ...(type ? { componentType: type } : {}) };
}

/** A JSON pointer for messages: cut after eight segments (a too-deep value's pointer runs to hundreds). */
export function shortPointer(path: ReadonlyArray<string | number>): string {
  return path.length > 8 ? `${jsonPointer(...path.slice(0, 8))}/…` : jsonPointer(...path);
}

/**
 * How a message names a place: inside a component, the path within its entry ("downstream",
 * "obj/params"), since the issue names the component; elsewhere the pointer. Long paths are cut.
 */
function fieldLabel(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return "the DSL";
  const inComponent = path[0] === "components" && path.length > 2;
  if (!inComponent) return `"${shortPointer(path)}"`;
  const shown = path.slice(2);
  return `"${(shown.length > 8 ? [...shown.slice(0, 8), "…"] : shown).join("/")}"`;
}

function describeSchemaError(error: ErrorObject, path: ReadonlyArray<string | number>, value: unknown): string {
  const label = fieldLabel(path);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type": {
      const scalar = value !== null && typeof value !== "object";
      return `${label} must be ${String(params.type).split(",").join(" or ")}, got ${describeJson(value)}${scalar ? ` (${showValue(value)})` : ""}`;
    }
    case "required":
      return `${label} must have the property "${String(params.missingProperty)}"`;
    case "enum":
      return `${label} must be one of ${((params.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(", ")}, got ${showValue(value)}`;
    case "const":
      return `${label} must be ${JSON.stringify(params.allowedValue)}, got ${showValue(value)}`;
    case "maxLength":
      return `${label} must be at most ${String(params.limit)} characters, got ${typeof value === "string" ? value.length : "?"}`;
    case "pattern":
      // The schema's description says in words what the pattern allows.
      return `${label} does not fit its rule (${String((error.parentSchema as { description?: string } | undefined)?.description ?? `pattern ${String(params.pattern)}`)}), got ${showValue(value)}`;
    default:
      return `${label} ${error.message ?? "is invalid"}`;
  }
}

/** The segments of a JSON pointer ("" is the whole document). */
function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
