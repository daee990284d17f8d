/**
 * The chunkers of RAGFlow ingestion pipelines, as the pipeline components call them: check the
 * params once (when the DSL loads), then chunk each document's payload.
 */
export { ChunkerParamError } from "./param-checks.js";
export type { ChunkOptions } from "./chunk-run.js";
export { tokenChunk } from "./token-chunker.js";
export { checkTokenChunkerParams, tokenChunkerParamsSchema, TOKEN_CHUNKER_DEFAULTS, type TokenChunkerParams } from "./token-chunker-params.js";
export { titleChunk } from "./title-chunker.js";
export { checkTitleChunkerParams, titleChunkerParamsSchema, TITLE_CHUNKER_DEFAULTS, type TitleChunkerParams } from "./title-chunker-params.js";
export { cl100kCounter, type TokenCounter } from "./tokens.js";
