/**
 * event-size: the NDJSON an Iteration writes, per item, over 1 000 and 100 000 items. Each
 * round's events show its item and index, and any value over the event limit is truncated, so
 * the bytes per item must not grow with the list (they grew linearly when every round carried
 * the whole list: 10 000 items wrote 503 MB). `ratio` is bytes per item at 10^5 over 10^3.
 */
import { canvasflow, node } from "../lib.mjs";

const SIZES = [1_000, 100_000];
export const plan = { warmup: 2, samples: 5 };

function iterationDsl(count) {
  const items = Array.from({ length: count }, (_, i) => `item-${i}`);
  return {
    components: {
      begin: node("Begin", { mode: "task" }, ["Iteration:1"]),
      "Iteration:1": node("Iteration", { items_ref: "env.items", outputs: { doubled: { ref: "StringTransform:1@result", type: "Array<string>" } } }),
      "IterationItem:1": node("IterationItem", {}, ["StringTransform:1"], { parent_id: "Iteration:1" }),
      "StringTransform:1": node("StringTransform", { method: "merge", script: "{item}{item}" }, [], { parent_id: "Iteration:1" }),
    },
    globals: { "env.items": items },
    variables: { items: { name: "items", type: "array<string>", value: items } },
  };
}

/** NDJSON bytes of one run, as the CLI writes them. */
async function ndjsonBytes(canvas) {
  let bytes = 0;
  for await (const event of canvas.run({ query: "go" })) bytes += Buffer.byteLength(JSON.stringify(event)) + 1;
  return bytes;
}

export async function canvasflowSide() {
  const api = await canvasflow();
  const canvases = await Promise.all(SIZES.map((n) => api.loadCanvas(iterationDsl(n), { maxSteps: 3 * n + 20 })));
  return {
    run: async () => {
      await ndjsonBytes(canvases[0]);
    },
    extra: async () => {
      const perItem = [];
      for (let i = 0; i < SIZES.length; i++) perItem.push((await ndjsonBytes(canvases[i])) / SIZES[i]);
      return { sizes: SIZES, bytes_per_item: perItem, size_ratio: perItem[1] / perItem[0] };
    },
  };
}
