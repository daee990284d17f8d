/**
 * `--session FILE` takes the session's lock file (`.FILE.lock`) before anything runs and keeps it
 * until the turn is saved: a lock it cannot take stops the command before the run, never after.
 */
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { scratchDir } from "../helpers/scratch.js";

const { dir } = scratchDir("canvasflow-session-lock-");

async function savedSession(name: string) {
  const session = join(dir, `${name}.json`);
  expect((await cli(["run", "fixtures/hello.json", "--session", session, "-q", "one"])).code).toBe(0);
  return { session, lock: join(dir, `.${name}.json.lock`), before: readFileSync(session, "utf8") };
}

describe("canvasflow run --session FILE: the lock file", () => {
  it("takes over an empty lock file older than the lock timeout (10 s) and saves the turn", async () => {
    const { session, lock } = await savedSession("old-empty");
    writeFileSync(lock, ""); // what a process that died between creating and writing it leaves
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    const r = await cli(["run", "fixtures/hello.json", "--session", session, "-q", "two"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(session, "utf8")).history).toHaveLength(4);
    expect(existsSync(lock)).toBe(false);
  });

  it("stops before running anything while the lock is young, naming the lock file and how to clear it (exit 4)", async () => {
    const { session, lock, before } = await savedSession("young-empty");
    writeFileSync(lock, "");
    const r = await cli(["run", "fixtures/hello.json", "--session", session, "-q", "two"]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      new RegExp(`^canvasflow: session file ${session} is locked: its lock file ${lock} is empty \\(written [^)]+\\); it counts as stale \\d+ s from now\\. If no canvasflow run is using this session, delete the lock file\n$`),
    );
    expect(readFileSync(session, "utf8")).toBe(before);
    expect(existsSync(lock)).toBe(true);
  });

  it("stops before running anything when the lock file cannot be created (exit 1)", async () => {
    const session = join(dir, "no-such-folder", "s.json");
    const r = await cli(["run", "fixtures/hello.json", "--session", session, "-q", "x"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `canvasflow: session file ${session}: cannot create its lock file ${join(dir, "no-such-folder", ".s.json.lock")}: the folder ${join(dir, "no-such-folder")} does not exist\n`,
    );
  });

  it("leaves no lock file behind after a turn, whatever its outcome", async () => {
    const { session, lock } = await savedSession("outcomes");
    expect(existsSync(lock)).toBe(false);
    expect((await cli(["run", "fixtures/hello.json", "--session", session, "-q", "x", "--max-steps", "1"])).code).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });
});
