/**
 * `canvasflow/knowledge`: local knowledge bases. Building and updating an index of a folder of
 * documents, searching it (hybrid keyword and vector scores), and the embedding and rerank models.
 */
export { buildIndex, updateIndex, DEFAULT_INDEX_FOLDER, type BuildOptions, type BuiltIndex, type IndexReport, type IndexProgress, type IndexedChunk } from "./indexer.js";
export { localKnowledgeBase, setIndexNotifier, LocalKnowledgeBase, type IndexNotifier } from "./knowledge-base.js";
export { scoreCandidates, type HybridQuery, type ScoredChunk } from "./hybrid.js";
export { createKnowledgeModels, type KnowledgeModelsOptions } from "./models.js";
export type { EmbeddingModel, RerankModel, KnowledgeModels } from "./model-types.js";
