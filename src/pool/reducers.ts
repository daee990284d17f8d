/**
 * The state reducers of the code-first StateGraph: each state key (a conversation variable,
 * `env.<key>`) names a reducer, and the engine folds one batch's writes to a key into its value
 * at the batch's end with `applyWrites`. The semantics are LangGraph's (its LastValue and
 * BinaryOperatorAggregate channels, its Overwrite, its messages reducer), on plain JSON values.
 * Pure: no reducer mutates the value it is given, so a checkpoint or a reader keeps what it saw.
 */
import { nanoid } from "nanoid";
import { isNothing, isPlainObject, showValue, valueKind } from "../util/values.js";

import type { StateReducer } from "../contracts/values.js";

export type { StateReducer };

/** The wire form of LangGraph's Overwrite: `{ "__overwrite__": value }` bypasses a key's reducer. */
export const OVERWRITE_KEY = "__overwrite__";

/** A write that replaces a key's value whatever its reducer. */
export function overwrite(value: unknown): { __overwrite__: unknown } {
  return { [OVERWRITE_KEY]: value };
}

/**
 * Whether a write is an Overwrite: a plain object with an own `__overwrite__` key (LangGraph
 * checks only for the key too, so the name is reserved in every key's updates).
 */
export function isOverwrite(value: unknown): value is { __overwrite__: unknown } {
  return isPlainObject(value) && Object.hasOwn(value, OVERWRITE_KEY);
}

/** Thrown when one batch's writes to a key cannot be merged; `code` is LangGraph's error code. */
export class StateUpdateError extends Error {
  override readonly name = "StateUpdateError";

  constructor(
    readonly code: "INVALID_CONCURRENT_GRAPH_UPDATE" | "INVALID_UPDATE",
    readonly key: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Fold one batch's writes to `key` (in the order given) into its current value.
 * - An Overwrite among them: it wins, the plain values before and after it are ignored and the
 *   reducer is not called; two Overwrites in one batch: StateUpdateError INVALID_UPDATE.
 * - reducerName "last": more than one write in a batch is StateUpdateError
 *   INVALID_CONCURRENT_GRAPH_UPDATE; one write replaces the value.
 * - otherwise: acc = reducer(acc, v) for each v in order. A reducer that throws becomes a
 *   StateUpdateError INVALID_UPDATE naming the key, with the reducer's error as its cause.
 * No writes: the current value, unchanged.
 */
export function applyWrites(key: string, reducerName: string, reducer: StateReducer, current: unknown, writes: readonly unknown[]): unknown {
  const overwrites = writes.filter(isOverwrite);
  if (overwrites.length > 1) {
    throw new StateUpdateError("INVALID_UPDATE", key, `State key "${key}" received ${overwrites.length} Overwrite values in one step; it can receive only one`);
  }
  if (overwrites.length === 1) return overwrites[0][OVERWRITE_KEY];
  if (writes.length === 0) return current;
  if (reducerName === "last") {
    if (writes.length > 1) {
      throw new StateUpdateError(
        "INVALID_CONCURRENT_GRAPH_UPDATE",
        key,
        `State key "${key}" can receive only one value per step, and received ${writes.length}; declare a reducer for it to handle multiple values`,
      );
    }
    return writes[0];
  }
  let value = current;
  for (const write of writes) {
    try {
      value = reducer(value, write);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new StateUpdateError("INVALID_UPDATE", key, `State key "${key}" (reducer "${reducerName}") cannot take the write ${showValue(write)}: ${reason}`, { cause: error });
    }
  }
  return value;
}

/** The list a list reducer extends: nothing starts an empty one; any other value is refused. */
function listToExtend(reducerName: string, current: unknown): readonly unknown[] {
  if (isNothing(current)) return [];
  if (Array.isArray(current)) return current;
  throw new TypeError(`${reducerName} needs a list to add to, got ${valueKind(current)}`);
}

/** Python's operator.add on JSON: numbers add, texts and lists concatenate. */
function add(current: unknown, update: unknown): unknown {
  if (isNothing(current)) return update;
  if (typeof current === "number" && typeof update === "number") return current + update;
  if (typeof current === "string" && typeof update === "string") return current + update;
  if (Array.isArray(current) && Array.isArray(update)) return [...current, ...update];
  throw new TypeError(`add cannot combine ${valueKind(current)} with ${valueKind(update)}`);
}

/** Shallow object merge, the update's keys winning. */
function merge(current: unknown, update: unknown): unknown {
  if (isNothing(current) && isPlainObject(update)) return update;
  if (isPlainObject(current) && isPlainObject(update)) return { ...current, ...update };
  throw new TypeError(`merge needs two objects, got ${valueKind(current)} and ${valueKind(update)}`);
}

/** JSON with every object's keys sorted, so that equal values read the same whatever their key order. */
function canonicalJson(value: unknown): string {
  const sorted = JSON.stringify(value, (_key, item: unknown) =>
    isPlainObject(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item,
  );
  return sorted ?? "undefined";
}

/** The list with later copies of an equal item left out: a set's union, in first-seen order. */
function union(current: unknown, update: unknown): unknown {
  const items = [...listToExtend("union", current), ...(Array.isArray(update) ? update : [update])];
  const seen = new Set<string>();
  return items.filter((item) => {
    const text = canonicalJson(item);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

/**
 * The id of RemoveMessage that clears the messages: everything before it (the current list and
 * the update's messages before it) goes, only what comes after it in the update stays.
 */
export const REMOVE_ALL_MESSAGES = "__remove_all__";

/** LangGraph's RemoveMessage as JSON: a messages update that deletes the message with this id. */
export function removeMessage(id: string): { type: "remove"; id: string } {
  return { type: "remove", id };
}

type JsonMessage = Record<string, unknown>;

function isRemoval(message: JsonMessage): boolean {
  return message.type === "remove";
}

/**
 * One side of a messages update as a list of messages, each with an id (random: LangGraph's are
 * random uuids too). A bare text is a user's message, as LangGraph reads a string as a human one.
 */
function messageList(value: unknown): JsonMessage[] {
  const items: unknown[] = isNothing(value) ? [] : Array.isArray(value) ? value : [value];
  return items.map((item) => {
    const message = typeof item === "string" ? { role: "user", content: item } : item;
    if (!isPlainObject(message)) {
      throw new TypeError(`messages holds message objects ({ role or type, content }), got ${valueKind(item)}: ${showValue(item)}`);
    }
    if (!isNothing(message.id)) return message;
    // An id-less removal would get a random id and fail as "doesn't exist": say what is missing.
    if (isRemoval(message)) throw new Error(`A remove message needs the id of the message it removes: ${showValue(message)}`);
    return { ...message, id: nanoid() };
  });
}

/**
 * LangGraph's messagesStateReducer on JSON messages: an update's message replaces the one with
 * its id in place or is appended; a removal deletes its id (which must exist by then); a
 * REMOVE_ALL_MESSAGES removal keeps only the update's messages after it.
 */
function messages(current: unknown, update: unknown): unknown {
  const left = messageList(current);
  const right = messageList(update);
  const removeAllAt = right.findLastIndex((message) => isRemoval(message) && message.id === REMOVE_ALL_MESSAGES);
  if (removeAllAt >= 0) return right.slice(removeAllAt + 1);

  const merged = [...left];
  const placeOf = new Map(merged.map((message, index) => [message.id, index]));
  // Removals apply at the end, so that a later message with the same id brings it back in place.
  const removedIds = new Set<unknown>();
  for (const message of right) {
    const place = placeOf.get(message.id);
    if (place === undefined) {
      if (isRemoval(message)) throw new Error(`Attempting to delete a message with an ID that doesn't exist ('${String(message.id)}')`);
      placeOf.set(message.id, merged.length);
      merged.push(message);
    } else if (isRemoval(message)) {
      removedIds.add(message.id);
    } else {
      removedIds.delete(message.id);
      merged[place] = message;
    }
  }
  return removedIds.size === 0 ? merged : merged.filter((message) => !removedIds.has(message.id));
}

/** The reducer names every canvas knows. "last" is the default (a key declared without reducer). */
/**
 * A queue: a list update's items are appended; `{ "__take__": n }` drops the first n (what its
 * reader took). Appends and a take in one batch give the same queue in any order, since a take
 * only ever removes items that were there before the batch (StateGraph's Send payloads).
 */
function queue(current: unknown, update: unknown): unknown[] {
  const list = listToExtend("queue", current);
  if (isPlainObject(update) && Object.hasOwn(update, TAKE_KEY)) {
    const count = update[TAKE_KEY];
    if (typeof count !== "number" || !Number.isInteger(count) || count < 0) throw new TypeError(`a take must be a whole number of items, got ${showValue(count)}`);
    return list.slice(count);
  }
  if (!Array.isArray(update)) throw new TypeError(`a queue takes a list of items or { "${TAKE_KEY}": n }, got ${valueKind(update)}`);
  return list.concat(update);
}

/** The queue reducer's take: `{ "__take__": n }`. */
export const TAKE_KEY = "__take__";

export const BUILTIN_REDUCERS: Readonly<Record<"last" | "add" | "append" | "extend" | "merge" | "messages" | "union" | "queue", StateReducer>> = Object.freeze({
  last: (_current: unknown, update: unknown) => update,
  add,
  /** One item, whatever it is: a list update is one item. */
  append: (current: unknown, update: unknown) => [...listToExtend("append", current), update],
  /** A list update's items; any other update as one item, as LangGraph's usual `a.concat(b)` does. */
  extend: (current: unknown, update: unknown) => listToExtend("extend", current).concat(Array.isArray(update) ? update : [update]),
  merge,
  messages,
  union,
  queue,
});
