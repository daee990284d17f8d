/**
 * What a session waits on: its stored base with the checkpoints since replayed, read without
 * taking its lock (nothing is written). The API's session view shows the base only, which a
 * pause does not rewrite; a client that reopens a paused session needs the form it waits on.
 */
import type { CanvasDsl } from "../dsl/types.js";
import { unwrapDsl } from "../dsl/source.js";
import { readRunDelta } from "../durable/delta-reader.js";
import { Canvas } from "../engine/canvas.js";
import type { PendingInput } from "../engine/state.js";
import type { ServerContext } from "./context.js";

/** The session's pending form (components, fields, tips) when its last run paused; else undefined. */
export async function pendingInput(ctx: ServerContext, sessionId: string): Promise<PendingInput | undefined> {
  const stored = await ctx.store.runs.load(sessionId);
  if (!stored) return undefined;
  const base = unwrapDsl(stored.snapshot, `session "${sessionId}"`).dsl as CanvasDsl;
  const deltas = stored.deltas.map((delta, i) => readRunDelta(delta, sessionId, i + 1));
  const canvas = Canvas.fromCheckpoints(base, deltas, ctx.registry, ctx.canvas);
  return canvas.status === "paused" ? canvas.pending : undefined;
}
