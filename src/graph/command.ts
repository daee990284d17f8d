/**
 * What a node of a StateGraph may return besides a plain update: a Command (update the state and
 * go to named nodes), Sends (run a node once per payload, given the payload instead of the state),
 * and the START and END names. LangGraph's names and meanings.
 */

/** The graph's start: `addEdge(START, "first")`. */
export const START = "__start__";
/** The graph's end: a route to END adds no node. */
export const END = "__end__";

/** Run `node` with `arg` as its input instead of the state (map-reduce). */
export class Send<Node extends string = string, Arg = unknown> {
  readonly lg_name = "Send";
  constructor(
    readonly node: Node,
    readonly arg: Arg,
  ) {}
}

export interface CommandOptions<Update, Node extends string> {
  /** Written to the state like a node's return value; a list of [key, value] pairs writes a key twice. */
  update?: Update | ReadonlyArray<readonly [string, unknown]>;
  /** Where to go next (besides the node's edges): a node, several, Sends, or END. */
  goto?: Node | typeof END | Send<Node> | ReadonlyArray<Node | typeof END | Send<Node>>;
  /** Command.PARENT: the goto and update are the enclosing graph's (a subgraph node returns it). */
  graph?: typeof Command.PARENT;
  /** As a run input: the value a pending interrupt() returns. */
  resume?: unknown;
}

export class Command<Update = Record<string, unknown>, Node extends string = string> {
  static readonly PARENT = "__parent__";
  readonly lg_name = "Command";
  readonly update?: Update | ReadonlyArray<readonly [string, unknown]>;
  readonly goto: ReadonlyArray<string | Send>;
  readonly graph?: typeof Command.PARENT;
  readonly resume?: unknown;

  constructor(options: CommandOptions<Update, Node>) {
    if (options.update !== undefined) this.update = options.update;
    const goto = options.goto;
    this.goto = goto === undefined ? [] : Array.isArray(goto) ? [...goto] : [goto as string | Send];
    if (options.graph !== undefined) this.graph = options.graph;
    if (Object.hasOwn(options, "resume")) this.resume = options.resume;
  }
}

export function isCommand(value: unknown): value is Command<unknown> {
  return value instanceof Command;
}

export function isSend(value: unknown): value is Send {
  return value instanceof Send;
}
