/**
 * `canvasflow/graph`: canvases written in code. Layer 0 is a typed writer of ordinary RAGFlow
 * canvases from the built-in components (docs/graph.md). It imports the core's validation, no
 * server, queue or driver.
 */
export { BEGIN_ID, canvas, CanvasBuilder } from "./canvas.js";
export type { AddOptions, BeginInputField, CanvasOptions, ComponentName, ParamsOf, VariableSpec } from "./canvas.js";
export { CanvasBuildError } from "./build-error.js";
export { ComponentRef, env, GlobalRef, ref, sys, text, Text } from "./references.js";
export type { Ref, SystemKey, TextPart } from "./references.js";
export type { NodeHandle, OutputOf } from "./node-handle.js";
export type { Writable } from "./param-values.js";
export type * from "./params.generated.js";
