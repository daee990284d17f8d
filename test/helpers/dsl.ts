/** Small builders for test canvases, and readers of the events and validation issues they produce. */
import { expect } from "vitest";
import { validateDsl } from "../../src/api.js";
import type { CanvasDsl, ComponentEntry } from "../../src/dsl/types.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { ValidationIssue } from "../../src/dsl/validate.js";

export function node(componentName: string, params: Record<string, unknown> = {}, downstream: string[] = [], extra: Partial<ComponentEntry> = {}): ComponentEntry {
  return { obj: { component_name: componentName, params }, downstream, upstream: [], ...extra };
}

export function canvasDsl(components: Record<string, ComponentEntry>, extra: Partial<CanvasDsl> = {}): CanvasDsl {
  return { components, globals: {}, history: [], path: [], retrieval: [], ...extra };
}

/** A canvas whose conversation variables hold the test data: each one declared, and set as env.<name>. */
export function canvasWithEnv(components: Record<string, ComponentEntry>, variables: Record<string, unknown> = {}): CanvasDsl {
  const typeOf = (value: unknown) => (Array.isArray(value) ? "array<object>" : value === null ? "string" : typeof value);
  const declared = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, { name, type: typeOf(value), value }]));
  const globals = Object.fromEntries(Object.entries(variables).map(([name, value]) => [`env.${name}`, value]));
  return canvasDsl(components, { globals, variables: declared });
}

/** A compact trace: "node_started:id", "node_finished:id", "node_finished:id!error", "message:text", other event names. */
export function trace(events: readonly CanvasEvent[]): string[] {
  return events.map((e) => {
    switch (e.event) {
      case "node_started":
        return `node_started:${e.data.component_id}`;
      case "node_finished":
        return `node_finished:${e.data.component_id}${e.data.error ? `!${e.data.error}` : ""}`;
      case "message":
        return e.data.start_to_think ? "message:<think>" : e.data.end_to_think ? "message:</think>" : `message:${e.data.content}`;
      case "workflow_finished":
        return e.data.error ? `workflow_finished!${e.data.error}` : "workflow_finished";
      default:
        return e.event;
    }
  });
}

/** The concatenated text of the message events. */
export function messageText(events: readonly CanvasEvent[]): string {
  return events.flatMap((e) => (e.event === "message" ? [e.data.content] : [])).join("");
}

export function lastEvent(events: readonly CanvasEvent[]): CanvasEvent {
  const last = events.at(-1);
  if (!last) throw new Error("no events");
  return last;
}

/** The text of each message, one string per message_end. */
export function messages(events: readonly CanvasEvent[]): string[] {
  const out: string[] = [];
  let current = "";
  for (const e of events) {
    if (e.event === "message") current += e.data.content;
    if (e.event === "message_end") {
      out.push(current);
      current = "";
    }
  }
  return out;
}

/** The ids of the components that started, in order. */
export function started(events: readonly CanvasEvent[]): string[] {
  return events.flatMap((e) => (e.event === "node_started" ? [e.data.component_id] : []));
}

/** The data of the workflow_finished that ends the run; throws when the run ended otherwise. */
export function finished(events: readonly CanvasEvent[]) {
  const last = events.at(-1);
  if (!last || last.event !== "workflow_finished") throw new Error(`the run did not end with workflow_finished but with ${last?.event}`);
  return last.data;
}

/** Asserts that the run ended with workflow_finished and no error. */
export function expectFinished(events: readonly CanvasEvent[]): void {
  const last = lastEvent(events);
  expect(last.event).toBe("workflow_finished");
  expect((last.data as { error?: string }).error).toBeUndefined();
}

/** The data of the first node_finished of component `id`. */
export function nodeFinished(events: readonly CanvasEvent[], id: string) {
  const event = events.find((e) => e.event === "node_finished" && e.data.component_id === id);
  if (!event || event.event !== "node_finished") throw new Error(`no node_finished for ${id}`);
  return event.data;
}

/** The outputs of the last node_finished of component `id` (a component in a loop finishes more than once). */
export function outputsOf(events: readonly CanvasEvent[], id: string): Record<string, unknown> {
  const last = events.filter((e) => e.event === "node_finished" && e.data.component_id === id).at(-1);
  if (!last || last.event !== "node_finished") throw new Error(`${id} did not finish`);
  return last.data.outputs;
}

/** The data of the first message_end. */
export function messageEnd(events: readonly CanvasEvent[]) {
  const event = events.find((e) => e.event === "message_end");
  if (!event || event.event !== "message_end") throw new Error("no message_end");
  return event.data;
}

/** The issues of severity "error" (warnings left out). */
export function errors(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.filter((i) => i.severity === "error");
}

/** The errors validateDsl reports for `dsl`. */
export function validationErrors(dsl: object): ValidationIssue[] {
  return errors(validateDsl(dsl).issues);
}
