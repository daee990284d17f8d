/**
 * TokenChunker and TitleChunker (research/ragflow-pipelines.md §4.3, §4.4): the pipeline steps
 * around RAGFlow's two chunkers (chunking/). Their params are checked when the pipeline loads,
 * with RAGFlow's messages; a run chunks the payload the step before it named.
 */
import type { ComponentContext, ComponentDefinition, ParamProblem } from "../../contracts/component.js";
import type { Params } from "../../contracts/values.js";
import { componentSchema } from "../../dsl/schemas.js";
import { ChunkerParamError } from "../chunking/param-checks.js";
import { checkTitleChunkerParams } from "../chunking/title-chunker-params.js";
import { checkTokenChunkerParams } from "../chunking/token-chunker-params.js";
import { parseLimitsOf, type ParseLimits, type Chunk, type Payload, type ProgressSink } from "../payload.js";
import { runStep } from "./step.js";

/** RAGFlow's check as validation problems: the first one it raises, at its param. */
function problemsOf(check: (params: Params) => unknown): (params: Params) => ParamProblem[] {
  return (params) => {
    try {
      check(params);
      return [];
    } catch (error) {
      if (error instanceof ChunkerParamError) return [{ pointer: `/${error.param}`, message: error.message }];
      throw error;
    }
  };
}

type Chunker<P> = (params: P, payload: Payload, progress: ProgressSink, options: { signal: AbortSignal; limits: ParseLimits }) => Promise<Chunk[]>;

/** The algorithms load with a pipeline's first run; loading a canvas needs only the checks. */
const loadTokenChunk = async (): Promise<Chunker<ReturnType<typeof checkTokenChunkerParams>>> => (await import("../chunking/token-chunker.js")).tokenChunk;
const loadTitleChunk = async (): Promise<Chunker<ReturnType<typeof checkTitleChunkerParams>>> => (await import("../chunking/title-chunker.js")).titleChunk;

function chunkerStep<P>(name: string, check: (params: Params) => P, load: () => Promise<Chunker<P>>): ComponentDefinition {
  return {
    name,
    paramsSchema: componentSchema(name),
    capabilities: { pipeline: true, reportsProgress: true },
    thoughts: () => "",
    check: problemsOf(check),
    async invoke(ctx: ComponentContext<Params>) {
      await runStep(ctx, async (upstream, trace) => {
        if (typeof upstream.name !== "string") throw new Error(`Input error: the ${name} needs the document's name from the step before it`);
        const chunk = await load();
        const chunks = await chunk(check(ctx.params), upstream as unknown as Payload, trace.sink, { signal: ctx.signal, limits: parseLimitsOf(ctx.services) });
        ctx.setOutput("chunks", chunks);
        ctx.setOutput("output_format", "chunks");
      });
    },
  };
}

export const TokenChunkerStep = chunkerStep("TokenChunker", checkTokenChunkerParams, loadTokenChunk);
export const TitleChunkerStep = chunkerStep("TitleChunker", checkTitleChunkerParams, loadTitleChunk);
