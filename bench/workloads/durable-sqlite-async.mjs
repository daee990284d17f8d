/**
 * durable-sqlite-async: the 1000-step chain with a checkpoint after every step in a SQLite file,
 * in `async` mode on both sides: canvasflow's SqliteSnapshotStore (one transaction per checkpoint,
 * the delta) against LangGraph's SqliteSaver (the whole state every step), both on better-sqlite3.
 * Timed by the wall clock.
 */
import { sqliteWorkload } from "./durable-lib.mjs";

export const { plan, canvasflowSide, langgraphSide } = sqliteWorkload("async");
