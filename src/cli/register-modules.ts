/**
 * `--register MODULE`: modules that add component types to the registry a command runs canvases
 * with, through the same public API the built-ins use. A module exports a function
 * `register(registry)` (named, or as its default export), which calls `registry.register(def)`;
 * it may be async. Paths are relative to the working folder.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { defaultRegistry } from "../api.js";
import { builtinRegistry } from "../components/builtins.js";
import type { ComponentRegistry } from "../components/registry.js";
import { registerDify } from "../dify/front-end.js";
import { registerPipelines } from "../pipelines/register.js";
import { UsageError } from "./io.js";

export async function registryWithModules(modules: readonly string[], cwd: string = process.cwd(), base?: ComponentRegistry): Promise<ComponentRegistry> {
  // What the library's defaultRegistry holds (RAGFlow's components, and Dify's nodes and front
  // end), or a copy of `base`, plus the modules' components.
  const registry = base ? base.extend() : registerPipelines(registerDify(builtinRegistry()));
  for (const spec of modules) {
    const path = resolve(cwd, spec);
    if (!existsSync(path)) throw new UsageError(`--register ${spec}: there is no file at ${path}`);
    let loaded: Record<string, unknown>;
    try {
      loaded = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`--register ${spec}: the module could not be loaded: ${(error as Error).message}`);
    }
    const register = typeof loaded.register === "function" ? loaded.register : typeof loaded.default === "function" ? loaded.default : undefined;
    if (!register) throw new UsageError(`--register ${spec}: the module exports no register(registry) function (named "register", or the default export)`);
    try {
      await (register as (registry: ComponentRegistry) => unknown)(registry);
    } catch (error) {
      throw new UsageError(`--register ${spec}: its register(registry) failed: ${(error as Error).message}`);
    }
  }
  return registry;
}

/**
 * The registry of `run`, `validate` and `graph`: the library's defaultRegistry (with what
 * registerComponent added in this process) when no module is given, else a copy of it with the
 * modules' components.
 */
export async function commandRegistry(modules: readonly string[]): Promise<ComponentRegistry> {
  if (modules.length === 0) return defaultRegistry;
  return registryWithModules(modules, process.cwd(), defaultRegistry);
}
