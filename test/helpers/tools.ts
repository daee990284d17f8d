/**
 * For the tools' tests (the web APIs are stood in by loopback servers from ./http.ts): a
 * ToolContext for calling `run` directly, a small canvas (begin → tool → Message) for running a
 * tool as a node, and the id RAGFlow gives a web hit.
 */
import { createHash } from "node:crypto";
import { loadCanvas } from "../../src/api.js";
import type { CanvasDsl } from "../../src/dsl/types.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import type { ReferenceChunk, ReferenceDocument } from "../../src/components/types.js";
import type { KnowledgeBaseConfig, ToolEndpointConfig } from "../../src/config/types.js";
import type { ToolContext } from "../../src/tools/types.js";
import type { KnowledgeModels } from "../../src/knowledge/model-types.js";
import { canvasDsl, finished, node, nodeFinished } from "./dsl.js";

/** RAGFlow's id of a web hit: hash_str2int of its URL (Python: int(sha1(url).hexdigest(), 16) % 10**8). */
export function idOf(url: string): string {
  return String(BigInt(`0x${createHash("sha1").update(url).digest("hex")}`) % 100_000_000n);
}

export interface Recording {
  ctx: ToolContext;
  references: Array<{ chunks: ReferenceChunk[]; documents: ReferenceDocument[] }>;
}

export interface ContextOptions {
  params?: Record<string, unknown>;
  knowledgeBases?: Record<string, KnowledgeBaseConfig>;
  /** Embedding and rerank models of local knowledge bases. */
  knowledgeModels?: KnowledgeModels;
  endpoints?: Record<string, ToolEndpointConfig>;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Leave services.tools out entirely. */
  noToolServices?: boolean;
  /** Who calls the tool, as errors name it. */
  label?: string;
}

/** A ToolContext for calling `run` directly, recording the references it adds. */
export function toolContext(options: ContextOptions = {}): Recording {
  const references: Recording["references"] = [];
  const services = options.noToolServices ? {} : { tools: { knowledgeBases: options.knowledgeBases ?? {}, endpoints: options.endpoints ?? {}, env: options.env ?? {}, ...(options.knowledgeModels ? { knowledgeModels: options.knowledgeModels } : {}) } };
  const ctx: ToolContext = {
    signal: options.signal ?? new AbortController().signal,
    services,
    params: options.params ?? {},
    label: options.label ?? "Agent:A → tool",
    addReferences: (chunks, documents = []) => references.push({ chunks: [...chunks], documents: [...documents] }),
    addUsage: () => undefined,
  };
  return { ctx, references };
}

/** begin → <id> (the tool) → Message:Out showing `content`. */
export function toolCanvas(componentName: string, id: string, params: Record<string, unknown>, content: string): CanvasDsl {
  return canvasDsl({
    begin: node("Begin", { prologue: "" }, [id]),
    [id]: node(componentName, params, ["Message:Out"]),
    "Message:Out": node("Message", { content: [content] }),
  });
}

export async function runToolCanvas(
  dsl: CanvasDsl,
  tools: { endpoints?: Record<string, ToolEndpointConfig>; env?: Record<string, string | undefined> },
  query: string,
): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(dsl, { services: { tools: { knowledgeBases: {}, endpoints: tools.endpoints ?? {}, env: tools.env ?? {} } } });
  return canvas.runToEnd({ query });
}

/**
 * A tool that is unavailable here (no key, no network) does not end the run: it finishes
 * cleanly, the tool's node_finished carries the error, and the message downstream shows it.
 */
export function unavailableError(events: readonly CanvasEvent[], id: string): string {
  const run = finished(events);
  if (run.error !== undefined) throw new Error(`the run ended with an error instead of going on: ${run.error}`);
  const error = nodeFinished(events, id).error;
  if (!error) throw new Error(`${id} finished without an error`);
  return error;
}
