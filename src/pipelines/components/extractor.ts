/**
 * Extractor, "Transformer" in RAGFlow's editor (research/ragflow-pipelines.md §4.5): a chat model
 * over each chunk. Its prompts reference a step's chunks (`{TokenChunker:X@chunks}`); the last
 * reference that holds a list gives the chunks, and for each one the reference reads as the
 * chunk's text, the model is asked once, and its answer lands in the chunk under `field_name`
 * (summary, keywords, questions, metadata). With no list, one call makes one chunk of the answer.
 * The model is found as every model component's is (an empty llm_id is the config's default, or
 * the mock), with RAGFlow's sampling settings.
 */
import { completeChat, chatModelFor, requestBase } from "../../components/llm/model-call.js";
import { checkPrompts, checkSampling, LLM_DEFAULTS, promptReferences } from "../../components/llm/llm-params.js";
import { promptList } from "../../components/llm/prompt.js";
import type { ComponentContext, ComponentDefinition, ParamProblem } from "../../contracts/component.js";
import type { Params } from "../../contracts/values.js";
import { componentSchema } from "../../dsl/schemas.js";
import type { ChatMessage } from "../../llm/types.js";
import type { Reference } from "../../refs/grammar.js";
import { stringifyValue } from "../../refs/template.js";
import { isPlainObject } from "../../util/values.js";
import type { Chunk } from "../payload.js";
import { runStep } from "./step.js";

/** What RAGFlow's editor offers for the answer's place; `toc` is RAGFlow's own and not run here. */
const FIELD_NAMES = ["summary", "keywords", "questions", "metadata"];

function checkExtractor(params: Params): ParamProblem[] {
  const problems: ParamProblem[] = [];
  const field = params.field_name;
  if (typeof field !== "string" || field.trim() === "") problems.push({ pointer: "/field_name", message: "Result Destination does not support empty value." });
  else if (field === "toc") problems.push({ pointer: "/field_name", message: 'field_name "toc" (a table of contents written by the model, with RAGFlow\'s document ids) is not supported here' });
  else if (!FIELD_NAMES.includes(field)) problems.push({ pointer: "/field_name", severity: "warning", message: `field_name "${field}" is not one RAGFlow's editor offers (${FIELD_NAMES.join(", ")}); the answers are kept under it all the same` });
  const llmId = params.llm_id;
  if (typeof llmId !== "string") problems.push({ pointer: "/llm_id", message: `llm_id must be a string naming a chat model, not ${JSON.stringify(llmId)}` });
  else if (llmId.trim() === "") {
    problems.push({ pointer: "/llm_id", severity: "warning", message: "[Agent] LLM does not support empty value. (RAGFlow refuses the pipeline; canvasflow asks the configured default model)" });
  }
  return [...problems, ...checkSampling(params), ...checkPrompts(params)];
}

/** A prompt with the chunk's text where the list reference was, and every other reference's value. */
function renderFor(ctx: ComponentContext<Params>, template: string, list: Reference | undefined, text: string): string {
  const compiled = ctx.compile(template);
  if (compiled.isStatic) return compiled.source;
  return compiled.segments.map((segment) => (typeof segment === "string" ? segment : list && segment.ref.expr === list.expr ? text : stringifyValue(ctx.get(segment.ref)))).join("");
}

function chunkText(chunk: unknown): string {
  if (!isPlainObject(chunk)) return stringifyValue(chunk);
  const text = chunk.text ?? chunk.content_with_weight;
  return typeof text === "string" ? text : "";
}

export const ExtractorStep: ComponentDefinition = {
  name: "Extractor",
  paramsSchema: componentSchema("Extractor"),
  defaults: { ...LLM_DEFAULTS, field_name: "" },
  capabilities: { pipeline: true, reportsProgress: true, provider: "llm" },
  thoughts: () => "",
  check: checkExtractor,
  references: (params) => promptReferences(params),
  async invoke(ctx) {
    await runStep(ctx, async (_upstream, trace) => {
      const field = String(ctx.params.field_name);
      trace.note(0.1, "Start to generate.");
      // The upstream payload is passed on, not read: the prompts' references say what is read.
      let list: Reference | undefined;
      let items: unknown[] | undefined;
      for (const ref of promptReferences(ctx.params)) {
        // Peeked: a list of chunks would fill node_finished's inputs with the whole document.
        const value = ctx.peek(ref);
        if (Array.isArray(value)) {
          list = ref;
          items = value;
        }
      }
      const model = chatModelFor(ctx, ctx.params);
      const base = requestBase(ctx.params, ctx.signal);
      const system = typeof ctx.params.sys_prompt === "string" ? ctx.params.sys_prompt : "";
      const prompts = promptList(ctx.params.prompts);
      const ask = async (text: string): Promise<string> => {
        const messages: ChatMessage[] = [];
        const renderedSystem = renderFor(ctx, system, list, text);
        if (renderedSystem.trim() !== "") messages.push({ role: "system", content: renderedSystem });
        for (const prompt of prompts) messages.push({ role: prompt.role, content: renderFor(ctx, prompt.content, list, text) });
        const result = await completeChat(model, { ...base, messages }, (usage) => ctx.addUsage(usage));
        return result.content;
      };
      let chunks: Chunk[];
      if (items === undefined) {
        chunks = [{ [field]: await ask("") } as unknown as Chunk];
      } else {
        // A shallow copy of each chunk: the step before keeps its own, and their texts (which may
        // be the most a document gives) are shared, not copied; steps set top-level fields only.
        chunks = items.map((item) => (isPlainObject(item) ? { ...item } : item)) as Chunk[];
        for (let i = 0; i < chunks.length; i++) {
          const chunk = chunks[i];
          const answer = await ask(chunkText(chunk));
          if (isPlainObject(chunk)) (chunk as Record<string, unknown>)[field] = answer;
          trace.note(0.1 + (0.8 * (i + 1)) / chunks.length, `${i + 1} / ${chunks.length}`);
        }
      }
      ctx.setOutput("chunks", chunks);
      ctx.setOutput("output_format", "chunks");
    });
  },
};
