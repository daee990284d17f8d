/**
 * The Dify front end: recognizes Dify documents, validates them, and compiles them into the
 * engine's graph. `registerDify` adds it and the Dify node components to a registry.
 */
import type { ComponentRegistry } from "../components/registry.js";
import type { DslFrontEnd } from "../contracts/graph.js";
import { compileDifyGraph } from "./compile.js";
import { DIFY_COMPONENTS } from "./components/index.js";
import { isDifyDocument } from "./document.js";
import { readDifyGraph } from "./graph.js";
import { validateDifyDocument } from "./validate.js";

export const DIFY_FRONT_END: DslFrontEnd = {
  kind: "dify",
  recognizes: isDifyDocument,
  validate: validateDifyDocument,
  compile: (document, registry) => compileDifyGraph(readDifyGraph(document), document, registry),
};

/** Teach a registry Dify documents: their node components and the front end. */
export function registerDify(registry: ComponentRegistry): ComponentRegistry {
  for (const def of DIFY_COMPONENTS) if (!registry.has(def.name)) registry.register(def);
  registry.registerFrontEnd(DIFY_FRONT_END);
  return registry;
}
