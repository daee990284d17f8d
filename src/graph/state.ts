/**
 * The state of a StateGraph: typed keys, each a conversation variable (`env.<key>`) with a
 * named reducer that merges what nodes write (LangGraph's Annotation channels). The names are
 * what the DSL stores; a custom reducer is a named function every process registers.
 */
import type { StateReducer } from "../contracts/values.js";
import type { Message } from "./messages.js";

/** A reducer registered by name: `(current, update) => next` over plain JSON values. */
export interface NamedReducer<T = unknown, U = T> {
  readonly name: string;
  readonly reduce: (current: T, update: U) => T;
}

/** A custom reducer, stored in the DSL by its name; `compile().register()` registers it. */
export function reducer<T, U = T>(name: string, reduce: (current: T, update: U) => T): NamedReducer<T, U> {
  if (typeof name !== "string" || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`reducer(${JSON.stringify(name)}): a reducer name starts with a letter and holds only letters, digits and "_"`);
  if (typeof reduce !== "function") throw new TypeError(`reducer("${name}"): the reducer must be a function (current, update) => next`);
  return Object.freeze({ name, reduce });
}

/** The built-in reducers a key of type T may use. */
export type BuiltinReducerFor<T> =
  | "last"
  | (T extends readonly unknown[] ? "extend" | "append" | "union" | "add" : never)
  | (T extends number | string ? "add" : never)
  | ([T] extends [readonly unknown[]] ? never : T extends object ? "merge" : never);

/** What a node may write to a key whose reducer is R. */
export type UpdateFor<T, R> = R extends "extend" | "add"
  ? T extends readonly (infer Item)[]
    ? T | Item
    : T
  : R extends "append"
    ? T extends readonly (infer Item)[]
      ? Item
      : never
    : R extends "union"
      ? T
      : R extends "merge"
        ? Partial<T>
        : R extends NamedReducer<unknown, infer U>
          ? U
          : T;

/** One key of the state: its value type T, what a write carries (U), its reducer and default. */
export interface StateKeySpec<T = unknown, U = T> {
  readonly reducer: string;
  /** The DSL's type of the variable (string, number, boolean, object, array<…>). */
  readonly type: string;
  readonly default: T | undefined;
  /** A custom reducer's function, registered by compile().register(). */
  readonly custom?: StateReducer;
  readonly description?: string;
  /** Type only. */
  readonly __value?: T;
  /** Type only. */
  readonly __update?: U;
}

export interface KeyOptions<T, R> {
  /** How writes merge: a built-in reducer fitting T, or a `reducer(name, fn)`. Default: last value. */
  reducer?: R;
  /** The value before anything was written (default: the type's zero value, null for any). */
  default?: T;
  /** The DSL's variable type, when the default's kind does not say it. */
  type?: string;
  description?: string;
}


/**
 * A state key of type T and how writes merge into it: `key<string[]>({ reducer: "extend" })`.
 * The reducer must fit T (extend, append, union for lists; add for lists, numbers and texts;
 * merge for objects; last for anything; a custom `reducer(name, fn)` of T), else the call does not
 * type-check. A write takes what the reducer takes: a list or one item for extend, one item for
 * append, part of the object for merge.
 */
function key<T extends readonly unknown[]>(options: KeyOptions<T, "extend" | "add"> & { reducer: "extend" | "add" }): StateKeySpec<T, T | T[number]>;
function key<T extends readonly unknown[]>(options: KeyOptions<T, "append"> & { reducer: "append" }): StateKeySpec<T, T[number]>;
function key<T extends readonly unknown[]>(options: KeyOptions<T, "union"> & { reducer: "union" }): StateKeySpec<T, T>;
function key<T extends number | string>(options: KeyOptions<T, "add"> & { reducer: "add" }): StateKeySpec<T, T>;
function key<T extends object>(options: KeyOptions<T, "merge"> & { reducer: T extends readonly unknown[] ? never : "merge" }): StateKeySpec<T, Partial<T>>;
function key<T, U>(options: KeyOptions<T, NamedReducer<T, U>> & { reducer: NamedReducer<T, U> }): StateKeySpec<T, U>;
function key<T>(options?: KeyOptions<T, "last">): StateKeySpec<T, T>;
function key<T>(options: KeyOptions<T, string | NamedReducer<T, unknown>> = {}): StateKeySpec<T, unknown> {
  const chosen = options.reducer ?? "last";
  const named = typeof chosen === "object" && chosen !== null;
  if (named && typeof (chosen as NamedReducer).reduce !== "function") throw new TypeError("state key: a custom reducer is made with reducer(name, fn)");
  const reducerName = named ? (chosen as NamedReducer).name : (chosen as string);
  if (!named && !BUILTIN_NAMES.has(reducerName)) throw new TypeError(`state key: unknown reducer ${JSON.stringify(reducerName)} (built in: ${[...BUILTIN_NAMES].join(", ")}; others with reducer(name, fn))`);
  return Object.freeze({
    reducer: reducerName,
    type: options.type ?? typeOf(options.default),
    default: options.default,
    ...(named ? { custom: (chosen as NamedReducer).reduce as StateReducer } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
  });
}

const BUILTIN_NAMES: ReadonlySet<string> = new Set(["last", "add", "append", "extend", "merge", "messages", "union", "queue"]);

function typeOf(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (Array.isArray(value)) return "array<any>";
  if (value !== null && typeof value === "object") return "object";
  return "any";
}

/** The state's keys by name. */
export type StateShape = Record<string, StateKeySpec<any, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The state a node reads: each key's value. */
export type StateOf<S extends StateShape> = { -readonly [K in keyof S]: S[K] extends StateKeySpec<infer T, unknown> ? T : never };

/** What a node returns: some of the keys, each as its reducer takes it (or an overwrite). */
export type UpdateOf<S extends StateShape> = { -readonly [K in keyof S]?: (S[K] extends StateKeySpec<unknown, infer U> ? U : never) | Overwrite };

/** LangGraph's Overwrite: replaces a key's value whatever its reducer (the DSL's `{ "__overwrite__": v }`). */
export interface Overwrite {
  readonly __overwrite__: unknown;
}

/** The state schema: keys, and which of them the run's inputs and final output show. */
export interface StateSchema<S extends StateShape = StateShape> {
  readonly keys: S;
}

/**
 * The state of a graph: `state({ question: state.text(), docs: state.list<string>() })`.
 * Every key becomes a declared conversation variable carrying its reducer.
 */
export function state<const S extends StateShape>(keys: S): StateSchema<S> {
  for (const [name, spec] of Object.entries(keys)) {
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new TypeError(`state(): key "${name}": a key holds letters, digits and "_" only (it becomes env.${name})`);
    if (name.includes("__")) throw new TypeError(`state(): key "${name}": names holding "__" are the graph's own (a subgraph's keys, Send queues)`);
    if (!spec || typeof spec.reducer !== "string") throw new TypeError(`state(): key "${name}" must be made with state.key(), state.text(), state.list()…`);
  }
  return Object.freeze({ keys });
}

state.key = key;

/** A text, last value unless `reducer: "add"` (concatenation). */
state.text = (options: KeyOptions<string, "last" | "add"> = {}): StateKeySpec<string, string> => key<string>({ default: "", ...options } as KeyOptions<string, "last">);

/** A number, last value unless `reducer: "add"` (a running sum). */
state.number = (options: KeyOptions<number, "last" | "add"> = {}): StateKeySpec<number, number> => key<number>({ default: 0, ...options } as KeyOptions<number, "last">);

/** A list; by default `reducer: "extend"` (a write of a list or of one item adds to it). */
state.list = <Item>(options: KeyOptions<Item[], "extend" | "add"> = {}): StateKeySpec<Item[], Item[] | Item> =>
  key<Item[]>({ reducer: "extend", default: [], type: "array<any>", ...options } as KeyOptions<Item[], "extend"> & { reducer: "extend" });

/** Any JSON value, last value (LangGraph's plain `Annotation<T>`). */
state.value = <T>(options: Omit<KeyOptions<T, "last">, "reducer"> = {}): StateKeySpec<T, T> => key<T>({ ...options, reducer: "last" });

/** Messages: added, replaced by id, removed (LangGraph's messagesStateReducer). */
state.messages = (options: Omit<KeyOptions<Message[], never>, "reducer"> = {}): StateKeySpec<Message[], Message | Message[]> =>
  Object.freeze({ reducer: "messages", type: "array<object>", default: options.default ?? [], ...(options.description !== undefined ? { description: options.description } : {}) });
