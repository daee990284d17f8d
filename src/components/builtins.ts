/**
 * The built-in components, registered into the default registry on import.
 * Each module exports its definitions; this list is the only place they are gathered.
 */
import { ComponentRegistry } from "./registry.js";
import type { ComponentDefinition } from "./types.js";
import { Begin } from "./begin.js";
import { UserFillUp } from "./user-fill-up.js";
import { Message } from "./message.js";
import { Iteration, IterationItem } from "./iteration.js";
import { ExitLoop, Loop, LoopItem } from "./loop.js";
// builtin-imports (keep this marker: one import line per module above it)

export const BUILTIN_COMPONENTS: readonly ComponentDefinition[] = [
  Begin,
  UserFillUp,
  Message,
  Iteration,
  IterationItem,
  Loop,
  LoopItem,
  ExitLoop,
  // builtin-list (keep this marker: one entry per definition above it)
];

/** A registry holding every built-in component. */
export function builtinRegistry(): ComponentRegistry {
  const registry = new ComponentRegistry();
  for (const def of BUILTIN_COMPONENTS) registry.register(def);
  return registry;
}
