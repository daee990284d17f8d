/**
 * Deleting an agent while one of its sessions runs a turn (issue 24, item 17): the run is
 * cancelled, and its run state (checkpoints, event log, lease, cancel flag) goes with the agent
 * once the turn ends, so the session id answers "Session not found!" (102) to its owner, not 103
 * "Only authorized users…" as a run state without a record did.
 */
import { describe, expect, it } from "vitest";
import type { ComponentDefinition } from "../../src/components/types.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";
import { call, send, startTestServer } from "../helpers/server.js";

/** Waits until its run is cancelled, telling the test it started. */
let started: () => void = () => undefined;
const Wait: ComponentDefinition = {
  name: "Wait",
  invoke: (ctx) =>
    new Promise<void>((resolve) => {
      ctx.signal.addEventListener("abort", () => resolve(), { once: true });
      started();
    }),
};

const waiting = canvasDsl({
  begin: node("Begin", { mode: "conversational", prologue: "" }, ["Wait:W"]),
  "Wait:W": node("Wait", {}, ["Message:M"]),
  "Message:M": node("Message", { content: ["done"] }),
});

describe("deleting an agent while it runs", () => {
  it("cancels the run and removes the session's run state once it ends: its owner gets 102, not 103", async () => {
    const server = await startTestServer({ registry: registryWith(Wait) });
    const agent = await call(server, "/api/v1/agents", { method: "POST", body: { title: "waits", dsl: waiting } });
    expect(agent.json.code, agent.text).toBe(0);
    const agentId = agent.json.data.id as string;
    const session = await call(server, `/api/v1/agents/${agentId}/sessions`, { method: "POST", body: {} });
    const sessionId = session.json.data.id as string;

    const inWait = new Promise<void>((resolve) => (started = resolve));
    const stream = await send(server, `/api/v1/agents/${agentId}/completions`, { method: "POST", body: { session_id: sessionId, query: "hi", stream: true } });
    const body = stream.text();
    await inWait;

    const deleted = await call(server, `/api/v1/agents/${agentId}`, { method: "DELETE" });
    expect(deleted.json.code, deleted.text).toBe(0);
    const events = (await body).split("\n\n").filter((f) => f.startsWith("data:{")).map((f) => JSON.parse(f.slice(5)));
    expect(events.at(-1)).toMatchObject({ event: "workflow_finished" });
    expect(events.at(-1).data.error).toMatch(/cancelled/);

    // The turn removes the run state as it ends (after its stream's last event went out).
    for (let i = 0; i < 100 && (await server.store.runs.load(sessionId)) !== undefined; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await server.store.runs.load(sessionId)).toBeUndefined();
    expect(await server.store.cancel.isRequested(sessionId)).toBe(false);
    const lock = await server.store.runs.lock(sessionId);
    await lock.release();
    const owner = await call(server, `/api/v1/sessions/${sessionId}/events`);
    expect(owner.json).toMatchObject({ code: 102, message: "Session not found!" });
  });
});
