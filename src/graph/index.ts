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
export { Command, END, Send, START } from "./command.js";
export type { CommandOptions } from "./command.js";
export { state, reducer } from "./state.js";
export type { BuiltinReducerFor, KeyOptions, NamedReducer, Overwrite, StateKeySpec, StateOf, StateSchema, StateShape, UpdateFor, UpdateOf } from "./state.js";
export { REMOVE_ALL_MESSAGES, removeMessage } from "./messages.js";
export type { Message } from "./messages.js";
export { overwrite } from "../pool/reducers.js";
export { interrupt } from "./node-runtime.js";
export type { NodeRuntime } from "./node-runtime.js";
export { builtin, CompiledStateGraph, StateGraph, when } from "./state-graph.js";
export type { BuiltinNode, CompileOptions, Condition, NodeFunction, NodeOptions, NodeReturn, RouteResult, StateGraphOptions } from "./state-graph.js";
export { GraphNodeError, defaultRetryOn } from "./graph-components.js";
export type { NodeError, RetryOptions } from "./graph-components.js";
