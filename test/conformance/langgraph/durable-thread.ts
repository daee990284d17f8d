/**
 * A LangGraph thread on a checkpointer, for the ported tests that look at what the checkpointer
 * kept: a canvasflow durable session in a CheckpointStore (the store is the checkpointer, the
 * session key the thread_id). Each `invoke` opens the session, runs one turn and closes it, as a
 * server does per request, so the rules of docs/durable.md apply between invokes: a failed turn
 * leaves its checkpoints and events in the store, and the next open goes on from the last stable
 * point before it.
 */
import type { CheckpointStore } from "../../../src/backends/contracts.js";
import type { ComponentRegistry } from "../../../src/components/registry.js";
import { DurableSession, type Durability } from "../../../src/durable/session.js";
import type { CanvasEvent } from "../../../src/engine/events.js";
import type { Canvas } from "../../../src/engine/canvas.js";
import { Command, type CompiledStateGraph } from "../../../src/graph/index.js";
import type { StateShape } from "../../../src/graph/state.js";
import { nodeOf } from "./harness.js";

export interface DurableTurn {
  readonly events: CanvasEvent[];
  /** The graph's state after the run (its output keys). */
  readonly values: Record<string, unknown>;
  /** The run's error, when it failed. */
  readonly error: string | undefined;
}

/** LangGraph's getState(): where the thread goes on from (its values, and the nodes a paused run waits on). */
export interface ThreadState {
  /** Every key of the state (LangGraph's checkpoint channel_values), not only the output keys. */
  readonly values: Record<string, unknown>;
  readonly next: string[];
  /** idle, paused, failed… (a session rolled back to its last stable point is idle). */
  readonly status: string;
}

export class DurableThread<S extends StateShape> {
  private readonly registry: ComponentRegistry;

  constructor(
    readonly graph: CompiledStateGraph<S, string>,
    readonly store: CheckpointStore,
    readonly key: string,
    private readonly options: { durability?: Durability; registry?: ComponentRegistry } = {},
  ) {
    this.registry = options.registry ?? graph.registry();
  }

  private open(): Promise<DurableSession> {
    return DurableSession.open({ store: this.store, key: this.key, dsl: this.graph.dsl, registry: this.registry, ...(this.options.durability ? { durability: this.options.durability } : {}) });
  }

  /** One turn: `input` through the reducers, or a Command's resume value for a paused run. */
  async invoke(input?: Record<string, unknown> | Command<unknown> | null): Promise<DurableTurn> {
    const session = await this.open();
    try {
      const inputs = input instanceof Command ? { resume: input.resume } : input ? this.graph.inputs(input as never) : {};
      const events: CanvasEvent[] = [];
      for await (const event of session.run({ inputs })) events.push(event);
      const last = events.at(-1)!;
      return { events, values: this.values(session.canvas), error: last.event === "workflow_finished" ? last.data.error : undefined };
    } finally {
      await session.close();
    }
  }

  /** The thread as its next invoke finds it (opening the session, as that invoke will). */
  async state(): Promise<ThreadState> {
    const session = await this.open();
    try {
      const canvas = session.canvas;
      const values = Object.fromEntries(Object.keys(this.graph.structure.schema.keys).map((key) => [key, canvas.globals[`env.${key}`]]));
      return { values, next: [...new Set((canvas.pending?.components ?? []).map(nodeOf))], status: canvas.status };
    } finally {
      await session.close();
    }
  }

  /** The events the store logged for the thread, every run's, failed ones included. */
  async loggedEvents(): Promise<CanvasEvent[]> {
    return (await this.store.events(this.key)).map((stored) => stored.event as unknown as CanvasEvent);
  }

  private values(canvas: Canvas): Record<string, unknown> {
    return this.graph.values(canvas.globals) as Record<string, unknown>;
  }
}
