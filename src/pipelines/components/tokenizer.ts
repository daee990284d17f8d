/**
 * Tokenizer, "Indexer" in RAGFlow's editor (research/ragflow-pipelines.md §4.6): makes each
 * chunk searchable. Full text: the title's and the content's terms (the summary's instead of the
 * text when the Extractor wrote one), the keywords and questions as their own fields, the chunk's
 * order. Embedding: the text the vector is made of (the `fields` joined, table tags stripped),
 * which the knowledge base embeds with its model, weighted with the file name's vector by
 * `filename_embd_weight`, when the document is indexed (`canvasflow kb index --pipeline`).
 *
 * RAGFlow's terms come from its rag_tokenizer (a Chinese dictionary, NLTK stemming); these come
 * from the knowledge base's own analyzer (knowledge/tokenize.ts), the one its queries use.
 */
import type { ComponentDefinition, ParamProblem } from "../../contracts/component.js";
import type { Params } from "../../contracts/values.js";
import { componentSchema } from "../../dsl/schemas.js";
import { termsOf } from "../../knowledge/tokenize.js";
import { isPlainObject } from "../../util/values.js";
import type { Chunk } from "../payload.js";
import { runStep } from "./step.js";

const SEARCH_METHODS = ["full_text", "embedding"];
/** RAGFlow strips these before embedding (`</?(table|td|caption|tr|th)( [^<>]{0,12})?>`). */
const TABLE_TAGS = /<\/?(table|td|caption|tr|th)( [^<>]{0,12})?>/g;

function listOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function checkTokenizer(params: Params): ParamProblem[] {
  const problems: ParamProblem[] = [];
  listOf(params.search_method).forEach((method, i) => {
    if (!SEARCH_METHODS.includes(method)) problems.push({ pointer: `/search_method/${i}`, message: `Chunk method abnormal. ${method} is not supported, it should be in ['full_text', 'embedding']` });
  });
  const weight = params.filename_embd_weight;
  if (weight !== undefined && (typeof weight !== "number" || weight < 0 || weight > 1)) problems.push({ pointer: "/filename_embd_weight", message: `filename_embd_weight must be a number in [0, 1], got ${JSON.stringify(weight)}` });
  return problems;
}

const terms = (text: string) => termsOf(text).join(" ");

/** The payload as chunks, as RAGFlow's Tokenizer reads it: chunks, JSON items, or one chunk of a text payload. */
function chunksOf(upstream: Readonly<Record<string, unknown>>): { chunks: Chunk[]; fromChunks: boolean } {
  const format = upstream.output_format;
  // Shallow copies: the step before keeps its chunks; their texts are shared (fields are set at the top only).
  if (format === "chunks") return { chunks: ((upstream.chunks as unknown[]) ?? []).filter(isPlainObject).map((chunk) => ({ ...chunk }) as Chunk), fromChunks: true };
  if (format === "json") return { chunks: ((upstream.json as unknown[]) ?? []).filter(isPlainObject).map((item) => ({ ...item }) as Chunk), fromChunks: false };
  const payload = typeof format === "string" ? upstream[format] : undefined;
  if (typeof payload !== "string") throw new Error(`Input error: output_format=${String(format)} requires a ${String(format)} payload from the step before the Tokenizer`);
  return { chunks: payload === "" ? [] : [{ text: payload }], fromChunks: false };
}

export const TokenizerStep: ComponentDefinition = {
  name: "Tokenizer",
  paramsSchema: componentSchema("Tokenizer"),
  defaults: { search_method: ["full_text", "embedding"], filename_embd_weight: 0.1, fields: ["text"] },
  capabilities: { pipeline: true, reportsProgress: true },
  thoughts: () => "",
  check: checkTokenizer,
  async invoke(ctx) {
    await runStep(ctx, async (upstream, trace) => {
      const methods = listOf(ctx.params.search_method);
      const fields = listOf(ctx.params.fields);
      const name = typeof upstream.name === "string" ? upstream.name : "";
      const { chunks, fromChunks } = chunksOf(upstream);
      if (methods.includes("full_text")) {
        trace.note(0.1, "Start to tokenize.");
        const title = terms(name.replace(/\.[a-zA-Z]+$/, ""));
        chunks.forEach((chunk, i) => {
          if (fromChunks) chunk.chunk_order_int = i;
          chunk.title_tks = title;
          chunk.title_sm_tks = title;
          if (typeof chunk.questions === "string") {
            chunk.question_kwd = chunk.questions.split("\n");
            chunk.question_tks = terms(chunk.questions);
          }
          if (typeof chunk.keywords === "string") {
            chunk.important_kwd = chunk.keywords.split(",");
            chunk.important_tks = terms(chunk.keywords);
          }
          const content = typeof chunk.summary === "string" && chunk.summary !== "" ? chunk.summary : typeof chunk.text === "string" ? chunk.text : undefined;
          if (content !== undefined) {
            chunk.content_ltks = terms(content);
            chunk.content_sm_ltks = chunk.content_ltks;
          }
        });
        trace.note(1 / methods.length, "Finish tokenizing.");
      }
      if (methods.includes("embedding")) {
        for (const chunk of chunks) {
          const text = fields
            .map((field) => chunk[field])
            .map((value) => (Array.isArray(value) ? value.join("\n") : typeof value === "string" ? value : ""))
            .join("")
            .replace(TABLE_TAGS, "")
            .trim();
          // A chunk with nothing to embed gets no vector, as in RAGFlow.
          if (text !== "") chunk._embedding_text = text;
        }
        ctx.setOutput("filename_embd_weight", typeof ctx.params.filename_embd_weight === "number" ? ctx.params.filename_embd_weight : 0.1);
        trace.note(1, "The knowledge base embeds the chunks when it indexes the document.");
      }
      ctx.setOutput("chunks", chunks);
      ctx.setOutput("output_format", "chunks");
    });
  },
};
