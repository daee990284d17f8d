/**
 * canvasflow/graph's layer 0: a RAGFlow canvas written in code. `canvas()` starts one with its
 * Begin (mode, prologue, input form) and its conversation variables; `add()` adds a built-in
 * component with params typed from its schema; `edge()` links two; `build()` checks the
 * references and returns the DSL after validateDsl.
 */
import { validateDsl } from "../api.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { CanvasDsl, ComponentEntry, ValidationIssue, VariableDeclaration } from "../contracts/dsl.js";
import { SYSTEM_GLOBALS, zeroForDeclaredType } from "../pool/variables.js";
import { CanvasBuildError } from "./build-error.js";
import { editorGraph } from "./editor-layout.js";
import type { NodeHandle } from "./node-handle.js";
import { writtenParams, type Writable } from "./param-values.js";
import type { BuiltinParams } from "./params.generated.js";
import { referenceProblems, type CheckedNode } from "./references-check.js";
import { env as envRef, type GlobalRef } from "./references.js";

/** The component_name of every built-in component the builder types. */
export type ComponentName = keyof BuiltinParams;

/** The params `add()` takes for a component: its schema's params, with references and `text` where a text goes. */
export type ParamsOf<Name extends ComponentName> = Writable<BuiltinParams[Name]>;

type BeginParams = BuiltinParams["Begin"];
/** One field of Begin's input form (read as `ref(c.begin, key)`). */
export type BeginInputField = Exclude<NonNullable<BeginParams["inputs"]>, []>[string];

/** A conversation variable (`env.<key>`): its declared type, its default and what it is for. */
export interface VariableSpec {
  /** `string`, `number`, `boolean`, `object`, `array<string>`, `array<number>`, `array<object>`… */
  type: string;
  /** The default; the zero value of the type when left out. */
  value?: unknown;
  description?: string;
  /** How a component's state write merges in (a StateGraph key): last, add, append, extend, merge, messages, union or a registered name. */
  reducer?: string;
}

export interface CanvasOptions<InputKey extends string, VariableKey extends string> {
  /** conversational (a chat, the default), task (one run with form inputs) or Webhook. */
  mode?: NonNullable<BeginParams["mode"]>;
  /** Shown before the first turn. */
  prologue?: string;
  /** Begin's input form, by field key. */
  inputs?: { [K in InputKey]: BeginInputField };
  /** Conversation variables, by name: read as `c.env(name)`. */
  variables?: { [K in VariableKey]: VariableSpec };
  /** Begin's other params (enablePrologue, tips…). */
  begin?: Omit<ParamsOf<"Begin">, "mode" | "prologue" | "inputs">;
}

export interface AddOptions {
  /** The container (Iteration, Loop) this component runs inside. */
  parent?: NodeHandle;
  /** The editor's display name; default: the id after its first ":" ("Retrieval:Docs" → "Docs"). */
  name?: string;
}

interface AddedNode extends CheckedNode {
  readonly name: string;
  readonly downstream: string[];
  readonly parentId?: string;
}

/** The Begin component's id, as RAGFlow's editor names it. */
export const BEGIN_ID = "begin";

const COMPONENT_ID = /^[A-Za-z0-9_:-]+$/;

export class CanvasBuilder<InputKey extends string = string, VariableKey extends string = string> {
  /** The Begin component: `ref(c.begin, "field")` reads an input field. */
  readonly begin: NodeHandle<typeof BEGIN_ID, "Begin", InputKey>;
  readonly #nodes = new Map<string, AddedNode>();
  readonly #variables: Map<string, VariableSpec>;

  constructor(options: CanvasOptions<InputKey, VariableKey> = {}) {
    this.#variables = new Map(Object.entries(options.variables ?? {}) as Array<[string, VariableSpec]>);
    for (const [name, spec] of this.#variables) {
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw new TypeError(`canvas(): variable "${name}": a variable name holds letters, digits and "_" only`);
      if (typeof spec?.type !== "string" || spec.type.length === 0) throw new TypeError(`canvas(): variable "${name}" needs a type (string, number, boolean, object, array<…>)`);
    }
    const params = { mode: options.mode ?? "conversational", prologue: options.prologue ?? "", inputs: options.inputs ?? {}, ...(options.begin ?? {}) };
    this.begin = this.add(BEGIN_ID, "Begin", params as ParamsOf<"Begin">, { name: "Begin" }) as NodeHandle<typeof BEGIN_ID, "Begin", InputKey>;
  }

  /**
   * Add a built-in component under `id` (RAGFlow writes `Type:Name`, e.g. "Retrieval:Docs").
   * `Output` names what `ref()` may read from it; left out, any name (build() checks the ones
   * its `outputs` param declares).
   */
  add<Id extends string, Name extends ComponentName, Output extends string = string>(id: Id, component: Name, params: ParamsOf<Name>, options: AddOptions = {}): NodeHandle<Id, Name, Output> {
    if (typeof id !== "string" || !COMPONENT_ID.test(id)) throw new TypeError(`add(${JSON.stringify(id)}): a component id holds letters, digits, "_", ":" and "-" only`);
    if (this.#nodes.has(id)) throw new TypeError(`add(${JSON.stringify(id)}, "${component}"): the canvas already has a component "${id}" (${this.#nodes.get(id)!.component})`);
    const parent = options.parent;
    if (parent) this.#own(parent, `add(${JSON.stringify(id)}): parent`);
    this.#nodes.set(id, {
      id,
      component,
      params: params as Record<string, unknown>,
      name: options.name ?? (id.includes(":") ? id.slice(id.indexOf(":") + 1) : id),
      downstream: [],
      ...(parent ? { parentId: parent.id } : {}),
    });
    return Object.freeze({ id, component, canvas: this });
  }

  /** `to` runs after `from` (RAGFlow's `downstream`). Several targets in one call keep their order. */
  edge(from: NodeHandle, ...to: NodeHandle[]): this {
    const source = this.#own(from, "edge(): from");
    for (const target of to) {
      this.#own(target, `edge(${from.id}, …): to`);
      if (source.downstream.includes(target.id)) throw new TypeError(`edge(${from.id}, ${target.id}): this edge is there already`);
      source.downstream.push(target.id);
    }
    return this;
  }

  /** A declared conversation variable: `c.env("topics")` reads `env.topics`. */
  env(key: VariableKey): GlobalRef {
    if (!this.#variables.has(key)) throw new TypeError(`env(${JSON.stringify(key)}): the canvas declares no variable "${key}" (declared: ${[...this.#variables.keys()].join(", ") || "none"})`);
    return envRef(key);
  }

  /**
   * Add a component of a registered custom type (not typed here: its params are what its
   * definition takes). build() validates it with the registry given to it.
   */
  addCustom<Id extends string, Output extends string = string>(id: Id, component: string, params: Record<string, unknown>, options: AddOptions = {}): NodeHandle<Id, string, Output> {
    return this.add(id, component as ComponentName, params as never, options) as unknown as NodeHandle<Id, string, Output>;
  }

  /**
   * The canvas as RAGFlow stores it (plain JSON), after checking every reference and running
   * validateDsl (with `registry` when it uses custom components). Throws CanvasBuildError
   * listing every problem, each with its component and JSON pointer.
   */
  build(options: { registry?: ComponentRegistry } = {}): CanvasDsl {
    const referenceIssues = referenceProblems(this.#nodes, new Set(this.#variables.keys()));
    if (referenceIssues.length > 0) throw new CanvasBuildError(referenceIssues);
    const dsl = this.#dsl();
    const report = validateDsl(dsl, options.registry ? { registry: options.registry } : {});
    const errors: ValidationIssue[] = report.issues.filter((issue) => issue.severity === "error");
    if (!report.valid) throw new CanvasBuildError(errors, report);
    return dsl;
  }

  #own(handle: NodeHandle, what: string): AddedNode {
    const node = handle && this.#nodes.get(handle.id);
    if (!node || handle.canvas !== this) throw new TypeError(`${what}: ${handle?.id ?? String(handle)} is not a component of this canvas`);
    return node;
  }

  #dsl(): CanvasDsl {
    const nodes = [...this.#nodes.values()].map((node) => ({ ...node, params: writtenParams(node.params) as Record<string, unknown> }));
    const upstream = new Map(nodes.map((node) => [node.id, [] as string[]]));
    for (const node of nodes) for (const target of node.downstream) upstream.get(target)!.push(node.id);
    const components: Record<string, ComponentEntry> = {};
    for (const node of nodes) {
      components[node.id] = {
        obj: { component_name: node.component, params: node.params },
        downstream: [...node.downstream],
        upstream: upstream.get(node.id)!,
        ...(node.parentId ? { parent_id: node.parentId } : {}),
      };
    }
    const variables: Record<string, VariableDeclaration> = {};
    const globals: Record<string, unknown> = Object.fromEntries(SYSTEM_GLOBALS.map((key) => [key, zeroForDeclaredType(SYSTEM_TYPES[key])]));
    for (const [name, spec] of this.#variables) {
      const value = spec.value === undefined ? zeroForDeclaredType(spec.type) : structuredClone(spec.value);
      variables[name] = {
        name,
        type: spec.type,
        value,
        ...(spec.description !== undefined ? { description: spec.description } : {}),
        ...(spec.reducer !== undefined ? { reducer: spec.reducer } : {}),
      };
      globals[`env.${name}`] = structuredClone(value);
    }
    const graph = editorGraph(nodes.map((node) => ({ id: node.id, component: node.component, name: node.name, params: node.params, downstream: node.downstream, parentId: node.parentId })));
    return { components, globals, variables, history: [], path: [], retrieval: [], memory: [], graph };
  }
}

/** The zero value of each system global in a new canvas, as RAGFlow's editor writes it. */
const SYSTEM_TYPES: Readonly<Record<(typeof SYSTEM_GLOBALS)[number], string>> = {
  "sys.query": "string",
  "sys.user_id": "string",
  "sys.conversation_turns": "number",
  "sys.files": "array<file>",
  "sys.history": "array<string>",
  "sys.date": "string",
};

/** Start a canvas: its Begin (mode, prologue, input form) and its conversation variables. */
export function canvas<const InputKey extends string = never, const VariableKey extends string = never>(options: CanvasOptions<InputKey, VariableKey> = {}): CanvasBuilder<InputKey, VariableKey> {
  return new CanvasBuilder(options);
}
