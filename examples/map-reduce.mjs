/**
 * A map-reduce summariser, as a LangGraph-style StateGraph compiled to a RAGFlow canvas.
 *
 *   START ─(one Send per text)→ summarise (one run per text, each summary appended to
 *   `summaries`) → combine (one summary of the summaries) → END
 *
 * The conditional edge from START returns `new Send("summarise", { text })` for every text of the
 * input: summarise runs once per payload, given the payload instead of the state, and its
 * writes go through the `summaries` key's reducer (extend), in the order of the texts. combine
 * runs once, after every summary is in. Both talk to the run's chat model with runtime.chat().
 *
 *   canvasflow run examples/map-reduce.json --register examples/map-reduce.mjs --mock-llm \
 *     --inputs '{"texts": ["Cats sleep most of the day.", "Dogs like long walks."]}'
 */
import { END, Send, START, state, StateGraph } from "canvasflow/graph";

/** The chat model (`<model>@<factory>`): configure it in canvasflow.config.json, or run with --mock-llm. */
const MODEL = "deepseek-chat@DeepSeek";

const State = state({
  texts: state.list({ reducer: "last", description: "The texts to summarise." }),
  summaries: state.list({ description: "One summary per text, in the order of the texts." }),
  summary: state.text({ description: "The summary of them all." }),
});

/** The map: one text (a Send's payload), summarised. */
async function summarise({ text }, runtime) {
  const reply = await runtime.chat(MODEL, { messages: [{ role: "user", content: `Summarise in one sentence: ${text}` }] });
  return { summaries: [reply.content] };
}

/** The reduce: every summary, combined into one. */
async function combine(s, runtime) {
  const reply = await runtime.chat(MODEL, {
    messages: [
      { role: "system", content: "You combine summaries into one short paragraph." },
      { role: "user", content: s.summaries.map((summary, i) => `${i + 1}. ${summary}`).join("\n") },
    ],
  });
  return { summary: reply.content };
}

export const graph = new StateGraph(State, { id: "map_reduce", input: ["texts"] })
  .addNode("summarise", summarise)
  .addNode("combine", combine)
  .addConditionalEdges(START, (s) => s.texts.map((text) => new Send("summarise", { text })), ["summarise"])
  .addEdge("summarise", "combine")
  .addEdge("combine", END)
  .compile();

/** For `--register`: the graph's component types, in the process that runs its canvas. */
export function register(registry) {
  graph.register(registry);
}
