/**
 * RAGFlow renamed three components (research/ragflow.md §5.4, `normalize_chunker_dsl`):
 * Splitter → TokenChunker, HierarchicalMerger → TitleChunker, PDFGenerator → DocGenerator, and
 * the editor node type splitterNode → chunkerNode. Ids built from the old names ("Splitter:Foo")
 * are renamed too, and so is every place that names them: downstream/upstream/parent_id, template
 * references and bare selectors in params, the path, graph nodes and edges.
 */
import { componentsOf, graphOf, mapStrings, normalizeEntry, type LooseEdge, type LooseNode } from "../src/migrate/dsl-access.js";
import type { LooseDsl, MigrationNote, MigrationStep } from "../src/migrate/types.js";
import { isPlainObject } from "../src/util/values.js";

const ID = "001-chunker-renames";

export const COMPONENT_RENAMES: Readonly<Record<string, string>> = {
  Splitter: "TokenChunker",
  HierarchicalMerger: "TitleChunker",
  PDFGenerator: "DocGenerator",
};

const NODE_TYPE_RENAMES: Readonly<Record<string, string>> = { splitterNode: "chunkerNode" };

/** The new id for an id built from an old name ("Splitter:Foo" → "TokenChunker:Foo"), or undefined. */
function renamedId(id: string): string | undefined {
  const colon = id.indexOf(":");
  if (colon <= 0) return undefined;
  const renamed = COMPONENT_RENAMES[id.slice(0, colon)];
  return renamed ? `${renamed}${id.slice(colon)}` : undefined;
}

function detect(dsl: LooseDsl): boolean {
  for (const [id, entry] of Object.entries(componentsOf(dsl) ?? {})) {
    if (renamedId(id) || Object.hasOwn(COMPONENT_RENAMES, normalizeEntry(entry).obj.component_name)) return true;
  }
  return graphOf(dsl).nodes.some(
    (node) =>
      renamedId(node.id) !== undefined ||
      (typeof node.type === "string" && Object.hasOwn(NODE_TYPE_RENAMES, node.type)) ||
      (typeof node.data?.label === "string" && Object.hasOwn(COMPONENT_RENAMES, node.data.label)),
  );
}

/** A reference `{id@var}` (any number of braces, spaces inside) whose id part may need renaming. */
const BRACED_REFERENCE = /(\{+\s*)([A-Za-z0-9:_-]+)(@[A-Za-z0-9_.-]+)(\s*\}+)/g;
/** A whole-string bare selector `id@var.path`. */
const BARE_SELECTOR = /^([A-Za-z0-9:_-]+)(@[A-Za-z0-9_.-]+)$/;

function makeRewriter(ids: ReadonlyMap<string, string>): (text: string) => string {
  return (text) => {
    const exact = ids.get(text);
    if (exact !== undefined) return exact;
    const bare = BARE_SELECTOR.exec(text);
    if (bare && ids.has(bare[1])) return `${ids.get(bare[1])}${bare[2]}`;
    if (!text.includes("{")) return text;
    return text.replace(BRACED_REFERENCE, (whole, open: string, id: string, rest: string, close: string) =>
      ids.has(id) ? `${open}${ids.get(id)}${rest}${close}` : whole,
    );
  };
}

function migrate(dsl: LooseDsl) {
  const notes: MigrationNote[] = [];
  const components = componentsOf(dsl);
  const graph = graphOf(dsl);

  // Every id to rename: component ids and graph node ids (graph-only DSLs have only the latter).
  const ids = new Map<string, string>();
  const taken = new Set([...Object.keys(components ?? {}), ...graph.nodes.map((n) => n.id)]);
  for (const id of taken) {
    const next = renamedId(id);
    if (next === undefined || ids.has(id)) continue;
    let unique = next;
    for (let n = 2; taken.has(unique) && unique !== id; n++) unique = `${next}_${n}`;
    ids.set(id, unique);
  }
  const rewrite = makeRewriter(ids);
  const mapId = (id: string) => ids.get(id) ?? id;

  if (components) {
    const next: Record<string, unknown> = {};
    for (const [id, raw] of Object.entries(components)) {
      if (!isPlainObject(raw) || !isPlainObject(raw.obj)) {
        next[mapId(id)] = raw;
        continue;
      }
      const entry = normalizeEntry(raw);
      const oldName = entry.obj.component_name;
      const newName = COMPONENT_RENAMES[oldName] ?? oldName;
      const newId = mapId(id);
      const params = mapStrings(entry.obj.params, rewrite) as Record<string, unknown>;
      const renamed: Record<string, unknown> = {
        ...entry,
        obj: { ...entry.obj, component_name: newName, params },
        downstream: entry.downstream.map(mapId),
        upstream: entry.upstream.map(mapId),
      };
      if (typeof entry.parent_id === "string") renamed.parent_id = mapId(entry.parent_id);
      next[newId] = renamed;
      const changes = [
        ...(newName !== oldName ? [`component_name ${oldName} → ${newName}`] : []),
        ...(newId !== id ? [`id ${id} → ${newId}`] : []),
      ];
      if (changes.length > 0) {
        notes.push({
          step: ID,
          component: newId,
          componentType: oldName,
          change: `${changes.join(", ")}; every reference to it, its graph node and its edges follow`,
          reason: `RAGFlow renamed ${oldName in COMPONENT_RENAMES ? oldName : id.split(":")[0]} to ${COMPONENT_RENAMES[oldName] ?? renamedId(id)?.split(":")[0]} (normalize_chunker_dsl)`,
        });
      }
    }
    dsl.components = next;
  }

  if (Array.isArray(dsl.path)) dsl.path = mapStrings(dsl.path, (s) => mapId(s));
  for (const key of ["history", "messages", "reference"]) if (key in dsl) dsl[key] = mapStrings(dsl[key], rewrite);

  if (isPlainObject(dsl.graph)) {
    const graphOnly = components === undefined;
    const rawGraph = dsl.graph as { nodes?: unknown; edges?: unknown };
    const valid = new Set<unknown>([...graph.nodes, ...graph.edges]);
    const renameNode = (node: LooseNode): LooseNode => {
      const label = node.data?.label;
      const newLabel = typeof label === "string" ? COMPONENT_RENAMES[label] ?? label : label;
      const data = node.data
        ? {
            ...node.data,
            ...(newLabel !== undefined ? { label: newLabel } : {}),
            ...(typeof label === "string" && node.data.name === label && newLabel !== label ? { name: newLabel } : {}),
            ...(node.data.form !== undefined ? { form: mapStrings(node.data.form, rewrite) as Record<string, unknown> } : {}),
          }
        : node.data;
      const renamed: LooseNode = {
        ...node,
        id: mapId(node.id),
        ...(typeof node.type === "string" ? { type: NODE_TYPE_RENAMES[node.type] ?? node.type } : {}),
        ...(typeof node.parentId === "string" ? { parentId: mapId(node.parentId) } : {}),
        ...(data ? { data } : {}),
      };
      if (graphOnly && (renamed.id !== node.id || newLabel !== label)) {
        notes.push({
          step: ID,
          component: renamed.id,
          componentType: typeof label === "string" ? label : undefined,
          change: `graph node ${node.id}${newLabel !== label ? ` (${label} → ${newLabel})` : ""}${renamed.id !== node.id ? ` renamed ${renamed.id}` : ""}; its edges follow`,
          reason: "RAGFlow renamed the chunker and PDF generator components (normalize_chunker_dsl)",
        });
      }
      return renamed;
    };
    // Longest ids first, so "Splitter:A" inside "Splitter:AB" is never replaced by mistake.
    const byLength = [...ids.entries()].sort((a, b) => b[0].length - a[0].length);
    const renameEdge = (edge: LooseEdge): LooseEdge => {
      let id = edge.id;
      if (typeof id === "string") for (const [from, to] of byLength) id = id.split(from).join(to);
      return { ...edge, source: mapId(edge.source), target: mapId(edge.target), ...(id !== undefined ? { id } : {}) };
    };
    // Malformed entries are kept as they are: a migration never drops what it does not understand.
    const next: Record<string, unknown> = { ...rawGraph };
    if (Array.isArray(rawGraph.nodes)) next.nodes = rawGraph.nodes.map((n) => (valid.has(n) ? renameNode(n as LooseNode) : n));
    if (Array.isArray(rawGraph.edges)) next.edges = rawGraph.edges.map((e) => (valid.has(e) ? renameEdge(e as LooseEdge) : e));
    dsl.graph = next;
  }
  return { dsl, notes };
}

export const chunkerRenames: MigrationStep = {
  id: ID,
  description: "Rename Splitter, HierarchicalMerger and PDFGenerator to TokenChunker, TitleChunker and DocGenerator (ids, references, graph)",
  detect,
  migrate,
};
