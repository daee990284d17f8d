/**
 * LangGraph.js conformance: the messages reducer (messagesStateReducer), driven through a
 * StateGraph's `state.messages()` key: the run's input is the left side (it reaches the state
 * through the reducer, from an empty list), one node's return value the right side.
 *
 * Ported from LangGraph.js (https://github.com/langchain-ai/langgraphjs) at commit
 * f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d, libs/langgraph-core/src/. Copyright (c) 2024 LangChain,
 * MIT licence (full text in LICENSE-langgraphjs.txt beside this file). Each test names the
 * case number of research/code-first.md §2.4, the file and the test it ports. LangChain's message
 * classes are plain JSON messages here (`{ id, type, content }`), RemoveMessage is removeMessage(id).
 */
import { describe, expect, it } from "vitest";
import { END, REMOVE_ALL_MESSAGES, removeMessage, START, state, StateGraph, type Message } from "../../../src/graph/index.js";
import { thread } from "./harness.js";

const human = (content: string, id?: string): Message => ({ type: "human", content, ...(id === undefined ? {} : { id }) });
const ai = (content: string, id?: string): Message => ({ type: "ai", content, ...(id === undefined ? {} : { id }) });

/** messagesStateReducer(left, right) as a graph: `left` is the run's input, `right` what the one node returns. */
async function reduce(left: unknown[], right: unknown): Promise<{ messages: Message[] | undefined; error: string | undefined }> {
  const app = new StateGraph(state({ messages: state.messages() }))
    .addNode("right", () => ({ messages: right as Message[] }))
    .addEdge(START, "right")
    .addEdge("right", END)
    .compile();
  const result = await thread(app).invoke({ messages: left as Message[] });
  return { messages: result.values.messages as Message[] | undefined, error: result.error };
}

describe("graph/messages_reducer.test.ts › messagesStateReducer", () => {
  // #1, lines 15–24
  it("should add a single message", async () => {
    const left = [human("Hello", "1")];
    const right = ai("Hi there!", "2");
    const result = await reduce(left, right);
    expect(result.error).toBeUndefined();
    const expected = [human("Hello", "1"), ai("Hi there!", "2")];
    expect(result.messages).toEqual(expected);
  });

  // #2, lines 41–47
  it("should update existing message", async () => {
    const left = [human("Hello", "1")];
    const right = human("Hello again", "1");
    const result = await reduce(left, right);
    expect(result.error).toBeUndefined();
    const expected = [human("Hello again", "1")];
    expect(result.messages).toEqual(expected);
  });

  // #3, lines 49–57
  it("should assign missing IDs", async () => {
    const left = [human("Hello")];
    const right = [ai("Hi there!")];
    const result = await reduce(left, right);
    expect(result.error).toBeUndefined();
    expect(result.messages).toHaveLength(2);
    expect(result.messages!.every((m) => typeof m.id === "string" && m.id.length > 0)).toBe(true);
    expect(result.messages!.map((m) => m.content)).toEqual(["Hello", "Hi there!"]);
  });

  // #4, lines 71–82
  it("should handle duplicates with remove", async () => {
    const left = [ai("Hello!", "1")];
    const right = [removeMessage("1"), ai("Hi there!", "1"), ai("Hi there again!", "1")];
    const result = await reduce(left, right);
    expect(result.error).toBeUndefined();
    expect(result.messages).toHaveLength(1);
    expect(result.messages![0].id).toBe("1");
    expect(result.messages![0].content).toBe("Hi there again!");
  });

  // #5, lines 84–93
  it("should remove message", async () => {
    const left = [human("Hello", "1"), ai("Hi there!", "2")];
    const right = removeMessage("2");
    const result = await reduce(left, right);
    expect(result.error).toBeUndefined();
    const expected = [human("Hello", "1")];
    expect(result.messages).toEqual(expected);
  });

  // #6, lines 109–115
  it("should throw on removing nonexistent message", async () => {
    const left = [human("Hello", "1")];
    const right = removeMessage("2");
    const result = await reduce(left, right);
    // The reducer's error fails the run (the state keeps the input); canvasflow names the key and
    // LangGraph's code, INVALID_UPDATE, around the reducer's message.
    expect(result.error).toContain("Attempting to delete a message with an ID that doesn't exist");
    expect(result.error).toContain("INVALID_UPDATE");
    expect(result.messages).toEqual(left);
  });

  // #7, lines 162–193
  it("should remove all messages", async () => {
    // simple removal
    const simple = await reduce([human("Hello"), ai("Hi there!")], [removeMessage(REMOVE_ALL_MESSAGES)]);
    expect(simple.error).toBeUndefined();
    expect(simple.messages).toEqual([]);

    // removal and update (i.e. overwriting)
    const overwriting = await reduce([human("Hello"), ai("Hi there!")], [removeMessage(REMOVE_ALL_MESSAGES), human("Updated hello", "1")]);
    expect(overwriting.error).toBeUndefined();
    expect(overwriting.messages).toEqual([human("Updated hello", "1")]);

    // test removing preceding messages in the right list
    const preceding = await reduce([human("Hello"), ai("Hi there!")], [human("Updated hello"), removeMessage(REMOVE_ALL_MESSAGES), human("Updated hi there", "1")]);
    expect(preceding.error).toBeUndefined();
    expect(preceding.messages).toEqual([human("Updated hi there", "1")]);
  });
});
