/**
 * The `files` of a completion, checked against what the agent is. An ingestion pipeline takes
 * uploads (the file dicts POST /api/v1/agents/{id}/upload answers): each entry is looked up among
 * the tenant's uploads by its id, held to the size limit, and offered to every step of the
 * pipeline that chooses by a document's name (the Parser's setups), before any run starts. An
 * entry that cannot run is an error naming its field; the others run. An agent canvas takes its
 * files inline (name, mime_type, data_url): an upload id or a path there is an error naming it,
 * since no agent component would read it.
 */
import type { CanvasGraph } from "../contracts/graph.js";
import { isPlainObject } from "../util/values.js";
import { argumentError } from "./envelope.js";
import { NO_PATHS_ON_THE_SERVER } from "./upload-documents.js";
import type { TenantUploads } from "./uploads.js";
import type { AgentRecord, UploadRecord } from "../backends/contracts.js";
import type { ComponentRegistry } from "../components/registry.js";

/** A document a pipeline run is given: the upload's file dict, as RAGFlow's File step gets it. */
export interface PipelineDocument {
  /** The entry's place in the request's `files`. */
  index: number;
  file: UploadFileDict;
}

/** RAGFlow's file dict of an upload (FileService.upload_info). */
export interface UploadFileDict {
  id: string;
  name: string;
  size: number;
  extension: string;
  mime_type: string;
  created_by: string;
  /** Epoch seconds. */
  created_at: number;
  preview_url: null;
}

/** An entry of `files` that does not run. */
export interface FileRefusal {
  field: string;
  message: string;
}

export function fileDict(record: UploadRecord): UploadFileDict {
  return { id: record.id, name: record.name, size: record.size, extension: record.extension, mime_type: record.mime_type, created_by: record.user, created_at: record.create_time / 1000, preview_url: null };
}

/** Why a document of this name cannot run through the graph, as the first step that refuses it says, or undefined. */
function documentProblem(graph: CanvasGraph, name: string): string | undefined {
  for (const node of graph.nodes.values()) {
    const problem = node.def.documentProblem?.(node.params, name);
    if (problem !== undefined) return `${node.id}: ${problem}`;
  }
  return undefined;
}

/** Documents one pipeline completion may ask for (each is a run and a message of its session). */
export const MAX_PIPELINE_DOCUMENTS = 100;

const USAGE = "an ingestion pipeline takes uploads: upload each document with POST /api/v1/agents/{agent_id}/upload and pass the file dicts it answers in `files`";

/** The pipeline's documents of a request, each checked; the entries that cannot run, each naming its field. */
export async function pipelineDocuments(files: readonly unknown[] | null | undefined, graph: CanvasGraph, uploads: TenantUploads, tenant: string, maxBytes: number): Promise<{ documents: PipelineDocument[]; refused: FileRefusal[] }> {
  // The completion's schema makes it a list, or null.
  if (!Array.isArray(files) || files.length === 0) throw argumentError(`Field \`files\` is required: ${USAGE}.`);
  if (files.length > MAX_PIPELINE_DOCUMENTS) throw argumentError(`Field \`files\` has ${files.length} entries, more than the ${MAX_PIPELINE_DOCUMENTS} documents one request may run: send them in several requests.`);
  const documents: PipelineDocument[] = [];
  const refused: FileRefusal[] = [];
  const asked = new Set<string>();
  for (const [index, entry] of files.entries()) {
    const at = `files[${index}]`;
    if (!isPlainObject(entry)) {
      refused.push({ field: at, message: `Field \`${at}\` must be an upload's file dict ({id, name, …}), got ${entry === null ? "null" : Array.isArray(entry) ? "a list" : typeof entry}` });
      continue;
    }
    if (entry.path !== undefined) {
      refused.push({ field: `${at}.path`, message: `Field \`${at}.path\` is refused: ${NO_PATHS_ON_THE_SERVER}` });
      continue;
    }
    if (typeof entry.id !== "string" || entry.id === "") {
      refused.push({ field: `${at}.id`, message: `Field \`${at}.id\` is missing: ${USAGE}` });
      continue;
    }
    if (asked.has(entry.id)) {
      refused.push({ field: `${at}.id`, message: `Field \`${at}.id\` names an upload an earlier entry names already (${JSON.stringify(entry.id.slice(0, 64))}): each document runs once` });
      continue;
    }
    asked.add(entry.id);
    const found = await uploads.get(tenant, entry.id);
    if (!found) {
      refused.push({ field: `${at}.id`, message: `Field \`${at}.id\` names no upload of this tenant (${JSON.stringify(entry.id.slice(0, 64))}; uploads are kept for an hour)` });
      continue;
    }
    const { record } = found;
    if (record.size > maxBytes) {
      refused.push({ field: at, message: `Field \`${at}\` (${record.name}) has ${record.size} bytes, more than the ${maxBytes} bytes a document may have on this server (server.limits.uploadBytes)` });
      continue;
    }
    const problem = documentProblem(graph, record.name);
    if (problem !== undefined) {
      refused.push({ field: `${at}.name`, message: `Field \`${at}.name\` (${record.name}) cannot run through this pipeline: ${problem}` });
      continue;
    }
    documents.push({ index, file: fileDict(record) });
  }
  return { documents, refused };
}

/**
 * The `files` of a turn that runs directly (an agent canvas, or a pipeline over the WebSocket): a
 * path is refused, and so is an upload id given to an agent canvas, each naming the field.
 */
export function refuseDocumentFiles(files: readonly unknown[] | undefined, pipeline: boolean): void {
  if (!files) return;
  for (const [index, entry] of files.entries()) {
    if (!isPlainObject(entry)) continue;
    if (entry.path !== undefined) throw argumentError(`Field \`files[${index}].path\` is refused: ${NO_PATHS_ON_THE_SERVER}`, null);
    if (!pipeline && entry.id !== undefined) {
      throw argumentError(`Field \`files[${index}].id\` names an upload, which only an ingestion pipeline reads; this agent is an agent canvas, which takes its files inline ({name, mime_type, data_url})`, null);
    }
  }
}

/** Whether the agent's DSL is an ingestion pipeline (its front end says so; no compiling). */
export function isPipelineAgent(registry: ComponentRegistry, agent: AgentRecord): boolean {
  return registry.frontEndFor(agent.dsl)?.kind === "pipeline";
}
