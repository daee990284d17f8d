/**
 * The Dify app a server serves on /v1: one agent (server option `difyApp`, `--dify-app ID`) whose
 * DSL is a Dify document. A Dify app key names one app; here the Bearer key names the tenant, and
 * the tenant's agent (or the agents folder's) with that id is the app. Its mode decides which run
 * route it answers (workflow: /workflows/run; advanced-chat: /chat-messages), and its Start form
 * and features make /parameters.
 */
import { readDifyGraph, type DifyGraph } from "../../dify/graph.js";
import { isDifyDocument } from "../../dify/document.js";
import { startVariables, type StartVariable } from "../../dify/components/start.js";
import { isPlainObject } from "../../util/values.js";
import type { ServerContext } from "../context.js";
import type { AgentRecord } from "../../backends/contracts.js";
import { DifyApiError } from "./errors.js";

export interface DifyApp {
  agent: AgentRecord;
  graph: DifyGraph;
  /** `workflow` or `advanced-chat`. */
  mode: string;
  form: StartVariable[];
}

export async function difyAppOf(ctx: ServerContext, tenant: string, agentId: string): Promise<DifyApp> {
  const agent = await ctx.agents.get(tenant, agentId);
  if (!agent) throw new DifyApiError(400, "app_unavailable", `App unavailable: this server serves the agent ${agentId} on /v1, and this key's tenant has no agent with that id`);
  const dsl = agent.dsl as unknown as Record<string, unknown>;
  if (!isPlainObject(dsl) || !isDifyDocument(dsl)) throw new DifyApiError(400, "app_unavailable", `App unavailable: the agent ${agentId} is a RAGFlow canvas, not a Dify app (serve it on /api/v1)`);
  const graph = readDifyGraph(dsl);
  const start = graph.nodes.find((n) => n.id === graph.startId);
  return { agent, graph, mode: graph.mode, form: start ? startVariables(start.data) : [] };
}

/** The route is for the other kind of app: Dify's own refusals. */
export function requireMode(app: DifyApp, mode: "workflow" | "advanced-chat"): void {
  if (app.mode === mode) return;
  if (mode === "workflow") throw new DifyApiError(400, "not_workflow_app", "Please check if your app mode matches the right API route (this app is a chatflow: use /chat-messages).");
  throw new DifyApiError(400, "not_chat_app", "Please check if your app mode matches the right API route (this app is a workflow: use /workflows/run).");
}

/** Inputs the Start form requires that are missing: Dify refuses the run before it starts. */
export function checkRequiredInputs(app: DifyApp, inputs: Record<string, unknown>): void {
  const missing = app.form.filter((v) => v.required === true && (inputs[v.variable] === undefined || inputs[v.variable] === null || inputs[v.variable] === ""));
  if (missing.length > 0) {
    const names = missing.map((v) => v.variable).join(", ");
    throw new DifyApiError(400, "invalid_param", `inputs: ${names} ${missing.length === 1 ? "is" : "are"} required in input form`);
  }
}

/** GET /v1/parameters: the Start form and the app's features, as Dify shows them. */
export function parametersOf(app: DifyApp, uploadBytes: number): Record<string, unknown> {
  const features = app.graph.features;
  const feature = (name: string) => (isPlainObject(features[name]) ? features[name] : { enabled: false });
  return {
    opening_statement: typeof features.opening_statement === "string" ? features.opening_statement : "",
    suggested_questions: Array.isArray(features.suggested_questions) ? features.suggested_questions : [],
    suggested_questions_after_answer: feature("suggested_questions_after_answer"),
    speech_to_text: feature("speech_to_text"),
    text_to_speech: feature("text_to_speech"),
    retriever_resource: feature("retriever_resource"),
    annotation_reply: { enabled: false },
    more_like_this: { enabled: false },
    sensitive_word_avoidance: feature("sensitive_word_avoidance"),
    file_upload: feature("file_upload"),
    user_input_form: app.form.map((v) => ({
      [v.type ?? "text-input"]: {
        label: typeof v.label === "string" && v.label !== "" ? v.label : v.variable,
        variable: v.variable,
        required: v.required === true,
        ...(typeof v.max_length === "number" ? { max_length: v.max_length } : {}),
        default: v.default ?? "",
        ...(Array.isArray(v.options) ? { options: v.options } : {}),
      },
    })),
    system_parameters: {
      file_size_limit: Math.floor(uploadBytes / 1024 / 1024),
      image_file_size_limit: Math.floor(uploadBytes / 1024 / 1024),
      audio_file_size_limit: Math.floor(uploadBytes / 1024 / 1024),
      video_file_size_limit: Math.floor(uploadBytes / 1024 / 1024),
      workflow_file_upload_limit: 10,
    },
  };
}
