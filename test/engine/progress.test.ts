/**
 * node_progress: a component that declares `reportsProgress` has its progress sent while it runs
 * (the reader sees it before the component ends); one that does not has it sent when its batch
 * ends, still before its node_finished.
 */
import { describe, expect, it } from "vitest";
import { Canvas } from "../../src/engine/canvas.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";

function slowStep(name: string, live: boolean, gate: Promise<void>): ComponentDefinition {
  return {
    name,
    ...(live ? { capabilities: { reportsProgress: true } } : {}),
    async invoke(ctx) {
      ctx.progress?.(0.5, "half way");
      await gate;
      ctx.progress?.(1, "done");
      ctx.setOutput("ok", true);
    },
  };
}

async function progressSeen(live: boolean): Promise<{ steps: string[]; seenWhileRunning: boolean }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let running = true;
  const registry = registryWith(slowStep("Slow", live, gate.then(() => void (running = false))));
  const canvas = Canvas.fromValidatedDsl(canvasDsl({ begin: node("Begin", {}, ["Slow:S"]), "Slow:S": node("Slow", {}) }), registry);
  const steps: string[] = [];
  let seenWhileRunning = false;
  // Without live progress nothing is seen while it waits: the gate opens on the next turn of the event loop.
  if (!live) setImmediate(open);
  for await (const event of canvas.run({})) {
    if (event.event === "node_progress") {
      steps.push(`progress ${event.data.component_id} ${event.data.progress} ${event.data.message}`);
      if (event.data.message === "half way") {
        seenWhileRunning = running;
        open();
      }
    } else if (event.event.startsWith("node_")) steps.push(`${event.event} ${(event.data as { component_id: string }).component_id}`);
  }
  return { steps, seenWhileRunning };
}

describe("node_progress", () => {
  it("goes out while a component that reports progress runs", async () => {
    const { steps, seenWhileRunning } = await progressSeen(true);
    expect(seenWhileRunning).toBe(true);
    expect(steps).toEqual(["node_started begin", "node_finished begin", "node_started Slow:S", "progress Slow:S 0.5 half way", "progress Slow:S 1 done", "node_finished Slow:S"]);
  });

  it("from a component that does not declare it, goes out when its batch ends, before its node_finished", async () => {
    const { steps, seenWhileRunning } = await progressSeen(false);
    expect(seenWhileRunning).toBe(false);
    expect(steps).toEqual(["node_started begin", "node_finished begin", "node_started Slow:S", "progress Slow:S 0.5 half way", "progress Slow:S 1 done", "node_finished Slow:S"]);
  });
});
