/**
 * Validation: every problem of a DSL is collected into one report. Each issue names the JSON
 * pointer, the component (id, display name and type) and what is wrong.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import type { ComponentRegistry } from "../components/registry.js";
import type { CheckInfo, ComponentDefinition, JsonSchema } from "../components/types.js";
import { displayNames, paramsWithDefaults, readsOf, referencesOf } from "../components/params.js";
import { SYSTEM_GLOBALS, globalPrefix, normalizeDeclarations } from "../pool/variables.js";
import { findReferences, parseSelector, type Reference } from "../refs/grammar.js";
import { isPlainObject, jsonPointer } from "../util/values.js";
import { locateStrings } from "./locate.js";
import { referenceCycles } from "./reference-cycles.js";
import { detectKind, PIPELINE_MESSAGE } from "./kind.js";
import { dslAjv as ajv, significantErrors } from "./ajv.js";
import { compiledValidator } from "./compiled-validators.js";
import { loadSchema, schemaFileOf } from "./schemas.js";
import type { DslSource } from "./source.js";
import { structuralIssues } from "./structure.js";
import type { CanvasDsl, ComponentEntry } from "./types.js";
import type { ValidationIssue, ValidationReport, Severity } from "../contracts/dsl.js";

export type { Severity, ValidationIssue, ValidationReport };

interface ValidateOptions {
  registry: ComponentRegistry;
}

let commonValidator: ValidateFunction | undefined;
const paramValidators = new WeakMap<JsonSchema, ValidateFunction | string>();

/**
 * Compiled once per schema object; schemas of component types never used are never compiled.
 * A schema ajv refuses (a custom component's mistake) gives ajv's reason instead of a throw.
 */
function paramValidator(schema: JsonSchema): ValidateFunction | string {
  let validate = paramValidators.get(schema);
  if (validate === undefined) {
    const file = schemaFileOf(schema);
    try {
      validate = (file !== undefined ? compiledValidator(file) : undefined) ?? ajv().compile(schema);
    } catch (error) {
      validate = (error as Error).message;
    }
    paramValidators.set(schema, validate);
  }
  return validate;
}

function describeAjvError(error: ErrorObject): string {
  const where = error.instancePath ? `param "${error.instancePath.slice(1).replace(/\//g, ".")}"` : "params";
  if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if (error.keyword === "required") {
    return `${where} must have the property "${(error.params as { missingProperty: string }).missingProperty}"`;
  }
  if (error.keyword === "additionalProperties") {
    return `${where} has the unknown property "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  }
  return `${where} ${error.message ?? "is invalid"}`;
}

/** Validate a DSL that was read from a file or built in memory. */
export function validateSource(source: DslSource, options: ValidateOptions): ValidationReport {
  // Another format (Dify YAML, a RAGFlow ingestion pipeline) validates in its own front end.
  // A template's envelope may say what the DSL is (RAGFlow's canvas_category): the front end hears it.
  const category = source.envelope?.canvas_category;
  const frontEnd = options.registry.frontEndFor(typeof category === "string" ? { ...source.dsl, canvas_category: category } : source.dsl);
  if (frontEnd) return frontEnd.validate(source, options.registry);
  const issues: ValidationIssue[] = [];
  const base = source.envelope ? "/dsl" : "";
  const finding = detectKind(source);
  const report = (): ValidationReport => ({
    ...(source.file ? { file: source.file } : {}),
    kind: finding.kind,
    valid: !issues.some((i) => i.severity === "error"),
    issues,
  });

  switch (finding.kind) {
    case "pipeline":
      // Only a registry without the pipeline front end gets here.
      issues.push({ severity: "error", code: "pipeline-canvas", pointer: base || "/", message: `${PIPELINE_MESSAGE} (${finding.reason}), and this registry has no pipeline steps` });
      return report();
    case "legacy":
      issues.push({
        severity: "error",
        code: "legacy-format",
        pointer: base || "/",
        message: `legacy RAGFlow canvas (${finding.reason}); convert it with \`canvasflow migrate\``,
      });
      return report();
    case "graph-only":
      issues.push({
        severity: "error",
        code: "graph-only",
        pointer: `${base}/graph`,
        message: `graph-only DSL (${finding.reason}); derive its components with \`canvasflow migrate\``,
      });
      return report();
    case "unknown":
      issues.push({ severity: "error", code: "not-a-canvas", pointer: `${base}${finding.pointer ?? ""}` || "/", message: `not an agent canvas: ${finding.reason}` });
      return report();
    case "agent":
    case "dify":
      break;
  }

  // Nothing below may read a field before its type is known: a DSL with structural problems
  // is reported for those alone.
  issues.push(...structuralIssues(source));
  if (issues.length > 0) return report();

  new ComponentChecker(source.dsl, base, options.registry, issues).checkAll();
  return report();
}

/**
 * The strings holding a reference (template or selector spelling). Stored outputs and form
 * definitions are only blamed when the reference is nowhere else.
 */
function referenceLocations(params: Record<string, unknown>, ref: Reference): string[] {
  const holds = (text: string) =>
    (text.indexOf("{") >= 0 && findReferences(text).some((r) => r.expr === ref.expr)) || parseSelector(text)?.expr === ref.expr;
  const all = locateStrings(params, holds);
  const inText = all.filter((p) => !/^\/(outputs|inputs|debug_inputs)(\/|$)/.test(p));
  if (inText.length > 0) return inText;
  return all.length > 0 ? all : [""];
}

/** What kind of canvas the components make: its entry, and which components it may hold. */
export interface CanvasShape {
  readonly kind: "agent" | "pipeline";
  /** The id of its entry component. */
  readonly entryId: string;
  /** How messages describe a missing entry. */
  readonly missingEntry: string;
}

const AGENT_SHAPE: CanvasShape = { kind: "agent", entryId: "begin", missingEntry: 'the canvas has no start component (a Begin with the id "begin")' };

/** The components a pipeline may hold, for messages (their definitions say `capabilities.pipeline`). */
const PIPELINE_STEPS = "File, Parser, TokenChunker, TitleChunker, Extractor, Tokenizer and Compiler";

/** Check every component of a canvas of `shape` (params, references, containers), adding to `issues`. */
export function checkCanvasComponents(dsl: CanvasDsl, base: string, registry: ComponentRegistry, issues: ValidationIssue[], shape: CanvasShape): void {
  new ComponentChecker(dsl, base, registry, issues, shape).checkAll();
}

class ComponentChecker {
  private readonly names: Map<string, string>;
  private readonly components: Record<string, ComponentEntry>;
  private readonly globals: Record<string, unknown>;
  private readonly declarations: Set<string>;
  private readonly variables: unknown;
  private readonly assignedSystemGlobals: Record<string, true>;

  constructor(
    dsl: CanvasDsl,
    private readonly base: string,
    private readonly registry: ComponentRegistry,
    private readonly issues: ValidationIssue[],
    private readonly shape: CanvasShape = AGENT_SHAPE,
  ) {
    this.names = displayNames(dsl);
    this.components = dsl.components;
    this.globals = isPlainObject(dsl.globals) ? dsl.globals : {};
    this.declarations = new Set(Object.keys(normalizeDeclarations(dsl.variables)));
    this.variables = dsl.variables;
    this.assignedSystemGlobals = this.systemGlobalsWritten();
  }

  /** `sys.*` keys that some component writes (a VariableAssigner creates them, as in RAGFlow). */
  private systemGlobalsWritten(): Record<string, true> {
    const keys: Record<string, true> = Object.create(null);
    for (const id of Object.keys(this.components)) {
      const def = this.def(id);
      if (!def?.writes) continue;
      let written: Reference[] = [];
      try {
        written = def.writes(paramsWithDefaults(def, this.components[id].obj.params) as never);
      } catch {
        // A broken params shape is reported by the schema check of that component.
      }
      for (const ref of written) if (ref.kind === "global" && ref.scope === "sys") keys[ref.key] = true;
    }
    return keys;
  }

  checkAll(): void {
    const { entryId } = this.shape;
    const entry = this.components[entryId];
    if (!entry) {
      this.issue("error", "missing-begin", `${this.base}/components`, undefined, this.shape.missingEntry);
    } else if (!this.def(entryId)?.capabilities?.entry) {
      const expected = this.shape.kind === "pipeline" ? "File" : "Begin";
      this.issue("error", "missing-begin", this.at(entryId, "obj", "component_name"), entryId, `the component "${entryId}" must be a ${expected}, not ${entry.obj?.component_name}`);
    }
    for (const id of Object.keys(this.components)) this.checkComponent(id);
    this.checkReferenceCycles();
    this.checkReducers();
  }

  /** A variable's `reducer` names a built-in or registered reducer (state keys, canvasflow/graph). */
  private checkReducers(): void {
    const listed = Array.isArray(this.variables);
    for (const [name, declaration] of Object.entries(normalizeDeclarations(this.variables))) {
      const reducer = declaration.reducer;
      if (reducer === undefined || (typeof reducer === "string" && this.registry.reducer(reducer))) continue;
      const index = listed ? (this.variables as unknown[]).findIndex((v) => (v as { name?: unknown })?.name === name) : -1;
      const at = `${this.base}${listed ? jsonPointer("variables", index, "reducer") : jsonPointer("variables", name, "reducer")}`;
      this.issue(
        "error",
        "unknown-reducer",
        at,
        undefined,
        typeof reducer === "string"
          ? `variable "${name}": unknown reducer "${reducer}" (built in: last, add, append, extend, merge, messages, union; register others with registry.registerReducer before loading)`
          : `variable "${name}": reducer must be a reducer's name, got ${JSON.stringify(reducer)}`,
      );
    }
  }

  /**
   * Components that read each other (not counting a container and its own body, which read
   * each other by design: a Loop's variables, an Iteration's collected outputs).
   */
  private checkReferenceCycles(): void {
    const readsFrom = new Map<string, string[]>();
    for (const [id, entry] of Object.entries(this.components)) {
      const def = this.def(id);
      if (!def) continue;
      const related = (other: string) => this.encloses(id, other) || this.encloses(other, id);
      const deps = referencesOf(def, paramsWithDefaults(def, entry.obj.params)).flatMap((ref) =>
        ref.kind === "component" && ref.componentId !== id && !related(ref.componentId) ? [ref.componentId] : [],
      );
      readsFrom.set(id, [...new Set(deps)]);
    }
    for (const group of referenceCycles([...readsFrom.keys()], (id) => readsFrom.get(id) ?? [])) {
      const first = group[0];
      const names = group.map((id) => this.names.get(id) ?? id).join(", ");
      this.issue(
        "warning",
        "reference-cycle",
        this.at(first),
        first,
        `${names} read each other's outputs: they run one at a time in path order, and the first to run reads the others' values from before (nothing in a turn's first round)`,
      );
    }
  }

  /** True when `containerId` is an ancestor of `id`. */
  private encloses(containerId: string, id: string): boolean {
    let current = this.components[id]?.parent_id;
    for (let guard = 0; typeof current === "string" && current.length > 0 && guard < 64; guard++) {
      if (current === containerId) return true;
      current = this.components[current]?.parent_id;
    }
    return false;
  }

  private def(id: string): ComponentDefinition | undefined {
    const name = this.components[id]?.obj?.component_name;
    return typeof name === "string" ? this.registry.get(name) : undefined;
  }

  private at(id: string, ...rest: Array<string | number>): string {
    return `${this.base}${jsonPointer("components", id, ...rest)}`;
  }

  private issue(severity: Severity, code: string, at: string, id: string | undefined, message: string): void {
    const entry = id ? this.components[id] : undefined;
    this.issues.push({
      severity,
      code,
      pointer: at,
      ...(id ? { componentId: id, componentName: this.names.get(id) ?? id } : {}),
      ...(entry?.obj?.component_name ? { componentType: entry.obj.component_name } : {}),
      message,
    });
  }

  private checkComponent(id: string): void {
    const entry = this.components[id];
    const name = entry.obj.component_name;
    const def = this.registry.get(name);
    if (!def) {
      this.issue("error", "unknown-component", this.at(id, "obj", "component_name"), id, `unknown component_name "${name}": no component of that type is registered`);
      return;
    }
    if (this.shape.kind === "agent" && def.capabilities?.pipeline) {
      this.issue(
        "error",
        "pipeline-component",
        this.at(id, "obj", "component_name"),
        id,
        `${name} is a step of an ingestion pipeline (a dataflow canvas), which an agent canvas cannot run: put it in a pipeline whose entry is a File with the id "File"`,
      );
      return;
    }
    if (this.shape.kind === "pipeline" && !def.capabilities?.pipeline) {
      this.issue(
        "error",
        "agent-component",
        this.at(id, "obj", "component_name"),
        id,
        `${name} is an agent component, which an ingestion pipeline cannot run: a pipeline holds only ${PIPELINE_STEPS}`,
      );
      return;
    }

    if (def.capabilities?.entry && id !== this.shape.entryId) {
      this.issue("error", "extra-begin", this.at(id), id, `only the component with id "${this.shape.entryId}" may be a ${name}`);
    }
    (entry.downstream ?? []).forEach((target, i) => {
      if (!this.components[target]) {
        this.issue("error", "unknown-target", this.at(id, "downstream", i), id, `downstream lists "${target}", which is not a component of this canvas`);
      }
    });
    const parent = entry.parent_id;
    if (typeof parent === "string" && parent.length > 0) {
      const parentDef = this.def(parent);
      if (!this.components[parent]) {
        this.issue("error", "unknown-parent", this.at(id, "parent_id"), id, `parent_id "${parent}" is not a component of this canvas`);
      } else if (parentDef && !parentDef.capabilities?.container) {
        this.issue("error", "parent-not-container", this.at(id, "parent_id"), id, `parent_id "${parent}" is a ${this.components[parent].obj.component_name}, which cannot contain components`);
      }
    }

    const params = paramsWithDefaults(def, entry.obj.params);
    this.checkSchema(id, params, def);
    this.checkExceptionHandling(id, params);
    this.checkReferences(id, params, def);
    this.checkContainer(id, def);
    if (def.check) {
      let problems;
      try {
        problems = def.check(params as never, this.checkInfo(id));
      } catch (error) {
        problems = [{ pointer: "", message: `check failed: ${(error as Error).message}` }];
      }
      for (const problem of problems) {
        this.issue(problem.severity ?? "error", "param", `${this.at(id, "obj", "params")}${problem.pointer}`, id, problem.message);
      }
    }
  }

  private checkInfo(id: string): CheckInfo {
    const entry = this.components[id];
    return {
      id,
      parentId: typeof entry.parent_id === "string" && entry.parent_id ? entry.parent_id : undefined,
      downstream: entry.downstream ?? [],
      hasComponent: (other) => Object.hasOwn(this.components, other),
      componentName: (other) => this.components[other]?.obj?.component_name,
      parentOf: (other) => {
        const parent = this.components[other]?.parent_id;
        return typeof parent === "string" && parent.length > 0 ? parent : undefined;
      },
      componentType: (name) => this.registry.get(name),
    };
  }

  private checkSchema(id: string, params: Record<string, unknown>, def: ComponentDefinition): void {
    const common = (commonValidator ??= compiledValidator("components/common.schema.json") ?? ajv().compile(loadSchema("components/common.schema.json")));
    const own = def.paramsSchema ? paramValidator(def.paramsSchema) : undefined;
    if (typeof own === "string") this.issue("error", "param", this.at(id, "obj", "params"), id, `the params schema of ${def.name} cannot be used: ${own}`);
    const validators = own && typeof own !== "string" ? [common, own] : [common];
    for (const validate of validators) {
      if (validate(params)) continue;
      for (const error of significantErrors(validate.errors ?? [])) {
        this.issue("error", "param", `${this.at(id, "obj", "params")}${error.instancePath}`, id, describeAjvError(error));
      }
    }
  }

  private checkExceptionHandling(id: string, params: Record<string, unknown>): void {
    const targets = params.exception_goto;
    if (!Array.isArray(targets)) return;
    targets.forEach((target, i) => {
      if (typeof target === "string" && !this.components[target]) {
        this.issue("error", "unknown-target", this.at(id, "obj", "params", "exception_goto", i), id, `exception_goto lists "${target}", which is not a component of this canvas`);
      }
    });
    if (params.exception_method === "goto" && targets.length === 0) {
      this.issue("error", "param", this.at(id, "obj", "params", "exception_goto"), id, 'exception_method is "goto" but exception_goto lists no component');
    }
  }

  private checkReferences(id: string, params: Record<string, unknown>, def: ComponentDefinition): void {
    const seen = new Set<string>();
    const reads = readsOf(def, params);
    for (const ref of referencesOf(def, params)) {
      if (seen.has(ref.expr)) continue;
      seen.add(ref.expr);
      const problem = this.referenceProblem(id, ref, reads);
      if (!problem) continue;
      const base = this.at(id, "obj", "params");
      for (const where of referenceLocations(params, ref)) {
        const code = ref.kind === "component" && ref.componentId === id ? "self-reference" : "unknown-reference";
        this.issue("error", code, `${base}${where}`, id, `reference {${ref.expr}}: ${problem}`);
      }
    }
  }

  /** `reads`: the expressions whose values the component reads (the rest are only written). */
  private referenceProblem(id: string, ref: Reference, reads: ReadonlySet<string>): string | undefined {
    switch (ref.kind) {
      case "component":
        if (ref.componentId === id && reads.has(ref.expr)) {
          // Its outputs are reset when it starts, so it would read nothing; a streamed message
          // reading itself would wait for its own end forever.
          return "a component cannot read its own output";
        }
        return this.components[ref.componentId] ? undefined : `no component "${ref.componentId}" in this canvas`;
      case "global": {
        if (Object.hasOwn(this.globals, ref.key)) return undefined;
        if (ref.scope === "sys") {
          return (SYSTEM_GLOBALS as readonly string[]).includes(ref.key) ||
            ref.key === "sys.chat_template_kwargs" ||
            this.hasGlobalPrefix(ref.key) ||
            this.isAssignedSystemGlobal(ref.key)
            ? undefined
            : `"${ref.key}" is not a system variable (known: ${SYSTEM_GLOBALS.join(", ")})`;
        }
        const name = ref.key.slice(4);
        if (this.declarations.has(name) || this.hasGlobalPrefix(ref.key)) return undefined;
        const root = name.split(".")[0];
        return this.declarations.has(root) ? undefined : `no conversation variable "${name}" is declared`;
      }
      case "alias": {
        const parent = this.components[id]?.parent_id;
        const container = typeof parent === "string" ? this.def(parent)?.capabilities?.container : undefined;
        return container?.iterationAliases ? undefined : `{${ref.alias}} is only defined in a direct child of an Iteration`;
      }
    }
  }

  /** `sys.x`, or a path below it, that a component of this canvas writes. */
  private isAssignedSystemGlobal(key: string): boolean {
    return key in this.assignedSystemGlobals || globalPrefix(this.assignedSystemGlobals, key) !== undefined;
  }

  /** `env.obj.field` is known when `env.obj` is a global (the pool reads into it the same way). */
  private hasGlobalPrefix(key: string): boolean {
    return globalPrefix(this.globals, key) !== undefined;
  }

  private checkContainer(id: string, def: ComponentDefinition): void {
    const container = def.capabilities?.container;
    if (!container) return;
    const hasStart = Object.values(this.components).some(
      (entry) => entry.parent_id === id && entry.obj?.component_name === container.start,
    );
    if (!hasStart) {
      this.issue("error", "missing-start", this.at(id), id, `${def.name} "${id}" has no ${container.start} child (a component with parent_id "${id}")`);
    }
  }
}
