/**
 * The builder's types: a wrong param name or type for a built-in, a `sys()` key that does not
 * exist, an input or declared output `ref()` does not know, an undeclared `c.env()` are
 * TypeScript errors. `tsc --noEmit -p .` checks every `@ts-expect-error` line (an unused one is
 * an error too); vitest checks the expectTypeOf assertions and that each refused call also fails
 * at run time or at build().
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { canvas, ref, sys, type NodeHandle, type ParamsOf } from "../../src/graph/index.js";
import type { ComponentRef, GlobalRef } from "../../src/graph/references.js";

describe("canvasflow/graph's types", () => {
  it("params are typed per component from its schema", () => {
    expectTypeOf<ParamsOf<"Retrieval">>().toHaveProperty("kb_ids");
    expectTypeOf<ParamsOf<"Message">>().toHaveProperty("content");
    expectTypeOf<ParamsOf<"Iteration">["items_ref"]>().toEqualTypeOf<string | ComponentRef | GlobalRef | import("../../src/graph/references.js").Text>();
    const c = canvas();
    // @ts-expect-error a param Retrieval does not have (a misspelt top_n)
    c.add("Retrieval:Docs", "Retrieval", { top_m: 4 });
    // @ts-expect-error a param of the wrong type (kb_ids is a list of ids)
    c.add("Retrieval:More", "Retrieval", { kb_ids: "handbook" });
    // @ts-expect-error a Begin mode that does not exist
    canvas({ mode: "batch" });
    // @ts-expect-error a component that is not built in
    c.add("Weather:Now", "Weather", {});
    expect(c.build).toBeTypeOf("function");
  });

  it("sys() takes only the system globals", () => {
    expectTypeOf(sys).parameter(0).toEqualTypeOf<"query" | "user_id" | "conversation_turns" | "files" | "history" | "date">();
    // @ts-expect-error sys.question does not exist
    expect(() => sys("question")).toThrow("no such system global");
  });

  it("ref() to Begin takes its input keys, to a component the outputs it was added with; c.env() the declared variables", () => {
    const c = canvas({ inputs: { city: { name: "City", type: "line" } }, variables: { topics: { type: "array<string>" } } });
    expectTypeOf(c.begin).toEqualTypeOf<NodeHandle<"begin", "Begin", "city">>();
    ref(c.begin, "city");
    // @ts-expect-error Begin has no input "town"
    ref(c.begin, "town");
    const docs = c.add<"Retrieval:Docs", "Retrieval", "formalized_content" | "json">("Retrieval:Docs", "Retrieval", { kb_ids: ["handbook"] });
    ref(docs, "formalized_content");
    // @ts-expect-error Retrieval:Docs was added with outputs formalized_content and json
    ref(docs, "content");
    c.env("topics");
    // @ts-expect-error the canvas declares no variable "visits"
    expect(() => c.env("visits")).toThrow('the canvas declares no variable "visits"');
    // A handle of an id that is not in this canvas cannot be written by hand:
    // @ts-expect-error a plain object is not a handle (it has no canvas)
    expect(() => c.edge(c.begin, { id: "Message:Nope", component: "Message" })).toThrow("is not a component of this canvas");
  });
});
