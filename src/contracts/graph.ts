/**
 * The compiled graph the engine runs, the registry it is compiled with, and the front ends that
 * compile documents into it. The three refer to one another (a graph keeps its registry, a
 * registry knows its front ends, a front end makes graphs), so they share this module.
 */
import type { Reference } from "../refs/grammar.js";
import type { ComponentDefinition, ComponentInfo } from "./component.js";
import type { DslKind, DslSource, ValidationReport } from "./dsl.js";
import type { InputField, Outputs, Params, StateReducer } from "./values.js";

export interface ComponentNode extends ComponentInfo {
  readonly def: ComponentDefinition;
  /** Component ids this one reads (other than itself): it waits while any of them is pending. */
  readonly dependencies: readonly string[];
  /**
   * The dependencies that delay this component while they are pending. The start node of an
   * enclosing container is left out: pending, it stands for the next round, and this component
   * reads the current one.
   */
  readonly waitsFor: readonly string[];
  readonly references: readonly Reference[];
  /** For containers: the id of the start child. */
  readonly startChildId: string | undefined;
  /** For direct children of an aliasing container: where `{item}`/`{index}`/`{result}` read from. */
  readonly aliasTarget: string | undefined;
  /** Enclosing containers, innermost first. */
  readonly ancestors: readonly string[];
  /** For containers: every component inside, at any depth. */
  readonly descendants: readonly string[];
  readonly thoughts: string;
  /** How the runner retries it (default: from `max_retries` / `delay_after_error`). */
  readonly retry?: RetryPolicy;
  /** What a failure that the runner gave up on leads to (edge-scheduled graphs); none: the failure stands. */
  readonly onError?: ErrorRoute;
}

export interface RetryPolicy {
  /** Attempts in all (1: no retry). */
  readonly attempts: number;
  readonly delayMs: number;
}

/**
 * Where a failure goes in an edge-scheduled graph (Dify's error_strategy). Either way the node's
 * outputs say what failed (under `errorKeys`), and the run ends as partially succeeded.
 */
export type ErrorRoute =
  /** Go on along the normal edges with these outputs (Dify's default-value). */
  | { readonly kind: "default"; readonly outputs: Outputs; readonly errorKeys?: ErrorKeys }
  /** Take the edges of this port instead of the normal ones (Dify's fail-branch). */
  | { readonly kind: "branch"; readonly handle: string; readonly errorKeys?: ErrorKeys };

/** The output names an error route writes the failure's message and type to. */
export interface ErrorKeys {
  readonly message: string;
  readonly type: string;
}

export interface CanvasGraph {
  readonly nodes: ReadonlyMap<string, ComponentNode>;
  readonly childrenOf: ReadonlyMap<string, readonly ComponentNode[]>;
  /** Id of the entry component ("begin"). */
  readonly entryId: string;
  /** The registry the canvas was compiled with (component types looked up by name). */
  readonly registry: Registry;
  /** How the graph decides what runs next (policy.ts). */
  readonly policy: SchedulingPolicy;
  /** Defaults of the run limits for this kind of graph (the runtime options override them). */
  readonly limits?: { readonly maxSteps?: number; readonly runTimeoutMs?: number };
  /** Globals set at the start of every turn, besides canvasflow's own `sys.*`. */
  readonly turnGlobals?: (turn: TurnInfo) => Record<string, unknown>;
  /** Globals of a fresh session besides canvasflow's own (e.g. Dify's conversation and environment variables). */
  readonly initialGlobals?: Readonly<Record<string, unknown>>;
  /** What the entry asks for, when it is not a Begin (whose params say it). */
  readonly entry?: EntryInfo;
  /**
   * How many of `sys.files` one run takes, when the graph says (an ingestion pipeline parses one
   * document a run, as RAGFlow runs one task per document). A turn given more runs once per
   * file, in order, each run with its own events.
   */
  readonly filesPerRun?: number;
  /**
   * The keys components may write with `InvokeControl.update`, by variable name (`env.<name>`):
   * every declared conversation variable of a RAGFlow canvas. None: the graph takes no such writes.
   */
  readonly stateKeys?: ReadonlyMap<string, StateKey>;
}

/** The entry's form and mode, for front ends whose entry is not RAGFlow's Begin. */
export interface EntryInfo {
  /** What messages call it ("Start"). */
  readonly label: string;
  /** `conversational` (a chat: every turn has a query) or `task`. */
  readonly mode: string;
  readonly prologue: string;
  readonly form: Readonly<Record<string, InputField>>;
  /** Fields a new turn cannot start without (a caller refuses the turn rather than pausing it). */
  readonly required: readonly string[];
}

/** What a graph's turn globals may be made of. */
export interface TurnInfo {
  /** The turn, from 1 (`sys.conversation_turns`). */
  readonly turn: number;
  readonly taskId: string;
  /** The run's message id. */
  readonly runId: string;
  /** Epoch seconds. */
  readonly startedAt: number;
}

/**
 * How a graph decides what runs next, chosen per graph when it is compiled (the frontier for
 * RAGFlow canvases, edge states for Dify graphs). The engine declares the rest of this interface
 * (the scheduler it makes for a run, the replay of its recorded ops) in engine/policy.ts, which
 * augments it, so that this module imports nothing of the engine.
 */
export interface SchedulingPolicy {
  readonly name: string;
  /**
   * Whether a component may pause the run from inside (ctx.interrupt): the policy keeps an
   * interrupted component where it was, so it runs again when the run resumes.
   */
  readonly resumesInterrupts?: boolean;
}

/**
 * Component definitions by `component_name`, and the document formats canvases may be loaded
 * from. The engine looks components up here and nowhere else; ComponentRegistry
 * (components/registry.ts) implements it.
 */
export interface Registry {
  /** Add a document format this registry's canvases may be loaded from (its components must be registered too). */
  registerFrontEnd(frontEnd: DslFrontEnd): void;
  /** The front end of a document, if it is not a RAGFlow canvas. */
  frontEndFor(document: unknown): DslFrontEnd | undefined;
  register<P extends Params>(definition: ComponentDefinition<P>, options?: { replace?: boolean }): void;
  get(name: string): ComponentDefinition | undefined;
  has(name: string): boolean;
  list(): ComponentDefinition[];
  /** A copy that can be extended without touching this registry (per-canvas custom components). */
  extend(): Registry;
  /** Add a named state reducer (a declared variable's `reducer`); the built-in names are taken. */
  registerReducer(name: string, reducer: StateReducer, options?: { replace?: boolean }): void;
  /** The reducer of that name, built-in or registered. */
  reducer(name: string): StateReducer | undefined;
}

/** A state key: a declared conversation variable and how writes merge into it. */
export interface StateKey {
  /** The reducer's name as the DSL declares it ("last" when it declares none). */
  readonly reducerName: string;
  readonly reduce: StateReducer;
}

/**
 * Front ends: document formats other than RAGFlow's canvas DSL (Dify's workflow YAML) that load
 * into the same engine. A front end recognizes its documents, validates them with JSON pointers
 * into them, and compiles them into the engine's graph; the registry a canvas is loaded with
 * knows which front ends there are (Registry.registerFrontEnd).
 */
export interface DslFrontEnd {
  /** The kind validation reports give its documents. */
  readonly kind: DslKind;
  /** True for a document (or a snapshot of one) of this format. */
  recognizes(document: Record<string, unknown>): boolean;
  /** Every problem of the document, with pointers into it. */
  validate(source: DslSource, registry: Registry): ValidationReport;
  /** The engine's graph of a document `validate` found valid. */
  compile(document: Record<string, unknown>, registry: Registry): CanvasGraph;
}
