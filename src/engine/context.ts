/**
 * The ComponentContext handed to `invoke`: a component's window onto the pool and the canvas.
 * Every reference it resolves is recorded, so `node_finished.inputs` shows what it read.
 */
import { parseSelector, type Reference } from "../refs/grammar.js";
import { compileTemplate, renderTemplate, stringifyValue, type CompiledTemplate } from "../refs/template.js";
import { MissingReferenceError, scopedKey, type ResolveScope, type VariablePool } from "../pool/pool.js";
import type {
  CanvasAccess,
  ComponentContext,
  ComponentState,
  Outputs,
  ReferenceChunk,
  ReferenceDocument,
  RuntimeServices,
  SpanAttributes,
  SpanScope,
  UsageReport,
} from "../components/types.js";
import type { HistoryEntry, Params } from "../dsl/types.js";
import type { CanvasGraph, ComponentNode } from "./graph.js";
import type { Frame } from "./frame.js";
import { emptyUsage, type FailedAttempt, type TokenUsage } from "./events.js";
import { addUsage } from "./ledger.js";
import { InterruptSignal, resumeSlot } from "./interrupt.js";
import type { ComponentSpan } from "../tracing/run-spans.js";

/** What `span` hands `fn` when the run is not traced. */
const NO_SPAN: SpanScope = Object.freeze({ setAttributes: () => undefined, recordError: () => undefined });

/** What the run shares with every context it makes. */
export interface RunScope {
  readonly graph: CanvasGraph;
  readonly pool: VariablePool;
  readonly componentState: Record<string, unknown>;
  readonly history: HistoryEntry[];
  readonly services: RuntimeServices;
  readonly random: () => number;
  /** Where components report tokens and references for the whole run. */
  readonly ledger: RunLedger;
  /** The stable key of a component's current execution (task, turn, component, how often it ran). */
  idempotencyKey(componentId: string): string;
  /** The session's task id. */
  readonly taskId: string;
  /** How often a component has started in the current turn. */
  executions?(componentId: string): number;
  /** Where a component's progress goes (a node_progress event), when the run streams it. */
  progress?(node: ComponentNode, frame: Frame | undefined, progress: number, message: string): void;
  /**
   * The graph's policy resumes interrupts (ctx.interrupt): the run pauses for them. A resumed
   * run's values are in `componentState` before anything runs (see placeResumeValues).
   */
  readonly resumesInterrupts?: boolean;
}

/** What a run gathers from its components besides outputs. */
interface RunLedger {
  addUsage(usage: UsageReport): void;
  addReferences(chunks: readonly ReferenceChunk[], documents: readonly ReferenceDocument[]): void;
  references(): { readonly chunks: readonly ReferenceChunk[]; readonly doc_aggs: readonly ReferenceDocument[] };
}

export function makeCanvasAccess(scope: Pick<RunScope, "graph" | "pool" | "history" | "executions">): CanvasAccess {
  return {
    ...(scope.executions ? { executions: scope.executions } : {}),
    componentType: (name) => scope.graph.registry.get(name),
    component: (id) => scope.graph.nodes.get(id),
    children: (id) => scope.graph.childrenOf.get(id) ?? [],
    history: (windowSize) => {
      const n = Math.max(0, Math.floor(windowSize)) * 2;
      return n === 0 ? [] : scope.history.slice(-n);
    },
    outputsOf: (id) => scope.pool.outputsOf(id),
  };
}

export class InvocationContext implements ComponentContext<Params> {
  readonly recordedInputs: Record<string, unknown> = {};
  /** The tokens this invocation's model calls used (node_finished shows them); undefined when it made none. */
  usage: TokenUsage | undefined;
  /** The attempts that failed before a retry (node_finished lists them; Dify streams them as node_retry); made on the first retry, as most steps never fail. */
  failedAttempts: FailedAttempt[] | undefined;
  /** This execution's span, when the run is traced (set by the run before it starts). */
  trace: ComponentSpan | undefined;
  private controller: AbortController | undefined;
  private stateAccess: ComponentState | undefined;
  /** How often this invocation called interrupt(). */
  private interruptCalls = 0;
  /** Where this component's outputs (and state) live: its id, or `<id>#<frame>` inside a frame. */
  readonly outputKey: string;
  /** How its reads resolve (aliases, frames). */
  private readonly resolveScope: ResolveScope;

  constructor(
    private readonly scope: RunScope,
    private readonly node: ComponentNode,
    readonly canvas: CanvasAccess,
    private readonly runSignal: AbortSignal,
    readonly inputs: Record<string, unknown> | undefined,
    /** The container round it runs in, if any. */
    readonly frame?: Frame,
  ) {
    this.outputKey = frame ? scopedKey(node.id, frame.key) : node.id;
    this.resolveScope = frame ? { aliasTarget: node.aliasTarget, frames: frame.chain } : node;
  }

  get id(): string {
    return this.node.id;
  }
  get componentName(): string {
    return this.node.componentName;
  }
  get displayName(): string {
    return this.node.displayName;
  }
  get params(): Params {
    return this.node.params;
  }
  get parentId(): string | undefined {
    return this.node.parentId;
  }
  /** Made on first use: only container start nodes keep state. */
  get state(): ComponentState {
    if (this.stateAccess) return this.stateAccess;
    this.stateAccess = new StateSlot(this.scope.componentState, this.outputKey);
    return this.stateAccess;
  }
  get services(): RuntimeServices {
    return this.scope.services;
  }
  get taskId(): string {
    return this.scope.taskId;
  }
  get idempotencyKey(): string {
    return this.scope.idempotencyKey(this.node.id);
  }
  get query(): string {
    const q = this.scope.pool.globals["sys.query"];
    return typeof q === "string" ? q : stringifyValue(q);
  }

  /** Created on first use: most components never look at their signal. */
  get signal(): AbortSignal {
    return this.linked().signal;
  }

  /** Abort this invocation (timeout); the run's own signal is untouched. */
  abort(reason: unknown): void {
    this.linked().abort(reason);
  }

  /** Before a retry: a fresh signal (the last attempt's may have been aborted by its timeout) and no recorded inputs. */
  beginAttempt(): void {
    this.dispose();
    this.interruptCalls = 0;
    this.controller = undefined;
    for (const key of Object.keys(this.recordedInputs)) delete this.recordedInputs[key];
  }

  /** Stop listening to the run's signal once the invocation is over (no listener piles up over a long loop). */
  dispose(): void {
    if (this.unlink) {
      this.runSignal.removeEventListener("abort", this.unlink);
      this.unlink = undefined;
    }
  }

  private unlink: (() => void) | undefined;

  private linked(): AbortController {
    if (this.controller) return this.controller;
    const controller = new AbortController();
    this.controller = controller;
    if (this.runSignal.aborted) controller.abort(this.runSignal.reason);
    else {
      this.unlink = () => controller.abort(this.runSignal.reason);
      this.runSignal.addEventListener("abort", this.unlink, { once: true });
    }
    return controller;
  }

  get(selector: string | Reference): unknown {
    const ref = typeof selector === "string" ? parseSelector(selector) : selector;
    if (!ref) throw new MissingReferenceError(String(selector), "not a reference (expected cpn@var, sys.x or env.x)");
    const value = this.scope.pool.resolve(ref, this.resolveScope);
    this.recordedInputs[ref.expr] = value;
    return value;
  }

  peek(selector: string | Reference): unknown {
    const ref = typeof selector === "string" ? parseSelector(selector) : selector;
    if (!ref) throw new MissingReferenceError(String(selector), "not a reference (expected cpn@var, sys.x or env.x)");
    return this.scope.pool.resolve(ref, this.resolveScope);
  }

  compile(template: string): CompiledTemplate {
    return compileTemplate(typeof template === "string" ? template : stringifyValue(template), this.node.aliasTarget !== undefined);
  }

  render(template: string, stringify: (value: unknown) => string = stringifyValue): string {
    if (typeof template !== "string") return stringifyValue(template);
    const compiled = compileTemplate(template, this.node.aliasTarget !== undefined);
    if (compiled.isStatic) return template;
    return renderTemplate(compiled, (ref) => this.get(ref), stringify);
  }

  set(selector: string | Reference, value: unknown): void {
    const ref = typeof selector === "string" ? parseSelector(selector) : selector;
    if (!ref) throw new MissingReferenceError(String(selector), "not a reference (expected cpn@var, sys.x or env.x)");
    this.scope.pool.set(ref, value, this.resolveScope);
  }

  append(selector: string | Reference, item: unknown, check?: (current: unknown) => void): () => void {
    const ref = typeof selector === "string" ? parseSelector(selector) : selector;
    if (!ref) throw new MissingReferenceError(String(selector), "not a reference (expected cpn@var, sys.x or env.x)");
    return this.scope.pool.append(ref, item, check);
  }

  setOutput(key: string, value: unknown): void {
    this.scope.pool.setOutput(this.outputKey, key, value);
  }

  output(key: string): unknown {
    return this.scope.pool.output(this.outputKey, key);
  }

  clearOutputs(): void {
    this.scope.pool.replaceOutputs(this.outputKey, {});
  }

  outputs(): Outputs {
    return this.scope.pool.outputsOf(this.outputKey) ?? {};
  }

  interrupt(value: unknown): unknown {
    const index = this.interruptCalls++;
    const slot = resumeSlot(this.outputKey);
    const store = this.scope.componentState;
    const kept = store[slot] as unknown[] | undefined;
    if (Array.isArray(kept) && index < kept.length) return kept[index];
    if (!this.scope.resumesInterrupts) throw new Error("this graph's scheduling cannot pause a component from inside (interrupt)");
    throw new InterruptSignal({ id: `${this.outputKey}:${index}`, component_id: this.node.id, value });
  }

  progress(progress: number, message: string): void {
    this.scope.progress?.(this.node, this.frame, progress, message);
  }

  setInput(key: string, value: unknown): void {
    this.recordedInputs[key] = value;
  }

  random(): number {
    return this.scope.random();
  }

  addUsage(usage: UsageReport): void {
    this.scope.ledger.addUsage(usage);
    addUsage((this.usage ??= emptyUsage()), usage);
  }

  addReferences(chunks: readonly ReferenceChunk[], documents: readonly ReferenceDocument[] = []): void {
    this.scope.ledger.addReferences(chunks, documents);
  }

  references(): { readonly chunks: readonly ReferenceChunk[]; readonly doc_aggs: readonly ReferenceDocument[] } {
    return this.scope.ledger.references();
  }

  span<T>(name: string, attributes: SpanAttributes, fn: (span: SpanScope) => Promise<T>): Promise<T> {
    const trace = this.trace;
    if (trace) return trace.child(name, attributes, fn);
    try {
      return fn(NO_SPAN);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** One component's entry in the run's component state. */
class StateSlot implements ComponentState {
  constructor(
    private readonly store: Record<string, unknown>,
    private readonly id: string,
  ) {}

  get<T>(): T | undefined {
    return this.store[this.id] as T | undefined;
  }

  set(value: unknown): void {
    this.store[this.id] = value;
  }
}
