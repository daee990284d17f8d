import { parseSelector, type Reference } from "../refs/grammar.js";
import { assertSafeKey, getByPath, PathWriteError, setByPath, UnsafePathError } from "./path.js";
import { globalPrefix } from "./variables.js";

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

export type ComponentOutputs = Record<string, unknown>;

/** Where iteration aliases point: the IterationItem whose `item`/`index`/`result` they read. */
export interface ResolveScope {
  readonly aliasTarget?: string;
}

/**
 * The variable pool: component outputs and flat `sys.*` / `env.*` globals, read and written by
 * reference. It holds data only; readiness and routing belong to the engine.
 */
export class VariablePool {
  private readonly outputs = new Map<string, ComponentOutputs>();
  /**
   * List globals this pool made itself and has not handed out since (see appendToGlobalList):
   * nobody else holds them, so they may grow in place.
   */
  private readonly unsharedLists = new Map<string, unknown[]>();

  constructor(
    private readonly componentExists: (componentId: string) => boolean,
    readonly globals: Record<string, unknown> = {},
  ) {}

  // ---- component outputs ----

  outputsOf(componentId: string): ComponentOutputs | undefined {
    return this.outputs.get(componentId);
  }

  /** Read one output; undefined when the component has not produced it in this run. */
  output(componentId: string, key: string): unknown {
    const record = this.outputs.get(componentId);
    return record && Object.hasOwn(record, key) ? record[key] : undefined;
  }

  setOutput(componentId: string, key: string, value: unknown): void {
    assertSafeKey(key, [key]);
    let record = this.outputs.get(componentId);
    if (!record) {
      record = {};
      this.outputs.set(componentId, record);
    }
    record[key] = value;
  }

  /** Replace a component's outputs wholesale (a fresh record). */
  replaceOutputs(componentId: string, outputs: ComponentOutputs): void {
    for (const key of Object.keys(outputs)) assertSafeKey(key, [key]);
    this.outputs.set(componentId, { ...outputs });
  }

  /** A fresh, empty record for a component about to run (earlier records stay untouched). */
  resetOutputs(componentId: string): void {
    this.outputs.set(componentId, {});
  }

  clearOutputs(componentId: string): void {
    this.outputs.delete(componentId);
  }

  clearAllOutputs(): void {
    this.outputs.clear();
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
    switch (ref.kind) {
      case "component": {
        if (!this.outputs.has(ref.componentId) && !this.componentExists(ref.componentId)) {
          throw new MissingReferenceError(ref.expr, `no component "${ref.componentId}" in this canvas`);
        }
        const root = this.output(ref.componentId, ref.variable);
        return ref.path.length === 0 ? root : getByPath(root, ref.path);
      }
      case "global":
        return this.readGlobal(ref.key, ref.expr);
      case "alias": {
        if (!scope?.aliasTarget) {
          throw new MissingReferenceError(ref.expr, "iteration aliases are only defined inside an Iteration");
        }
        return this.output(scope.aliasTarget, ref.alias);
      }
    }
  }

  /** Resolve a bare selector string (`cpn@var.path`, `sys.x`, `env.x`, braces optional). */
  get(selector: string, scope?: ResolveScope): unknown {
    const ref = parseSelector(selector);
    if (!ref) throw new MissingReferenceError(String(selector), "not a reference (expected cpn@var, sys.x or env.x)");
    return this.resolve(ref, scope);
  }

  /** Write through a reference: a component output (with an optional path) or a global. */
  set(ref: Reference, value: unknown): void {
    switch (ref.kind) {
      case "component": {
        if (!this.outputs.has(ref.componentId) && !this.componentExists(ref.componentId)) {
          throw new MissingReferenceError(ref.expr, `no component "${ref.componentId}" in this canvas`);
        }
        const next = ref.path.length === 0 ? value : this.writePath(ref, this.output(ref.componentId, ref.variable), ref.path, value);
        assertSafeKey(ref.variable, [ref.variable]);
        // A new record rather than a change in place: events and snapshots that already hold the
        // component's outputs keep what they showed.
        this.outputs.set(ref.componentId, { ...(this.outputs.get(ref.componentId) ?? {}), [ref.variable]: next });
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
   * Append to a list global (`sys.history` grows by a line or two every turn) in amortized O(1).
   * The list grows in place while nobody outside the pool holds it. A read hands it out (to a
   * component, and so to the events that show what it read), and so does `globalsForReading`;
   * the next append then copies it once, so a list handed out never changes afterwards.
   * Copying every time made a conversation quadratic: 60% of a run at turn 20 000.
   */
  appendToGlobalList(key: string, item: unknown): void {
    const current = this.globals[key];
    const unshared = this.unsharedLists.get(key);
    if (unshared !== undefined && unshared === current) {
      unshared.push(item);
      return;
    }
    const list = Array.isArray(current) ? [...(current as unknown[]), item] : [item];
    this.globals[key] = list;
    this.unsharedLists.set(key, list);
  }

  /** The globals record for a caller outside the engine: every list in it counts as handed out. */
  globalsForReading(): Record<string, unknown> {
    this.unsharedLists.clear();
    return this.globals;
  }

  hasGlobal(key: string): boolean {
    return Object.hasOwn(this.globals, key) || globalPrefix(this.globals, key) !== undefined;
  }

  // Globals are flat keys: when the exact key is absent, read into its longest global prefix.
  private readGlobal(key: string, expr: string): unknown {
    if (Object.hasOwn(this.globals, key)) {
      if (this.unsharedLists.size > 0) this.unsharedLists.delete(key);
      return this.globals[key];
    }
    const prefix = globalPrefix(this.globals, key);
    if (prefix === undefined) {
      const scope = key.startsWith("env.") ? "conversation variable" : "system variable";
      throw new MissingReferenceError(expr, `no ${scope} "${key}" is defined`);
    }
    return getByPath(this.globals[prefix], key.slice(prefix.length + 1).split("."));
  }

  private writeGlobal(key: string, value: unknown): void {
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
