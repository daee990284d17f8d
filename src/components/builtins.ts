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
import { Switch } from "./switch.js";
import { VariableAssigner } from "./variable-assigner.js";
import { VariableAggregator } from "./variable-aggregator.js";
import { Invoke } from "./invoke.js";
import { StringTransform } from "./string-transform.js";
import { ListOperations } from "./list-operations.js";
import { DataOperations } from "./data-operations.js";
import { LLM_COMPONENTS } from "./llm/index.js";
import { TOOL_COMPONENTS } from "../tools/index.js";
import { Unsupported } from "./unsupported.js";
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
  Switch,
  VariableAssigner,
  VariableAggregator,
  Invoke,
  StringTransform,
  ListOperations,
  DataOperations,
  ...LLM_COMPONENTS,
  ...TOOL_COMPONENTS,
  Unsupported,
  // builtin-list (keep this marker: one entry per definition above it)
];

/** A registry holding every built-in component. */
export function builtinRegistry(): ComponentRegistry {
  const registry = new ComponentRegistry();
  for (const def of BUILTIN_COMPONENTS) registry.register(def);
  return registry;
}
