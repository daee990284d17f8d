/** Small builders for test canvases and readable event traces. */
import type { CanvasDsl, CanvasEvent, ComponentEntry } from "../../src/index.js";

export function node(componentName: string, params: Record<string, unknown> = {}, downstream: string[] = [], extra: Partial<ComponentEntry> = {}): ComponentEntry {
  return { obj: { component_name: componentName, params }, downstream, upstream: [], ...extra };
}

export function canvasDsl(components: Record<string, ComponentEntry>, extra: Partial<CanvasDsl> = {}): CanvasDsl {
  return { components, globals: {}, history: [], path: [], retrieval: [], ...extra };
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
