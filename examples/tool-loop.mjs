/**
 * A tool-calling loop, as a LangGraph-style StateGraph compiled to a RAGFlow canvas.
 *
 *   START → agent (the chat model, offered the tools) → tool calls? → tools (runs them) → agent …
 *                                                      → no tool calls → END
 *
 * `messages` is a state.messages() key: LangGraph's messages reducer adds each message (a
 * message with a known id replaces it). `agent` appends the model's reply with its tool_calls;
 * `tools` appends one tool message per call; the conditional edge after `agent` loops while the
 * last message calls tools.
 *
 *   canvasflow run examples/tool-loop.json --register examples/tool-loop.mjs --mock-llm \
 *     --inputs '{"messages": [{"role": "user", "content": "How many words are in this sentence?"}]}'
 */
import { END, START, state, StateGraph } from "canvasflow/graph";

/** The chat model (`<model>@<factory>`): configure it in canvasflow.config.json, or run with --mock-llm. */
const MODEL = "deepseek-chat@DeepSeek";

/** The tools the model may call: an OpenAI function schema, and what runs it. */
const TOOLS = {
  word_count: {
    schema: {
      type: "function",
      function: {
        name: "word_count",
        description: "Count the words of a text.",
        parameters: { type: "object", properties: { text: { type: "string", description: "The text." } }, required: ["text"] },
      },
    },
    run: ({ text }) => String(String(text ?? "").trim().split(/\s+/).filter(Boolean).length),
  },
};

const State = state({
  messages: state.messages({ description: "The conversation: the user's, the model's and the tools' messages." }),
});

/** The conversation as the chat model takes it. */
function toChat(messages) {
  return messages.map((m) => ({
    role: m.role,
    content: m.content ?? null,
    ...(m.tool_calls?.length ? { tool_calls: m.tool_calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } })) } : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
  }));
}

/** The model's turn: its reply, with the tools it calls (LangGraph's AIMessage shape: { id, name, args }). */
async function agent(s, runtime) {
  const reply = await runtime.chat(MODEL, { messages: toChat(s.messages), tools: Object.values(TOOLS).map((tool) => tool.schema) });
  const toolCalls = reply.toolCalls.map((call) => ({ id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments || "{}") }));
  return { messages: { id: `ai-${s.messages.length}`, role: "assistant", content: reply.content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) } };
}

/** Every tool the last message calls, run; one tool message each. */
function tools(s) {
  const calls = s.messages.at(-1)?.tool_calls ?? [];
  return {
    messages: calls.map((call) => ({
      id: `tool-${call.id}`,
      role: "tool",
      tool_call_id: call.id,
      name: call.name,
      content: TOOLS[call.name] ? TOOLS[call.name].run(call.args ?? {}) : `unknown tool ${call.name}`,
    })),
  };
}

export const graph = new StateGraph(State, { id: "tool_loop" })
  .addNode("agent", agent)
  .addNode("tools", tools)
  .addEdge(START, "agent")
  .addConditionalEdges("agent", (s) => (s.messages.at(-1)?.tool_calls?.length ? "tools" : END), ["tools", END])
  .addEdge("tools", "agent")
  .compile();

/** For `--register`: the graph's component types, in the process that runs its canvas. */
export function register(registry) {
  graph.register(registry);
}
