/**
 * Where a `canvasflow run` keeps its session and hears cancel requests, from `--session` and
 * `--durability`:
 * - no `--session`: a session in this process's memory, written only at the end (`exit`): the run
 *   is not durable, but it goes through the same durable-session path as every other run;
 * - a file: a FileSnapshotStore (`sync: true` in `sync` mode, so each checkpoint is fsync'd);
 * - `redis://…#key` and `postgres://…#key`: the store on that server.
 * Cancel requests are heard where `canvasflow cancel` sends them for that backend: the same Redis
 * or PostgreSQL server, or the local cancel folder for files and runs without a session.
 */
import type { Durability } from "../durable/writer.js";
import { DURABILITIES } from "../durable/writer.js";
import { InProcessSnapshotStore } from "../backends/process/session-store.js";
import { FileCancelSignals } from "../backends/files/cancel.js";
import { openCancelSignals, openSnapshotStore, type SessionBackend } from "../backends/open-sessions.js";
import { StoreError } from "../backends/errors.js";
import type { CheckpointStore, CancelSignals } from "../backends/contracts.js";
import { prepareCancelFolder } from "./cancel-folder.js";
import { UsageError } from "./io.js";

export interface RunTarget {
  store: CheckpointStore;
  key: string;
  /** The session for messages (password masked); undefined without `--session`. */
  location: string | undefined;
  backend: SessionBackend | "memory";
  durability: Durability;
  /** Where the run hears cancel requests (made by `openCancel`, once the session is open). */
  openCancel(): CancelSignals;
  /** The `canvasflow cancel` flags that reach this run, e.g. `--redis redis://127.0.0.1:6379/0`. */
  cancelFlags: string;
}

/** `--durability`: sync, async or exit. */
export function parseDurability(value: string | undefined): Durability | undefined {
  if (value === undefined) return undefined;
  if (!(DURABILITIES as readonly string[]).includes(value)) throw new UsageError(`--durability must be sync, async or exit, got ${JSON.stringify(value)}`);
  return value as Durability;
}

export function openRunTarget(session: string | undefined, durability: Durability | undefined): RunTarget {
  if (session === undefined) {
    if (durability !== undefined) throw new UsageError("--durability needs --session: a run without a session keeps nothing after it ends");
    return {
      store: new InProcessSnapshotStore(),
      key: "run",
      location: undefined,
      backend: "memory",
      durability: "exit",
      openCancel: () => new FileCancelSignals({ directory: prepareCancelFolder() }),
      cancelFlags: "",
    };
  }
  let opened;
  try {
    opened = openSnapshotStore(session, { file: { sync: durability === "sync" } });
  } catch (error) {
    // A bad key or location, or a database file that cannot be used as it is.
    if (error instanceof StoreError) throw new UsageError(`--session: ${error.message}`);
    throw error;
  }
  const { store, key, location, backend, server, shownServer } = opened;
  const remote = backend !== "file" && server !== undefined;
  return {
    store,
    key,
    location,
    backend,
    durability: durability ?? store.defaultDurability,
    openCancel: () => (remote ? openCancelSignals(server) : new FileCancelSignals({ directory: prepareCancelFolder() })),
    cancelFlags: remote ? ` --${backend} ${shownServer}` : "",
  };
}
