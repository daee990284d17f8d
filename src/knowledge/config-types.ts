/**
 * How the configuration describes a local knowledge base and its embedding model (re-exported by
 * config/types.ts, the whole configuration's types).
 */
/** An embedding model on an OpenAI-compatible `/v1/embeddings` endpoint. */
export interface EmbeddingConfig {
  /** A key of `providers`. */
  provider: string;
  /** The model name the provider knows, e.g. "text-embedding-3-small" or "nomic-embed-text". */
  model: string;
  /** Asked of the server (OpenAI's `dimensions`); left out, the model's own size. */
  dimensions?: number;
  /** Texts per request (default 32; TEI, for one, takes at most 32). */
  batchSize?: number;
}

/** A local folder of documents, searched by keywords and, with an embedding model, by vectors. */
export interface LocalKnowledgeBaseConfig {
  type: "local";
  /** A folder of .md, .txt, .json, .pdf, .docx, .html and .csv files. */
  dir: string;
  /** The embedding model; default the config's `embedding`; false: keywords only. */
  embedding?: EmbeddingConfig | false;
  /** Where the index is cached; default `<dir>/.canvasflow-index`. */
  indexDir?: string;
  /**
   * A RAGFlow ingestion pipeline (a dataflow canvas file) that turns the folder's files into
   * chunks, instead of the default chunker. Left out, the pipeline the index was last made with
   * (`canvasflow kb index DIR --pipeline FILE`), else the default chunker.
   */
  pipeline?: string;
}
