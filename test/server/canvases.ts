/** Canvases the server tests serve. */
import { canvasDsl, node } from "../helpers/dsl.js";
import { fixture } from "../helpers/server.js";

/** Greets `sys.query` and says the turn number (a second turn sees the first). */
export const hello = () => fixture("hello.json");

/** Asks for a form (name, colour, note) after the first message, then shows the badge. */
export const userFillUp = () => fixture("user-fill-up.json");

/** An LLM (every model answered by the mock LLM) streaming into a Message. */
export function llmCanvas(): ReturnType<typeof canvasDsl> {
  return canvasDsl({
    begin: node("Begin", { mode: "conversational", prologue: "Ask me." }, ["LLM:A"]),
    "LLM:A": node("LLM", { llm_id: "deepseek-chat@DeepSeek", sys_prompt: "Be brief.", prompts: [{ role: "user", content: "{sys.query}" }] }, ["Message:M"]),
    "Message:M": node("Message", { content: ["{LLM:A@content}"] }),
  });
}
