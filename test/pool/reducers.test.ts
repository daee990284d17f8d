/**
 * The StateGraph's state reducers (src/pool/reducers.ts): each built-in reducer, applyWrites'
 * Overwrite and one-value-per-step rules, and LangGraph's messages_reducer and channel cases,
 * ported to JSON messages.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  applyWrites,
  BUILTIN_REDUCERS,
  isOverwrite,
  overwrite,
  OVERWRITE_KEY,
  REMOVE_ALL_MESSAGES,
  removeMessage,
  StateUpdateError,
  type StateReducer,
} from "../../src/pool/reducers.js";
import { caught } from "../helpers/caught.js";

const { last, add, append, extend, merge, messages, union } = BUILTIN_REDUCERS;

/** A deep-frozen copy, so that a reducer mutating its input throws. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) frozen(item);
    Object.freeze(value);
  }
  return value;
}

const human = (content: string, id?: string) => ({ type: "human", content, ...(id === undefined ? {} : { id }) });
const ai = (content: string, id?: string) => ({ type: "ai", content, ...(id === undefined ? {} : { id }) });

describe("the built-in reducers", () => {
  it("last: the update replaces the value", () => {
    expect(last(1, 2)).toBe(2);
    expect(last([1], null)).toBeNull();
  });

  it("add: numbers add, texts and lists concatenate, nothing takes the update", () => {
    expect(add(1, 2)).toBe(3);
    expect(add("ab", "c")).toBe("abc");
    expect(add(frozen([1]), frozen([2, 3]))).toEqual([1, 2, 3]);
    expect(add(null, 5)).toBe(5);
    expect(add(undefined, ["x"])).toEqual(["x"]);
  });

  it("add: mismatched kinds are a TypeError naming both", () => {
    const error = caught(() => add(1, "2"));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain("a number");
    expect(error.message).toContain("text");
    expect(caught(() => add({ a: 1 }, { b: 2 })).message).toMatch(/an object.*an object/);
    expect(caught(() => add([1], null)).message).toMatch(/a list.*nothing/);
  });

  it("append: one item, a list update included; nothing starts a list", () => {
    expect(append(frozen([1]), 2)).toEqual([1, 2]);
    expect(append(frozen([1]), [2, 3])).toEqual([1, [2, 3]]);
    expect(append(null, "a")).toEqual(["a"]);
    expect(caught(() => append("text", 1))).toBeInstanceOf(TypeError);
  });

  it("extend: a list update's items, any other update as one item", () => {
    expect(extend(frozen([1]), [2, 3])).toEqual([1, 2, 3]);
    expect(extend(frozen([1]), 2)).toEqual([1, 2]);
    expect(extend(undefined, [])).toEqual([]);
    expect(caught(() => extend({}, [1])).message).toContain("an object");
  });

  it("merge: shallow, the update's keys win; nothing takes the update; other kinds throw", () => {
    expect(merge(frozen({ a: 1, b: { c: 1 } }), { b: { d: 2 }, e: 3 })).toEqual({ a: 1, b: { d: 2 }, e: 3 });
    expect(merge(null, { a: 1 })).toEqual({ a: 1 });
    expect(caught(() => merge({ a: 1 }, [1]))).toBeInstanceOf(TypeError);
    expect(caught(() => merge(null, "x")).message).toMatch(/nothing and text/);
  });

  it("union: first occurrences in order, equal by JSON whatever the key order", () => {
    expect(union(frozen([1, 2]), [2, 3, 1, 4])).toEqual([1, 2, 3, 4]);
    expect(union(null, [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 2 }])).toEqual([{ a: 1, b: 2 }, { a: 2 }]);
    expect(union([[1]], [[1], [2]])).toEqual([[1], [2]]);
    expect(union(["a"], "b")).toEqual(["a", "b"]);
  });

  it("property: add over integers is order-independent", () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.integer()), (start, numbers) => {
        const forward = numbers.reduce<unknown>(add, start);
        const backward = [...numbers].reverse().reduce<unknown>(add, start);
        expect(forward).toBe(backward);
        expect(forward).toBe(numbers.reduce((sum, n) => sum + n, start));
      }),
    );
  });

  it("property: extend keeps order and length, and leaves its input alone", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.array(fc.array(fc.jsonValue())), (start, updates) => {
        const before = structuredClone(start);
        const result = updates.reduce<unknown>(extend, start);
        expect(result).toEqual([...before, ...updates.flat()]);
        expect(start).toEqual(before);
      }),
    );
  });

  it("property: union holds each distinct item once and keeps every item", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 })), fc.array(fc.integer({ min: 0, max: 9 })), (left, right) => {
        const result = union(left, right) as number[];
        expect(new Set(result).size).toBe(result.length);
        expect(new Set(result)).toEqual(new Set([...left, ...right]));
        expect(union(result, right)).toEqual(result);
      }),
    );
  });
});

describe("messages (LangGraph's messages_reducer.test.ts, on JSON messages)", () => {
  it("adds a single message", () => {
    const left = [human("Hello", "1")];
    const right = ai("Hi there!", "2");
    expect(messages(frozen(left), right)).toEqual([human("Hello", "1"), ai("Hi there!", "2")]);
  });

  it("updates an existing message by id, in place", () => {
    const left = [human("Hello", "1"), ai("Hi", "2")];
    const right = [human("Hello again", "1")];
    expect(messages(frozen(left), right)).toEqual([human("Hello again", "1"), ai("Hi", "2")]);
  });

  it("assigns missing ids on both sides", () => {
    const left = [human("Hello")];
    const right = [ai("Hi there!")];
    const result = messages(frozen(left), frozen(right)) as Array<{ id?: unknown }>;
    expect(result).toHaveLength(2);
    for (const message of result) expect(typeof message.id === "string" && message.id.length > 0).toBe(true);
    expect(result[0].id).not.toBe(result[1].id);
    expect(left[0]).not.toHaveProperty("id");
  });

  it("handles duplicates with a removal: the last one stays", () => {
    const left = [ai("Hi there!", "1")];
    const right = [removeMessage("1"), ai("Hi there!", "1"), ai("Hi there again!", "1")];
    expect(messages(frozen(left), right)).toEqual([ai("Hi there again!", "1")]);
  });

  it("removes a message", () => {
    const left = [human("Hello", "1"), ai("Hi there!", "2")];
    expect(messages(frozen(left), [removeMessage("2")])).toEqual([human("Hello", "1")]);
  });

  it("throws on removing a message that does not exist", () => {
    const left = [human("Hello", "1"), ai("Hi there!", "2")];
    expect(caught(() => messages(left, [removeMessage("3")])).message).toBe("Attempting to delete a message with an ID that doesn't exist ('3')");
  });

  it("removes all messages before REMOVE_ALL_MESSAGES, in the update too", () => {
    const left = [human("Hello", "1"), ai("Hi there!", "2")];
    const right = [human("dropped", "3"), removeMessage(REMOVE_ALL_MESSAGES), human("What's the weather?", "4")];
    expect(messages(frozen(left), right)).toEqual([human("What's the weather?", "4")]);
    expect(messages(left, [removeMessage(REMOVE_ALL_MESSAGES)])).toEqual([]);
  });

  it("removes a message the same update added", () => {
    expect(messages([], [human("a", "1"), removeMessage("1")])).toEqual([]);
  });

  it("reads nothing as no messages, a bare message as a list of one, a text as a user's message", () => {
    expect(messages(null, { role: "assistant", content: "hi", id: "a" })).toEqual([{ role: "assistant", content: "hi", id: "a" }]);
    const [message] = messages(undefined, "hello") as Array<Record<string, unknown>>;
    expect(message).toMatchObject({ role: "user", content: "hello" });
    expect(typeof message.id).toBe("string");
  });

  it("refuses what is not a message, and a removal without an id", () => {
    expect(caught(() => messages([], [42])).message).toContain("a number");
    expect(caught(() => messages([human("a", "1")], { type: "remove" })).message).toContain("needs the id");
  });
});

describe("applyWrites", () => {
  const concat: StateReducer = (current, update) => (current as unknown[]).concat(update);

  it("last: one write replaces the value; no write keeps it", () => {
    expect(applyWrites("answer", "last", last, "old", ["new"])).toBe("new");
    const current = { a: 1 };
    expect(applyWrites("answer", "last", last, current, [])).toBe(current);
  });

  it("last: stores falsy values (0, empty text, false, null)", () => {
    for (const value of [0, "", false, null]) expect(applyWrites("flag", "last", last, "before", [value])).toBe(value);
  });

  it("last: two writes in one step are INVALID_CONCURRENT_GRAPH_UPDATE naming the key", () => {
    const error = caught(() => applyWrites("answer", "last", last, undefined, ["a", "b"]));
    expect(error).toBeInstanceOf(StateUpdateError);
    expect(error).toMatchObject({ code: "INVALID_CONCURRENT_GRAPH_UPDATE", key: "answer" });
    expect(error.message).toContain('"answer"');
    expect(error.message).toContain("only one value per step");
  });

  it("folds the writes through the reducer in the order given, leaving the current value alone", () => {
    const current = frozen(["a"]);
    expect(applyWrites("log", "extend", extend, current, [["b"], "c", ["d", "e"]])).toEqual(["a", "b", "c", "d", "e"]);
    expect(current).toEqual(["a"]);
    expect(applyWrites("total", "add", add, undefined, [1, 2, 3])).toBe(6);
  });

  it("an Overwrite bypasses the reducer", () => {
    const reducer = vi.fn(concat);
    expect(applyWrites("items", "extend", reducer, ["a", "b"], [overwrite(["replaced"])])).toEqual(["replaced"]);
    expect(reducer).not.toHaveBeenCalled();
  });

  it("an Overwrite wins over the plain writes before and after it", () => {
    const reducer = vi.fn(add);
    expect(applyWrites("total", "add", reducer, 0, [10, overwrite(42)])).toBe(42);
    expect(applyWrites("total", "add", reducer, 0, [overwrite(42), 10])).toBe(42);
    expect(applyWrites("answer", "last", last, "x", ["y", overwrite("z")])).toBe("z");
    expect(reducer).not.toHaveBeenCalled();
  });

  it("two Overwrites in one step are INVALID_UPDATE naming the key", () => {
    const error = caught(() => applyWrites("items", "extend", extend, [], [overwrite([1]), "x", overwrite([2])]));
    expect(error).toBeInstanceOf(StateUpdateError);
    expect(error).toMatchObject({ code: "INVALID_UPDATE", key: "items" });
    expect(error.message).toContain('"items"');
  });

  it("the reducer resumes accumulating after an Overwrite", () => {
    const afterOverwrite = applyWrites("items", "extend", concat, ["a", "b"], [overwrite(["x"])]);
    expect(applyWrites("items", "extend", concat, afterOverwrite, ["y"])).toEqual(["x", "y"]);
  });

  it("a reducer's error becomes INVALID_UPDATE naming the key and the reducer, its error the cause", () => {
    const error = caught(() => applyWrites("total", "add", add, 1, ["two"]));
    expect(error).toBeInstanceOf(StateUpdateError);
    expect(error).toMatchObject({ code: "INVALID_UPDATE", key: "total" });
    expect(error.message).toMatch(/"total".*"add".*"two".*a number with text/);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(caught(() => applyWrites("chat", "messages", messages, [], [[removeMessage("9")]])).message).toContain("doesn't exist ('9')");
  });

  it("overwrite() and isOverwrite() speak the wire form", () => {
    expect(overwrite(1)).toEqual({ [OVERWRITE_KEY]: 1 });
    expect(JSON.parse(JSON.stringify(overwrite([1])))).toEqual({ __overwrite__: [1] });
    expect(isOverwrite({ __overwrite__: null })).toBe(true);
    expect(isOverwrite({ value: 1 })).toBe(false);
    expect(isOverwrite(null)).toBe(false);
    expect(isOverwrite([OVERWRITE_KEY])).toBe(false);
  });
});
