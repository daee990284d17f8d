/**
 * A paused run and its resumption through the API, with fixtures/user-fill-up.json: the first
 * turn ends with user_inputs (no workflow_finished); a call with the session and `inputs` resumes
 * it (no workflow_started) and shows the badge.
 */
import { describe, expect, it } from "vitest";
import { call, createAgent, frames, send, startTestServer } from "../helpers/server.js";
import { userFillUp } from "./canvases.js";

const events = (text: string) => frames(text).slice(0, -1).map((frame) => JSON.parse(frame.slice("data:".length)));

describe("pause and resume (UserFillUp)", () => {
  it("streams the pause, then resumes from inputs; the session's messages hold both turns", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, userFillUp());
    const first = events(await (await send(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "hi", stream: true } })).text());
    expect(first.map((e) => e.event).slice(-3)).toEqual(["message", "message_end", "user_inputs"]);
    expect(first.some((e) => e.event === "workflow_finished")).toBe(false);
    const pause = first.at(-1);
    expect(Object.keys(pause.data.inputs)).toEqual(["name", "colour", "note"]);
    expect(pause.data.tips).toBe('You said "hi". Who is the badge for?');
    const sessionId = pause.session_id;

    const resumed = await send(server, "/api/v1/agents/chat/completions", {
      body: { agent_id: agentId, session_id: sessionId, stream: true, inputs: { name: { type: "line", value: "Ada" }, colour: { type: "options", value: "blue" } } },
    });
    const text = await resumed.text();
    expect(text.endsWith("data:[DONE]\n\n")).toBe(true);
    const second = events(text);
    expect(second[0].event).not.toBe("workflow_started");
    expect(second.at(-1).event).toBe("workflow_finished");
    expect(second.at(-1).data.error).toBeUndefined();
    expect(second.filter((e) => e.event === "message").map((e) => e.data.content).join("").trim()).toBe("[blue] Ada");
    expect(second.every((e) => e.session_id === sessionId && e.task_id === sessionId)).toBe(true);

    const session = await call(server, `/api/v1/agents/${agentId}/sessions/${sessionId}`);
    expect(session.json.data.message.map((m: { role: string; content: string }) => `${m.role}: ${m.content.trim()}`)).toEqual([
      "assistant: Let's make you a badge.",
      "user: hi",
      'assistant: You said "hi". Who is the badge for?',
      "user: ",
      "assistant: [blue] Ada",
    ]);
  });

  it("the non-stream answer of a pause is the user_inputs event with the reply and the form", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, userFillUp());
    const paused = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "hi" } });
    expect(paused.json.code).toBe(0);
    expect(paused.json.data.event).toBe("user_inputs");
    expect(paused.json.data.data).toMatchObject({ content: 'You said "hi". Who is the badge for?', tips: 'You said "hi". Who is the badge for?', reference: {} });
    expect(Object.keys(paused.json.data.data.inputs)).toEqual(["name", "colour", "note"]);

    const done = await call(server, "/api/v1/agents/chat/completions", {
      body: { agent_id: agentId, session_id: paused.json.data.session_id, inputs: { name: "Bo", colour: "red", note: "VIP" } },
    });
    expect(done.json.code).toBe(0);
    expect(done.json.data.event).toBe("message_end");
    expect(done.json.data.data.content).toBe("[red] Bo VIP");
  });
});
