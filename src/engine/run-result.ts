/**
 * A run's result, followed from its events: how it finished, and the whole outputs of the last
 * component that finished (events show large values bounded; the canvas keeps them whole).
 */
import type { Outputs } from "../contracts/values.js";
import type { Canvas } from "./canvas.js";
import type { CanvasEvent, CanvasEventOf } from "./events.js";

export class RunResult {
  private lastFinished: string | undefined;
  private end: CanvasEventOf<"workflow_finished"> | undefined;

  see(event: CanvasEvent): void {
    if (event.event === "node_finished") this.lastFinished = event.data.component_id;
    else if (event.event === "workflow_finished") this.end = event;
  }

  /** The run's workflow_finished, once seen. */
  get finished(): CanvasEventOf<"workflow_finished"> | undefined {
    return this.end;
  }

  /** The last finished component's outputs, whole (those workflow_finished showed, if the canvas has none). */
  outputs(canvas: Canvas): Outputs {
    const shown = this.end?.data.outputs ?? {};
    return (this.lastFinished !== undefined ? canvas.outputs(this.lastFinished) : undefined) ?? shown;
  }
}
