/** A turn where this server runs them: here (turn.ts), or on queue workers (`serve --queue`: queued-turn.ts). */
import type { ServerContext } from "./context.js";
import { startQueuedTurn } from "./queued-turn.js";
import { startTurn, type Turn, type TurnInput } from "./turn.js";

export function openTurn(ctx: ServerContext, input: TurnInput): Promise<Turn> {
  return ctx.queue ? startQueuedTurn(ctx, ctx.queue, input) : startTurn(ctx, input);
}
