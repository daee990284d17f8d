import { FORBIDDEN_PATH_KEYS } from "../refs/grammar.js";

/** Raised when a path would read or write through `__proto__`, `constructor` or `prototype`. */
export class UnsafePathError extends Error {
  constructor(readonly segment: string, readonly path: readonly string[]) {
    super(`path "${path.join(".")}" uses the forbidden key "${segment}"`);
    this.name = "UnsafePathError";
  }
}

/** A write through a path that cannot be done (e.g. an index past the end of a list). */
export class PathWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathWriteError";
  }
}

/** Set an own property, even one named `__proto__` (plain assignment would replace the prototype). */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function assertSafeKey(segment: string, path: readonly string[]): void {
  if (FORBIDDEN_PATH_KEYS.has(segment)) throw new UnsafePathError(segment, path);
}

function listIndex(segment: string, length: number): number | undefined {
  if (!/^-?\d+$/.test(segment)) return undefined;
  const n = Number(segment);
  // Python semantics: negative indices count from the end.
  const index = n < 0 ? length + n : n;
  return index >= 0 && index < length ? index : undefined;
}

function parseJsonString(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Follow a dotted path below a value, as RAGFlow's get_variable_param_value does:
 * strings are parsed as JSON, objects are indexed by key, lists by (possibly negative) index.
 * A step that cannot be taken yields undefined.
 */
export function getByPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    assertSafeKey(segment, path);
    if (current === null || current === undefined) return undefined;
    if (typeof current === "string") {
      current = parseJsonString(current);
      if (current === null || current === undefined) return undefined;
    }
    if (Array.isArray(current)) {
      const index = listIndex(segment, current.length);
      current = index === undefined ? undefined : current[index];
    } else if (typeof current === "object") {
      current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

/**
 * Return a copy of `root` with `value` written at `path`. Containers along the path are copied,
 * never mutated, so values already handed out (events, snapshots) keep their content.
 * Missing or non-container intermediates become objects.
 */
export function setByPath(root: unknown, path: readonly string[], value: unknown): unknown {
  return writeAt(root, path, 0, value);
}

// Recurse by depth rather than by slicing, so errors can name the whole path.
function writeAt(root: unknown, path: readonly string[], depth: number, value: unknown): unknown {
  if (depth >= path.length) return value;
  const head = path[depth];
  assertSafeKey(head, path);
  let container = root;
  if (typeof container === "string") container = parseJsonString(container);
  if (Array.isArray(container)) {
    if (/^-?\d+$/.test(head)) {
      const index = Number(head);
      const resolved = index < 0 ? container.length + index : index;
      // Writing at `length` appends; anything further would leave holes in the list.
      if (resolved < 0 || resolved > container.length) {
        throw new PathWriteError(`path "${path.join(".")}": index ${head} is outside the list (length ${container.length})`);
      }
      const copy = container.slice();
      copy[resolved] = writeAt(copy[resolved], path, depth + 1, value);
      return copy;
    }
    container = {};
  }
  const base: Record<string, unknown> =
    container !== null && typeof container === "object" ? { ...(container as Record<string, unknown>) } : {};
  defineOwn(base, head, writeAt(Object.hasOwn(base, head) ? base[head] : undefined, path, depth + 1, value));
  return base;
}
