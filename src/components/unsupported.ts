/**
 * Unsupported: what `canvasflow migrate` leaves in place of a component it could not convert
 * (RAGFlow v0.19's Jin10, TuShare, BaiduFanyi…). The original component_name and params are kept
 * inside, so nothing is lost; validation reports it as an error naming the original component,
 * so a half-converted canvas is never run by accident.
 */
import { componentSchema } from "../dsl/schemas.js";
import type { ComponentDefinition, Params } from "./types.js";

export const UNSUPPORTED_COMPONENT = "Unsupported";

function original(params: Params): string {
  return typeof params.component_name === "string" && params.component_name !== "" ? params.component_name : "a component";
}

function problem(params: Params): string {
  const reason = typeof params.reason === "string" && params.reason.trim() !== "" ? `: ${params.reason}` : "";
  return `"${original(params)}" could not be migrated${reason}; replace this component (its original params are kept under params.params)`;
}

export const Unsupported: ComponentDefinition = {
  name: UNSUPPORTED_COMPONENT,
  paramsSchema: componentSchema(UNSUPPORTED_COMPONENT),
  defaults: { component_name: "", params: {}, reason: "" },
  thoughts: () => "",
  check: (params) => [{ pointer: "/component_name", message: problem(params) }],
  invoke(ctx) {
    throw new Error(problem(ctx.params));
  },
};
