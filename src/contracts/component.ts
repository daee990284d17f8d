/**
 * The one interface every component implements, built-in or registered by a user.
 *
 * The engine never looks at a component's name. It reads what a definition declares in
 * `capabilities` (router, container, pauser, message sink…) and what `invoke` returns.
 */
import type { Reference } from "../refs/grammar.js";
import type { CompiledTemplate } from "../refs/template.js";
import type { AgentToolBinding } from "./tool.js";
import type {
  HistoryEntry,
  InputField,
  JsonSchema,
  Outputs,
  Params,
  ReferenceChunk,
  ReferenceDocument,
  RuntimeServices,
  SpanAttributes,
  SpanScope,
  StateWrite,
  UsageReport,
} from "./values.js";

export type { SpanAttributes, SpanScope };

/** What `invoke` may return to steer the path. Plain components return nothing. */
export interface InvokeControl {
  /** Routers: the ids to continue with (instead of `downstream`). */
  next?: string[];
  /** Container start nodes: true when the container has no further rounds. */
  done?: boolean;
  /**
   * Branches of an edge-scheduled graph: the output port chosen (an if-else case id, a class
   * id). Its edges are taken; the node's other edges are skipped.
   */
  handle?: string;
  /**
   * Containers of an edge-scheduled graph: run the body in up to `count` rounds, at most
   * `parallel` at once (default 1). The container's `rounds` hooks are asked between rounds.
   */
  rounds?: { count: number; parallel?: number };
  /**
   * Writes to declared conversation variables (state keys), applied when the batch ends: every
   * component of a batch reads the state as it was when the batch started, and the batch's writes
   * reach each key's reducer in the batch's order, whatever order the components finished in.
   */
  update?: readonly StateWrite[];
}
export type InvokeResult = void | InvokeControl;

/** What a pauser asks for before it can run. */
export interface InputRequest {
  /** The fields still needed, keyed by field key. Empty: nothing to ask, run normally. */
  fields: Record<string, InputField>;
  tips?: string;
}

export interface ComponentCapabilities {
  /** Chooses its successors: `invoke` returns `{ next }`; `downstream` only lists the candidates. */
  router?: boolean;
  /**
   * A container (Iteration, Loop). After it runs, the path continues at its child whose
   * component_name is `start`; its own `node_finished` waits until that child reports done.
   */
  container?: {
    start: string;
    /** Direct children may use `{item}`, `{index}`, `{result}` (read from the start child). */
    iterationAliases?: boolean;
    /** A component with `exitsContainer` inside it ends it early (Loop). */
    exitable?: boolean;
    /**
     * Each round starts with the body's outputs cleared (Iteration: an item never sees what a
     * branch produced for the previous item). Without it, outputs carry over between rounds (Loop).
     */
    freshRounds?: boolean;
  };
  /** The start node of a container (IterationItem, LoopItem): `invoke` returns `{ done }`. */
  containerStart?: boolean;
  /** Ends the nearest exitable container and continues after it (ExitLoop). */
  exitsContainer?: boolean;
  /** Receives the run's inputs at the start of a turn (Begin). Exactly one per canvas, id "begin". */
  entry?: boolean;
  /** May pause the run to ask for input (UserFillUp, and Begin for required fields). */
  asksForInput?: boolean;
  /** Shows its `content` output to the user as `message` events, then `message_end` (Message). */
  emitsMessages?: boolean;
  /**
   * Reports progress while it runs (`ctx.progress`): the run sends node_progress events as they
   * come instead of waiting for its batch (the others' progress waits for the batch to end).
   */
  reportsProgress?: boolean;
  /** Needs an external provider that is configured outside the DSL. */
  provider?: "llm" | "tool";
  /** Retries on its own (e.g. per HTTP status); the runner must not retry it again. */
  retriesInternally?: boolean;
  /** Chooses one of its output ports (`invoke` returns `{ handle }`) in an edge-scheduled graph. */
  branches?: boolean;
  /**
   * A step of a RAGFlow ingestion pipeline (a dataflow canvas): it runs only in pipelines, and
   * pipelines run only such steps. Each reads the whole output of the step before it.
   */
  pipeline?: boolean;
  /**
   * A response node of an edge-scheduled graph: its `responseTemplate` streams to the user in the
   * graph's order, and its outputs reach workflow_finished, merged (`merge`, Dify's End) or with
   * each string appended to the run's output of the same name (`concatenate`, Dify's Answer).
   */
  response?: "merge" | "concatenate";
}

/** A part of a response node's template: literal text, or a reference whose value is shown. */
export type ResponsePart = string | Reference;

/** What a response node streams, and how a value becomes text. */
export interface ResponseTemplate {
  readonly parts: readonly ResponsePart[];
  render(value: unknown): string;
}

/** How a container of an edge-scheduled graph runs its rounds (Dify's iteration and loop). */
export interface RoundHooks<P = Params> {
  /** The values the body of round `index` reads from the container (e.g. `item`, `index`). */
  roundInputs?(ctx: ComponentContext<P>, index: number): Outputs;
  /**
   * A round's body has nothing left to run. `round.read` reads inside it (the body's outputs).
   * Return `{ stop: true }` to run no further round.
   */
  roundEnded(ctx: ComponentContext<P>, round: RoundOutcome): { stop?: boolean } | void;
  /** After the last round: set the container's outputs. Throwing fails the container. */
  finish(ctx: ComponentContext<P>): void;
}

export interface RoundOutcome {
  readonly index: number;
  /** The first failure in the round's body that nothing handled. */
  readonly error?: string;
  /** A component that exits its container (Dify's loop-end) ran in this round. */
  readonly exited: boolean;
  /** Read a reference as the round's body sees it. */
  read(ref: Reference): unknown;
}

/** One way out of a router, as diagrams label it. */
export interface RouteBranch {
  readonly label: string;
  readonly targets: readonly string[];
}

/** A problem found in a component's params by `check`. */
export interface ParamProblem {
  /** JSON pointer below the component's params, e.g. "/conditions/0/to". */
  pointer: string;
  message: string;
  severity?: "error" | "warning";
}

/** What `check` may look at beyond its own params. */
export interface CheckInfo {
  readonly id: string;
  readonly parentId: string | undefined;
  readonly downstream: readonly string[];
  hasComponent(id: string): boolean;
  componentName(id: string): string | undefined;
  /** The container another component sits in, if any. */
  parentOf(id: string): string | undefined;
  /** The registered definition of a component type, if any (e.g. to check an Agent's tools). */
  componentType(name: string): ComponentDefinition | undefined;
}

/** Read-only facts about a component of the canvas. */
export interface ComponentInfo {
  readonly id: string;
  readonly componentName: string;
  readonly displayName: string;
  readonly params: Params;
  readonly parentId: string | undefined;
  readonly downstream: readonly string[];
  /** The components before this one, as the DSL lists them (a pipeline step reads the previous one's outputs). */
  readonly upstream?: readonly string[];
}

/** Per-component state that survives pause, resume and serialization (plain JSON). */
export interface ComponentState {
  get<T = unknown>(): T | undefined;
  set(value: unknown): void;
}

/** What a component may read about the canvas around it. */
export interface CanvasAccess {
  component(id: string): ComponentInfo | undefined;
  /** Direct children of a container, in DSL order. */
  children(containerId: string): readonly ComponentInfo[];
  /** The last `2 * windowSize` history entries (RAGFlow get_history). */
  history(windowSize: number): HistoryEntry[];
  outputsOf(id: string): Readonly<Outputs> | undefined;
  /** The registered definition of a component type (e.g. an Agent's tools, a downstream Message's capabilities). */
  componentType(name: string): ComponentDefinition | undefined;
  /** How often a component has started in the current turn (a join counts its sources' arrivals). */
  executions?(id: string): number;
}

export interface ComponentContext<P = Params> {
  readonly id: string;
  readonly componentName: string;
  readonly displayName: string;
  readonly params: P;
  readonly parentId: string | undefined;
  /** Aborted when the run is cancelled or the component times out. */
  readonly signal: AbortSignal;
  /** The run's inputs, for entry and pauser components being given their form values. */
  readonly inputs: Record<string, unknown> | undefined;
  /** The user's query of this turn (`sys.query`). */
  readonly query: string;
  /**
   * Stable for this execution of this component: the task id, the turn, the component id and
   * how often it ran in the turn. A step run again after a crash gets the same key, so a
   * service that remembers keys can drop the duplicate of a side effect.
   */
  readonly idempotencyKey: string;
  /** The session's task id (RAGFlow's task_id: what a memory records as the message's session). */
  readonly taskId: string;
  readonly canvas: CanvasAccess;
  readonly state: ComponentState;
  readonly services: RuntimeServices;

  /** Resolve a bare selector (`cpn@var.path`, `sys.x`, `env.x`) or a parsed reference. */
  get(selector: string | Reference): unknown;
  /** Like `get`, without recording the value under `node_finished.inputs`. */
  peek(selector: string | Reference): unknown;
  /**
   * Split a template into literal text and references (iteration aliases included when this
   * component may use them). Resolve the references with `get` to stream them one by one.
   */
  compile(template: string): CompiledTemplate;
  /** Replace the references in a template; values render as in `stringifyValue` unless `stringify` is given. */
  render(template: string, stringify?: (value: unknown) => string): string;
  /** Write through a reference (a component output, optionally with a path, or a global). */
  set(selector: string | Reference, value: unknown): void;
  /**
   * Append an item to the list a reference holds (nothing there starts a list), in amortised
   * O(1): appending in a loop of any length stays linear. `check` sees the current value first
   * and may throw to refuse; it must not keep the value. Returns what undoes the append.
   */
  append(selector: string | Reference, item: unknown, check?: (current: unknown) => void): () => void;
  /** Set one of this component's outputs. */
  setOutput(key: string, value: unknown): void;
  /**
   * Report progress while running (0..1, or -1 for an error): a node_progress event goes out at
   * once. Optional, for contexts made outside the engine.
   */
  progress?(progress: number, message: string): void;
  /**
   * Pause the run from inside `invoke` (LangGraph's interrupt()): returns the resume value given
   * for this call when the run was resumed; otherwise it throws, the run pauses after this batch
   * showing `value` (user_inputs.interrupts), and on resume this component runs again from its
   * start, its k-th call returning the k-th resume value. Only graphs whose scheduling policy
   * resumes interrupts have it (RAGFlow canvases); elsewhere it fails the component.
   */
  interrupt?(value: unknown): unknown;
  /** Read one of this component's outputs. */
  output(key: string): unknown;
  /** Drop every output this component set so far. */
  clearOutputs(): void;
  /** Record a value shown under `node_finished.data.inputs`. */
  setInput(key: string, value: unknown): void;
  /** Random number in [0, 1); seeded in tests. */
  random(): number;
  /** Count a model call's tokens into the run's `workflow_finished.data.usage`. */
  addUsage(usage: UsageReport): void;
  /** Record retrieved chunks and documents: they reach the next `message_end` as `reference`. */
  addReferences(chunks: readonly ReferenceChunk[], documents?: readonly ReferenceDocument[]): void;
  /** The references gathered since the last message_end (e.g. to decide whether to ask for citations). */
  references(): { readonly chunks: readonly ReferenceChunk[]; readonly doc_aggs: readonly ReferenceDocument[] };
  /**
   * Run `fn` inside a child span of this component's span (a model call, a tool call, a
   * retrieval, an HTTP request); without tracing it just runs `fn`. The span ends when fn
   * settles; a throw marks it failed.
   */
  span?<T>(name: string, attributes: SpanAttributes, fn: (span: SpanScope) => Promise<T>): Promise<T>;
}

/** A component type. Register one with `registerComponent()`. */
export interface ComponentDefinition<P extends Params = Params> {
  /** The DSL's `component_name`, case-sensitive. */
  readonly name: string;
  /** JSON Schema of the params, checked with ajv when a canvas loads. */
  readonly paramsSchema?: JsonSchema;
  /** Defaults merged under the stored params (dicts and lists replace defaults wholesale). */
  readonly defaults?: Partial<P>;
  readonly capabilities?: ComponentCapabilities;
  /** Can be one of an Agent's `tools` (RAGFlow's agent/tools). */
  readonly usableAsTool?: boolean;
  /** For tools: how an Agent offers it to a model and calls it. */
  readonly tool?: AgentToolBinding;
  /** The output an exception default value is written to (default "result"). */
  readonly primaryOutput?: string;
  /** Default execution timeout in ms; the run options and the `exec_timeout` param override it. */
  readonly timeoutMs?: number | ((params: P) => number);
  /** Checks the schema cannot express. Problems are collected into the validation report. */
  check?(params: P, info: CheckInfo): ParamProblem[];
  /**
   * Pipeline steps that choose what to do by a document's name (the Parser's setups, by
   * extension): why a document of that name cannot be taken here, or undefined. A server asks
   * every step of a pipeline before it starts a run on a document, so a document no step can take
   * is refused at once, naming it. Must not throw.
   */
  documentProblem?(params: P, name: string): string | undefined;
  /**
   * The references this component reads before it runs, for readiness and validation.
   * Default: every template reference in its string params and every selector-valued param.
   */
  references?(params: P): Reference[];
  /**
   * The references among `references()` whose values this component reads, when it waits for
   * more than it reads: a write target (VariableAssigner's `variable`) is waited for, so the
   * write comes after its owner ran, but not read. Validation refuses a component that reads
   * its own output (reset when it starts), and lets it write there. Default: `references()`.
   */
  reads?(params: P): Reference[];
  /**
   * The references this component writes (VariableAssigner's targets). A `sys.*` global named
   * here may be created by the run, so validation accepts reads of it anywhere in the canvas.
   */
  writes?(params: P): Reference[];
  /** `node_started.data.thoughts`. Must not throw. */
  thoughts?(params: P): string;
  /**
   * Routers: each branch with a label people read (a Switch case's condition, a Categorize
   * category) and the ids it continues with, for diagrams. Must not throw.
   */
  branches?(params: P): RouteBranch[];
  /**
   * Message sinks: the `message_end` payload after the content was shown (status, attachment,
   * downloads, reference). Default: an empty object.
   */
  messageEnd?(params: P, outputs: Readonly<Outputs>): Record<string, unknown>;
  /** Pausers: the fields still missing. Called before the component runs. */
  requestInput?(ctx: ComponentContext<P>): InputRequest;
  /** Response nodes (`capabilities.response`): what they stream. */
  responseTemplate?(params: P): ResponseTemplate;
  /**
   * The variables this component writes for others to read (an assigner's targets): a response
   * that shows one of them does not stream before this component ran.
   */
  writesVariables?(params: P): Reference[];
  /** Containers of edge-scheduled graphs (invoke returns `{ rounds }`). */
  rounds?: RoundHooks<P>;
  invoke(ctx: ComponentContext<P>): InvokeResult | Promise<InvokeResult>;
}
