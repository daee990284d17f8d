/**
 * The Dify front end (research/dify-import.md): Dify workflow and chatflow YAML loaded into the
 * same engine, scheduled by edge states.
 */
export { DIFY_FRONT_END, registerDify } from "./front-end.js";
export { DIFY_COMPONENTS } from "./components/index.js";
export { readDifyGraph, NORMALIZATION_STEPS, type DifyGraph, type DifyNode, type DifyEdge } from "./graph.js";
export { isDifyDocument } from "./document.js";
export { parseDifyYaml, readDifyYamlFile, isYamlPath, MAX_DIFY_YAML_BYTES } from "./yaml.js";
export { DIFY_LIMITS } from "./compile.js";
export { describeForm } from "./components/start.js";
