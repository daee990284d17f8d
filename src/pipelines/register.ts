/**
 * Teach a registry RAGFlow's ingestion pipelines: their steps and the front end that loads them.
 * The steps load their parsers, chunkers and models only when a run needs them.
 */
import type { ComponentRegistry } from "../components/registry.js";
import type { ComponentDefinition } from "../contracts/component.js";
import { TitleChunkerStep, TokenChunkerStep } from "./components/chunkers.js";
import { CompilerStep } from "./components/compiler.js";
import { ExtractorStep } from "./components/extractor.js";
import { FileStep } from "./components/file.js";
import { ParserStep } from "./components/parser.js";
import { TokenizerStep } from "./components/tokenizer.js";
import { PIPELINE_FRONT_END } from "./front-end.js";

/** The pipeline steps canvasflow runs. */
export const PIPELINE_STEPS: readonly ComponentDefinition[] = [FileStep, ParserStep, TokenChunkerStep, TitleChunkerStep, ExtractorStep, TokenizerStep, CompilerStep];

export function registerPipelines(registry: ComponentRegistry): ComponentRegistry {
  for (const def of PIPELINE_STEPS) if (!registry.has(def.name)) registry.register(def);
  registry.registerFrontEnd(PIPELINE_FRONT_END);
  return registry;
}
