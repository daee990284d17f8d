/**
 * One Retrieval search over its knowledge bases: local folders and RAGFlow servers, searched at
 * once, their chunks merged by similarity, filtered by the threshold and cut to top_n.
 */
import path from "node:path";
import { isUnavailable, UnavailableError } from "../../components/unavailable.js";
import type { KnowledgeBaseChoice } from "./datasets.js";
import { localIndex } from "./local-index.js";
import { searchLocalIndex } from "./local-search.js";
import { searchRagflow, type RagflowTarget } from "./ragflow-client.js";
import { documentAggregates, type RetrievedChunk, type SearchOptions, type SearchResult } from "./types.js";

type Env = Readonly<Record<string, string | undefined>>;

/** RAGFlow knowledge bases grouped by server and key: one request serves all datasets of a server. */
function ragflowTargets(choices: readonly KnowledgeBaseChoice[], env: Env): RagflowTarget[] {
  const targets = new Map<string, RagflowTarget & { ids: string[] }>();
  for (const { id, config } of choices) {
    if (config.type !== "ragflow") continue;
    let apiKey: string | undefined;
    if (config.apiKeyEnv) {
      apiKey = env[config.apiKeyEnv];
      if (!apiKey) throw new UnavailableError(`RAGFlow knowledge base "${id}" reads its API key from the environment variable ${config.apiKeyEnv}, which is not set`);
    }
    const key = `${config.baseURL}\u0000${config.apiKeyEnv ?? ""}`;
    const target = targets.get(key) ?? { baseURL: config.baseURL, apiKey, datasetIds: [], ids: [], label: "" };
    const datasetId = config.datasetId ?? id;
    if (!target.datasetIds.includes(datasetId)) target.datasetIds.push(datasetId);
    target.ids.push(id);
    target.label = target.ids.map((i) => `"${i}"`).join(", ");
    targets.set(key, target);
  }
  return [...targets.values()];
}

async function searchLocal(id: string, dir: string, options: SearchOptions): Promise<RetrievedChunk[]> {
  try {
    return searchLocalIndex(await localIndex(dir), id, options);
  } catch (error) {
    const message = `knowledge base "${id}" (${path.resolve(dir)}): ${error instanceof Error ? error.message : String(error)}`;
    throw isUnavailable(error) ? new UnavailableError(message) : new Error(message);
  }
}

export async function searchKnowledgeBases(choices: readonly KnowledgeBaseChoice[], options: SearchOptions, env: Env): Promise<SearchResult> {
  const localDirs = new Map<string, string>();
  for (const { id, config } of choices) if (config.type === "local" && !localDirs.has(path.resolve(config.dir))) localDirs.set(path.resolve(config.dir), id);
  const remote = ragflowTargets(choices, env);

  const lists = await Promise.all([
    ...[...localDirs].map(([dir, id]) => searchLocal(id, dir, options)),
    ...remote.map(async (target) => (await searchRagflow(target, options)).chunks),
  ]);

  // A chunk found through two ids of one folder counts once. Ties keep each backend's own order.
  const seen = new Set<string>();
  const merged: RetrievedChunk[] = [];
  for (const chunk of lists.flat()) {
    if (chunk.similarity < options.similarityThreshold || seen.has(chunk.id)) continue;
    seen.add(chunk.id);
    merged.push(chunk);
  }
  const chunks = merged.sort((a, b) => b.similarity - a.similarity).slice(0, Math.max(0, options.topN));
  return { chunks, documents: documentAggregates(chunks) };
}
