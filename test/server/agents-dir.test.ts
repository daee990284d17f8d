/**
 * `agentsDir` (`--agents DIR`): every DSL file of a folder is a read-only agent of every tenant,
 * its id the file name; template envelopes are unwrapped and legacy canvases migrated in memory.
 * A file that is not a valid canvas stops the server from starting, naming the file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { corpusRoot } from "../helpers/corpus.js";
import { addKey, call, createAgent, injectTestServer } from "../helpers/server.js";
import { scratchDir } from "../helpers/scratch.js";
import { hello } from "./canvases.js";

describe("--agents DIR", () => {
  it("serves each file as a read-only agent of every tenant, next to the tenant's own", async () => {
    const folder = scratchDir("canvasflow-agents-");
    folder.write("greeter.json", hello());
    folder.write("templated.json", { id: "x", title: "From a template", description: "an envelope", dsl: hello() });
    folder.copy(join(corpusRoot(), "ragflow/legacy-v0.19.1/general_chat_bot.json"), "legacy-bot.json");
    folder.write("notes.txt", "not a canvas");
    const server = await injectTestServer({ agentsDir: folder.dir });
    const other = await addKey(server.store, "t2");
    const own = await createAgent(server, hello(), "mine");

    const listed = (await call(server, "/api/v1/agents")).json.data;
    expect(listed.total).toBe(4);
    // The folder's first (ordered by their files' times), then the tenant's.
    const ids = listed.canvas.map((a: { id: string }) => a.id);
    expect(ids.slice(0, 3).sort()).toEqual(["greeter", "legacy-bot", "templated"]);
    expect(ids[3]).toBe(own);
    expect(listed.canvas.find((a: { id: string }) => a.id === "templated")).toMatchObject({ title: "From a template", description: "an envelope", user_id: "t1" });
    expect((await call(server, "/api/v1/agents?page=2&page_size=3")).json.data.canvas.map((a: { id: string }) => a.id)).toEqual([own]);
    expect((await call(server, "/api/v1/agents", { key: other })).json.data.total).toBe(3);

    // The legacy canvas is served migrated (the file is untouched).
    const legacy = (await call(server, "/api/v1/agents/legacy-bot")).json.data.dsl;
    expect(Object.values(legacy.components).map((c) => (c as { obj: { component_name: string } }).obj.component_name)).not.toContain("Answer");

    for (const key of [server.key, other]) {
      const turn = await call(server, "/api/v1/agents/greeter/completions", { body: { query: "Ada" }, key });
      expect(turn.json.data.data.content).toBe("Hello, Ada! This is turn 1.");
    }
    expect((await call(server, "/api/v1/agents/templated/sessions", { body: {} })).json.data.agent_id).toBe("templated");

    for (const write of [{ method: "PUT", body: { title: "x" } }, { method: "DELETE" }]) {
      const answer = await call(server, "/api/v1/agents/greeter", write);
      expect(answer.json.code).toBe(103);
      expect(answer.json.message).toContain("read-only");
    }
  });

  it("a file that is not a valid agent canvas stops the server from starting, naming it", async () => {
    const folder = scratchDir("canvasflow-agents-bad-");
    folder.write("good.json", hello());
    const broken = hello() as { components: { begin: { obj: { params: Record<string, unknown> } } } };
    broken.components.begin.obj.params.mode = "sideways";
    const file = folder.write("broken.json", broken);
    const app = createServer({ store: new InProcessServerStore(), agentsDir: folder.dir });
    const error = await app.listen({ port: 0, host: "127.0.0.1" }).then(() => undefined, (e: Error) => e);
    await app.close();
    expect(error?.message).toContain(`${file} is not a valid agent canvas`);
    expect(error?.message).toContain("/components/begin/obj/params/mode");
  });

  it("a folder that does not exist stops the server from starting", async () => {
    const app = createServer({ store: new InProcessServerStore(), agentsDir: "/nonexistent/agents" });
    const error = await app.ready().then(() => undefined, (e: Error) => e);
    await app.close();
    expect(error?.message).toBe("--agents /nonexistent/agents: no such folder");
  });
});
