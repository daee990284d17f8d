/** The one location parser (issue 25): every opener classifies and splits places through it. */
import { describe, expect, it } from "vitest";
import { CancelSignalError, SnapshotKeyError } from "../../src/backends/errors.js";
import { locationKind, maskCredentials, maskPassword, postgresServer, splitSessionUrl, splitSqliteLocation } from "../../src/backends/location.js";
import { checkKey } from "../../src/backends/shared/sessions.js";

describe("locations", () => {
  it("name a backend by their scheme, in any case", () => {
    expect(["redis://h:6379/0", "REDISS://h", "postgres://u@h/db", "postgresql://h/db", "http://x", "./a/b.json", "memories", "C:/x"].map(locationKind)).toEqual([
      "redis",
      "redis",
      "postgres",
      "postgres",
      "url",
      "path",
      "path",
      "path",
    ]);
  });

  it("name a SQLite database with sqlite:PATH (or sqlite://PATH), a session in it with #KEY", () => {
    expect(["sqlite:./runs.db", "SQLITE:/tmp/x.db", "sqlite:///tmp/x.db#k"].map(locationKind)).toEqual(["sqlite", "sqlite", "sqlite"]);
    expect(splitSqliteLocation("sqlite:./runs.db#chat%201")).toEqual({ file: "./runs.db", key: "chat 1" });
    expect(splitSqliteLocation("sqlite:///tmp/x.db")).toEqual({ file: "/tmp/x.db", key: undefined });
    expect(splitSqliteLocation("sqlite://./x.db#a#b")).toEqual({ file: "./x.db", key: "a#b" });
    expect(() => splitSqliteLocation("sqlite:#k")).toThrow('"sqlite:#k" names no database file: write sqlite:PATH, e.g. sqlite:./runs.db');
    expect(() => splitSqliteLocation("sqlite:x.db#%E0%A4%A", (message) => new CancelSignalError(message))).toThrow(CancelSignalError);
  });

  it("mask credentials for messages", () => {
    expect(maskCredentials("redis://u:secret@h:1/0")).toBe("redis://***@h:1/0");
    expect(maskPassword("redis://u:secret@h:1/0")).toBe("redis://u:***@h:1/0");
  });

  it("split a session URL into its server and key", () => {
    const { key, shown, server } = splitSessionUrl("redis://u:pw@127.0.0.1:6379/2#a%20b", "redis://127.0.0.1:6379/0", checkKey);
    expect([key, shown, server.toString()]).toEqual(["a b", "redis://u:***@127.0.0.1:6379/2#a%20b", "redis://u:pw@127.0.0.1:6379/2"]);
    expect(() => splitSessionUrl("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0", checkKey)).toThrow(SnapshotKeyError);
  });

  it("read a PostgreSQL server and its schema, with the caller's error", () => {
    expect(postgresServer("postgres://u:pw@h:5432/db?schema=s#k")).toEqual({ connection: "postgres://u:pw@h:5432/db", schema: "s", shown: "postgres://u:***@h:5432/db" });
    expect(() => postgresServer("postgres://h/db?schema=a", "b")).toThrow(SnapshotKeyError);
    expect(() => postgresServer("redis://h", undefined, (message) => new CancelSignalError(message))).toThrow(CancelSignalError);
  });
});
