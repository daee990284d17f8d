/**
 * The published schemas describe what the runtime really emits and stores.
 */
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { canvasDsl, node } from "../helpers/dsl.js";

const Ajv2020 = Ajv2020Module.default;
const load = (name: string) => JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
ajv.addSchema(load("run-state.schema.json"));
const validateEvent = ajv.compile(load("event.schema.json"));
const validateCanvas = ajv.compile(load("canvas.schema.json"));

function expectValidEvents(events: CanvasEvent[]) {
  for (const event of events) {
    const ok = validateEvent(event);
    expect(ok, `${event.event}: ${JSON.stringify(validateEvent.errors)}`).toBe(true);
  }
}

describe("schemas/event.schema.json", () => {
  it("accepts every event of a paused and resumed run, and of a failed one", async () => {
    const canvas = await loadCanvas(
      canvasDsl({
        begin: node("Begin", {}, ["UserFillUp:A"]),
        "UserFillUp:A": node("UserFillUp", { inputs: { x: { name: "x", type: "integer" } } }, ["Message:M"]),
        "Message:M": node("Message", { content: ["x={UserFillUp:A@x}"] }, ["Iteration:I"]),
        "Iteration:I": node("Iteration", { items_ref: "UserFillUp:A@x" }),
        "IterationItem:S": node("IterationItem", {}, [], { parent_id: "Iteration:I" }),
      }),
    );
    const events = [...(await canvas.runToEnd({ query: "q" })), ...(await canvas.runToEnd({ inputs: { x: "3" } }))];
    expect(events.map((e) => e.event)).toContain("user_inputs");
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished", data: { error: expect.stringContaining("must be a list") } });
    expectValidEvents(events);
  });

  it("rejects an event without its envelope", () => {
    expect(validateEvent({ event: "message", data: { content: "x" } })).toBe(false);
    expect(validateEvent({ event: "nope", message_id: "m", created_at: 1, task_id: "t", data: {} })).toBe(false);
  });
});

describe("schemas/canvas.schema.json and run-state.schema.json", () => {
  it("accept a snapshot written by toJSON(), paused or finished", async () => {
    const canvas = await loadCanvas("fixtures/hello.json");
    await canvas.runToEnd({ query: "x" });
    const snapshot = JSON.parse(JSON.stringify(canvas));
    expect(validateCanvas(snapshot), JSON.stringify(validateCanvas.errors)).toBe(true);
    expect(validateCanvas({ ...snapshot, canvasflow: { ...snapshot.canvasflow, status: "paused" } })).toBe(false);
  });
});
