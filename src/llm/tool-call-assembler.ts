/**
 * Streamed tool calls arrive in pieces: the first delta of a call carries its index, id and
 * function name, later ones append fragments of the JSON arguments. This puts them together.
 */
import type { ChatToolCall } from "./types.js";

/** One streamed fragment, as OpenAI-compatible servers send it in `choices[0].delta.tool_calls`. */
interface ToolCallDelta {
  index?: number;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface Partial {
  id: string;
  name: string;
  arguments: string;
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, Partial>();
  private lastIndex = -1;

  add(delta: ToolCallDelta): void {
    const index = typeof delta.index === "number" ? delta.index : this.indexWithout(delta);
    this.lastIndex = Math.max(this.lastIndex, index);
    let call = this.calls.get(index);
    if (!call) {
      call = { id: "", name: "", arguments: "" };
      this.calls.set(index, call);
    }
    if (delta.id) call.id = delta.id;
    const name = delta.function?.name;
    // The name comes once; a server that repeats it whole must not double it.
    if (name && name !== call.name) call.name += name;
    const fragment = delta.function?.arguments;
    if (fragment) call.arguments += fragment;
  }

  /**
   * Servers that leave out `index`: a known id continues its call, a new id starts one; without
   * an id, a different function name starts a call and anything else continues the last one.
   */
  private indexWithout(delta: ToolCallDelta): number {
    const last = this.calls.get(this.lastIndex);
    if (delta.id) {
      for (const [index, call] of this.calls) if (call.id === delta.id) return index;
      return this.lastIndex + 1;
    }
    const name = delta.function?.name;
    if (!last || (name && name !== last.name)) return this.lastIndex + 1;
    return this.lastIndex;
  }

  get size(): number {
    return this.calls.size;
  }

  /** The assembled calls in index order. A call without id gets `call_<index>`; empty arguments are "{}". */
  result(): ChatToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: call.id || `call_${index}`,
        type: "function" as const,
        function: { name: call.name, arguments: call.arguments.trim() === "" ? "{}" : call.arguments },
      }));
  }
}
