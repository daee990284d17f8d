/**
 * A turn's line in its session's message list across a crash (src/server/turn-record.ts):
 * - the turn's messages are in its run's last checkpoint, and in the session's record before
 *   message_end and workflow_finished go out (a client that stops at message_end, as RAGFlow's
 *   SDK does, finds them; a process killed after the checkpoint leaves them for the next turn);
 * - a turn whose process died mid-run is recorded under its own question, marked interrupted,
 *   and the next turn answers its own question from the last stable point.
 * The servers' crash test (crash.test.ts) kills real server processes; these pin each window.
 */
import { describe, expect, it } from "vitest";
import { DurableSession } from "../../src/durable/session.js";
import type { ComponentDefinition } from "../../src/components/types.js";
import { startTurn } from "../../src/server/turn.js";
import { INTERRUPTED_TURN } from "../../src/server/turn-record.js";
import { allEvents, testAgent, testServerContext, turnInput } from "../helpers/server-context.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { registryWith } from "../helpers/registry.js";
import { hello } from "./canvases.js";

/** A component that waits while `gate.closed` (a run that dies there leaves its first message checkpointed). */
const gate = { closed: false };
const Wait: ComponentDefinition = { name: "Wait", invoke: () => (gate.closed ? new Promise(() => undefined) : undefined) };
const registry = registryWith(Wait);

/** Two messages with a wait between them, each naming the turn's question. */
const twoMessages = () =>
  canvasDsl({
    begin: node("Begin", { mode: "conversational", prologue: "Ask." }, ["Message:First"]),
    "Message:First": node("Message", { content: ["first: {sys.query}. "] }, ["Wait:W"]),
    "Wait:W": node("Wait", {}, ["Message:Second"]),
    "Message:Second": node("Message", { content: ["second: {sys.query}."] }),
  });

describe("a finished turn's messages (issue 24, item 12)", () => {
  it("are in the run's last checkpoint and in the session's record before message_end and workflow_finished go out", async () => {
    const ctx = testServerContext({ registry });
    const agentId = await testAgent(ctx, hello());
    const first = await startTurn(ctx, turnInput(agentId, "Ada"));
    await allEvents(first.events);
    const sessions = ctx.store.sessions;
    const update = sessions.update.bind(sessions);
    const delivered: string[] = [];
    let atUpdate: { delivered: string[]; lastDelta: unknown } | undefined;
    sessions.update = async (tenant, id, patch, now, known) => {
      const stored = await ctx.store.runs.load(id);
      atUpdate ??= { delivered: [...delivered], lastDelta: stored?.deltas.at(-1) };
      return update(tenant, id, patch, now, known);
    };
    const turn = await startTurn(ctx, turnInput(agentId, "Bob", first.sessionId));
    for await (const event of turn.events) delivered.push(event.event);
    expect(delivered).toContain("message_end");
    expect(delivered.at(-1)).toBe("workflow_finished");
    // The record was written with the messages already in the last checkpoint, and before either terminal event.
    expect(atUpdate?.delivered).not.toContain("message_end");
    expect(atUpdate?.delivered).not.toContain("workflow_finished");
    const note = (atUpdate?.lastDelta as { status: string; note?: { messages: unknown[] } }).note;
    expect((atUpdate?.lastDelta as { status: string }).status).toBe("idle");
    expect(note?.messages).toEqual([
      { role: "user", content: "Bob", id: turn.transcript.messageId },
      { role: "assistant", content: "Hello, Bob! This is turn 2.", id: turn.transcript.messageId },
    ]);
  });

  it("left unrecorded by a process that stopped after the run's last checkpoint, are added by the session's next turn", async () => {
    const ctx = testServerContext({ registry });
    const agentId = await testAgent(ctx, hello());
    const sessions = ctx.store.sessions;
    const update = sessions.update.bind(sessions);
    // The record write after the last checkpoint never happens (the process "died" there).
    let refuse = false;
    sessions.update = async (...args) => {
      if (refuse) throw new Error("the process is gone");
      return update(...args);
    };
    const first = await startTurn(ctx, turnInput(agentId, "Ada"));
    await allEvents(first.events);
    refuse = true;
    const lost = await startTurn(ctx, turnInput(agentId, "Bob", first.sessionId));
    await allEvents(lost.events);
    expect((await sessions.get("t1", first.sessionId))?.message.map((m) => m.content)).toEqual(["Hi! Tell me your name and I will greet you.", "Ada", "Hello, Ada! This is turn 1."]);
    refuse = false;
    const next = await startTurn(ctx, turnInput(agentId, "Cy", first.sessionId));
    await allEvents(next.events);
    const messages = (await sessions.get("t1", first.sessionId))!.message;
    expect(messages.map((m) => m.content)).toEqual([
      "Hi! Tell me your name and I will greet you.",
      "Ada",
      "Hello, Ada! This is turn 1.",
      "Bob",
      "Hello, Bob! This is turn 2.",
      "Cy",
      "Hello, Cy! This is turn 3.",
    ]);
    expect(messages[3].id).toBe(lost.transcript.messageId);
    // A later turn does not add it again.
    await allEvents((await startTurn(ctx, turnInput(agentId, "Di", first.sessionId))).events);
    expect((await sessions.get("t1", first.sessionId))!.message.filter((m) => m.content === "Bob")).toHaveLength(1);
  });
});

describe("the turn after a crash (issue 24, item 11)", () => {
  it("records the dead turn under its own question, marked interrupted, then answers the new question", async () => {
    const ctx = testServerContext({ registry });
    const agentId = await testAgent(ctx, twoMessages());
    gate.closed = false;
    const first = await startTurn(ctx, turnInput(agentId, "one"));
    await allEvents(first.events);
    const id = first.sessionId;
    // A process runs the next turn, "two", and dies while it waits: its first message is checkpointed.
    gate.closed = true;
    const dying = await DurableSession.open({ store: ctx.store.runs, key: id, registry });
    const events = dying.run({ query: "two" })[Symbol.asyncIterator]();
    const seen: string[] = [];
    for (;;) {
      const step = await events.next();
      const event = step.value as { event: string; data: { component_id?: string } };
      seen.push(event.event);
      if (event.event === "node_started" && event.data.component_id === "Wait:W") break;
    }
    expect(seen).toContain("message_end");
    await dying.close(); // its lease goes, its run stays under way (nothing more is written)
    gate.closed = false;

    const next = await startTurn(ctx, turnInput(agentId, "three", id));
    const nextEvents = await allEvents(next.events);
    expect(nextEvents.map((e) => e.event)).not.toContain("workflow_resumed");
    expect(next.transcript.content).toBe("first: three. second: three.");
    const messages = (await ctx.store.sessions.get("t1", id))!.message;
    expect(messages.slice(1).map(({ role, content, interrupted }) => ({ role, content, ...(interrupted ? { interrupted } : {}) }))).toEqual([
      { role: "user", content: "one" },
      { role: "assistant", content: "first: one. second: one." },
      { role: "user", content: "two" },
      { role: "assistant", content: "first: two. ", interrupted: true },
      { role: "user", content: "three" },
      { role: "assistant", content: "first: three. second: three." },
    ]);
    // The dead run was ended in the log, with the reason, under its own message id.
    const logged = await ctx.store.runs.events(id);
    const deadId = messages[3].id;
    expect(deadId).toBeDefined();
    expect(messages[4].id).toBe(deadId);
    const ended = logged.filter((e) => e.event.message_id === deadId && e.event.event === "workflow_finished");
    expect(ended.map((e) => (e.event.data as { error?: string }).error)).toEqual([INTERRUPTED_TURN]);
    // The session goes on from the turn before the dead one: this was its second finished turn.
    const turns = await startTurn(ctx, turnInput(agentId, "four", id));
    await allEvents(turns.events);
    expect(turns.transcript.content).toBe("first: four. second: four.");
  });
});
