/**
 * References as values: `ref(node, "content")`, `sys("query")`, `env("x")`, and `text` templates
 * that place them in free text. A reference alone, as a param's whole value, is written as
 * RAGFlow's bare selector (`cpn@var`, `sys.query`); inside `text` it is written as a template
 * reference (`{cpn@var}`). build() checks every one (references-check.ts).
 */
import { SYSTEM_GLOBALS } from "../pool/variables.js";
import type { NodeHandle } from "./node-handle.js";

/** The keys of the system globals every canvas has: `sys("query")` reads `sys.query`. */
export type SystemKey = (typeof SYSTEM_GLOBALS)[number] extends `sys.${infer K}` ? K : never;

/** A component's output: `cpn@output` or `cpn@output.path`. */
export class ComponentRef {
  readonly kind = "component";
  constructor(
    readonly componentId: string,
    readonly output: string,
    /** Dotted path below the output value, when there is one. */
    readonly path?: string,
  ) {}

  /** The bare selector, as a selector param holds it. */
  get selector(): string {
    return `${this.componentId}@${this.output}${this.path ? `.${this.path}` : ""}`;
  }

  /** The template reference, so `${ref}` in a plain template literal writes `{cpn@var}`. */
  toString(): string {
    return `{${this.selector}}`;
  }
}

/** A global: `sys.query` or a declared conversation variable `env.x`. */
export class GlobalRef {
  readonly kind = "global";
  constructor(
    readonly scope: "sys" | "env",
    readonly key: string,
  ) {}

  get selector(): string {
    return `${this.scope}.${this.key}`;
  }

  toString(): string {
    return `{${this.selector}}`;
  }
}

export type Ref = ComponentRef | GlobalRef;

/** What a `text` template may hold between its literal parts. */
export type TextPart = Ref | string | number | boolean;

/** A template text with references in it: RAGFlow's `{cpn@var}` syntax when written. */
export class Text {
  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly TextPart[],
  ) {}

  /** The references it holds, in order. */
  get references(): Ref[] {
    return this.parts.filter(isRef);
  }

  /** The template as RAGFlow stores it. */
  toString(): string {
    let out = this.strings[0] ?? "";
    for (let i = 0; i < this.parts.length; i++) out += String(this.parts[i]) + (this.strings[i + 1] ?? "");
    return out;
  }
}

export function isRef(value: unknown): value is Ref {
  return value instanceof ComponentRef || value instanceof GlobalRef;
}

const SYSTEM_KEYS: ReadonlySet<string> = new Set(SYSTEM_GLOBALS.map((key) => key.slice("sys.".length)));

/**
 * An output of a component: `ref(retrieval, "formalized_content")`, or `ref(llm, "structured", "answer.text")`
 * for a path below it. A component id as a string refers to one added later (checked by build()).
 */
export function ref<Output extends string>(node: NodeHandle<string, string, Output> | string, output: NoInfer<Output>, path?: string): ComponentRef {
  const id = typeof node === "string" ? node : node.id;
  if (typeof output !== "string" || output.length === 0 || /[\s{}@]/.test(output)) {
    throw new TypeError(`ref(${id}, …): the output name must be a non-empty text without spaces, braces or "@", got ${JSON.stringify(output)}`);
  }
  return new ComponentRef(id, output, path);
}

/** A system global: `sys("query")` is `sys.query`. */
export function sys(key: SystemKey): GlobalRef {
  if (!SYSTEM_KEYS.has(key)) throw new TypeError(`sys(${JSON.stringify(key)}): no such system global; there are ${[...SYSTEM_KEYS].map((k) => `sys.${k}`).join(", ")}`);
  return new GlobalRef("sys", key);
}

/** A conversation variable: `env("topics")` is `env.topics`; build() checks that the canvas declares it. */
export function env(key: string): GlobalRef {
  if (typeof key !== "string" || !/^[A-Za-z0-9_]+$/.test(key)) throw new TypeError(`env(${JSON.stringify(key)}): a variable name holds letters, digits and "_" only`);
  return new GlobalRef("env", key);
}

/** A template text: text`Answer {…}: ${ref(llm, "content")}` writes `Answer {…}: {LLM:A@content}`. */
export function text(strings: TemplateStringsArray, ...parts: TextPart[]): Text {
  return new Text([...strings], parts);
}
