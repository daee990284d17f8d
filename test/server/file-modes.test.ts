/**
 * What canvasflow writes is its user's only (docs/server.md, Storage): every file a server's data
 * folder holds after real requests and a run (agents, session records, keys, uploads, run state
 * and its log, cancel flags, lock files) is 0600 and every folder 0700, as are the session files
 * of `canvasflow run --session` and the documents runs make; a data folder left open to others by
 * an older version is closed (0700) when `canvasflow serve` or `keys` opens it, and says so.
 */
import { randomUUID } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataFolderServerStore } from "../../src/backends/files/server-store.js";
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
  it("a server's data folder, made by its first write, holds only 0700 folders and 0600 files after requests, a run, an upload and a cancel", async () => {
    const data = join(scratchDir("cf-modes-").dir, "new", ".canvasflow");
    const store = new DataFolderServerStore({ directory: data });
    const server = await startTestServer({ store });
    const agentId = await createAgent(server, hello());
    const turn = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada" } });
    const sessionId = turn.json.data.session_id as string;
    await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Bob", session_id: sessionId } });
    await addKey(store, "t2");
    await store.uploads.put({ id: randomUUID(), tenant: "t1", user: "ada", name: "notes.txt", size: 2, extension: "txt", mime_type: "text/plain", create_time: Date.now(), expire_time: Date.now() + 60_000 }, Buffer.from("hi"), { maxFiles: 10, maxBytes: 1000 });
    expect((await call(server, `/api/v1/tasks/${sessionId}/cancel`, { method: "POST" })).json.code).toBe(0);
    // A session's lock file, while it is held.
    const held = await store.runs.lock("held");

    const entries = modesUnder(data);
    for (const expected of ["agents/", "session-records/", "keys/", "uploads/", "sessions/", "cancel/"]) expect(entries.some((e) => e.startsWith(expected)), expected).toBe(true);
    expect(entries.some((e) => /^sessions\/\..*\.log 600$/.test(e)), "a run's checkpoint log").toBe(true);
    expect(entries.some((e) => /^sessions\/\.held\.json\.lock 600$/.test(e)), "a lock file").toBe(true);
    expect(entries.some((e) => /^uploads\/[0-9a-f]{32}\/.*\.bin 600$/.test(e)), "an upload's bytes").toBe(true);
    expect(privately(entries)).toEqual([]);
    // The folder made above the data folder is private too (mkdir -p with 0700).
    expect(mode(join(data, ".."))).toBe("700");
    await held.release();
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

  it("a data folder an older version left open (0755) is closed to 0700 when `canvasflow keys` (or serve) opens it, saying so once; what is inside keeps its modes", async () => {
    const data = join(scratchDir("cf-modes-old-").dir, "data");
    mkdirSync(join(data, "agents"), { recursive: true, mode: 0o755 });
    chmodSync(data, 0o755);
    writeFileSync(join(data, "agents", "old.json"), "{}", { mode: 0o644 });
    const created = await cli(["keys", "create", "--data", data, "--tenant", "acme", "--name", "ci"]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`canvasflow: data folder ${data} was open to other users of this machine (mode 755): made it 700, its owner's only\n`);
    expect(mode(data)).toBe("700");
    expect(mode(join(data, "agents", "old.json"))).toBe("644");
    const keyFile = readdirSync(join(data, "keys"))[0];
    expect(mode(join(data, "keys", keyFile))).toBe("600");
    expect(mode(join(data, "keys"))).toBe("700");
    const again = await cli(["keys", "list", "--data", data]);
    expect(again.stderr).not.toContain("open to other users");

    const store = new DataFolderServerStore({ directory: join(data, "not-made-yet") });
    expect(await store.protect()).toBeUndefined();
  });
});
