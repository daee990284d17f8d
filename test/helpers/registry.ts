/** Component registries for tests: the built-ins plus test components, and a tiny one of capabilities only. */
import { BUILTIN_COMPONENTS, builtinRegistry } from "../../src/components/builtins.js";
import { ComponentRegistry } from "../../src/components/registry.js";
import type { ComponentDefinition } from "../../src/components/types.js";

/** The built-in definition of a component name. */
export function builtinDefinition(name: string): ComponentDefinition {
  const found = BUILTIN_COMPONENTS.find((d) => d.name === name);
  if (!found) throw new Error(`${name} is not a built-in`);
  return found;
}

/** The built-in registry plus `defs` (a def with a built-in's name replaces it). */
export function registryWith(...defs: ComponentDefinition[]): ComponentRegistry {
  const registry = builtinRegistry();
  for (const def of defs) registry.register(def, { replace: true });
  return registry;
}

const noop = () => undefined;

/** Components that do nothing but declare one capability each, for graph and planning tests. */
const CAPABILITY_COMPONENTS: ComponentDefinition[] = [
  { name: "Start", capabilities: { entry: true }, invoke: noop },
  /** Reads the template references in its string params (the default `references`). */
  { name: "Plain", invoke: noop },
  { name: "Pick", capabilities: { router: true }, invoke: noop },
  /** A container that an exit node may leave early. */
  { name: "Box", capabilities: { container: { start: "BoxStart", exitable: true } }, invoke: noop },
  { name: "BoxStart", capabilities: { containerStart: true }, invoke: () => ({ done: false }) },
  /** A container that cannot be left early. */
  { name: "Bag", capabilities: { container: { start: "BagStart" } }, invoke: noop },
  { name: "BagStart", capabilities: { containerStart: true }, invoke: () => ({ done: false }) },
  { name: "Leave", capabilities: { exitsContainer: true }, invoke: noop },
];

/** A registry of the capability components only (no built-ins). */
export function capabilityRegistry(): ComponentRegistry {
  const registry = new ComponentRegistry();
  for (const def of CAPABILITY_COMPONENTS) registry.register(def);
  return registry;
}
