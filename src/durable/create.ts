/**
 * Create a durable session from a DSL unless it exists, without running anything: for a process
 * that hands the run to another (a server enqueueing a turn), so that a bad DSL is refused where
 * the request came in, and the worker that takes the job finds the session there.
 */
import { canvasFromSource, defaultRegistry, readSource } from "../api.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { Canvas, CanvasRuntimeOptions } from "../engine/canvas.js";
import { SessionLockedError, SnapshotConflictError } from "../backends/errors.js";
import type { CheckpointStore } from "../backends/contracts.js";

export interface CreateSessionOptions {
  registry?: ComponentRegistry;
  /** Engine options of the new session (`taskId`, `userId`). */
  canvas?: CanvasRuntimeOptions;
}

/**
 * Resolves to true when the session was created, false when it was already there. The DSL is
 * read and validated first (CanvasValidationError, DslReadError), whether or not it is needed.
 */
export async function createSessionIfAbsent(store: CheckpointStore, key: string, dsl: string | object, options: CreateSessionOptions = {}): Promise<boolean> {
  return storeNewSession(store, key, canvasFromSource(await readSource(dsl), options.registry ?? defaultRegistry, options.canvas));
}

/** Store a canvas made from a DSL as a new session's base; false when the session was already there. */
export async function storeNewSession(store: CheckpointStore, key: string, canvas: Canvas): Promise<boolean> {
  try {
    await store.save(key, canvas.toJSON(), { expectedVersion: null });
    return true;
  } catch (error) {
    // Already there; or a run holds it, so it is there.
    if (error instanceof SnapshotConflictError || error instanceof SessionLockedError) return false;
    throw error;
  }
}
