/**
 * `--session sqlite:FILE#KEY`: a session that pauses and resumes through a SQLite database file,
 * `canvasflow cancel --sqlite FILE`, and the faults of the location and the file, through the
 * built CLI.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteCancelSignals } from "../../src/backends/sqlite/cancel.js";
import { SqliteSnapshotStore } from "../../src/backends/sqlite/session-store.js";
import { cli, events } from "../helpers/cli.js";
import { messageText } from "../helpers/dsl.js";
import { scratchDir } from "../helpers/scratch.js";

const scratch = scratchDir("canvasflow-cli-sqlite-");
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

describe("canvasflow run --session sqlite:…", () => {
  it("pauses (exit 3), then resumes from the database with --input (exit 0)", async () => {
    const file = join(scratch.dir, "nested/runs.db");
    const session = `sqlite:${file}#chat-1`;
    const first = await cli(["run", "fixtures/user-fill-up.json", "--session", session, "-q", "a badge please"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(3);
    expect(events(first.stdout).at(-1)?.event).toBe("user_inputs");
    const store = new SqliteSnapshotStore({ file });
    expect((await store.load("chat-1"))?.snapshot.canvasflow).toMatchObject({ status: "paused", pending: { components: ["UserFillUp:Details"] } });

    const second = await cli(["run", "fixtures/user-fill-up.json", "--session", session, "--input", "name=Ada", "--input", "colour=blue", "--input", "note=VIP"]);
    expect(second.code).toBe(0);
    const evs = events(second.stdout);
    expect(evs.map((e) => e.event)).not.toContain("workflow_started");
    expect(messageText(evs)).toBe("[blue] Ada VIP");
    expect((await store.load("chat-1"))?.snapshot.canvasflow).toMatchObject({ status: "idle" });
    await store.close();
  });

  it("exits 2 for a location without a key, and for a file that is not a database, which it leaves as it was", async () => {
    const noKey = await cli(["run", "fixtures/hello.json", "--session", `sqlite:${join(scratch.dir, "x.db")}`, "-q", "Ada"]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain(`names no session: add its key after "#", e.g. sqlite:${join(scratch.dir, "x.db")}#chat-1`);

    const notes = scratch.write("notes.db", "These are my notes, not a database.\n".repeat(20));
    const refused = await cli(["run", "fixtures/hello.json", "--session", `sqlite:${notes}#k`, "-q", "Ada"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--session: ${notes} is not a usable SQLite database (file is not a database) while opening it`);
    expect(readFileSync(notes, "utf8")).toBe("These are my notes, not a database.\n".repeat(20));
  });
});

describe("canvasflow cancel --sqlite FILE", () => {
  it("sets the task's flag in the database, where runs with a sqlite: session listen", async () => {
    const file = join(scratch.dir, "cancel.db");
    const result = await cli(["cancel", "task-7", "--sqlite", file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("canvasflow: cancel requested for task task-7\n");
    const signals = new SqliteCancelSignals({ file });
    expect(await signals.isRequested("task-7")).toBe(true);
    await signals.close();
    const both = await cli(["cancel", "task-7", "--sqlite", file, "--dir", scratch.dir]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("cancel takes one of --redis, --postgres, --sqlite and --dir, got --sqlite and --dir");
  });
});
