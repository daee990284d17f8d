/**
 * Reasoning models wrap their thinking in `<think>`…`</think>` inside the answer text. A
 * downstream Message turns the markers into `start_to_think`/`end_to_think` events only when
 * each marker arrives as a chunk of its own, so streamed text is re-cut here: markers become
 * separate THINK_START/THINK_END chunks, even when a marker was split across two deltas.
 */
import { THINK_END, THINK_START } from "../text-stream.js";

const MARKERS = [THINK_START, THINK_END] as const;

/** The earliest marker in `text`, if any. */
function firstMarker(text: string): { index: number; marker: string } | undefined {
  let found: { index: number; marker: string } | undefined;
  for (const marker of MARKERS) {
    const index = text.indexOf(marker);
    if (index >= 0 && (found === undefined || index < found.index)) found = { index, marker };
  }
  return found;
}

/** Length of the longest end of `text` that could be the start of a marker still arriving. */
function partialMarkerLength(text: string): number {
  const longest = Math.min(text.length, THINK_END.length - 1);
  for (let n = longest; n > 0; n--) {
    const tail = text.slice(text.length - n);
    if (MARKERS.some((marker) => marker.startsWith(tail))) return n;
  }
  return 0;
}

/** Re-cut a stream of text so that every think marker is a chunk of its own. Empty chunks are dropped. */
export async function* splitThinkTags(source: AsyncIterable<string>): AsyncGenerator<string, void, undefined> {
  let pending = "";
  for await (const chunk of source) {
    pending += chunk;
    for (;;) {
      const found = firstMarker(pending);
      if (!found) break;
      if (found.index > 0) yield pending.slice(0, found.index);
      yield found.marker;
      pending = pending.slice(found.index + found.marker.length);
    }
    const keep = partialMarkerLength(pending);
    if (pending.length > keep) {
      yield pending.slice(0, pending.length - keep);
      pending = pending.slice(pending.length - keep);
    }
  }
  if (pending.length > 0) yield pending;
}

/** The answer without its reasoning: everything up to the last `</think>` is dropped. */
export function withoutThinking(text: string): string {
  const end = text.lastIndexOf(THINK_END);
  return end >= 0 ? text.slice(end + THINK_END.length) : text;
}
