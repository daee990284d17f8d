/**
 * The reference grammar of RAGFlow canvases, as pure functions.
 *
 * Three spellings exist (research/ragflow.md §1.6):
 *  - template references inside free text: `{cpn_id@var.path}`, `{sys.query}`, `{env.name}`,
 *    with doubled (or more) braces and spaces inside them tolerated: `{{cpn@var}}`, `{{ sys.query }}`;
 *  - bare selectors in selector params: `cpn@var`, `sys.x`, `env.x` (braces and spaces optional);
 *  - iteration aliases `{item}`, `{index}`, `{result}` inside direct children of an Iteration.
 */

/** A parsed reference. `expr` is the canonical text (no braces) used as a display key. */
export type Reference = ComponentReference | GlobalReference | AliasReference;

export interface ComponentReference {
  readonly kind: "component";
  readonly expr: string;
  readonly componentId: string;
  /** Output key: the part of the variable before the first dot. */
  readonly variable: string;
  /** Dotted path below the output value (object keys, list indices, JSON strings). */
  readonly path: readonly string[];
}

export interface GlobalReference {
  readonly kind: "global";
  readonly expr: string;
  /** `conversation` only for Dify graphs (their conversation variables); RAGFlow text never spells it. */
  readonly scope: "sys" | "env" | "conversation";
  /** The flat global key, e.g. `sys.query` or `env.counter` (may contain further dots). */
  readonly key: string;
}

export interface AliasReference {
  readonly kind: "alias";
  readonly expr: string;
  readonly alias: IterationAlias;
}

export type IterationAlias = "item" | "index" | "result";

/**
 * Template references, after RAGFlow's `variable_ref_patt` (agent/component/base.py) and its Go
 * port's `VarRefPattern` (internal/agent/runtime/template.go), matched case-insensitively. Group 1
 * is the expression. Component ids may hold letters, digits, `_` and `:`; variables may also hold
 * `.` and `-`.
 *
 * This pattern matches only the innermost pair of braces, with spaces or tabs allowed inside it:
 * `{sys.query}`, `{ sys.query }`, `{{ sys.query }}`'s inner part. The Go port reads all of these
 * as the reference. Python reads only the unspaced ones and leaves `{{ sys.query }}` to Jinja,
 * which fails on the undefined `sys` (a Message then shows the text as written; nunjucks would
 * render nothing). `scanReferences` then widens a match over the extra braces (and
 * the spaces between them) that surround it in pairs, so `{{ x@y }}` and `{ {x@y} }` are replaced
 * whole. Line breaks are not spaces here: a brace alone on its line is code or JSON, not a reference.
 *
 * RAGFlow writes the brace part as `\{* *\{…\} *\}*`, which also swallows one space before and
 * after a plain `{ref}` ("Hello {name}!" renders "HelloAda!"). Here spaces are only consumed
 * inside braces, so the text around a reference is kept.
 */
const REFERENCE_EXPRESSION = String.raw`[a-zA-Z0-9_:]+@[A-Za-z0-9_.-]+|sys\.[A-Za-z0-9_.]+|env\.[A-Za-z0-9_.]+`;
const INNER_OPEN = String.raw`\{[ \t]*`;
const INNER_CLOSE = String.raw`[ \t]*\}`;
const REFERENCE_SOURCE = `${INNER_OPEN}(${REFERENCE_EXPRESSION})${INNER_CLOSE}`;
/** RAGFlow's `iteration_alias_patt`, with the same brace handling. */
const ALIAS_SOURCE = `${INNER_OPEN}(item|index|result)${INNER_CLOSE}`;
/** One regex for both, so a single left-to-right scan finds every reference in order. */
const COMBINED_SOURCE = `${REFERENCE_SOURCE}|${ALIAS_SOURCE}`;

/** A fresh global regex for the innermost braces of a reference (lastIndex must not be shared). */
function innerReferencePattern(withAliases: boolean): RegExp {
  return new RegExp(withAliases ? COMBINED_SOURCE : REFERENCE_SOURCE, "gi");
}

const COMPONENT_ID = /^[A-Za-z0-9_:-]+$/;
/** What may follow `sys.`/`env.`: the same characters the template regex accepts. */
const GLOBAL_NAME = /^[A-Za-z0-9_.]+$/;
const SELECTOR_VARIABLE = /^[^\s{}]+$/;

/** Path segments that could reach an object's prototype; never read or written through a path. */
export const FORBIDDEN_PATH_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Parse the expression captured by the template regex (or a bare selector) into a Reference.
 * Returns null when the text is not a reference.
 */
export function parseExpression(expression: string): Reference | null {
  const expr = expression.trim();
  if (expr.length === 0) return null;
  const at = expr.indexOf("@");
  if (at < 0) {
    const lower = expr.slice(0, 4).toLowerCase();
    if ((lower === "sys." || lower === "env.") && GLOBAL_NAME.test(expr.slice(4))) {
      const scope = lower === "sys." ? "sys" : "env";
      const key = `${scope}.${expr.slice(4)}`;
      return { kind: "global", expr: key, scope, key };
    }
    const alias = expr.toLowerCase();
    if (alias === "item" || alias === "index" || alias === "result") {
      return { kind: "alias", expr: alias, alias };
    }
    return null;
  }
  // RAGFlow splits on the first "@" only: `cpn@foo@bar` reads output key `foo@bar`.
  const componentId = expr.slice(0, at);
  const variablePath = expr.slice(at + 1);
  if (!COMPONENT_ID.test(componentId) || variablePath.length === 0 || !SELECTOR_VARIABLE.test(variablePath)) {
    return null;
  }
  const segments = variablePath.split(".");
  const variable = segments[0];
  if (variable.length === 0) return null;
  return {
    kind: "component",
    expr,
    componentId,
    variable,
    path: segments.slice(1).filter((s) => s.length > 0),
  };
}

/**
 * Parse a bare selector such as `cpn@var.path`, `{cpn@var}`, `sys.query` or ` {{env.x}} `.
 * RAGFlow's get_variable_value strips braces and spaces around the expression.
 */
export function parseSelector(selector: string): Reference | null {
  if (typeof selector !== "string") return null;
  const stripped = selector.replace(/^[\s{]+/, "").replace(/[\s}]+$/, "");
  const ref = parseExpression(stripped);
  // Aliases are only a template spelling; a bare "item" in a selector param is literal text.
  return ref && ref.kind !== "alias" ? ref : null;
}

/**
 * A reference as the pool's journal writes it (its `expr`): any selector, and also Dify's
 * `conversation.x` globals, which no RAGFlow template or selector spells.
 */
export function parseStoredReference(expr: string): Reference | null {
  if (typeof expr === "string" && expr.startsWith("conversation.") && GLOBAL_NAME.test(expr.slice(13))) {
    return { kind: "global", expr, scope: "conversation", key: expr };
  }
  return parseSelector(expr);
}

/** True when the whole string is a selector (used by params that accept a reference or a literal). */
export function isSelector(text: unknown): text is string {
  return typeof text === "string" && parseSelector(text) !== null;
}

/** One reference found in a text: where it is and the exact text it replaces. */
interface ReferenceMatch {
  ref: Reference;
  start: number;
  end: number;
  raw: string;
}

/**
 * Find every template reference in order. Braces are balanced: `{"q": {sys.query}}` keeps the
 * JSON's own closing brace, and `{{{a@b}` keeps the two extra opening ones as text (RAGFlow's
 * regex swallows every brace around a reference). Each character is looked at a bounded number of
 * times, so long runs of braces cost linear time.
 */
export function* scanReferences(text: string, withAliases = true): Generator<ReferenceMatch> {
  if (typeof text !== "string" || text.indexOf("{") < 0) return;
  const pattern = innerReferencePattern(withAliases);
  let consumed = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const ref = parseExpression(match[1] ?? match[2]);
    if (!ref) continue;
    const outer = surroundingPairs(text, match.index, match.index + match[0].length, consumed);
    consumed = outer.end;
    pattern.lastIndex = outer.end;
    yield { ref, start: outer.start, end: outer.end, raw: text.slice(outer.start, outer.end) };
  }
}

const isBlank = (c: string | undefined): boolean => c === " " || c === "\t";

/**
 * Widen the innermost `{…}` at [start, end) over the braces around it that pair up: as many
 * extra `{` on the left (not before `floor`, where the previous reference ended) as extra `}` on
 * the right, with the spaces between them. Unpaired braces stay text.
 */
function surroundingPairs(text: string, start: number, end: number, floor: number): { start: number; end: number } {
  const opening: number[] = [];
  for (let i = start - 1; i >= floor && (text[i] === "{" || isBlank(text[i])); i--) if (text[i] === "{") opening.push(i);
  if (opening.length === 0) return { start, end };
  const closing: number[] = [];
  for (let i = end; i < text.length && closing.length < opening.length && (text[i] === "}" || isBlank(text[i])); i++) if (text[i] === "}") closing.push(i);
  const pairs = closing.length;
  if (pairs === 0) return { start, end };
  return { start: opening[pairs - 1], end: closing[pairs - 1] + 1 };
}

/** Every template reference in `text`, in order of appearance (duplicates kept). */
export function findReferences(text: string, withAliases = true): Reference[] {
  const out: Reference[] = [];
  for (const match of scanReferences(text, withAliases)) out.push(match.ref);
  return out;
}

/** Canonical text for a reference, as used in `node_finished.inputs` keys. */
export function referenceKey(ref: Reference): string {
  return ref.expr;
}
