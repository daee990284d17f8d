/**
 * RAGFlow's streaming contract (research/ragflow.md §2.5): an LLM or Agent streams its answer
 * only when one of its downstream components shows messages (Message) and no exception goto is
 * configured; a goto needs the whole answer to know whether it failed.
 */
import { stringifyValue } from "../../refs/template.js";
import { TextStream } from "../text-stream.js";
import type { ComponentContext, Params } from "../types.js";
import { splitThinkTags } from "./think-tags.js";

/** True when a downstream component is a message sink. */
function feedsMessageSink(ctx: ComponentContext): boolean {
  const downstream = ctx.canvas.component(ctx.id)?.downstream ?? [];
  return downstream.some((id) => {
    const info = ctx.canvas.component(id);
    return info !== undefined && ctx.canvas.componentType(info.componentName)?.capabilities?.emitsMessages === true;
  });
}

/** An exception goto the engine would follow (`exception_method: goto` with targets). */
function hasExceptionGoto(params: Params): boolean {
  const targets = params.exception_goto;
  return params.exception_method === "goto" && Array.isArray(targets) && targets.some((t) => typeof t === "string" && t !== "");
}

export function shouldStream(ctx: ComponentContext): boolean {
  return feedsMessageSink(ctx) && !hasExceptionGoto(ctx.params);
}

/**
 * The answer as a TextStream: think markers become chunks of their own. A failure after
 * streaming began cannot go through the engine's error path any more; with
 * `exception_method: comment` the default value is streamed instead (as RAGFlow), otherwise the
 * stream fails and the consuming Message reports the error.
 */
export function answerStream(params: Params, text: AsyncIterable<string>): TextStream {
  const fallback = params.exception_method === "comment" ? stringifyValue(params.exception_default_value) : undefined;
  async function* guarded(): AsyncGenerator<string, void, undefined> {
    try {
      yield* splitThinkTags(text);
    } catch (error) {
      if (fallback === undefined) throw error;
      if (fallback !== "") yield fallback;
    }
  }
  return new TextStream(guarded());
}
