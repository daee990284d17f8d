/**
 * How the ported LangGraph.js tests drive a compiled StateGraph: a thread is a canvasflow
 * session, `invoke(input)` one run of it (LangGraph's invoke on a thread), `invoke(new
 * Command({ resume }))` a resume. Between runs the canvas is saved with toJSON() and loaded again,
 * as LangGraph's checkpointer saves a thread, so every case also checks that the state and the
 * pauses survive a snapshot.
 */
import { loadCanvas } from "../../../src/api.js";
import type { ComponentRegistry } from "../../../src/components/registry.js";
import type { CanvasEvent } from "../../../src/engine/events.js";
import type { Canvas } from "../../../src/engine/canvas.js";
import { Command, type CompiledStateGraph } from "../../../src/graph/index.js";
import type { StateShape } from "../../../src/graph/state.js";

export interface TurnResult {
  readonly events: CanvasEvent[];
  /** The graph's state after the run (its output keys). */
  readonly values: Record<string, unknown>;
  /** LangGraph's `updates` stream: `{ node: update }` per node that finished, in order. */
  readonly updates: Array<Record<string, Record<string, unknown>>>;
  /** Pending interrupts (interrupt() calls) when the run paused, with their values. */
  readonly interrupts: Array<{ id: string; value: unknown }> | undefined;
  /** LangGraph's getState().next: the nodes the paused run waits on. */
  readonly next: string[];
  /** The run's error, when it failed. */
  readonly error: string | undefined;
}

/** The node a component stands for ("" for the graph's own plumbing). */
export function nodeOf(componentId: string): string {
  if (componentId === "begin" || componentId === "__start__" || /__join\d*$/.test(componentId)) return "";
  return componentId.replace(/(__(send|before|after))+$/, "");
}

export class Thread<S extends StateShape> {
  private snapshot: object;
  private readonly registry: ComponentRegistry;

  constructor(
    readonly graph: CompiledStateGraph<S, string>,
    options: { registry?: ComponentRegistry } = {},
  ) {
    this.registry = options.registry ?? graph.registry();
    this.snapshot = graph.dsl;
  }

  /** One run: `input` through the reducers, or a Command's resume value for a paused run. */
  async invoke(input?: Record<string, unknown> | Command<unknown> | null, options: { maxSteps?: number } = {}): Promise<TurnResult> {
    const canvas: Canvas = await loadCanvas(this.snapshot, { registry: this.registry, ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}) });
    // A Command's update goes to a static breakpoint that resumes (LangGraph's Command({ update }) on an interruptBefore).
    const inputs = input instanceof Command ? { ...("resume" in input ? { resume: input.resume } : {}), ...(input.update !== undefined ? { update: input.update } : {}) } : input ? this.graph.inputs(input as never) : {};
    const events: CanvasEvent[] = [];
    for await (const event of canvas.run({ inputs })) events.push(event);
    this.snapshot = canvas.toJSON();
    const last = events.at(-1)!;
    const updates: Array<Record<string, Record<string, unknown>>> = [];
    for (const event of events) {
      if (event.event !== "node_finished") continue;
      const node = nodeOf(event.data.component_id);
      // A breakpoint (interruptBefore/After) that resumes is the graph's plumbing, not the node's update.
      if (!node || event.data.error || /__(before|after)$/.test(event.data.component_id)) continue;
      const update = Object.fromEntries(Object.entries(event.data.outputs).filter(([key]) => !key.startsWith("_")));
      updates.push({ [node]: update });
    }
    const paused = last.event === "user_inputs" ? last.data : undefined;
    return {
      events,
      values: this.graph.values(canvas.globals) as Record<string, unknown>,
      updates,
      interrupts: paused?.interrupts?.map((i) => ({ id: i.id, value: i.value })),
      next: paused ? [...new Set((canvas.pending?.components ?? []).map(nodeOf))] : [],
      error: last.event === "workflow_finished" ? last.data.error : undefined,
    };
  }
}

/** A thread on a compiled graph (LangGraph: a thread_id on a graph compiled with a checkpointer). */
export function thread<S extends StateShape>(graph: CompiledStateGraph<S, string>, options: { registry?: ComponentRegistry } = {}): Thread<S> {
  return new Thread(graph, options);
}
