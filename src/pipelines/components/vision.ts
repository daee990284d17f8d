/**
 * The models of the Parser's model methods, through the run's LLM provider like every other model
 * call: a vision model (a PDF page or an image described: an OpenAI-compatible chat with the
 * picture as an image part) and a speech model (audio transcribed). The mock LLM answers both in
 * tests.
 */
import { completeChat, llmProvider } from "../../components/llm/model-call.js";
import type { ComponentContext } from "../../contracts/component.js";
import type { Params } from "../../contracts/values.js";
import type { SpeechModel, VisionModel } from "../parsing/contract.js";

export function visionModelFor(ctx: ComponentContext<Params>, llmId: string): VisionModel {
  const model = llmProvider(ctx).chatModel(llmId, { id: ctx.id, type: ctx.componentName });
  return {
    async describe(image, mime, prompt, signal) {
      const url = `data:${mime};base64,${Buffer.from(image).toString("base64")}`;
      const result = await completeChat(
        model,
        { messages: [{ role: "user", content: [{ type: "text", text: prompt }, { type: "image_url", image_url: { url } }] }], signal },
        (usage) => ctx.addUsage(usage),
      );
      return result.content;
    },
  };
}

/** A speech-to-text model for the Parser's audio setup, named by llm_id like any model. */
export function speechModelFor(ctx: ComponentContext<Params>, llmId: string): SpeechModel {
  const model = llmProvider(ctx).chatModel(llmId, { id: ctx.id, type: ctx.componentName });
  return {
    async transcribe(audio, fileName, signal) {
      if (!model.transcribe) throw new Error(`the model "${llmId}" cannot transcribe speech here (its provider gives no OpenAI-compatible /audio/transcriptions)`);
      return model.transcribe(audio, fileName, { signal });
    },
  };
}
