/**
 * Building the value of a composed document as PyYAML's SafeConstructor builds it, then as the
 * JSON value canvasflow holds: merge keys flattened as flatten_mapping does (merged pairs first,
 * the mapping's own last, the first of a merge list winning), dict keys equal as Python's are
 * (1, 1.0 and true are one key; the first key stays, the last value wins), !!set, !!omap and
 * !!pairs, and SafeLoader's refusals (a plain `=` or `<<` as a value, an unhashable key, an
 * unknown tag, an undefined or duplicate anchor).
 */
import { type Alias, type Document, isAlias, isMap, isScalar, isSeq, type LineCounter, type Node, type Pair, type Scalar, visit, type YAMLMap, type YAMLSeq } from "yaml";
import { PyMarker, type PyScalar, scalarKeyIdentity, scalarToJson, scalarToJsonKey } from "./python-values.js";
import { resolvePlain, scalarConstructor, TAG } from "./schema.js";

/** A document reaching more values than this through aliases is an attack (a "billion laughs"), not a workflow. */
const MAX_ALIASED_VALUES = 1_000_000;

/** A refusal, at the node's offset in the text. */
export class ConstructError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

type YamlNode = Node | null;

export function constructDocument(document: Document, lines: LineCounter): unknown {
  return new Constructor(document, lines).build();
}

class Constructor {
  private readonly aliasTargets = new Map<Alias, Node>();
  private readonly built = new Map<Node, unknown>();
  private readonly building = new Set<Node>();
  private readonly sizes = new Map<Node, number>();
  private readonly flattening = new Set<Node>();
  private aliasedValues = 0;

  constructor(
    private readonly document: Document,
    private readonly lines: LineCounter,
  ) {}

  build(): unknown {
    this.collectAnchors();
    return this.value(this.document.contents as YamlNode);
  }

  /** composer.py: an anchor is known from where it stands on; one name twice is refused (names are checked in ./syntax.ts). */
  private collectAnchors(): void {
    const anchors = new Map<string, Node>();
    visit(this.document, {
      Node: (_key, node) => {
        if (isAlias(node)) {
          const target = anchors.get(node.source);
          if (!target) throw this.error(node, `found undefined alias *${node.source}`);
          this.aliasTargets.set(node, target);
          return;
        }
        const anchor = node.anchor;
        if (anchor === undefined) return;
        const first = anchors.get(anchor);
        if (first) throw this.error(node, `found duplicate anchor &${anchor}; first occurrence at ${this.where(first)}`);
        anchors.set(anchor, node);
      },
    });
  }

  private deref(node: YamlNode): YamlNode {
    return node && isAlias(node) ? this.aliasTargets.get(node)! : node;
  }

  /** A node's value as canvasflow holds it. */
  private value(raw: YamlNode): unknown {
    if (raw && isAlias(raw)) {
      const target = this.deref(raw)!;
      this.aliasedValues += this.size(target);
      if (this.aliasedValues > MAX_ALIASED_VALUES) {
        throw this.error(raw, `the aliases reach more than ${MAX_ALIASED_VALUES} values (a "billion laughs" file)`);
      }
      if (this.building.has(target)) throw this.error(raw, `the alias *${raw.source} is inside its own anchor: a recursive structure has no JSON value`);
      return this.value(target);
    }
    if (raw === null) return null;
    const cached = this.built.get(raw);
    if (cached !== undefined) return cached;
    this.building.add(raw);
    const result = this.construct(raw);
    this.building.delete(raw);
    if (raw.anchor !== undefined) this.built.set(raw, result);
    return result;
  }

  private construct(node: Node): unknown {
    if (isScalar(node)) return this.scalarValue(node);
    const tag = node.tag ?? (isMap(node) ? TAG.map : TAG.seq);
    if (tag === TAG.map) return this.mapping(this.expect(node, "mapping", tag));
    if (tag === TAG.seq) return (this.expect(node, "sequence", tag) as YAMLSeq<YamlNode>).items.map((item) => this.value(item));
    if (tag === TAG.set) return this.set(this.expect(node, "mapping", tag));
    if (tag === TAG.omap || tag === TAG.pairs) return this.pairs(node, tag);
    const construct = scalarConstructor(tag);
    if (construct) return this.json(this.attempt(node, () => construct(this.scalarText(node))), node);
    throw this.error(node, `could not determine a constructor for the tag '${tag}'`);
  }

  private expect(node: Node, kind: "mapping" | "sequence", tag: string): YAMLMap<YamlNode, YamlNode> | YAMLSeq<YamlNode> {
    if (kind === "mapping" ? isMap(node) : isSeq(node)) return node as YAMLMap<YamlNode, YamlNode>;
    throw this.error(node, `the tag ${shortTag(tag)} expects a ${kind} node, but found a ${kindOf(node)}`);
  }

  /** A scalar's Python value (before it becomes JSON). */
  private scalar(node: Scalar): PyScalar | PyMarker {
    if (node.tag === "!") return this.attempt(node, () => resolvePlain(String(node.source)));
    if (node.tag !== undefined && !scalarConstructor(node.tag)) throw this.error(node, `could not determine a constructor for the tag '${node.tag}'`);
    return node.value as PyScalar | PyMarker;
  }

  private scalarValue(node: Scalar): unknown {
    return this.json(this.scalar(node), node);
  }

  private json(value: PyScalar | PyMarker, node: Node): unknown {
    if (value instanceof PyMarker) {
      throw this.error(
        node,
        `a plain \`${value.text}\` is PyYAML's ${value.tag === TAG.merge ? "merge key" : "value key"} (${value.tag}) and cannot stand as a value; quote it`,
      );
    }
    return scalarToJson(value);
  }

  /** SafeConstructor.construct_scalar: a mapping stands for a scalar through its `=` key. */
  private scalarText(node: Node): string {
    if (isScalar(node)) return String(node.source);
    if (isMap(node)) {
      for (const pair of (node as YAMLMap<YamlNode, YamlNode>).items) {
        const key = this.deref(pair.key);
        if (key && isScalar(key) && this.isTagged(key, TAG.value)) {
          const value = this.deref(pair.value);
          if (value === null) return "";
          return this.scalarText(value);
        }
      }
    }
    throw this.error(node, `expected a scalar node, but found a ${kindOf(node)}`);
  }

  private attempt<T>(node: Node, build: () => T): T {
    try {
      return build();
    } catch (error) {
      if (error instanceof ConstructError) throw error;
      throw this.error(node, (error as Error).message);
    }
  }

  private isTagged(node: Scalar, tag: string): boolean {
    if (node.tag === tag) return true;
    const value = node.tag === "!" ? resolvePlain(String(node.source)) : node.value;
    return value instanceof PyMarker && value.tag === tag;
  }

  private isMergeKey(node: YamlNode): boolean {
    const key = this.deref(node);
    if (key === null) return false;
    if (key.tag === TAG.merge) return true;
    return isScalar(key) && this.isTagged(key, TAG.merge);
  }

  /** flatten_mapping: the pairs a mapping has once its merge keys are replaced by what they merge. */
  private flatten(node: YAMLMap<YamlNode, YamlNode>): Pair<YamlNode, YamlNode>[] {
    if (this.flattening.has(node)) throw this.error(node, "a merge key (<<) merges a mapping into itself");
    this.flattening.add(node);
    const merged: Pair<YamlNode, YamlNode>[] = [];
    const own: Pair<YamlNode, YamlNode>[] = [];
    for (const pair of node.items) {
      if (!this.isMergeKey(pair.key)) {
        own.push(pair);
        continue;
      }
      const value = this.deref(pair.value);
      if (value && isMap(value)) {
        merged.push(...this.flatten(value as YAMLMap<YamlNode, YamlNode>));
      } else if (value && isSeq(value)) {
        const each: Pair<YamlNode, YamlNode>[][] = [];
        for (const item of (value as YAMLSeq<YamlNode>).items) {
          const mapping = this.deref(item);
          if (!mapping || !isMap(mapping)) throw this.error(item ?? value, `expected a mapping for merging, but found a ${kindOf(mapping)}`);
          each.push(this.flatten(mapping as YAMLMap<YamlNode, YamlNode>));
        }
        for (const pairs of each.reverse()) merged.push(...pairs);
      } else {
        throw this.error(value ?? node, `expected a mapping or list of mappings for merging, but found a ${kindOf(value)}`);
      }
    }
    this.flattening.delete(node);
    return [...merged, ...own];
  }

  /** A mapping key as Python holds it: its identity (dict equality) and its JSON text. */
  private key(raw: YamlNode, mapping: Node): { identity: string; text: string; value: PyScalar } {
    const node = this.deref(raw);
    if (node !== null && !isScalar(node)) {
      const tag = node.tag;
      if (tag !== undefined && tag !== TAG.map && tag !== TAG.seq && tag !== TAG.set && tag !== TAG.omap && tag !== TAG.pairs && scalarConstructor(tag)) {
        const construct = scalarConstructor(tag)!;
        return this.keyOf(this.attempt(node, () => construct(this.scalarText(node))), node);
      }
      throw this.error(raw ?? mapping, `found unhashable key (a ${kindOf(node)} cannot be a mapping key)`);
    }
    const value = node === null ? null : this.scalar(node);
    return this.keyOf(value, node ?? mapping);
  }

  private keyOf(value: PyScalar | PyMarker, node: Node): { identity: string; text: string; value: PyScalar } {
    // flatten_mapping retags a `=` key as str.
    if (value instanceof PyMarker) {
      if (value.tag === TAG.value) return { identity: `str:${value.text}`, text: value.text, value: value.text };
      this.json(value, node);
    }
    const scalar = value as PyScalar;
    return { identity: scalarKeyIdentity(scalar), text: scalarToJsonKey(scalar), value: scalar };
  }

  private mapping(node: YAMLMap<YamlNode, YamlNode> | YAMLSeq<YamlNode>): Record<string, unknown> {
    const entries = new Map<string, { text: string; value: unknown }>();
    for (const pair of this.flatten(node as YAMLMap<YamlNode, YamlNode>)) {
      const key = this.key(pair.key, node);
      const value = this.value(pair.value);
      const entry = entries.get(key.identity);
      if (entry) entry.value = value;
      else entries.set(key.identity, { text: key.text, value });
    }
    const out: Record<string, unknown> = {};
    for (const { text, value } of entries.values()) Object.defineProperty(out, text, { value, enumerable: true, writable: true, configurable: true });
    return out;
  }

  /** !!set: its keys, once each, in the order written (values are built, then dropped). */
  private set(node: YAMLMap<YamlNode, YamlNode> | YAMLSeq<YamlNode>): unknown[] {
    const members = new Map<string, unknown>();
    for (const pair of this.flatten(node as YAMLMap<YamlNode, YamlNode>)) {
      const key = this.key(pair.key, node);
      this.value(pair.value);
      if (!members.has(key.identity)) members.set(key.identity, scalarToJson(key.value));
    }
    return [...members.values()];
  }

  /** !!omap and !!pairs: a sequence of one-pair mappings, as [key, value] lists (how json.dumps writes tuples). */
  private pairs(node: Node, tag: string): unknown[][] {
    const what = tag === TAG.omap ? "an ordered map" : "pairs";
    if (!isSeq(node)) throw this.error(node, `while constructing ${what}: expected a sequence, but found a ${kindOf(node)}`);
    return (node as YAMLSeq<YamlNode>).items.map((item) => {
      const entry = this.deref(item);
      if (!entry || !isMap(entry)) throw this.error(item ?? node, `while constructing ${what}: expected a mapping of length 1, but found a ${kindOf(entry)}`);
      const items = (entry as YAMLMap<YamlNode, YamlNode>).items;
      if (items.length !== 1) throw this.error(entry, `while constructing ${what}: expected a single mapping item, but found ${items.length} items`);
      return [this.value(items[0].key), this.value(items[0].value)];
    });
  }

  /** How many values a node stands for once its aliases are expanded. */
  private size(raw: YamlNode): number {
    const node = this.deref(raw);
    if (node === null || isScalar(node)) return 1;
    const known = this.sizes.get(node);
    if (known !== undefined) return known;
    this.sizes.set(node, 1); // a recursive structure is refused when it is built
    let total = 1;
    if (isMap(node)) for (const pair of (node as YAMLMap<YamlNode, YamlNode>).items) total += this.size(pair.key) + this.size(pair.value);
    else if (isSeq(node)) for (const item of (node as YAMLSeq<YamlNode>).items) total += this.size(item);
    this.sizes.set(node, total);
    return total;
  }

  private where(node: Node): string {
    const at = this.lines.linePos(node.range?.[0] ?? 0);
    return `line ${at.line}, column ${at.col}`;
  }

  private error(node: Node | null, message: string): ConstructError {
    return new ConstructError(message, node?.range?.[0] ?? 0);
  }
}

function kindOf(node: YamlNode): string {
  if (node === null || isScalar(node)) return "scalar";
  if (isMap(node)) return "mapping";
  if (isSeq(node)) return "sequence";
  return "node";
}

function shortTag(tag: string): string {
  return tag.startsWith("tag:yaml.org,2002:") ? `!!${tag.slice("tag:yaml.org,2002:".length)}` : tag;
}
