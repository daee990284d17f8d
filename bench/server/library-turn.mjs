/**
 * The server-completions turn without the server: what `POST /api/v1/agents/chat/completions`
 * with no session id does to the store, done through the library on the same ServerStore. The
 * agent is read, a new durable session is opened on `store.runs` (the compiled agent, the store's
 * cancel signals, `fresh`), its session record created with the prologue, the turn run with the
 * query, and its messages kept as the server keeps them: in the run's last checkpoint (the end
 * note) and then in the session record. Left out: HTTP, the key check, limits, the answer's
 * serialisation, which is what the server's own cost is measured against.
 */
import { randomUUID } from "node:crypto";

export function libraryTurn(api, store, { tenant, agentId, query }) {
  const registry = api.builtinRegistry();
  // The server compiles an agent once per version (compiled-agents.ts): so does this.
  let compiled;
  return async function turn() {
    const agent = await store.agents.get(tenant, agentId);
    if (!agent) throw new Error(`agent ${agentId} not found`);
    compiled ??= api.compileCanvas(await api.readSource(agent.dsl), registry);
    const id = randomUUID().replaceAll("-", "");
    const session = await api.DurableSession.open({ store: store.runs, key: id, compiled, registry, canvas: { taskId: id }, cancel: store.cancel, fresh: true });
    try {
      const now = Date.now();
      const record = await store.sessions.create({ id, tenant, agent_id: agentId, user_id: "", name: "", message: [{ role: "assistant", content: session.canvas.prologue }], source: "agent", create_time: now, update_time: now });
      let answer = "";
      let messages = [];
      const end = {
        note: () => {
          messages = [...record.message, { role: "user", content: query }, { role: "assistant", content: answer }];
          return { messages };
        },
        kept: async () => {
          await store.sessions.update(tenant, id, { message: messages }, Date.now(), record);
          return true;
        },
      };
      let last;
      for await (const event of session.run({ query, end })) {
        if (event.event === "message") answer += event.data.content;
        last = event;
      }
      if (last?.event !== "workflow_finished" || last.data.error || answer !== query) throw new Error(`the echo turn did not finish: ${JSON.stringify(last)}`);
    } finally {
      await session.close();
    }
  };
}

/** Turns a second, `concurrency` at a time for `seconds` (after a warm-up of a fifth of that). */
export async function turnsPerSecond(turn, { seconds, concurrency }) {
  const loop = async (until) => {
    let n = 0;
    while (performance.now() < until) {
      await turn();
      n++;
    }
    return n;
  };
  const start = () => Promise.all(Array.from({ length: concurrency }, () => loop(performance.now() + seconds * 1000)));
  await Promise.all(Array.from({ length: concurrency }, () => loop(performance.now() + seconds * 200)));
  const began = performance.now();
  const counts = await start();
  const turns = counts.reduce((a, b) => a + b, 0);
  return { turns, turns_per_s: turns / ((performance.now() - began) / 1000) };
}
