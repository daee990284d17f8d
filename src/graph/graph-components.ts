/**
 * The component types a StateGraph compiles to: one per function node (its stable name), and
 * the plumbing every graph shares in shape — the start (the run's inputs into the state), a join
 * (a waiting edge), a send map (one node run per Send payload) and a breakpoint (interruptBefore
 * and interruptAfter). Each is an ordinary router component: `invoke` returns the state writes
 * (applied when the batch ends, engine E1) and the next components.
 */
import type { ComponentContext, ComponentDefinition, InputRequest, InvokeResult, ParamProblem } from "../contracts/component.js";
import type { StateReducer, StateWrite } from "../contracts/values.js";
import { applyWrites, TAKE_KEY } from "../pool/reducers.js";
import type { Reference } from "../refs/grammar.js";
import { isPlainObject } from "../util/values.js";
import { Command, END, isCommand, isSend, Send } from "./command.js";
import { runtimeOf, withRuntime, type NodeRuntime } from "./node-runtime.js";

/** A state key as a node sees it: the variable it lives in and how writes merge. */
export interface BoundKey {
  /** The variable (`env.<variable>`). */
  readonly variable: string;
  readonly reducerName: string;
  readonly reduce: StateReducer;
  readonly ref: Reference;
}

/** The state keys a node reads and writes, by the names its function uses. */
export type KeyTable = ReadonlyMap<string, BoundKey>;

export function outputRef(componentId: string, output: string): Reference {
  return { kind: "component", componentId, variable: output, path: [], expr: `${componentId}@${output}` };
}

export function globalRef(variable: string): Reference {
  const key = `env.${variable}`;
  return { kind: "global", scope: "env", key, expr: key };
}

/** A node function: (state, runtime) → update, Command, a list of them, or nothing. */
export type AnyNodeFunction = (state: Record<string, unknown>, runtime: NodeRuntime) => unknown;
/** A path function: (state) → node names, END, Sends, or keys of its path map. */
export type AnyRouter = (state: Record<string, unknown>) => unknown;

/** A conditional edge out of a node, as compiled. */
export interface CompiledRoute {
  readonly path: AnyRouter;
  /** Key → node name (or END); none: the router returns node names. */
  readonly pathMap?: Readonly<Record<string, string>>;
}

/** How a node name becomes where the path goes (a breakpoint before it, a send map for Sends). */
export interface Targets {
  /** The component that runs the node (or the breakpoint before it); undefined for END. */
  idOf(name: string): string | undefined;
  /** The send map of a node, if it may be sent to. */
  sendMapOf(name: string): { id: string; variable: string } | undefined;
  /** Whether a node of that name exists. */
  has(name: string): boolean;
}

/** What a function node does after its function: its edges. */
export interface NodeRouting {
  /** Static edges and waiting-edge joins, as component ids. */
  readonly next: readonly string[];
  readonly routes: readonly CompiledRoute[];
  /** interruptAfter: the breakpoint that runs instead, given the real next in `_next`. */
  readonly after?: string;
}

export interface RetryOptions {
  /** Attempts in all (default 3). */
  maxAttempts?: number;
  /** Before the first retry, ms (default 500). */
  initialInterval?: number;
  /** Each retry waits this much longer (default 2). */
  backoffFactor?: number;
  /** At most, ms (default 128 000). */
  maxInterval?: number;
  /** Randomise each wait by up to 100 % (default false, so runs repeat exactly). */
  jitter?: boolean;
  /** Whether an error is worth a retry (default: all but 4xx HTTP statuses and type errors). */
  retryOn?: (error: unknown) => boolean;
}

/** What an error handler is told after the last attempt failed. */
export interface NodeError {
  readonly node: string;
  readonly error: unknown;
  readonly message: string;
  readonly attempts: number;
}

/** How the names a node's code uses become the flat graph's (a subgraph's nodes are prefixed). */
export interface NodeNames {
  /** A name in the node's own graph (END: where that graph ends). */
  own(name: string): string;
  /** A name in the enclosing graph (Command.PARENT); none at the top. */
  parent?(name: string): string;
  /** The enclosing graph's keys (a Command.PARENT update). */
  readonly parentKeys?: KeyTable;
}

export interface FunctionNodeSpec {
  /** The component type's name. */
  readonly type: string;
  /** The node's name in its graph. */
  readonly node: string;
  readonly names: NodeNames;
  readonly fn: AnyNodeFunction;
  readonly keys: KeyTable;
  readonly routing: NodeRouting;
  readonly targets: Targets;
  readonly retry?: RetryOptions;
  readonly errorHandler?: (state: Record<string, unknown>, error: NodeError) => unknown;
  /** What the DSL records of the function, to warn when a stored canvas was made with other code. */
  readonly version: string | number | undefined;
  readonly sourceSha256: string;
  /** A stored canvas made with another version or source is an error, not a warning. */
  readonly strictVersions: boolean;
  /** Run once per payload of a Send, given the payload instead of the state (the node's send map). */
  readonly sendMap?: boolean;
  /** Given this built-in component's outputs instead of the state (a built-in node's state writer). */
  readonly outputsOf?: string;
}

/** Errors a graph's node raises, with LangGraph's codes. */
export class GraphNodeError extends Error {
  constructor(
    message: string,
    readonly code: "INVALID_GRAPH_NODE_RETURN_VALUE" | "INVALID_UPDATE" | "INVALID_ROUTE",
  ) {
    super(`${message} [${code}]`);
    this.name = "GraphNodeError";
  }
}

interface Collected {
  writes: StateWrite[];
  /** Full node names, END, or Sends to full names. */
  gotos: unknown[];
  /** A Command.PARENT: the node leaves its subgraph, its own edges are not taken. */
  toParent?: boolean;
}

/** A name (or a Send's) as the flat graph's. */
function resolveTarget(target: unknown, resolve: (name: string) => string): unknown {
  if (isSend(target)) return new Send(resolve(target.node), target.arg);
  return typeof target === "string" ? resolve(target) : target;
}

/** The state as the node's function reads it. */
export function readState(ctx: ComponentContext, keys: KeyTable): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const [name, key] of keys) state[name] = ctx.peek(key.ref);
  return state;
}

/** A node's return value as writes (by variable) and gotos. */
function collect(node: string, value: unknown, keys: KeyTable, names: NodeNames | undefined, into: Collected, depth = 0): Collected {
  if (value === undefined || value === null) return into;
  if (isCommand(value)) {
    const toParent = value.graph === Command.PARENT;
    if (toParent && !names?.parent) throw new GraphNodeError(`node "${node}" returned a Command for the parent graph, but its graph is not a subgraph`, "INVALID_ROUTE");
    if (value.update !== undefined) collectUpdate(node, value.update, toParent ? names!.parentKeys! : keys, into);
    if (toParent) into.toParent = true;
    const resolve = toParent ? names!.parent!.bind(names) : names ? names.own.bind(names) : (name: string) => name;
    for (const target of value.goto) into.gotos.push(resolveTarget(target, resolve));
    return into;
  }
  if (Array.isArray(value) && depth === 0) {
    for (const item of value) {
      if (item === null || item === undefined) continue;
      if (!isCommand(item) && !isPlainObject(item)) throw badReturn(node, value);
      collect(node, item, keys, names, into, 1);
    }
    return into;
  }
  if (isPlainObject(value)) {
    collectUpdate(node, value, keys, into);
    return into;
  }
  throw badReturn(node, value);
}

function badReturn(node: string, value: unknown): GraphNodeError {
  return new GraphNodeError(`node "${node}" must return an object of state keys, a Command or a list of them; it returned ${show(value)}`, "INVALID_GRAPH_NODE_RETURN_VALUE");
}

function collectUpdate(node: string, update: unknown, keys: KeyTable, into: Collected): void {
  const pairs: Array<readonly [unknown, unknown]> = Array.isArray(update) ? (update as Array<readonly [unknown, unknown]>) : isPlainObject(update) ? Object.entries(update) : [];
  if (!Array.isArray(update) && !isPlainObject(update)) throw badReturn(node, update);
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") throw new GraphNodeError(`node "${node}": a list update holds [key, value] pairs, got ${show(pair)}`, "INVALID_UPDATE");
    const [name, value] = pair as [string, unknown];
    const key = keys.get(name);
    if (!key) throw new GraphNodeError(`node "${node}" wrote the key "${name}", which the state does not have (keys: ${[...keys.keys()].join(", ")})`, "INVALID_UPDATE");
    // JSON has no undefined: a key written as undefined is cleared to null.
    into.writes.push([key.variable, value === undefined ? null : value]);
  }
}

/** The state with a node's own writes applied (LangGraph's fresh read for the node's conditional edges). */
function withWrites(state: Record<string, unknown>, writes: readonly StateWrite[], keys: KeyTable): Record<string, unknown> {
  if (writes.length === 0) return state;
  const byVariable = new Map<string, unknown[]>();
  for (const [variable, value] of writes) {
    const list = byVariable.get(variable);
    if (list) list.push(value);
    else byVariable.set(variable, [value]);
  }
  const fresh = { ...state };
  for (const [name, key] of keys) {
    const values = byVariable.get(key.variable);
    // A preview on the live state: a reducer that mutates its input must not change it.
    if (values) fresh[name] = applyWrites(name, key.reducerName, key.reduce, structuredClone(fresh[name]), values);
  }
  return fresh;
}

/** Where the path goes after a node: its static next, its routes' choices, its gotos. */
function nextOf(node: string, gotos: readonly unknown[], chosen: readonly unknown[], routing: NodeRouting, targets: Targets, writes: StateWrite[]): string[] {
  const next = new Set<string>(routing.next);
  const sendsByVariable = new Map<string, unknown[]>();
  const go = (target: unknown, from: string) => {
    if (isSend(target)) {
      const map = targets.sendMapOf(target.node);
      if (!map) throw new GraphNodeError(`node "${node}" sent to "${target.node}" (${from}), which ${targets.has(target.node) ? "cannot be sent to: list it in the path map or the node's ends" : "is not a node of the graph"}`, "INVALID_ROUTE");
      next.add(map.id);
      const list = sendsByVariable.get(map.variable);
      if (list) list.push(target.arg);
      else sendsByVariable.set(map.variable, [target.arg]);
      return;
    }
    if (target === END) return;
    if (typeof target !== "string" || !targets.has(target)) throw new GraphNodeError(`node "${node}" goes to ${show(target)} (${from}), which is not a node of the graph`, "INVALID_ROUTE");
    next.add(targets.idOf(target)!);
  };
  for (const target of gotos) go(target, "Command goto");
  for (const target of chosen) go(target, "conditional edge");
  // Send payloads wait in the send map's variable until it runs (extend: several senders, batch order).
  for (const [variable, payloads] of sendsByVariable) writes.push([variable, payloads]);
  return [...next];
}

/** A route's choice as the flat graph's node names: the path map's targets for its keys, or the names it returned. */
function routeTargets(node: string, route: CompiledRoute, result: unknown, names: NodeNames): unknown[] {
  const list = (Array.isArray(result) ? result : [result]).map((item) => resolveTarget(item, (name) => names.own(name)));
  if (!route.pathMap) return list;
  return (Array.isArray(result) ? result : [result]).map((item) => {
    if (isSend(item)) return resolveTarget(item, (name) => names.own(name));
    const key = String(item);
    if (!Object.hasOwn(route.pathMap!, key)) throw new GraphNodeError(`node "${node}": its conditional edge returned ${show(item)}, which its path map does not have (keys: ${Object.keys(route.pathMap!).join(", ")})`, "INVALID_ROUTE");
    // Path maps hold the flat graph's names already (compile renamed them).
    return route.pathMap![key];
  });
}

/**
 * After the function: evaluate the routes on the state with the node's own writes, then the
 * next components. Synchronous unless a path function returns a promise.
 */
function finishNode(spec: Pick<FunctionNodeSpec, "node" | "keys" | "routing" | "targets" | "names">, ctx: ComponentContext, state: Record<string, unknown>, returned: unknown): InvokeResult | Promise<InvokeResult> {
  const collected = collect(spec.node, returned, spec.keys, spec.names, { writes: [], gotos: [] });
  const routes = spec.routing.routes;
  const done = (chosen: unknown[]): InvokeResult => {
    const writes = collected.writes;
    for (const [variable, value] of writes) {
      const name = outputName(spec.keys, variable);
      if (name !== undefined) ctx.setOutput(name, value);
    }
    const routing = collected.toParent ? { ...spec.routing, next: [] } : spec.routing;
    const next = nextOf(spec.node, collected.gotos, collected.toParent ? [] : chosen, routing, spec.targets, writes);
    if (spec.routing.after) {
      ctx.setOutput("_next", next);
      return { next: [spec.routing.after], update: writes };
    }
    return { next, update: writes };
  };
  if (routes.length === 0 || collected.toParent) return done([]);
  const fresh = withWrites(state, collected.writes, spec.keys);
  const chosen: unknown[] = [];
  let pending: Promise<void> | undefined;
  for (const route of routes) {
    const result = route.path(fresh);
    if (result instanceof Promise) {
      pending = (pending ?? Promise.resolve()).then(() => result.then((value) => void chosen.push(...routeTargets(spec.node, route, value, spec.names))));
    } else if (pending) {
      pending = pending.then(() => void chosen.push(...routeTargets(spec.node, route, result, spec.names)));
    } else {
      chosen.push(...routeTargets(spec.node, route, result, spec.names));
    }
  }
  return pending ? pending.then(() => done(chosen)) : done(chosen);
}

function outputName(keys: KeyTable, variable: string): string | undefined {
  for (const [name, key] of keys) if (key.variable === variable) return name;
  return undefined;
}

/** LangGraph's default retryOn: not for a 4xx HTTP status, nor for a type or syntax error (a bug). */
export function defaultRetryOn(error: unknown): boolean {
  if (error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError) return false;
  const status = (error as { status?: unknown; response?: { status?: unknown } } | null)?.status ?? (error as { response?: { status?: unknown } } | null)?.response?.status;
  return !(typeof status === "number" && status >= 400 && status < 500);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Call the node's function with its retry policy and error handler; sync when it is. */
function callNode(spec: FunctionNodeSpec, ctx: ComponentContext, state: Record<string, unknown>, input: unknown, runtime: NodeRuntime): unknown {
  if (!spec.retry && !spec.errorHandler) return withRuntime(runtime, () => spec.fn(input as Record<string, unknown>, runtime));
  return (async () => {
    const policy = spec.retry;
    const attempts = Math.max(1, Math.floor(policy?.maxAttempts ?? (policy ? 3 : 1)));
    let wait = policy?.initialInterval ?? 500;
    for (let attempt = 1; ; attempt++) {
      try {
        return await withRuntime(runtime, () => spec.fn(input as Record<string, unknown>, runtime));
      } catch (error) {
        if ((error as Error)?.name === "InterruptSignal" || ctx.signal.aborted) throw error;
        const retryable = attempt < attempts && (policy?.retryOn ?? defaultRetryOn)(error);
        if (retryable) {
          const jitter = policy?.jitter ? 1 + ctx.random() : 1;
          await sleep(Math.min(wait, policy?.maxInterval ?? 128_000) * jitter, ctx.signal);
          wait *= policy?.backoffFactor ?? 2;
          continue;
        }
        if (!spec.errorHandler) throw error;
        const message = error instanceof Error ? error.message : String(error);
        return spec.errorHandler(state, { node: spec.node, error, message, attempts: attempt });
      }
    }
  })();
}

/** The component type of a function node. */
export function functionComponent(spec: FunctionNodeSpec): ComponentDefinition {
  return {
    name: spec.type,
    // reportsProgress: what a node emits (runtime.emit) goes out while it runs, not after its batch.
    capabilities: { router: true, reportsProgress: true, ...(spec.retry || spec.errorHandler ? { retriesInternally: true } : {}) },
    // A built-in node's writer waits for its component (and for its streamed text to be read out).
    references: () => (spec.outputsOf ? [outputRef(spec.outputsOf, "content")] : []),
    thoughts: () => "",
    check: (params) => versionProblems(spec, params),
    branches: () => [],
    invoke(ctx) {
      const state = readState(ctx, spec.keys);
      if (spec.sendMap) return invokeSends(spec, ctx, state);
      const runtime = runtimeOf(ctx, spec.node);
      const input = spec.outputsOf ? { ...(ctx.canvas.outputsOf(spec.outputsOf) ?? {}) } : state;
      const returned = callNode(spec, ctx, state, input, runtime);
      return returned instanceof Promise ? returned.then((value) => finishNode(spec, ctx, state, value)) : finishNode(spec, ctx, state, returned);
    },
  };
}

/** Payload runs of one send map at once, at most (a list of thousands must not start thousands of model calls). */
const SEND_CONCURRENCY = 8;

/** Map with at most `limit` calls in flight; results in input order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => R | Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The runtime a Send payload's run gets: the node's own, whose interrupt() refuses. */
function sendRuntime(ctx: ComponentContext, node: string): NodeRuntime {
  const runtime = runtimeOf(ctx, node);
  Object.defineProperty(runtime, "interrupt", {
    value: (): never => {
      throw new Error(`node "${node}": interrupt() cannot pause a run of a node started by Send (one component runs every payload); pause before or after the map instead`);
    },
  });
  return runtime;
}

/** A send map: the node's function once per waiting payload, in order; their writes and routes together. */
async function invokeSends(spec: FunctionNodeSpec, ctx: ComponentContext, state: Record<string, unknown>): Promise<InvokeResult> {
  const variable = spec.targets.sendMapOf(spec.node)!.variable;
  const waiting = ctx.peek(globalRef(variable));
  const payloads = Array.isArray(waiting) ? waiting : [];
  // Each payload's run starts with the others' in flight, as LangGraph runs a step's Sends at once.
  // A payload's run cannot pause: one component runs every payload, and its interrupts would be
  // told apart by call order only.
  const payloadRuntime = sendRuntime(ctx, spec.node);
  const returned = await mapLimited(payloads, SEND_CONCURRENCY, (payload) => callNode(spec, ctx, state, payload, payloadRuntime));
  // Take what was read: payloads sent in this batch (by another node, or by a payload to itself) stay queued.
  const writes: StateWrite[] = [[variable, { [TAKE_KEY]: payloads.length }]];
  const next = new Set<string>();
  for (const value of returned) {
    const result = (await finishNode({ ...spec, routing: { ...spec.routing, after: undefined } }, ctx, state, value)) as { next: string[]; update: StateWrite[] };
    writes.push(...result.update);
    for (const id of result.next) next.add(id);
  }
  if (spec.routing.after) {
    ctx.setOutput("_next", [...next]);
    return { next: [spec.routing.after], update: writes };
  }
  return { next: [...next], update: writes };
}

/** A stored canvas made with other code than this process registered: a warning, or an error when strict. */
function versionProblems(spec: FunctionNodeSpec, params: Record<string, unknown>): ParamProblem[] {
  const problems: ParamProblem[] = [];
  const severity = spec.strictVersions ? "error" : "warning";
  if (params.version !== undefined && spec.version !== undefined && String(params.version) !== String(spec.version)) {
    problems.push({ pointer: "/version", severity, message: `the canvas was made with version ${String(params.version)} of "${spec.type}"; this process registered version ${String(spec.version)}` });
  }
  if (typeof params.source_sha256 === "string" && params.source_sha256 !== spec.sourceSha256) {
    problems.push({ pointer: "/source_sha256", severity, message: `the function of "${spec.type}" (node "${spec.node}") changed since the canvas was made: a paused or stored session runs the new code` });
  }
  return problems;
}

const ROOT_NAMES: NodeNames = { own: (name) => name };

/** The start: the run's inputs (Begin's fields) written to the state, then START's edges. */
export function startComponent(spec: { type: string; keys: KeyTable; inputs: readonly string[]; routing: NodeRouting; targets: Targets }): ComponentDefinition {
  const fields = spec.inputs.map((name) => ({ name, ref: outputRef("begin", name) }));
  return {
    name: spec.type,
    capabilities: { router: true },
    references: () => [],
    thoughts: () => "",
    invoke(ctx) {
      const update: Record<string, unknown> = {};
      for (const field of fields) {
        const value = ctx.peek(field.ref);
        // Begin gives null for a field nobody submitted: such a key keeps its value.
        if (value !== null && value !== undefined) update[field.name] = value;
      }
      const state = readState(ctx, spec.keys);
      return finishNode({ node: "__start__", keys: spec.keys, routing: spec.routing, targets: spec.targets, names: ROOT_NAMES }, ctx, state, update);
    },
  };
}

/**
 * A waiting edge (`addEdge([a, b], c)`): runs after any of its sources and goes on to its target
 * once every source ran since it last went on. It counts their executions in the turn.
 */
export function joinComponent(type: string): ComponentDefinition {
  return {
    name: type,
    capabilities: { router: true },
    // Its sources as references: the join waits while one of them is pending in the same step
    // (one paused from inside runs again before the join may count it).
    references: (params) => ((params.sources as string[][] | undefined) ?? []).flat().map((id) => outputRef(id, "_")),
    thoughts: (params) => `waits for ${((params.sources as string[][] | undefined) ?? []).map((ids) => ids[0]).join(", ")}`,
    invoke(ctx) {
      const sources = ctx.params.sources as string[][];
      const seen = (ctx.state.get<Record<string, number>>() ?? {}) as Record<string, number>;
      const counts: Record<string, number> = {};
      let all = true;
      for (const ids of sources) {
        const count = ids.reduce((sum, id) => sum + (ctx.canvas.executions?.(id) ?? 0), 0);
        counts[ids[0]] = count;
        if (!(count > (seen[ids[0]] ?? 0))) all = false;
      }
      if (!all) return { next: [] };
      ctx.state.set(counts);
      return { next: ctx.params.next as string[] };
    },
  };
}

/**
 * A static breakpoint (interruptBefore / interruptAfter): pauses the run the first time it is
 * reached; resumed (with `inputs: {}`, or `{ update }` to write to the state first) it goes on.
 */
export function breakpointComponent(spec: { type: string; keys: KeyTable }): ComponentDefinition {
  return {
    name: spec.type,
    capabilities: { router: true, asksForInput: true },
    references: () => [],
    thoughts: (params) => `breakpoint ${String(params.when)} ${String(params.node)}`,
    requestInput(ctx): InputRequest {
      if (ctx.inputs !== undefined) return { fields: {} };
      return { fields: { update: { name: "update", type: "object", optional: true } }, tips: "" };
    },
    invoke(ctx) {
      const update = ctx.inputs?.update;
      const collected = collect(String(ctx.params.node), update === undefined ? undefined : isPlainObject(update) && "value" in update && Object.keys(update).length <= 2 && "type" in update ? update.value : update, spec.keys, undefined, { writes: [], gotos: [] });
      const next = ctx.params.when === "before" ? (ctx.params.next as string[]) : ((ctx.peek(outputRef(String(ctx.params.node), "_next")) as string[] | undefined) ?? []);
      return { next, update: collected.writes };
    },
  };
}

function show(value: unknown): string {
  if (value instanceof Send) return `Send(${value.node})`;
  if (value instanceof Command) return "a Command";
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
  } catch {
    return String(value);
  }
}
