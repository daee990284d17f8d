/**
 * A vision model for the Parser's model methods (a PDF page or an image described), through the
 * run's LLM provider like every other model call: an OpenAI-compatible chat with the picture as
 * an image part. The mock LLM answers it in tests.
 */
import { completeChat, llmProvider } from "../../components/llm/model-call.js";
import type { ComponentContext } from "../../contracts/component.js";
import type { Params } from "../../contracts/values.js";
import type { VisionModel } from "../parsing/contract.js";

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
