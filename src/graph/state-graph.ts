/**
 * canvasflow/graph's layer 1: LangGraph's StateGraph, compiled to an ordinary RAGFlow canvas.
 * State keys are declared variables with reducers; each function node is a component type
 * registered under a stable name; edges are `downstream`; a waiting edge is a join; conditional
 * edges and Commands are the node's own routing; Sends go through the target's send map;
 * breakpoints pause before or after a node; a compiled graph used as a node is inlined.
 * docs/graph.md maps every concept and lists what differs from LangGraph.
 */
import { createHash } from "node:crypto";
import type { ComponentDefinition } from "../contracts/component.js";
import type { CanvasDsl } from "../contracts/dsl.js";
import { defaultRegistry } from "../api.js";
import { RegistrationError, type ComponentRegistry } from "../components/registry.js";
import { canvas, type BeginInputField, type CanvasBuilder, type ComponentName, type ParamsOf } from "./canvas.js";
import { END, START } from "./command.js";
import {
  breakpointComponent,
  functionComponent,
  globalRef,
  joinComponent,
  startComponent,
  type AnyNodeFunction,
  type AnyRouter,
  type BoundKey,
  type CompiledRoute,
  type KeyTable,
  type NodeError,
  type NodeNames,
  type RetryOptions,
  type Targets,
} from "./graph-components.js";
import type { NodeRuntime } from "./node-runtime.js";
import type { Command, Send } from "./command.js";
import type { StateKeySpec, StateOf, StateSchema, StateShape, UpdateOf } from "./state.js";
import { BUILTIN_REDUCERS } from "../pool/reducers.js";
import { isSwitchOperator, SWITCH_OPERATORS, type SwitchOperator } from "../components/switch-operators.js";

/** What a node may return. */
export type NodeReturn<S extends StateShape, N extends string = string> =
  | UpdateOf<S>
  | Command<UpdateOf<S>, N>
  | ReadonlyArray<UpdateOf<S> | Command<UpdateOf<S>, N>>
  | void
  | null
  | undefined;

/** A function node: reads the state (or a Send's payload), returns its update. */
export type NodeFunction<S extends StateShape, N extends string = string, Input = StateOf<S>> = (state: Input, runtime: NodeRuntime) => NodeReturn<S, N> | Promise<NodeReturn<S, N>>;

/** What a conditional edge's path function may return. */
export type RouteResult<K extends string> = K | Send<Exclude<K, typeof END>> | ReadonlyArray<K | Send<Exclude<K, typeof END>>>;

export interface NodeOptions<S extends StateShape, N extends string> {
  /** The component type's name in the DSL (default `<graph id>_<node>`): its identity in every stored canvas. */
  type?: string;
  /** Recorded in the DSL; a stored canvas made with another version is warned about when loaded. */
  version?: number | string;
  /** Where its Commands may go (LangGraph's `ends`): drawn as edges, checked for reachability. */
  ends?: ReadonlyArray<N | typeof END>;
  /** Retries before the node fails (LangGraph's retryPolicy). */
  retry?: RetryOptions;
  /** After the last attempt failed: its return value replaces the node's (an update, a Command to a recovery node). */
  errorHandler?: (state: StateOf<S>, error: NodeError) => NodeReturn<S, N> | Promise<NodeReturn<S, N>>;
  /** Per attempt, in ms (the component's exec_timeout). */
  timeout?: number;
}

export interface StateGraphOptions<S extends StateShape> {
  /** Prefix of the component type names (default "graph"): two graphs registered in one process need different ids. */
  id?: string;
  /** The keys the run's inputs may set (default: all). */
  input?: ReadonlyArray<keyof S & string>;
  /** The keys the graph's result shows (default: all). */
  output?: ReadonlyArray<keyof S & string>;
  /** conversational (a chat) or task (one run with inputs, the default). */
  mode?: "conversational" | "task";
}

export interface CompileOptions<N extends string> {
  /** Pause before these nodes run (resume with `inputs: {}`, or `{ update }`). */
  interruptBefore?: ReadonlyArray<N>;
  /** Pause after these nodes ran. */
  interruptAfter?: ReadonlyArray<N>;
  /** A stored canvas made with another version or source of a function fails to load instead of warning. */
  strictVersions?: boolean;
}

interface FunctionNodeDef {
  readonly kind: "function";
  readonly fn: AnyNodeFunction;
  readonly options: NodeOptions<StateShape, string>;
}
interface SubgraphNodeDef {
  readonly kind: "subgraph";
  readonly graph: CompiledStateGraph<StateShape, string>;
  /** Its `ends`: where its nodes' Command.PARENT may go in this graph. */
  readonly options: NodeOptions<StateShape, string>;
}
/** A built-in component as a node: its outputs go into the state through `into`. */
export interface BuiltinNode<Name extends ComponentName = ComponentName> {
  readonly kind: "builtin";
  readonly component: Name;
  readonly params: ParamsOf<Name>;
  /** State key → the output it takes (its name, or a function of all the outputs). */
  readonly into: Readonly<Record<string, string | ((outputs: Record<string, unknown>) => unknown)>>;
}
type NodeDef = FunctionNodeDef | SubgraphNodeDef | BuiltinNode;

/**
 * A built-in component (LLM, Retrieval, Agent, Message…) as a node, its params typed as in
 * `canvas().add()` (read the state as `env("key")`), and `into` saying which outputs become which
 * state keys: `builtin("LLM", { … }, { answer: "content" })`.
 */
export function builtin<Name extends ComponentName>(component: Name, params: ParamsOf<Name>, into: Readonly<Record<string, string | ((outputs: Record<string, unknown>) => unknown)>> = {}): BuiltinNode<Name> {
  if (typeof component !== "string") throw new TypeError("builtin(): the component name is a text (LLM, Retrieval, Agent…)");
  for (const [key, output] of Object.entries(into)) {
    if (typeof output !== "string" && typeof output !== "function") throw new TypeError(`builtin("${component}"): into.${key} names an output or is a function of the outputs`);
  }
  return Object.freeze({ kind: "builtin", component, params, into: { ...into } });
}

interface ConditionalEdge {
  readonly path: AnyRouter;
  readonly pathMap?: Readonly<Record<string, string>>;
  /** A condition that is data: compiled to a Switch (pathMap: true/false). */
  readonly condition?: Condition;
}

/**
 * A condition on the state that is data, not code: `when("approved", "=", true)`. As a
 * conditional edge (path map `{ true: …, false: … }`) it compiles to RAGFlow's Switch, which
 * RAGFlow's editor shows and any process runs without the graph's code.
 */
export interface Condition<K extends string = string> {
  readonly kind: "condition";
  /** The state key, optionally with a dotted path below it ("verdict.ok"). */
  readonly key: K;
  readonly path?: string;
  readonly operator: SwitchOperator;
  readonly value?: unknown;
}

/** A condition on a state key for `addConditionalEdges(source, when(…), { true, false })`. */
export function when<K extends string>(key: K, operator: SwitchOperator, value?: unknown): Condition<K extends `${infer Head}.${string}` ? Head : K> {
  if (!isSwitchOperator(operator)) throw new TypeError(`when("${key}"): unknown operator ${JSON.stringify(operator)} (use one of: ${SWITCH_OPERATORS.join(", ")})`);
  const dot = key.indexOf(".");
  const head = dot < 0 ? key : key.slice(0, dot);
  return Object.freeze({ kind: "condition", key: head, ...(dot < 0 ? {} : { path: key.slice(dot + 1) }), operator, ...(value === undefined ? {} : { value }) }) as never;
}

/** The graph's shape, kept by a compiled graph so an enclosing graph can inline it. */
export interface GraphStructure {
  readonly id: string;
  readonly schema: StateSchema;
  readonly nodes: ReadonlyMap<string, NodeDef>;
  readonly edges: ReadonlyMap<string, readonly string[]>;
  readonly waiting: ReadonlyArray<{ readonly sources: readonly string[]; readonly target: string }>;
  readonly conditional: ReadonlyMap<string, readonly ConditionalEdge[]>;
  readonly options: StateGraphOptions<StateShape>;
}

const NODE_NAME = /^[A-Za-z0-9_-]+$/;

export class StateGraph<S extends StateShape, N extends string = never> {
  readonly #schema: StateSchema<S>;
  readonly #options: StateGraphOptions<S>;
  readonly #nodes = new Map<string, NodeDef>();
  readonly #edges = new Map<string, string[]>();
  readonly #waiting: Array<{ sources: string[]; target: string }> = [];
  readonly #conditional = new Map<string, ConditionalEdge[]>();

  constructor(schema: StateSchema<S>, options: StateGraphOptions<S> = {}) {
    if (!schema || typeof schema.keys !== "object") throw new TypeError("new StateGraph(schema): the schema is made with state({ … })");
    const id = options.id ?? "graph";
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(id)) throw new TypeError(`new StateGraph(): id "${id}" must start with a letter and hold only letters, digits and "_" (it prefixes the component type names)`);
    for (const key of [...(options.input ?? []), ...(options.output ?? [])]) {
      if (!Object.hasOwn(schema.keys, key)) throw new TypeError(`new StateGraph(): input/output key "${key}" is not a key of the state`);
    }
    this.#schema = schema;
    this.#options = options;
  }

  /** Add a function node, or a compiled graph as a node (a subgraph, inlined). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any built-in's node (its params were checked by builtin())
  addNode<K extends string>(name: K, node: NodeFunction<S, N | NoInfer<K>> | CompiledStateGraph<StateShape, string> | BuiltinNode<any>, options: NodeOptions<S, N | NoInfer<K>> = {}): StateGraph<S, N | K> {
    if (typeof name !== "string" || !NODE_NAME.test(name)) throw new TypeError(`addNode(${JSON.stringify(name)}): a node name holds letters, digits, "_" and "-" only`);
    if (name === START || name === END || name.includes("__")) throw new TypeError(`addNode("${name}"): "${name}" is reserved (names holding "__" are the graph's own)`);
    if (name === "begin") throw new TypeError('addNode("begin"): "begin" is the canvas\'s Begin component');
    if (this.#nodes.has(name)) throw new TypeError(`addNode("${name}"): the graph already has a node "${name}"`);
    if (node instanceof CompiledStateGraph) this.#nodes.set(name, { kind: "subgraph", graph: node, options: options.ends ? { ends: options.ends } : {} });
    else if (isBuiltinNode(node)) {
      for (const key of Object.keys(node.into)) if (!Object.hasOwn(this.#schema.keys, key)) throw new TypeError(`addNode("${name}"): builtin ${node.component} writes "${key}", which is not a key of the state`);
      this.#nodes.set(name, node);
    }
    else if (typeof node === "function") this.#nodes.set(name, { kind: "function", fn: node as AnyNodeFunction, options: options as NodeOptions<StateShape, string> });
    else throw new TypeError(`addNode("${name}"): a node is a function (state, runtime) => update, or a compiled StateGraph`);
    return this as unknown as StateGraph<S, N | K>;
  }

  /** Add nodes in order, each after the one before (LangGraph's addSequence). */
  addSequence<const K extends string>(nodes: ReadonlyArray<readonly [K, NodeFunction<S, N | K>, NodeOptions<S, N | K>?]> | Readonly<Record<K, NodeFunction<S, N | K>>>): StateGraph<S, N | K> {
    const list: Array<readonly [string, unknown, unknown?]> = Array.isArray(nodes) ? (nodes as Array<readonly [string, unknown, unknown?]>) : Object.entries(nodes as Record<string, unknown>);
    if (list.length < 1) throw new TypeError("addSequence(): a sequence needs at least one node");
    const names = list.map(([name]) => name);
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated !== undefined) throw new TypeError(`addSequence(): node "${repeated}" is listed twice`);
    let previous: string | undefined;
    for (const [name, fn, options] of list) {
      this.addNode(name, fn as NodeFunction<S, string>, (options ?? {}) as NodeOptions<S, string>);
      if (previous !== undefined) this.addEdge(previous as N, name as never);
      previous = name;
    }
    return this as unknown as StateGraph<S, N | K>;
  }

  /** `to` runs after `from`; with a list of sources, once after all of them (a waiting edge). */
  addEdge(from: N | typeof START | ReadonlyArray<N | typeof START>, to: N | typeof END): this {
    if (Array.isArray(from)) {
      if (from.length === 0) throw new TypeError(`addEdge([], "${to}"): a waiting edge needs at least one source`);
      if (from.length === 1) return this.addEdge(from[0] as N, to);
      if (to === END) throw new TypeError("addEdge([…], END): a waiting edge cannot end at END");
      this.#waiting.push({ sources: [...(from as string[])], target: to });
      return this;
    }
    const source = from as string;
    if (source === END) throw new TypeError(`addEdge(END, "${to}"): END has no outgoing edges`);
    if (to === START) throw new TypeError(`addEdge("${source}", START): START has no incoming edges`);
    const list = this.#edges.get(source) ?? [];
    if (list.includes(to)) throw new TypeError(`addEdge("${source}", "${to}"): this edge is there already`);
    list.push(to);
    this.#edges.set(source, list);
    return this;
  }

  /**
   * After `source`, go where `path` says: node names, END, Sends, or keys of `pathMap`. With a
   * path map (or a list of the possible targets) the diagram shows the edges and compile checks
   * that every node is reachable.
   */
  addConditionalEdges<const M extends Record<string, N | typeof END>>(source: N | typeof START, path: (state: StateOf<S>) => RouteResult<Extract<keyof M, string>> | boolean | Promise<RouteResult<Extract<keyof M, string>> | boolean>, pathMap: M): this;
  addConditionalEdges(source: N | typeof START, path: (state: StateOf<S>) => RouteResult<N | typeof END> | Promise<RouteResult<N | typeof END>>, ends?: ReadonlyArray<N | typeof END>): this;
  /** A condition that is data (`when(key, operator, value)`): a Switch in the canvas. */
  addConditionalEdges(source: N | typeof START, condition: Condition<keyof S & string>, pathMap: { true: N | typeof END; false: N | typeof END }): this;
  addConditionalEdges(source: string, path: ((state: never) => unknown) | Condition, pathMap?: Readonly<Record<string, string>> | readonly string[]): this {
    if (isCondition(path)) {
      if (!Object.hasOwn(this.#schema.keys, path.key)) throw new TypeError(`addConditionalEdges("${source}", when("${path.key}", …)): "${path.key}" is not a key of the state`);
      const map = pathMap as Record<string, string> | undefined;
      if (!map || Array.isArray(map) || typeof map.true !== "string" || typeof map.false !== "string") throw new TypeError(`addConditionalEdges("${source}", when(…)): the path map is { true: target, false: target }`);
      const list = this.#conditional.get(source) ?? [];
      list.push({ path: () => undefined, condition: path, pathMap: { true: map.true, false: map.false } });
      this.#conditional.set(source, list);
      return this;
    }
    if (typeof path !== "function") throw new TypeError(`addConditionalEdges("${source}"): the path must be a function (state) => target, or when(key, operator, value)`);
    const map = pathMap === undefined ? undefined : Array.isArray(pathMap) ? Object.fromEntries((pathMap as string[]).map((name) => [name, name])) : { ...(pathMap as Record<string, string>) };
    const list = this.#conditional.get(source) ?? [];
    list.push({ path: path as AnyRouter, ...(map ? { pathMap: map } : {}) });
    this.#conditional.set(source, list);
    return this;
  }

  /** The DSL and the component types (register them in every process that loads the DSL). */
  compile(options: CompileOptions<N> = {}): CompiledStateGraph<S, N> {
    const structure: GraphStructure = {
      id: this.#options.id ?? "graph",
      schema: this.#schema,
      nodes: new Map(this.#nodes),
      edges: new Map([...this.#edges].map(([k, v]) => [k, [...v]])),
      waiting: this.#waiting.map((w) => ({ sources: [...w.sources], target: w.target })),
      conditional: new Map([...this.#conditional].map(([k, v]) => [k, [...v]])),
      options: this.#options as StateGraphOptions<StateShape>,
    };
    return new CompiledStateGraph<S, N>(structure, options as CompileOptions<string>);
  }
}

/**
 * A compiled StateGraph: `dsl` is an ordinary RAGFlow canvas (validated); `register(registry)`
 * registers its component types and custom reducers, as every process that loads the DSL must
 * (serve and worker: a `--register` module). `values(globals)` reads the graph's state back.
 */
export class CompiledStateGraph<S extends StateShape, N extends string = string> {
  readonly dsl: CanvasDsl;
  /** The component types of its nodes and plumbing. */
  readonly components: readonly ComponentDefinition[];
  /** Custom reducers by name. */
  readonly reducers: ReadonlyMap<string, (current: unknown, update: unknown) => unknown>;
  /** Type only: the node names. */
  declare readonly __nodes?: N;

  constructor(
    readonly structure: GraphStructure,
    readonly compileOptions: CompileOptions<string>,
  ) {
    const built = emit(structure, compileOptions);
    this.components = built.components;
    this.reducers = built.reducers;
    this.dsl = built.dsl;
  }

  /** Register the graph's component types and reducers (a type already registered with the same definition is kept). */
  register(registry: ComponentRegistry): void {
    for (const [name, reduce] of this.reducers) registry.registerReducer(name, reduce);
    for (const def of this.components) {
      const existing = registry.get(def.name);
      if (existing === def) continue;
      if (existing) throw new RegistrationError(`component "${def.name}" is already registered by another graph or an earlier compile: give this graph its own id (new StateGraph(schema, { id }))`);
      registry.register(def);
    }
  }

  /** A registry with the built-ins (or `base`'s types) and this graph's. */
  registry(base: ComponentRegistry = defaultRegistry): ComponentRegistry {
    const registry = base.extend();
    this.register(registry);
    return registry;
  }

  /**
   * Run inputs for the graph's input keys: each value wrapped as Begin's `{ value, type }`, so an
   * object that has a `value` key of its own reaches the state whole.
   */
  inputs(values: Partial<StateOf<S>>): Record<string, unknown> {
    const allowed = new Set(this.structure.options.input ?? Object.keys(this.structure.schema.keys));
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      if (!allowed.has(key)) throw new TypeError(`inputs(): "${key}" is not an input key of the graph (${[...allowed].join(", ")})`);
      // A text goes as a text (an "object" field would read "42" as a number).
      out[key] = { value, type: typeof value === "string" ? "paragraph" : "object" };
    }
    return out;
  }

  /** The graph's result from a canvas's globals: its output keys' values. */
  values(globals: Readonly<Record<string, unknown>>): Partial<StateOf<S>> {
    const keys = this.structure.options.output ?? Object.keys(this.structure.schema.keys);
    return Object.fromEntries(keys.map((key) => [key, globals[`env.${key}`]])) as Partial<StateOf<S>>;
  }
}

// ---- emission ----

interface Emitted {
  dsl: CanvasDsl;
  components: ComponentDefinition[];
  reducers: Map<string, (current: unknown, update: unknown) => unknown>;
}

/** Where a node's names and keys live: its graph's prefix and key variables, and its parent graph's. */
interface Namespace {
  readonly prefix: string;
  /** Where END leads: END at the top, the subgraph's end node inside one. */
  readonly end: string;
  /**
   * The id of the graph being compiled: an inlined subgraph's nodes are its own types
   * (`<root>_<sub>__<node>`), since their edges differ from the subgraph's compiled alone.
   */
  readonly root: string;
  /** Its function's key names → variables. */
  readonly keyMap: ReadonlyMap<string, string>;
  /** The enclosing graph's, for Command.PARENT. */
  readonly parent?: Namespace;
}

/** A node after subgraphs are inlined: a function with the keys it reads, by the names it uses. */
interface FlatNode {
  readonly name: string;
  readonly fn: AnyNodeFunction;
  readonly options: NodeOptions<StateShape, string>;
  readonly namespace: Namespace;
  /** Its type's name. */
  readonly type: string;
  /** Reads this built-in component's outputs instead of the state. */
  readonly outputsOf?: string;
}

interface FlatGraph {
  nodes: Map<string, FlatNode>;
  /** Built-in components by node name; each leads to its `<node>__state` function node. */
  builtins: Map<string, BuiltinNode>;
  /** Switches of data conditions, by id (`<source>__switch`): the variable read and the two targets. */
  switches: Map<string, { selector: string; operator: SwitchOperator; value: unknown; whenTrue: string; whenFalse: string }>;
  edges: Map<string, string[]>;
  waiting: Array<{ sources: string[]; target: string }>;
  conditional: Map<string, ConditionalEdge[]>;
  /** Every variable: name → spec. */
  variables: Map<string, StateKeySpec>;
}

function emit(structure: GraphStructure, options: CompileOptions<string>): Emitted {
  const flat = flatten(structure);
  const registryTypes = new Set<string>();
  const typeName = (base: string): string => {
    const name = base.replace(/[^A-Za-z0-9_]/g, "_");
    if (registryTypes.has(name)) throw new TypeError(`compile(): two components would be registered as "${name}"; give one of the nodes its own type`);
    registryTypes.add(name);
    return name;
  };
  checkNames(flat, options);

  const id = structure.id;
  const before = new Set(options.interruptBefore ?? []);
  const after = new Set(options.interruptAfter ?? []);
  // Which nodes may be sent to: the targets a conditional edge or a Command may reach.
  const sendable = new Set<string>();
  for (const edges of flat.conditional.values()) {
    for (const edge of edges) for (const target of edge.pathMap ? Object.values(edge.pathMap) : flat.nodes.keys()) if (flat.nodes.has(target)) sendable.add(target);
  }
  for (const node of flat.nodes.values()) for (const end of node.options.ends ?? []) if (flat.nodes.has(end)) sendable.add(end);
  for (const name of sendable) flat.variables.set(`__sends_${name}`, { reducer: "queue", type: "array<any>", default: [] as unknown, description: `Send payloads waiting for node ${name}` } as StateKeySpec);

  const targets: Targets = {
    has: (name) => flat.nodes.has(name) || flat.builtins.has(name),
    idOf: (name) => (name === END ? undefined : before.has(name) ? `${name}__before` : name),
    // Sends to a node paused before go through its send map's own breakpoint.
    sendMapOf: (name) => (sendable.has(name) ? { id: before.has(name) ? `${name}__send__before` : `${name}__send`, variable: `__sends_${name}` } : undefined),
  };

  const registry = defaultRegistry.extend();
  const reducers = new Map<string, (current: unknown, update: unknown) => unknown>();
  for (const [name, spec] of flat.variables) {
    if (spec.custom) {
      const known = reducers.get(spec.reducer);
      if (known && known !== spec.custom) throw new TypeError(`compile(): two different reducers are named "${spec.reducer}"`);
      reducers.set(spec.reducer, spec.custom);
      registry.registerReducer(spec.reducer, spec.custom);
    } else if (!Object.hasOwn(BUILTIN_REDUCERS, spec.reducer)) throw new TypeError(`compile(): key "${name}" has an unknown reducer "${spec.reducer}"`);
  }
  const bind = (keyMap: ReadonlyMap<string, string>): KeyTable => {
    const table = new Map<string, BoundKey>();
    for (const [name, variable] of keyMap) {
      const spec = flat.variables.get(variable)!;
      table.set(name, { variable, reducerName: spec.reducer, reduce: registry.reducer(spec.reducer)!, ref: globalRef(variable) });
    }
    return table;
  };
  const rootKeys = new Map(Object.keys(structure.schema.keys).map((k) => [k, k]));

  // Joins: one per waiting edge, after each source.
  const joinsAfter = new Map<string, string[]>();
  const joinType = flat.waiting.length > 0 ? typeName(`${id}__join`) : undefined;
  const joins = flat.waiting.map((edge, index) => {
    const joinId = `${edge.target}__join${flat.waiting.filter((w, i) => i < index && w.target === edge.target).length || ""}`;
    for (const source of edge.sources) joinsAfter.set(source, [...(joinsAfter.get(source) ?? []), joinId]);
    return { id: joinId, edge };
  });

  const components: ComponentDefinition[] = [];
  const c: CanvasBuilder<string, string> = canvas({
    mode: structure.options.mode ?? "task",
    prologue: "",
    inputs: Object.fromEntries((structure.options.input ?? Object.keys(structure.schema.keys)).map((key) => [key, inputField(key, structure.schema.keys[key])])) as Record<string, BeginInputField>,
    variables: Object.fromEntries(
      [...flat.variables].map(([name, spec]) => [name, { type: spec.type, value: spec.default === undefined ? null : spec.default, ...(spec.description ? { description: spec.description } : {}), ...(spec.reducer !== "last" ? { reducer: spec.reducer } : {}) }]),
    ),
  });

  const staticNext = (source: string): string[] => {
    const next: string[] = [];
    for (const target of flat.edges.get(source) ?? []) {
      const to = targets.idOf(target);
      if (to !== undefined && !next.includes(to)) next.push(to);
    }
    for (const join of joinsAfter.get(source) ?? []) if (!next.includes(join)) next.push(join);
    return next;
  };
  const routesOf = (source: string): CompiledRoute[] => (flat.conditional.get(source) ?? []).map((edge) => ({ path: edge.path, ...(edge.pathMap ? { pathMap: edge.pathMap } : {}) }));
  /** Every component the node may go to, for downstream (validation and diagrams). */
  const candidates = (source: string, ends: readonly string[] = []): string[] => {
    const out = new Set(staticNext(source));
    for (const edge of flat.conditional.get(source) ?? []) {
      for (const target of edge.pathMap ? Object.values(edge.pathMap) : []) {
        const to = targets.idOf(target);
        if (to) out.add(to);
        const map = targets.sendMapOf(target);
        if (map) out.add(map.id);
      }
    }
    for (const end of ends) {
      const to = targets.idOf(end);
      if (to) out.add(to);
    }
    return [...out];
  };

  // START
  const startType = typeName(`${id}__start`);
  const start = startComponent({
    type: startType,
    keys: bind(rootKeys),
    inputs: structure.options.input ?? Object.keys(structure.schema.keys),
    routing: { next: staticNext(START), routes: routesOf(START) },
    targets,
  });
  components.push(start);
  registry.register(start);
  const added = new Map<string, ReturnType<typeof c.addCustom>>();
  added.set(START, c.addCustom(START, startType, {}, { name: "START" }));

  // Built-in components, then function nodes, their send maps and breakpoints.
  for (const [name, node] of flat.builtins) added.set(name, c.add(name, node.component, node.params as never, { name }));
  for (const [id, sw] of flat.switches) {
    const to = (target: string) => (target === END ? [] : [targets.idOf(target)!]);
    const params = { conditions: [{ logical_operator: "and", items: [{ cpn_id: sw.selector, operator: sw.operator, value: sw.value === undefined ? "" : sw.value }], to: to(sw.whenTrue) }], end_cpn_ids: to(sw.whenFalse) };
    added.set(id, c.add(id, "Switch", params as never, { name: `${sw.selector} ${sw.operator} ${sw.value === undefined ? "" : JSON.stringify(sw.value)}`.trim() }));
  }
  for (const node of flat.nodes.values()) {
    const source = node.fn.toString();
    const ns = node.namespace;
    const base = {
      node: node.name,
      fn: node.fn,
      keys: bind(ns.keyMap),
      names: namesOf(ns, bind),
      targets,
      ...(node.options.retry ? { retry: node.options.retry } : {}),
      ...(node.options.errorHandler ? { errorHandler: node.options.errorHandler as (state: Record<string, unknown>, error: NodeError) => unknown } : {}),
      version: node.options.version,
      sourceSha256: createHash("sha256").update(source).digest("hex"),
      strictVersions: options.strictVersions === true,
      ...(node.outputsOf ? { outputsOf: node.outputsOf } : {}),
    };
    const routing = { next: staticNext(node.name), routes: routesOf(node.name), ...(after.has(node.name) ? { after: `${node.name}__after` } : {}) };
    const type = typeName(node.type);
    const def = functionComponent({ ...base, type, routing });
    components.push(def);
    registry.register(def);
    const params = { ...(node.options.version !== undefined ? { version: node.options.version } : {}), source_sha256: base.sourceSha256, ...(node.options.timeout ? { exec_timeout: node.options.timeout / 1000 } : {}) };
    added.set(node.name, c.addCustom(node.name, type, params, { name: node.name }));
    if (sendable.has(node.name)) {
      const sendType = typeName(`${node.type}__send`);
      const sendRouting = { ...routing, ...(after.has(node.name) ? { after: `${node.name}__send__after` } : {}) };
      const sendDef = functionComponent({ ...base, type: sendType, routing: sendRouting, sendMap: true });
      components.push(sendDef);
      registry.register(sendDef);
      added.set(`${node.name}__send`, c.addCustom(`${node.name}__send`, sendType, params, { name: `${node.name} (Send)` }));
    }
  }
  if (before.size > 0 || after.size > 0) {
    const pauseType = typeName(`${id}__breakpoint`);
    const pause = breakpointComponent({ type: pauseType, keys: bind(rootKeys) });
    components.push(pause);
    registry.register(pause);
    for (const name of before) added.set(`${name}__before`, c.addCustom(`${name}__before`, pauseType, { node: name, when: "before", next: [name] }, { name: `before ${name}` }));
    for (const name of after) added.set(`${name}__after`, c.addCustom(`${name}__after`, pauseType, { node: name, when: "after" }, { name: `after ${name}` }));
    for (const name of before) {
      if (sendable.has(name)) added.set(`${name}__send__before`, c.addCustom(`${name}__send__before`, pauseType, { node: `${name}__send`, when: "before", next: [`${name}__send`] }, { name: `before ${name} (Send)` }));
    }
    for (const name of after) {
      if (sendable.has(name)) added.set(`${name}__send__after`, c.addCustom(`${name}__send__after`, pauseType, { node: `${name}__send`, when: "after" }, { name: `after ${name} (Send)` }));
    }
  }
  if (joinType) {
    const join = joinComponent(joinType);
    components.push(join);
    registry.register(join);
    for (const { id: joinId, edge } of joins) {
      const sources = edge.sources.map((s) => (s === START ? [START] : [s, ...(sendable.has(s) ? [`${s}__send`] : [])]));
      added.set(joinId, c.addCustom(joinId, joinType, { sources, next: [targets.idOf(edge.target)!] }, { name: `wait for ${edge.sources.join(", ")}` }));
    }
  }

  // Edges (downstream): what each component may go to.
  c.edge(c.begin, added.get(START)!);
  const link = (from: string, ids: readonly string[]) => {
    for (const to of ids) if (added.has(to)) c.edge(added.get(from)!, added.get(to)!);
  };
  link(START, candidates(START));
  for (const node of flat.nodes.values()) {
    const ends = node.options.ends?.filter((e) => e !== END) ?? [];
    const out = candidates(node.name, ends);
    if (after.has(node.name)) {
      link(node.name, [`${node.name}__after`]);
      link(`${node.name}__after`, out);
    } else link(node.name, out);
    if (sendable.has(node.name)) {
      link(`${node.name}__send`, after.has(node.name) ? [`${node.name}__send__after`] : out);
      if (after.has(node.name)) link(`${node.name}__send__after`, out);
      if (before.has(node.name)) link(`${node.name}__send__before`, [`${node.name}__send`]);
    }
    if (before.has(node.name)) link(`${node.name}__before`, [node.name]);
  }
  for (const [id, sw] of flat.switches) link(id, [sw.whenTrue, sw.whenFalse].flatMap((t) => (t === END ? [] : [targets.idOf(t)!])));
  for (const name of flat.builtins.keys()) {
    link(name, [`${name}__state`]);
    if (before.has(name)) link(`${name}__before`, [name]);
  }
  for (const { id: joinId, edge } of joins) link(joinId, [targets.idOf(edge.target)!]);

  const dsl = c.build({ registry });
  return { dsl, components, reducers };
}

/** How a node's code names other nodes: its own graph's names, and its parent's for Command.PARENT. */
function namesOf(ns: Namespace, bind: (keyMap: ReadonlyMap<string, string>) => KeyTable): NodeNames {
  const within = (space: Namespace) => (name: string) => (name === END ? space.end : `${space.prefix}${name}`);
  return {
    own: within(ns),
    ...(ns.parent ? { parent: within(ns.parent), parentKeys: bind(ns.parent.keyMap) } : {}),
  };
}

function inputField(key: string, spec: StateKeySpec | undefined): BeginInputField {
  const type = spec?.type === "string" ? "paragraph" : spec?.type === "boolean" ? "boolean" : "object";
  return { name: key, type, optional: true } as BeginInputField;
}

/**
 * Subgraphs inlined: a subgraph node becomes a pass-through node that leads to the subgraph's
 * first nodes, and the subgraph's END leads to `<node>__end`, a pass-through that carries the
 * node's own edges. The subgraph's nodes are `<node>__<name>`; the keys it shares with its
 * parent are the parent's, its own keys the variables `<node>__<key>`.
 */
function flatten(structure: GraphStructure): FlatGraph {
  const flat: FlatGraph = { nodes: new Map(), builtins: new Map(), switches: new Map(), edges: new Map(), waiting: [], conditional: new Map(), variables: new Map() };
  for (const [name, spec] of Object.entries(structure.schema.keys)) flat.variables.set(name, spec);
  const rootKeyMap = new Map(Object.keys(structure.schema.keys).map((k) => [k, k]));
  inline(structure, { prefix: "", end: END, keyMap: rootKeyMap, root: structure.id }, flat, undefined);
  return flat;
}

const PASS_THROUGH: AnyNodeFunction = () => undefined;

function isCondition(value: unknown): value is Condition {
  return typeof value === "object" && value !== null && (value as Condition).kind === "condition";
}

function isBuiltinNode(value: unknown): value is BuiltinNode {
  return typeof value === "object" && value !== null && (value as BuiltinNode).kind === "builtin";
}

/** The update a built-in node's outputs make. */
function outputsToState(node: BuiltinNode): AnyNodeFunction {
  return (outputs) => {
    const update: Record<string, unknown> = {};
    for (const [key, output] of Object.entries(node.into)) {
      if (typeof output === "string" && !Object.hasOwn(outputs, output)) {
        throw new Error(`builtin ${node.component} gave no output "${output}" for the state key "${key}" (its outputs: ${Object.keys(outputs).join(", ") || "none"})`);
      }
      update[key] = typeof output === "function" ? output(outputs) : outputs[output];
    }
    return update;
  };
}

function inline(structure: GraphStructure, space: Namespace, flat: FlatGraph, parent: { space: Namespace; end: string } | undefined): void {
  const { prefix } = space;
  const rename = (name: string): string => (name === END ? space.end : name === START ? (parent ? prefix.slice(0, -2) : START) : `${prefix}${name}`);
  /** A node's outgoing edges leave from its end node when it is a subgraph. */
  const exitOf = (name: string): string => {
    const kind = structure.nodes.get(name)?.kind;
    return kind === "subgraph" ? `${prefix}${name}__end` : kind === "builtin" ? `${prefix}${name}__state` : rename(name);
  };
  for (const [name, def] of structure.nodes) {
    const full = `${prefix}${name}`;
    const namespace: Namespace = { ...space, ...(parent ? { parent: parent.space } : {}) };
    if (def.kind === "function") {
      flat.nodes.set(full, { name: full, fn: def.fn, options: mapEnds(def.options, rename), namespace, type: parent ? `${space.root}_${full}` : (def.options.type ?? `${structure.id}_${name}`) });
      continue;
    }
    if (def.kind === "builtin") {
      // The component, then a function node that moves its outputs into the state and routes.
      flat.builtins.set(full, def);
      flat.nodes.set(`${full}__state`, { name: `${full}__state`, fn: outputsToState(def), options: {}, namespace, type: `${space.root}_${full}__state`, outputsOf: full });
      flat.edges.set(full, [`${full}__state`]);
      continue;
    }
    // The subgraph: an entry and an end that pass through, its nodes between them.
    const child = def.graph.structure;
    // Its ends (Command.PARENT targets) leave from its entry, as LangGraph draws them from the subgraph node.
    flat.nodes.set(full, { name: full, fn: PASS_THROUGH, options: mapEnds(def.options, rename), namespace, type: `${space.root}_${full}` });
    flat.nodes.set(`${full}__end`, { name: `${full}__end`, fn: PASS_THROUGH, options: {}, namespace, type: `${space.root}_${full}__end` });
    const childKeys = new Map<string, string>();
    for (const [key, spec] of Object.entries(child.schema.keys)) {
      if (space.keyMap.has(key)) childKeys.set(key, space.keyMap.get(key)!);
      else {
        const variable = `${full}__${key}`;
        flat.variables.set(variable, spec);
        childKeys.set(key, variable);
      }
    }
    inline(child, { prefix: `${full}__`, end: `${full}__end`, keyMap: childKeys, root: space.root }, flat, { space, end: `${full}__end` });
  }
  for (const [from, targets] of structure.edges) {
    const source = exitOf(from);
    flat.edges.set(source, [...(flat.edges.get(source) ?? []), ...targets.map(rename)]);
  }
  for (const edge of structure.waiting) flat.waiting.push({ sources: edge.sources.map(exitOf), target: rename(edge.target) });
  for (const [from, edges] of structure.conditional) {
    const source = exitOf(from);
    const routed: ConditionalEdge[] = [];
    for (const edge of edges) {
      const renamed = edge.pathMap ? { ...edge, pathMap: Object.fromEntries(Object.entries(edge.pathMap).map(([k, v]) => [k, rename(v)])) } : edge;
      if (!edge.condition) {
        routed.push(renamed);
        continue;
      }
      // A data condition: a Switch after the source, reading the state when the source's step is over.
      const id = `${source === START ? "start" : source}__switch${[...flat.switches.keys()].filter((k) => k.startsWith(`${source}__switch`)).length || ""}`;
      const variable = space.keyMap.get(edge.condition.key)!;
      flat.switches.set(id, {
        selector: `env.${variable}${edge.condition.path ? `.${edge.condition.path}` : ""}`,
        operator: edge.condition.operator,
        value: edge.condition.value,
        whenTrue: renamed.pathMap!.true,
        whenFalse: renamed.pathMap!.false,
      });
      flat.edges.set(source, [...(flat.edges.get(source) ?? []), id]);
      flat.edges.set(id, [renamed.pathMap!.true, renamed.pathMap!.false]);
    }
    if (routed.length > 0) flat.conditional.set(source, [...(flat.conditional.get(source) ?? []), ...routed]);
  }
  // A subgraph is done when it has nothing left to run, as in LangGraph: a node of it without
  // any way out leads to its end, where the parent's edges go on.
  if (parent) {
    for (const [name, def] of structure.nodes) {
      const leaves = structure.edges.has(name) || structure.conditional.has(name) || structure.waiting.some((w) => w.sources.includes(name)) || (def.kind === "function" && def.options.ends !== undefined);
      if (!leaves) flat.edges.set(exitOf(name), [space.end]);
    }
  }
}

function mapEnds(options: NodeOptions<StateShape, string>, rename: (name: string) => string): NodeOptions<StateShape, string> {
  if (!options.ends) return options;
  return { ...options, ends: options.ends.map(rename) };
}

/** Every edge names a node; every node is reachable from START (LangGraph's compile checks). */
function checkNames(flat: FlatGraph, options: CompileOptions<string>): void {
  const exists = (name: string) => name === START || name === END || flat.nodes.has(name) || flat.builtins.has(name) || flat.switches.has(name);
  for (const [from, targets] of flat.edges) {
    if (!exists(from)) throw new TypeError(`compile(): an edge starts at "${from}", which is not a node of the graph`);
    for (const to of targets) if (!exists(to)) throw new TypeError(`compile(): the edge ${from} → ${to} ends at "${to}", which is not a node of the graph`);
  }
  for (const edge of flat.waiting) {
    for (const from of edge.sources) if (!exists(from)) throw new TypeError(`compile(): a waiting edge waits for "${from}", which is not a node of the graph`);
    if (!exists(edge.target)) throw new TypeError(`compile(): a waiting edge ends at "${edge.target}", which is not a node of the graph`);
  }
  for (const [from, edges] of flat.conditional) {
    if (!exists(from)) throw new TypeError(`compile(): a conditional edge starts at "${from}", which is not a node of the graph`);
    for (const edge of edges) for (const to of Object.values(edge.pathMap ?? {})) if (!exists(to)) throw new TypeError(`compile(): a conditional edge from "${from}" maps to "${to}", which is not a node of the graph`);
  }
  for (const name of [...(options.interruptBefore ?? []), ...(options.interruptAfter ?? [])]) {
    if (!flat.nodes.has(name) && !flat.builtins.has(name)) throw new TypeError(`compile(): interruptBefore/interruptAfter names "${name}", which is not a node of the graph`);
  }
  if (!flat.edges.has(START) && !flat.conditional.has(START)) throw new TypeError("compile(): the graph has no entry: add an edge from START");
  // Reachability, when every conditional edge says where it may go. An error handler's Command
  // may go to any node (a recovery branch), so a graph with one is open too, as in LangGraph.
  const open = [...flat.conditional.values()].some((edges) => edges.some((edge) => !edge.pathMap)) || [...flat.nodes.values()].some((node) => node.options.errorHandler !== undefined);
  if (open) return;
  const reached = new Set<string>([START]);
  const queue = [START];
  while (queue.length > 0) {
    const name = queue.shift()!;
    const next = [...(flat.edges.get(name) ?? []), ...(flat.conditional.get(name) ?? []).flatMap((e) => Object.values(e.pathMap ?? {})), ...(flat.nodes.get(name)?.options.ends ?? [])];
    for (const edge of flat.waiting) if (edge.sources.includes(name)) next.push(edge.target);
    for (const target of next) {
      if (!reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  for (const name of [...flat.nodes.keys(), ...flat.builtins.keys()]) {
    // A subgraph whose nodes never reach its END (they go to the parent with Command.PARENT) leaves its end node unused.
    if (!reached.has(name) && !(flat.nodes.get(name)?.fn === PASS_THROUGH && name.endsWith("__end"))) throw new TypeError(`compile(): Node \`${name}\` is not reachable`);
  }
}
