import { parseSelector, type Reference } from "../refs/grammar.js";
import { assertSafeKey, getByPath, PathWriteError, setByPath, UnsafePathError } from "./path.js";
import { globalPrefix } from "./variables.js";
import type { PoolJournal } from "./ops.js";

/** A reference that names something the pool does not have: an unknown component or global. */
export class MissingReferenceError extends Error {
  constructor(
    readonly reference: string,
    readonly reason: string,
  ) {
    super(`reference {${reference}}: ${reason}`);
    this.name = "MissingReferenceError";
  }
}

type ComponentOutputs = Record<string, unknown>;

/** Where a read looks: iteration aliases, and the frames (container rounds) it runs in. */
export interface ResolveScope {
  /** The IterationItem whose `item`/`index`/`result` the aliases read. */
  readonly aliasTarget?: string;
  /**
   * The frames of the reader, innermost first: a component's outputs are looked up in each
   * frame (`scopedKey(id, frame)`), then at the top.
   */
  readonly frames?: readonly string[];
}

/** Where a component's outputs live in a frame (a container's round): `<id>#<frame>`. */
export function scopedKey(componentId: string, frame: string | undefined): string {
  return frame === undefined || frame === "" ? componentId : `${componentId}#${frame}`;
}

/** The component id of a key made by scopedKey. */
export function unscopedId(key: string): string {
  const hash = key.indexOf("#");
  return hash < 0 ? key : key.slice(0, hash);
}

/**
 * The variable pool: component outputs and flat `sys.*` / `env.*` globals, read and written by
 * reference. It holds data only; readiness and routing belong to the engine.
 */
export class VariablePool {
  private readonly outputs = new Map<string, ComponentOutputs>();
  /**
   * Lists that `append` made and nobody has been handed since: only these grow in place. Every
   * read that hands a list out (resolve, output, outputsOf, globalsView) takes it off, so the
   * next append copies it first and whoever holds it keeps what they saw. Events and snapshots
   * copy what they show, so they never hold a list the pool may still grow.
   */
  private readonly growable = new WeakSet<unknown[]>();
  /** Set by a durable run: every write is recorded as an op, in order. */
  journal: PoolJournal | undefined;

  constructor(
    private readonly componentExists: (componentId: string) => boolean,
    readonly globals: Record<string, unknown> = {},
  ) {}

  // ---- component outputs ----

  /** A component's outputs, handed out: lists in it no longer grow in place. */
  outputsOf(componentId: string): ComponentOutputs | undefined {
    const record = this.outputs.get(componentId);
    if (record) for (const key in record) this.handOut(record[key]);
    return record;
  }

  /**
   * A component's live record, for the engine's own reads that finish before anything else
   * runs (copying into an event, looking for streams). Nothing read through it may be kept.
   */
  recordOf(componentId: string): Readonly<ComponentOutputs> | undefined {
    return this.outputs.get(componentId);
  }

  /** Read one output; undefined when the component has not produced it in this run. */
  output(componentId: string, key: string): unknown {
    return this.handOut(this.rawOutput(componentId, key));
  }

  private rawOutput(componentId: string, key: string): unknown {
    const record = this.outputs.get(componentId);
    return record && Object.hasOwn(record, key) ? record[key] : undefined;
  }

  /** The globals, handed out (to a caller outside the run): lists in them no longer grow in place. */
  globalsView(): Readonly<Record<string, unknown>> {
    for (const key in this.globals) this.handOut(this.globals[key]);
    return this.globals;
  }

  private handOut<T>(value: T): T {
    if (Array.isArray(value)) this.growable.delete(value);
    return value;
  }

  setOutput(componentId: string, key: string, value: unknown): void {
    assertSafeKey(key, [key]);
    let record = this.outputs.get(componentId);
    if (!record) {
      record = {};
      this.outputs.set(componentId, record);
    }
    record[key] = value;
    this.journal?.(["output", componentId, key, value]);
  }

  /** Replace a component's outputs wholesale (a fresh record). */
  replaceOutputs(componentId: string, outputs: ComponentOutputs): void {
    for (const key of Object.keys(outputs)) assertSafeKey(key, [key]);
    this.outputs.set(componentId, { ...outputs });
    this.journal?.(["outputs", componentId, outputs]);
  }

  /**
   * A fresh, empty record for a component about to run (earlier records stay untouched). A
   * `retry` is journaled apart: it is the same execution again, not a new one.
   */
  resetOutputs(componentId: string, retry = false): void {
    this.outputs.set(componentId, {});
    this.journal?.([retry ? "retry" : "reset", componentId]);
  }

  clearOutputs(componentId: string): void {
    this.outputs.delete(componentId);
    this.journal?.(["clear", componentId]);
  }

  clearAllOutputs(): void {
    this.outputs.clear();
    this.journal?.(["clearAll"]);
  }

  /** The engine's own write of a whole global (sys.query, sys.date…), recorded like any other. */
  setGlobal(key: string, value: unknown): void {
    this.globals[key] = value;
    this.journal?.(["global", key, value]);
  }

  /** Every component's outputs, for the run-state snapshot. */
  allOutputs(): Record<string, ComponentOutputs> {
    const out: Record<string, ComponentOutputs> = {};
    for (const [id, record] of this.outputs) out[id] = record;
    return out;
  }

  // ---- references ----

  /**
   * Resolve a reference. Unknown components and unknown globals are errors that name the
   * reference; a known component that has not run yields undefined.
   */
  resolve(ref: Reference, scope?: ResolveScope): unknown {
    return this.handOut(this.read(ref, scope));
  }

  private read(ref: Reference, scope?: ResolveScope): unknown {
    switch (ref.kind) {
      case "component": {
        if (!this.outputs.has(ref.componentId) && !this.componentExists(ref.componentId)) {
          throw new MissingReferenceError(ref.expr, `no component "${ref.componentId}" in this canvas`);
        }
        const key = scope?.frames ? this.recordKey(ref.componentId, scope.frames, ref.variable) : ref.componentId;
        const root = this.rawOutput(key, ref.variable);
        return ref.path.length === 0 ? root : getByPath(root, ref.path);
      }
      case "global":
        return this.readGlobal(ref.key, ref.expr);
      case "alias": {
        if (!scope?.aliasTarget) {
          throw new MissingReferenceError(ref.expr, "iteration aliases are only defined inside an Iteration");
        }
        return this.rawOutput(scope.aliasTarget, ref.alias);
      }
    }
  }

  /**
   * The key of the record a reader in `frames` sees for a component's output `variable`: the
   * innermost frame whose record holds it (or, without a variable, holds a record), else the
   * nearest record of the component, else the top-level one.
   */
  recordKey(componentId: string, frames: readonly string[], variable?: string): string {
    let nearest: string | undefined;
    for (const frame of frames) {
      const key = scopedKey(componentId, frame);
      const record = this.outputs.get(key);
      if (!record) continue;
      if (variable === undefined || Object.hasOwn(record, variable)) return key;
      nearest ??= key;
    }
    const top = this.outputs.get(componentId);
    if (variable !== undefined && top && Object.hasOwn(top, variable)) return componentId;
    return nearest ?? componentId;
  }

  /** Resolve a bare selector string (`cpn@var.path`, `sys.x`, `env.x`, braces optional). */
  get(selector: string, scope?: ResolveScope): unknown {
    const ref = parseSelector(selector);
    if (!ref) throw new MissingReferenceError(String(selector), "not a reference (expected cpn@var, sys.x or env.x)");
    return this.resolve(ref, scope);
  }

  /**
   * Write through a reference: a component output (with an optional path) or a global. Writing
   * `undefined` to a whole global removes it: JSON has no undefined, so a snapshot would drop the
   * key anyway, and removing it now keeps a live run and a restored one alike.
   */
  set(ref: Reference, value: unknown, scope?: ResolveScope): void {
    const key = ref.kind === "component" && scope?.frames ? this.recordKey(ref.componentId, scope.frames, ref.variable) : undefined;
    if (key !== undefined && ref.kind === "component" && key !== ref.componentId) {
      // A write into a frame's record: journaled as the whole output written, under its key.
      this.write(ref, value, key);
      this.journal?.(["output", key, ref.variable, this.rawOutput(key, ref.variable)]);
      return;
    }
    this.write(ref, value);
    this.journal?.(value === undefined ? ["unset", ref.expr] : ["set", ref.expr, value]);
  }

  private write(ref: Reference, value: unknown, key?: string): void {
    switch (ref.kind) {
      case "component": {
        if (!this.outputs.has(ref.componentId) && !this.componentExists(ref.componentId)) {
          throw new MissingReferenceError(ref.expr, `no component "${ref.componentId}" in this canvas`);
        }
        const recordKey = key ?? ref.componentId;
        const next = ref.path.length === 0 ? value : this.writePath(ref, this.rawOutput(recordKey, ref.variable), ref.path, value);
        assertSafeKey(ref.variable, [ref.variable]);
        // A new record rather than a change in place: events and snapshots that already hold the
        // component's outputs keep what they showed.
        this.outputs.set(recordKey, { ...(this.outputs.get(recordKey) ?? {}), [ref.variable]: next });
        return;
      }
      case "global":
        this.writeGlobal(ref.key, value);
        return;
      case "alias":
        throw new MissingReferenceError(ref.expr, "iteration aliases are read-only");
    }
  }

  /**
   * Append `item` to the list at `ref` (nothing there starts a list), amortised O(1): a list the
   * pool made and has not handed out grows in place, any other is copied once and the copy is
   * the pool's from then on. `check` sees the current value first and may throw to refuse (it
   * must not keep it). Returns what undoes the append.
   */
  append(ref: Reference, item: unknown, check?: (current: unknown) => void): () => void {
    if (ref.kind === "alias") throw new MissingReferenceError(ref.expr, "iteration aliases are read-only");
    let current: unknown;
    try {
      current = this.read(ref);
    } catch (error) {
      // A global that does not exist yet starts as nothing, as `set` would create it.
      if (!(error instanceof MissingReferenceError && ref.kind === "global")) throw error;
    }
    check?.(current);
    if (current !== undefined && current !== null && !Array.isArray(current)) {
      throw new PathWriteError(`reference {${ref.expr}}: cannot append to ${typeof current === "object" ? "an object" : `a ${typeof current}`}, only to a list`);
    }
    // Journaled as the append itself, never as the list: the list may grow in place later.
    if (Array.isArray(current) && this.growable.has(current) && this.isWholeSlot(ref)) {
      const length = current.length;
      current.push(item);
      this.journal?.(["append", ref.expr, item]);
      return () => {
        current.length = length;
        this.journal?.(["pop", ref.expr]);
      };
    }
    const grown = current ? [...current, item] : [item];
    this.write(ref, grown);
    this.journal?.(["append", ref.expr, item]);
    if (this.isWholeSlot(ref)) this.growable.add(grown);
    return () => this.set(ref, current);
  }

  /** A reference to a whole output or global (not a path into one): where `append` keeps its lists. */
  private isWholeSlot(ref: Reference): boolean {
    return ref.kind === "component" ? ref.path.length === 0 : ref.kind === "global" && Object.hasOwn(this.globals, ref.key);
  }

  hasGlobal(key: string): boolean {
    return Object.hasOwn(this.globals, key) || globalPrefix(this.globals, key) !== undefined;
  }

  // Globals are flat keys: when the exact key is absent, read into its longest global prefix.
  private readGlobal(key: string, expr: string): unknown {
    if (Object.hasOwn(this.globals, key)) return this.globals[key];
    const prefix = globalPrefix(this.globals, key);
    if (prefix === undefined) {
      const scope = key.startsWith("env.") || key.startsWith("conversation.") ? "conversation variable" : "system variable";
      throw new MissingReferenceError(expr, `no ${scope} "${key}" is defined`);
    }
    return getByPath(this.globals[prefix], key.slice(prefix.length + 1).split("."));
  }

  private writeGlobal(key: string, value: unknown): void {
    if (value === undefined && (Object.hasOwn(this.globals, key) || globalPrefix(this.globals, key) === undefined)) {
      delete this.globals[key];
      return;
    }
    if (Object.hasOwn(this.globals, key)) {
      this.globals[key] = value;
      return;
    }
    const prefix = globalPrefix(this.globals, key);
    if (prefix !== undefined) {
      const path = key.slice(prefix.length + 1).split(".");
      this.globals[prefix] = this.writePath({ expr: key }, this.globals[prefix], path, value);
      return;
    }
    for (const segment of key.split(".")) assertSafeKey(segment, key.split("."));
    this.globals[key] = value;
  }

  /** setByPath, with errors that name the reference written through. */
  private writePath(ref: { expr: string }, root: unknown, path: readonly string[], value: unknown): unknown {
    try {
      return setByPath(root, path, value);
    } catch (error) {
      // Same error class (callers tell them apart), with the reference in front.
      if (error instanceof PathWriteError || error instanceof UnsafePathError) error.message = `reference {${ref.expr}}: ${error.message}`;
      throw error;
    }
  }
}
