/**
 * The minimal echo agent the server benches and tools serve (Begin → Message "{sys.query}"), and
 * the server limits that would otherwise throttle a load test.
 */
import { node } from "../lib.mjs";

export const UNLIMITED = { completionsPerMinute: 0, requestsPerMinute: 0, runsPerKey: 0, runsPerServer: 0 };

export const echoDsl = () => ({
  components: {
    begin: node("Begin", { mode: "conversational", prologue: "" }, ["Message:Echo"]),
    "Message:Echo": node("Message", { content: ["{sys.query}"] }),
  },
  globals: {},
  history: [],
  path: [],
  retrieval: [],
});
