/**
 * Agents' DSLs validated and compiled once per version, not once per session: a new session of
 * an agent (every turn without a session id) would otherwise validate the DSL and build its graph
 * again, about a third of a trivial turn's CPU. An entry is found by the DSL's content (its
 * SHA-256), so an agent updated here or by another process sharing the store is compiled afresh,
 * and an old version just ages out; the cache keeps the most recently used `capacity` versions.
 */
import { createHash } from "node:crypto";
import { compileCanvas, readSource, type CompiledCanvas, type ComponentRegistry } from "../index.js";
import type { AgentRecord } from "./store/types.js";

export const DEFAULT_COMPILED_AGENTS = 256;

export class CompiledAgents {
  /** By DSL hash; a Map keeps insertion order, so the first key is the least recently used. */
  private readonly entries = new Map<string, CompiledCanvas>();

  constructor(
    private readonly registry: ComponentRegistry,
    private readonly capacity = DEFAULT_COMPILED_AGENTS,
  ) {}

  /** The agent's DSL compiled; throws CanvasValidationError when it cannot run (never cached). */
  async get(agent: AgentRecord): Promise<CompiledCanvas> {
    const key = createHash("sha256").update(JSON.stringify(agent.dsl)).digest("base64");
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const compiled = compileCanvas(await readSource(agent.dsl), this.registry);
    this.entries.set(key, compiled);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return compiled;
  }

  get size(): number {
    return this.entries.size;
  }
}
