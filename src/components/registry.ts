import type { DslFrontEnd } from "../contracts/graph.js";
import type { StateReducer } from "../contracts/values.js";
import { BUILTIN_REDUCERS } from "../pool/reducers.js";
import type { ComponentDefinition, Params } from "./types.js";

/** Raised when a registration would silently replace or corrupt a definition. */
export class RegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegistrationError";
  }
}

/** Component definitions by `component_name`. The engine looks components up here and nowhere else. */
export class ComponentRegistry {
  private readonly definitions = new Map<string, ComponentDefinition>();
  private readonly frontEnds: DslFrontEnd[] = [];
  private readonly reducers = new Map<string, StateReducer>();

  constructor(parent?: ComponentRegistry) {
    if (parent) {
      for (const def of parent.list()) this.definitions.set(def.name, def);
      this.frontEnds.push(...parent.frontEnds);
      for (const [name, reducer] of parent.reducers) this.reducers.set(name, reducer);
    }
  }

  /**
   * Add a named state reducer, for variables that declare `reducer: name`. The DSL stores the
   * name only, so every process that loads such a canvas registers the same reducer first.
   */
  registerReducer(name: string, reducer: StateReducer, options: { replace?: boolean } = {}): void {
    if (typeof name !== "string" || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      throw new RegistrationError(`reducer name ${JSON.stringify(name)} must start with a letter and hold only letters, digits and "_"`);
    }
    if (typeof reducer !== "function") throw new RegistrationError(`reducer "${name}" must be a function (current, update) => next`);
    if (Object.hasOwn(BUILTIN_REDUCERS, name)) throw new RegistrationError(`reducer "${name}" is built in and cannot be replaced`);
    if (this.reducers.has(name) && this.reducers.get(name) !== reducer && !options.replace) {
      throw new RegistrationError(`reducer "${name}" is already registered (pass { replace: true } to override it)`);
    }
    this.reducers.set(name, reducer);
  }

  /** A reducer by name: built in (last, add, append, extend, merge, messages, union) or registered. */
  reducer(name: string): StateReducer | undefined {
    return Object.hasOwn(BUILTIN_REDUCERS, name) ? BUILTIN_REDUCERS[name as keyof typeof BUILTIN_REDUCERS] : this.reducers.get(name);
  }

  /** Add a document format this registry's canvases may be loaded from (its components must be registered too). */
  registerFrontEnd(frontEnd: DslFrontEnd): void {
    if (!this.frontEnds.includes(frontEnd)) this.frontEnds.push(frontEnd);
  }

  /** The front end of a document, if it is not a RAGFlow canvas. */
  frontEndFor(document: unknown): DslFrontEnd | undefined {
    if (typeof document !== "object" || document === null || Array.isArray(document)) return undefined;
    return this.frontEnds.find((f) => f.recognizes(document as Record<string, unknown>));
  }

  register<P extends Params>(definition: ComponentDefinition<P>, options: { replace?: boolean } = {}): void {
    if (!definition || typeof definition !== "object") throw new RegistrationError("a component definition must be an object");
    if (typeof definition.name !== "string" || !/^[A-Za-z][A-Za-z0-9_]*$/.test(definition.name)) {
      throw new RegistrationError(`component name ${JSON.stringify(definition.name)} must start with a letter and hold only letters, digits and "_"`);
    }
    if (typeof definition.invoke !== "function") {
      throw new RegistrationError(`component "${definition.name}" has no invoke() function`);
    }
    const caps = definition.capabilities ?? {};
    if (caps.asksForInput && typeof definition.requestInput !== "function") {
      throw new RegistrationError(`component "${definition.name}" declares asksForInput but has no requestInput() function`);
    }
    if (this.definitions.has(definition.name) && !options.replace) {
      throw new RegistrationError(`component "${definition.name}" is already registered (pass { replace: true } to override it)`);
    }
    this.definitions.set(definition.name, definition as unknown as ComponentDefinition);
  }

  get(name: string): ComponentDefinition | undefined {
    return this.definitions.get(name);
  }

  has(name: string): boolean {
    return this.definitions.has(name);
  }

  list(): ComponentDefinition[] {
    return [...this.definitions.values()];
  }

  /** A copy that can be extended without touching this registry (per-canvas custom components). */
  extend(): ComponentRegistry {
    return new ComponentRegistry(this);
  }
}
