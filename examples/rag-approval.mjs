/**
 * A RAG agent with a human approval, as a LangGraph-style StateGraph compiled to a RAGFlow canvas.
 *
 *   retrieve (Retrieval over the knowledge base "handbook") → answer (LLM) → review (a person
 *   approves the draft, or rejects it with a note) → approved: show (Message) → END;
 *   rejected: rewrite (the question with the note) → retrieve again.
 *
 * The built-in nodes read the state as env("…") references; `review` pauses the run with
 * interrupt(), and the run resumes with the reviewer's decision as its `resume` input.
 *
 *   canvasflow run examples/rag-approval.json --register examples/rag-approval.mjs --mock-llm \
 *     --kb handbook=examples/handbook --session /tmp/rag.json \
 *     --inputs '{"question": {"value": "How many vacation days do I get?", "type": "object"}}'
 *   canvasflow run examples/rag-approval.json --register examples/rag-approval.mjs --mock-llm \
 *     --kb handbook=examples/handbook --session /tmp/rag.json --inputs '{"resume": {"approved": true}}'
 */
import { builtin, END, env, interrupt, START, state, StateGraph, text } from "canvasflow/graph";

/** The chat model (`<model>@<factory>`): configure it in canvasflow.config.json, or run with --mock-llm. */
const MODEL = "deepseek-chat@DeepSeek";

const State = state({
  question: state.text({ description: "What the user asks; a rejected draft's note is added to it." }),
  context: state.text({ description: "The handbook's passages found for the question." }),
  answer: state.text({ description: "The draft answer." }),
  approved: state.value({ default: false, type: "boolean", description: "The reviewer's decision." }),
  feedback: state.text({ description: "The reviewer's note on a rejected draft." }),
  rewrites: state.number({ description: "How many times the question was rewritten." }),
});

/** The reviewer sees the draft; the run resumes with `{ approved: true }` or `{ approved: false, feedback: "…" }`. */
function review(s) {
  const decision = interrupt({ question: s.question, answer: s.answer, ask: "Approve this answer? Resume with {approved: true} or {approved: false, feedback}" });
  if (decision?.approved === true) return { approved: true };
  return { approved: false, feedback: String(decision?.feedback ?? "") };
}

/** The question again, with what the reviewer said was missing. */
function rewrite(s) {
  return { question: s.feedback ? `${s.question} (${s.feedback})` : s.question, rewrites: s.rewrites + 1 };
}

export const graph = new StateGraph(State, { id: "rag_approval", input: ["question"] })
  .addNode("retrieve", builtin("Retrieval", { query: env("question"), kb_ids: ["handbook"], top_n: 2, empty_response: "Nothing in the handbook." }, { context: "formalized_content" }))
  .addNode(
    "answer",
    builtin(
      "LLM",
      {
        llm_id: MODEL,
        sys_prompt: text`Answer the question from these handbook passages only:\n${env("context")}`,
        prompts: [{ role: "user", content: text`${env("question")}` }],
      },
      { answer: "content" },
    ),
  )
  .addNode("review", review)
  .addNode("rewrite", rewrite)
  .addNode("show", builtin("Message", { content: [text`${env("answer")}`] }))
  .addEdge(START, "retrieve")
  .addEdge("retrieve", "answer")
  .addEdge("answer", "review")
  .addConditionalEdges("review", (s) => (s.approved ? "show" : "rewrite"), ["show", "rewrite"])
  .addEdge("rewrite", "retrieve")
  .addEdge("show", END)
  .compile();

/** For `--register`: the graph's component types, in the process that runs its canvas. */
export function register(registry) {
  graph.register(registry);
}
