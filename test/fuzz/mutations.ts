/**
 * Mutations of DSL documents for the fuzz property: each mutant is a seed document and a short
 * list of mutations, so fast-check can shrink a failure to fewer mutations of a simpler seed.
 * Besides the structural damage (keys, types, components, edges, nesting, huge strings), a
 * mutation may point a string at another component's output, or the component's own: references
 * are what the engine waits on, so they find hangs.
 *
 * A mutation picks its target by number among one pool of the document's places: its structural
 * fields (components, entries, obj, component_name, params, downstream, upstream, parent_id, the
 * top-level keys, graph nodes and edges, the run state), the values inside params, or any value.
 * So the same numbers give the same mutant. Deep nesting is spliced into the JSON text at the
 * end: JSON.stringify itself overflows on a value thousands of levels deep.
 */
import fc from "fast-check";
import { MAX_DSL_DEPTH } from "../../src/dsl/structure.js";
import { isPlainObject, jsonPointer } from "../../src/util/values.js";

export const MUTATION_KINDS = [
  "deleteKey",
  "swapType",
  "dropComponent",
  "duplicateEdge",
  "selfEdge",
  "stringForList",
  "deepNesting",
  "hugeString",
  "injectReference",
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  kind: MutationKind;
  /** Which place, modulo the number of candidates. */
  target: number;
  /** Which variant of the mutation (the replacement value, the depth, the size…). */
  variant: number;
  /** Where the target is picked: the DSL's structural fields, the values inside params, or any value. */
  among: "structure" | "params" | "anywhere";
}

export interface MutantSpec {
  seed: number;
  mutations: Mutation[];
}

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  target: fc.nat({ max: 10_000 }),
  variant: fc.nat({ max: 1_000 }),
  among: fc.constantFrom("structure", "params", "anywhere"),
});

export function mutantArbitrary(seedCount: number): fc.Arbitrary<MutantSpec> {
  return fc.record({ seed: fc.nat({ max: seedCount - 1 }), mutations: fc.array(mutationArbitrary, { minLength: 1, maxLength: 4 }) });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = Array<string | number>;

/** The values wrong types are swapped for. */
const SWAP_VALUES: readonly Json[] = ["", "text", 0, -1, 1.5, true, false, null, [], {}, ["x"], [1, 2], { x: 1 }, "begin"];

/**
 * Nesting depths: modest, around the limit (a params value starts about six levels down), and far
 * past it (the 5 124 included).
 */
const DEPTHS = [30, MAX_DSL_DEPTH - 6, MAX_DSL_DEPTH - 5, MAX_DSL_DEPTH, MAX_DSL_DEPTH + 1, 2_000, 5_124, 20_000] as const;
const HUGE_SIZES = [10_000, 100_000, 1_000_000] as const;
/** Repeated to make huge strings: plain text, and pieces of the reference grammar. */
const HUGE_PATTERNS = ["x", "{", "}", "{sys.query}", "{begin@", "@", "{{", "é漢"] as const;

/** Deep values to splice into the text: a placeholder string marks the place. */
interface DeepSplice {
  levels: number;
  lists: boolean;
  leaf: string;
}
const PLACEHOLDER = "\u0000deep:";

/** A mutant as text (what files and loadCanvas get) and what was done to make it. */
export interface Mutant {
  text: string;
  description: string[];
}

/** The structural fields of the canvas (inside the envelope's dsl when there is one), down to list items. */
function structuralPlaces(doc: Json): Path[] {
  const places: Path[] = [];
  const base: Path = isEnvelope(doc) ? ["dsl"] : [];
  const dsl = valueAt(doc, base);
  if (!isPlainObject(dsl)) return places;
  const withItems = (path: Path, levels: number): void => {
    places.push(path);
    const value = valueAt(doc, path);
    if (levels === 0 || value === null || typeof value !== "object") return;
    for (const key of Object.keys(value)) withItems([...path, Array.isArray(value) ? Number(key) : key], levels - 1);
  };
  for (const key of Object.keys(dsl)) {
    if (key !== "components") {
      // globals, variables, history, path, graph (nodes, edges and their fields), the run state…
      withItems([...base, key], key === "graph" || key === "canvasflow" ? 3 : 1);
      continue;
    }
    places.push([...base, key]);
    const components = dsl[key];
    if (!isPlainObject(components)) continue;
    for (const [id, entry] of Object.entries(components)) {
      places.push([...base, key, id]);
      if (!isPlainObject(entry)) continue;
      for (const field of ["downstream", "upstream", "parent_id"]) if (field in entry) withItems([...base, key, id, field], 1);
      if (!("obj" in entry)) continue;
      places.push([...base, key, id, "obj"]);
      const obj = entry.obj;
      if (isPlainObject(obj)) for (const field of ["component_name", "params"]) if (field in obj) places.push([...base, key, id, "obj", field]);
    }
  }
  return places;
}

/** The values inside the components' params, a few levels down. */
function paramPlaces(doc: Json): Path[] {
  const components = componentsOf(doc);
  if (!components) return [];
  const places: Path[] = [];
  for (const id of Object.keys(components.map)) {
    const at: Path = [...components.path, id, "obj", "params"];
    const params = valueAt(doc, at);
    if (params !== undefined) for (const path of allPlaces(params, 4)) places.push([...at, ...path]);
  }
  return places;
}

function isEnvelope(doc: Json): boolean {
  return isPlainObject(doc) && isPlainObject(doc.dsl) && !("components" in doc);
}

/** Every place up to a depth (the placeholders of earlier deep mutations are leaves). */
function allPlaces(doc: Json, maxDepth = 12): Path[] {
  const places: Path[] = [];
  const stack: Array<[Json, Path]> = [[doc, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (path.length > 0) places.push(path);
    if (path.length >= maxDepth || value === null || typeof value !== "object") continue;
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], [...path, Array.isArray(value) ? Number(entries[i][0]) : entries[i][0]]]);
  }
  return places;
}

/** The value at this path of a document (undefined where the path leaves it). */
export function valueAt(doc: unknown, path: Path): Json | undefined {
  let value = doc as Json | undefined;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, Json>)[key];
  }
  return value;
}

function set(doc: Json, path: Path, value: Json): void {
  const parent = valueAt(doc, path.slice(0, -1));
  if (parent !== null && typeof parent === "object") (parent as Record<string, Json>)[path.at(-1)!] = value;
}

function remove(doc: Json, path: Path): void {
  const parent = valueAt(doc, path.slice(0, -1));
  const key = path.at(-1)!;
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (parent !== null && typeof parent === "object") delete parent[key];
}

function typeOf(value: Json | undefined): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** The components map of a document (bare or envelope), or undefined. */
function componentsOf(doc: Json): { path: Path; map: Record<string, Json> } | undefined {
  const path: Path = isEnvelope(doc) ? ["dsl", "components"] : ["components"];
  const map = valueAt(doc, path);
  return isPlainObject(map) ? { path, map: map as Record<string, Json> } : undefined;
}

function pick<T>(items: readonly T[], n: number): T | undefined {
  return items.length === 0 ? undefined : items[n % items.length];
}

/** Applies one mutation in place; returns what it did, or undefined when it found no target. */
function apply(doc: Json, m: Mutation, splices: DeepSplice[]): string | undefined {
  const places = (m.among === "structure" ? structuralPlaces(doc) : m.among === "params" ? paramPlaces(doc) : allPlaces(doc)).filter((p) => p.length > 0);
  const at = (path: Path) => jsonPointer(...path);
  switch (m.kind) {
    case "deleteKey": {
      const path = pick(places, m.target);
      if (!path) return undefined;
      remove(doc, path);
      return `delete ${at(path)}`;
    }
    case "swapType": {
      const path = pick(places, m.target);
      if (!path) return undefined;
      const current = typeOf(valueAt(doc, path));
      const choices = SWAP_VALUES.filter((v) => typeOf(v) !== current);
      const value = pick(choices, m.variant)!;
      set(doc, path, structuredClone(value));
      return `set ${at(path)} (a ${current}) to ${JSON.stringify(value)}`;
    }
    case "dropComponent": {
      const components = componentsOf(doc);
      const id = components && pick(Object.keys(components.map), m.target);
      if (!components || id === undefined) return undefined;
      delete components.map[id];
      return `drop the component ${at([...components.path, id])}`;
    }
    case "duplicateEdge": {
      const components = componentsOf(doc);
      const lists: Path[] = [];
      if (components) {
        for (const [id, entry] of Object.entries(components.map)) {
          for (const field of ["downstream", "upstream"]) {
            const list = isPlainObject(entry) ? entry[field] : undefined;
            if (Array.isArray(list) && list.length > 0) lists.push([...components.path, id, field]);
          }
        }
      }
      const edges = valueAt(doc, ["graph", "edges"]) ?? valueAt(doc, ["dsl", "graph", "edges"]);
      if (Array.isArray(edges) && edges.length > 0) lists.push(valueAt(doc, ["graph", "edges"]) ? ["graph", "edges"] : ["dsl", "graph", "edges"]);
      const path = pick(lists, m.target);
      if (!path) return undefined;
      const list = valueAt(doc, path) as Json[];
      const item = pick(list, m.variant)!;
      list.push(structuredClone(item));
      return `duplicate ${JSON.stringify(item).slice(0, 80)} in ${at(path)}`;
    }
    case "selfEdge": {
      const components = componentsOf(doc);
      const id = components && pick(Object.keys(components.map), m.target);
      const entry = id === undefined ? undefined : components!.map[id];
      if (!components || id === undefined || !isPlainObject(entry)) return undefined;
      // A self-edge in downstream, upstream, exception_goto, or the component as its own parent.
      const field = pick(["downstream", "upstream", "parent_id", "exception_goto"] as const, m.variant)!;
      if (field === "parent_id") {
        entry.parent_id = id;
      } else if (field === "exception_goto") {
        const obj = entry.obj;
        if (!isPlainObject(obj) || !isPlainObject(obj.params)) return undefined;
        obj.params.exception_method = "goto";
        obj.params.exception_goto = [id];
      } else {
        const list = Array.isArray(entry[field]) ? (entry[field] as Json[]) : (entry[field] = []);
        list.push(id);
      }
      return `make ${at([...components.path, id])} its own ${field}`;
    }
    case "stringForList": {
      const lists = places.filter((p) => Array.isArray(valueAt(doc, p)));
      const path = pick(lists, m.target);
      if (!path) return undefined;
      const list = valueAt(doc, path) as Json[];
      const text = typeof list[0] === "string" ? list[0] : list.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(",");
      set(doc, path, text);
      return `replace the list ${at(path)} by the string ${JSON.stringify(text).slice(0, 80)}`;
    }
    case "deepNesting": {
      const path = pick(places, m.target);
      if (!path) return undefined;
      const levels = pick(DEPTHS, m.variant)!;
      const lists = m.variant % 3 === 0;
      // At the bottom: the value that was there, or text with a reference for the walkers to read.
      const leaf = Math.floor(m.variant / DEPTHS.length) % 2 === 0 ? JSON.stringify(valueAt(doc, path) ?? null) : JSON.stringify("{sys.query} {begin@x}");
      splices.push({ levels, lists, leaf });
      set(doc, path, `${PLACEHOLDER}${splices.length - 1}`);
      return `nest ${at(path)} ${levels} ${lists ? "lists" : "objects"} deep`;
    }
    case "hugeString": {
      const strings = places.filter((p) => typeof valueAt(doc, p) === "string" && !(valueAt(doc, p) as string).startsWith(PLACEHOLDER));
      const path = pick(strings.length > 0 && m.variant % 4 !== 0 ? strings : places, m.target);
      if (!path) return undefined;
      const size = pick(HUGE_SIZES, m.variant)!;
      const pattern = pick(HUGE_PATTERNS, Math.floor(m.variant / 3))!;
      set(doc, path, pattern.repeat(Math.ceil(size / pattern.length)));
      return `set ${at(path)} to ${JSON.stringify(pattern)} repeated to ${size} characters`;
    }
    case "injectReference":
      return injectReference(doc, m);
  }
}

/** The output names references are made to (what most components set, and one nobody sets). */
const OUTPUT_NAMES = ["content", "result", "formalized_content", "nothing_sets_this"] as const;

/** Replaces a string in a component's params by a reference to a component (itself, every fourth time). */
function injectReference(doc: Json, m: Mutation): string | undefined {
  const components = componentsOf(doc);
  if (!components) return undefined;
  const ids = Object.keys(components.map);
  const strings: Array<{ owner: string; path: Path }> = [];
  for (const id of ids) {
    const params = valueAt(doc, [...components.path, id, "obj", "params"]);
    if (params === undefined) continue;
    for (const path of allPlaces(params, 6)) {
      if (typeof valueAt(params, path) === "string") strings.push({ owner: id, path: [...components.path, id, "obj", "params", ...path] });
    }
  }
  const place = pick(strings, m.target);
  if (!place) return undefined;
  const target = m.variant % 4 === 0 ? place.owner : pick(ids, Math.floor(m.variant / 4))!;
  const output = pick(OUTPUT_NAMES, Math.floor(m.variant / 16))!;
  // A template in text, or a bare selector (the spelling selector params use).
  const reference = m.variant % 2 === 0 ? `{${target}@${output}}` : `${target}@${output}`;
  set(doc, place.path, reference);
  return `set ${jsonPointer(...place.path)} to the reference ${JSON.stringify(reference)}${target === place.owner ? " (its own output)" : ""}`;
}

/** The JSON text of a mutated document, with its deep values spliced in. */
function textOf(doc: Json, splices: readonly DeepSplice[]): string {
  let text = JSON.stringify(doc);
  // Later splices may sit inside the leaf of an earlier one: expand from the last.
  for (let i = splices.length - 1; i >= 0; i--) {
    const { levels, lists, leaf } = splices[i];
    const open = lists ? "[" : '{"a":';
    const close = lists ? "]" : "}";
    const marker = JSON.stringify(`${PLACEHOLDER}${i}`);
    const index = text.indexOf(marker);
    if (index < 0) continue; // a later mutation replaced or removed it
    text = `${text.slice(0, index)}${open.repeat(levels)}${leaf}${close.repeat(levels)}${text.slice(index + marker.length)}`;
  }
  return text;
}

/** Builds the mutant: the seed (never modified) with each mutation applied in turn. */
export function mutate(seed: unknown, mutations: readonly Mutation[]): Mutant {
  const doc = structuredClone(seed) as Json;
  const splices: DeepSplice[] = [];
  const description: string[] = [];
  for (const mutation of mutations) {
    const done = apply(doc, mutation, splices);
    description.push(done ?? `${mutation.kind}: no place to apply it`);
  }
  return { text: textOf(doc, splices), description };
}
