/**
 * durable-pg-sync: the 1000-step chain with a checkpoint after every step in PostgreSQL
 * (127.0.0.1:5432, database test), in `sync` mode on both sides: canvasflow's
 * PostgresSnapshotStore (one statement per checkpoint, the delta) against LangGraph's
 * PostgresSaver (the whole state every step). Timed by the wall clock: both wait on the server.
 */
import { postgresWorkload } from "./durable-lib.mjs";

export const { plan, canvasflowSide, langgraphSide } = postgresWorkload("sync");
