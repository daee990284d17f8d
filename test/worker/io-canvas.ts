/** The I/O-bound canvas the queue's kill tests run (and bench/workloads/server-queue-throughput.mjs mirrors). */
import type { CanvasDsl } from "../../src/dsl/types.js";
import { canvasDsl, node } from "../helpers/dsl.js";

export const ROUNDS = 10;

/** The I/O-bound canvas: a Loop of ROUNDS rounds, each an Invoke (answered after 20 ms) then an LLM call on the mock. */
export function ioCanvas(url: string, mode: "task" | "conversational"): CanvasDsl {
  return canvasDsl({
    begin: node("Begin", { mode, prologue: "" }, ["Loop:L"]),
    "Loop:L": node(
      "Loop",
      {
        loop_variables: [{ variable: "round", input_mode: "constant", type: "number", value: 0 }],
        loop_termination_condition: [{ variable: "Loop:L@round", operator: "≥", input_mode: "constant", value: ROUNDS }],
        logical_operator: "and",
        maximum_loop_count: 100,
        outputs: {},
      },
      ["Message:Done"],
    ),
    "LoopItem:I": node("LoopItem", {}, ["Invoke:Call"], { parent_id: "Loop:L" }),
    "Invoke:Call": node(
      "Invoke",
      { url, method: "post", variables: [{ key: "round", ref: "Loop:L@round" }, { key: "run", ref: "sys.query" }], headers: "", timeout: 30, datatype: "json", idempotency_key: true },
      ["LLM:Say"],
      { parent_id: "Loop:L" },
    ),
    "LLM:Say": node("LLM", { llm_id: "mock", sys_prompt: "Repeat it.", prompts: [{ role: "user", content: "round {Loop:L@round}: {Invoke:Call@result}" }] }, ["VariableAssigner:Next"], { parent_id: "Loop:L" }),
    "VariableAssigner:Next": node("VariableAssigner", { variables: [{ variable: "Loop:L@round", operator: "+=", parameter: 1 }] }, [], { parent_id: "Loop:L" }),
    "Message:Done": node("Message", { content: ["{Loop:L@round} rounds; last: {LLM:Say@content}"] }),
  });
}
