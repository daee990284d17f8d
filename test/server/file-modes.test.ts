/**
 * What canvasflow writes is its user's only (docs/server.md, Storage): the server's SQLite
 * database (and its -wal and -shm files) after real requests, a run, an upload and a cancel is
 * 0600 in a 0700 folder, as are the session files of `canvasflow run --session` and the documents
 * runs make.
 */
import { randomUUID } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteServerStore } from "../../src/backends/sqlite/server-store.js";
import { FileSnapshotStore } from "../../src/backends/files/session-store.js";
import { saveFile } from "../../src/tools/files/store.js";
import type { ToolContext } from "../../src/tools/types.js";
import { cli } from "../helpers/cli.js";
import { scratchDir } from "../helpers/scratch.js";
import { addKey, call, createAgent, startTestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every entry under `root` (itself included) with its mode, as "relative/path mode". */
function modesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (path: string, shown: string) => {
    const info = lstatSync(path);
    out.push(`${shown}${info.isDirectory() ? "/" : ""} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name), shown === "." ? name : `${shown}/${name}`);
  };
  walk(root, ".");
  return out;
}

const privately = (entries: string[]) => entries.filter((entry) => !(entry.endsWith("/ 700") || (!entry.includes("/ ") && entry.endsWith(" 600"))));

describe("file modes", () => {
  it("a server's database, made by its first use, is 0600 with its -wal and -shm in 0700 folders after requests, a run, an upload and a cancel", async () => {
    const data = join(scratchDir("cf-modes-").dir, "new", ".canvasflow");
    const store = new SqliteServerStore({ file: join(data, "canvasflow.db") });
    const server = await startTestServer({ store });
    const agentId = await createAgent(server, hello());
    const turn = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada" } });
    const sessionId = turn.json.data.session_id as string;
    await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Bob", session_id: sessionId } });
    await addKey(store, "t2");
    await store.uploads.put({ id: randomUUID(), tenant: "t1", user: "ada", name: "notes.txt", size: 2, extension: "txt", mime_type: "text/plain", create_time: Date.now(), expire_time: Date.now() + 60_000 }, Buffer.from("hi"), { maxFiles: 10, maxBytes: 1000 });
    expect((await call(server, `/api/v1/tasks/${sessionId}/cancel`, { method: "POST" })).json.code).toBe(0);
    const held = await store.runs.lock("held");

    expect(modesUnder(data)).toEqual(["./ 700", "canvasflow.db 600", "canvasflow.db-shm 600", "canvasflow.db-wal 600"]);
    // The folder made above the data folder is private too (mkdir -p with 0700).
    expect(mode(join(data, ".."))).toBe("700");
    await held.release();
    await store.close();
  });

  it("`canvasflow run --session FILE` writes the session file, its log and its lock 0600 (in the user's own folder, left as it is)", async () => {
    const folder = join(scratchDir("cf-modes-run-").dir, "sessions");
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const session = join(folder, "s.json");
    const first = await cli(["run", "fixtures/variables.json", "--session", session, "-q", "one"]);
    expect(first.code, first.stderr).toBe(0);
    expect(await cli(["run", "fixtures/variables.json", "--session", session, "-q", "two"]).then((r) => r.code)).toBe(0);
    const store = new FileSnapshotStore({ directory: folder });
    const lock = await store.lock("s");
    const entries = modesUnder(folder);
    expect(entries).toContain("s.json 600");
    expect(entries).toContain(".s.json.lock 600");
    expect(entries.some((e) => /^\.s\.json\.log 600$/.test(e))).toBe(true);
    expect(privately(entries)).toEqual(["./ 755"]);
    await lock.release();
    await store.close();
  });

  it("the documents runs make (DocGenerator, ExcelProcessor, Browser downloads) are 0600 in 0700 folders", async () => {
    const dir = join(scratchDir("cf-modes-files-").dir, "files");
    const ctx = { services: { tools: { files: { dir } } } } as unknown as ToolContext;
    const saved = await saveFile(ctx, Buffer.from("report"), "report.txt", "text/plain");
    expect(mode(dir)).toBe("700");
    expect(mode(join(dir, saved.doc_id))).toBe("700");
    expect(mode(saved.path)).toBe("600");
  });
});
