/**
 * Agents' DSLs validated and compiled once per version, not once per session: a new session of
 * an agent (every turn without a session id) would otherwise validate the DSL and build its graph
 * again, about a third of a trivial turn's CPU. An entry is found by the DSL's content (its
 * SHA-256), so an agent updated here or by another process sharing the store is compiled afresh,
 * and an old version just ages out. The cache keeps the most recently used versions, at most
 * `maxEntries` of them and `maxBytes` of DSL JSON in all (DSLs may be megabytes each).
 */
import { createHash } from "node:crypto";
import { compileCanvas, readSource } from "../api.js";
import type { CompiledCanvas } from "../engine/canvas.js";
import type { ComponentRegistry } from "../components/registry.js";
import type { AgentRecord } from "../backends/contracts.js";

interface CompiledAgentsLimits {
  /** Versions kept (default 256). */
  maxEntries?: number;
  /** Bytes of DSL JSON kept, all versions together (default 64 MiB); a larger DSL is compiled every time. */
  maxBytes?: number;
}

const DEFAULT_COMPILED_AGENTS: Required<CompiledAgentsLimits> = { maxEntries: 256, maxBytes: 64 * 1024 * 1024 };

interface Entry {
  compiled: CompiledCanvas;
  bytes: number;
}

export class CompiledAgents {
  /** By DSL hash; a Map keeps insertion order, so the first key is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly limits: Required<CompiledAgentsLimits>;

  constructor(
    private readonly registry: ComponentRegistry,
    limits: CompiledAgentsLimits = {},
  ) {
    this.limits = { ...DEFAULT_COMPILED_AGENTS, ...limits };
  }

  /** The agent's DSL compiled; throws CanvasValidationError when it cannot run (never cached). */
  async get(agent: AgentRecord): Promise<CompiledCanvas> {
    const text = JSON.stringify(agent.dsl);
    const key = createHash("sha256").update(text).digest("base64");
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found.compiled;
    }
    const compiled = compileCanvas(await readSource(agent.dsl), this.registry);
    const bytes = Buffer.byteLength(text);
    if (bytes > this.limits.maxBytes) return compiled;
    this.entries.set(key, { compiled, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return compiled;
  }

  /** Versions kept now. */
  get size(): number {
    return this.entries.size;
  }
}
