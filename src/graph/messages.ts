/**
 * Messages in a StateGraph's state (`state.messages()`): plain JSON, merged by LangGraph's rules
 * (the `messages` reducer, src/pool/reducers.ts): a message with a known id replaces it, a
 * `removeMessage(id)` removes it, `removeMessage(REMOVE_ALL_MESSAGES)` clears what came before.
 */
export { REMOVE_ALL_MESSAGES, removeMessage } from "../pool/reducers.js";

/** A chat message as the state holds it. */
export interface Message {
  /** Given when missing, so a later message with the same id replaces it. */
  id?: string;
  /** user, assistant, system, tool (or LangChain's `type`: human, ai…). */
  role?: string;
  type?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; name: string; args?: Record<string, unknown> }>;
  tool_call_id?: string;
  name?: string;
  [key: string]: unknown;
}
