/**
 * RAGFlow v0.19 canvas → current format (research/ragflow.md §5.2–5.3). Each component is
 * converted on its own (convert-*.ts), then the structure is adjusted: Concentrators are
 * dissolved, Relevant gets its Switch, each Iteration its splitting step, and Answers become
 * the replies that end a turn (turns.ts). Finally the top-level keys and the editor graph are
 * brought to the current shape.
 */
import { isPlainObject } from "../../util/values.js";
import { UNSUPPORTED_COMPONENT } from "../../components/unsupported.js";
import { componentsOf, graphOf, unique } from "../dsl-access.js";
import { graphFromComponents, type GraphComponent } from "../graph-layout.js";
import type { LooseDsl, MigrationNote } from "../types.js";
import { convertCategorize, convertGenerate, convertKeywordExtract, convertRelevant, convertRewriteQuestion, type Converted } from "./convert-llm.js";
import { convertBegin, convertMessage, convertSwitch, convertTemplate, iterationDelimiter } from "./convert-flow.js";
import { convertCode, convertExeSql, convertInvoke, convertRetrieval, convertTool, TOOL_MAPPINGS } from "./convert-tools.js";
import { LegacyModel, targetList } from "./model.js";
import { convertTurns } from "./turns.js";
import { Workspace, type WorkEntry } from "./workspace.js";
import { LEGACY_COMPONENTS } from "../../dsl/kind.js";

/** Components of the current format that a v0.19 DSL may hold unchanged. */
const CURRENT_AS_IS = new Set([
  "UserFillUp",
  "LLM",
  "Agent",
  "Loop",
  "LoopItem",
  "ExitLoop",
  "VariableAssigner",
  "VariableAggregator",
  "StringTransform",
  "ListOperations",
  "DataOperations",
  "DocGenerator",
  "ExcelProcessor",
  "Browser",
  "CodeExec",
  "TavilySearch",
  "TavilyExtract",
  "SearXNG",
  "KeenableSearch",
  "QueritSearch",
  "QueritContents",
  "BGPT",
]);

const UNSUPPORTED_REASONS: Readonly<Record<string, string>> = {
  BaiduFanyi: "RAGFlow has no Baidu translation tool any more; use DeepL (it needs a DeepL key)",
  Jin10: "RAGFlow has no runnable Jin10 component (its code there is legacy and cannot run either)",
  TuShare: "RAGFlow has no runnable TuShare component (its code there is legacy and cannot run either)",
  Email: "v0.19's Email read to/cc/subject/content from one JSON text made upstream; the current Email takes each as its own param — set them and replace this component with an Email",
};

/** Top-level keys only v0.19 had (the Answer queue, the reference store, the embedding model). */
const LEGACY_TOP_LEVEL = ["answer", "reference", "embed_id"];

const DEFAULT_GLOBALS: Readonly<Record<string, unknown>> = {
  "sys.query": "",
  "sys.user_id": "",
  "sys.conversation_turns": 0,
  "sys.files": [],
  "sys.history": [],
  "sys.date": "",
};

export function isLegacyDsl(dsl: LooseDsl): boolean {
  const components = componentsOf(dsl);
  if (!components) return false;
  for (const entry of Object.values(components)) {
    const name = isPlainObject(entry) && isPlainObject(entry.obj) ? entry.obj.component_name : undefined;
    if (typeof name === "string" && LEGACY_COMPONENTS.has(name)) return true;
  }
  if (Array.isArray(dsl.path) && dsl.path.some(Array.isArray)) return true;
  return dsl.canvasflow === undefined && ("answer" in dsl || "reference" in dsl) && !("globals" in dsl);
}

/** Display names from the old editor graph. */
function displayNames(dsl: LooseDsl): Map<string, string> {
  const names = new Map<string, string>();
  for (const node of graphOf(dsl).nodes) if (typeof node.data?.name === "string" && node.data.name !== "") names.set(node.id, node.data.name);
  return names;
}

function convertComponent(model: LegacyModel, id: string): Converted | undefined {
  const name = model.name(id);
  /** Literal text left in a prompt: worth telling, v0.19 left it too. */
  const withLeftovers = (result: Converted & { dangling: string[]; placeholders: string[] }): Converted => {
    const more: Array<{ change: string; reason: string }> = [];
    if (result.dangling.length > 0) {
      more.push({ change: `left ${result.dangling.map((d) => `{${d}}`).join(", ")} as literal text`, reason: "they name components that do not exist in this canvas (v0.19 left them as they were too)" });
    }
    if (result.placeholders.length > 0) {
      more.push({
        change: `left the placeholders ${result.placeholders.map((d) => `{${d}}`).join(", ")} as literal text`,
        reason: "v0.19 did not substitute them either; replace them with references such as {sys.query} if they were meant as inputs",
      });
    }
    return { ...result, more };
  };
  switch (name) {
    case "Begin":
      return convertBegin(model, id);
    case "Generate":
      return withLeftovers(convertGenerate(model, id));
    case "RewriteQuestion":
      return convertRewriteQuestion(model, id);
    case "KeywordExtract":
      return convertKeywordExtract(model, id);
    case "Relevant":
      return convertRelevant(model, id);
    case "Categorize":
      return convertCategorize(model, id);
    case "Retrieval":
      return convertRetrieval(model, id);
    case "ExeSQL":
      return convertExeSql(model, id);
    case "Code":
      return convertCode(model, id);
    case "Invoke":
      return convertInvoke(model, id);
    case "Message":
      return convertMessage(model, id);
    case "Switch":
      return convertSwitch(model, id);
    case "Template":
      return withLeftovers(convertTemplate(model, id));
    case "IterationItem":
      return { name, params: {}, change: "legacy bookkeeping params dropped", reason: "the current IterationItem has no params" };
    case "Answer":
    case "Concentrator":
    case "Iteration":
      // Converted with the structure (below).
      return undefined;
  }
  if (Object.hasOwn(TOOL_MAPPINGS, name)) return convertTool(model, id, name);
  if (CURRENT_AS_IS.has(name)) return { name, params: model.params(id), change: "", reason: "" };
  return {
    name: UNSUPPORTED_COMPONENT,
    params: { component_name: name, params: model.params(id), reason: UNSUPPORTED_REASONS[name] ?? `no RAGFlow component, old or current, is called "${name}"` },
    change: `kept as an Unsupported component holding the original ${name} and its params`,
    reason: UNSUPPORTED_REASONS[name] ?? `no component of that name exists, so it cannot be converted`,
  };
}

function dissolveConcentrators(model: LegacyModel, ws: Workspace): void {
  for (const id of [...model.entries.keys()].filter((k) => model.name(k) === "Concentrator")) {
    const targets = ws.get(id)?.downstream ?? [];
    ws.redirect(id, targets);
    ws.remove(id);
    ws.note(id, "Concentrator", `removed; what led to it now leads to ${targets.join(", ") || "nothing"}`, "a Concentrator only joined or fanned out edges, which edges do by themselves now");
  }
}

function addRelevanceSwitches(model: LegacyModel, ws: Workspace): void {
  for (const id of [...model.entries.keys()].filter((k) => model.name(k) === "Relevant")) {
    const entry = ws.get(id);
    if (!entry) continue;
    const params = model.params(id);
    const yes = targetList(params.yes).filter((t) => model.has(t));
    const no = targetList(params.no).filter((t) => model.has(t));
    const router = ws.newId("Switch", `${id}_grade`);
    ws.insertAfter(id, router, {
      name: "Switch",
      params: {
        conditions: [{ logical_operator: "and", items: [{ cpn_id: `${id}@content`, operator: "contains", value: "yes" }], to: yes }],
        end_cpn_ids: no,
      },
      downstream: unique([...yes, ...no]),
      ...(entry.parent_id ? { parent_id: entry.parent_id } : {}),
      displayName: `${entry.displayName ?? id}: relevant?`,
    });
    entry.downstream = [router];
    ws.note(router, undefined, `added after ${id}: "yes" in its answer → ${yes.join(", ") || "nothing"}, else → ${no.join(", ") || "nothing"}`, "v0.19's Relevant routed on its own yes/no answer");
  }
}

function convertIterations(model: LegacyModel, ws: Workspace): void {
  for (const id of [...model.entries.keys()].filter((k) => model.name(k) === "Iteration")) {
    const entry = ws.get(id);
    if (!entry) continue;
    const legacy = model.params(id);
    const delimiter = iterationDelimiter(legacy);
    const source = model.inputSelector(id);
    const split = ws.newId("StringTransform", `${id}_items`);
    ws.redirect(id, [split]);
    ws.insertAfter(id, split, {
      name: "StringTransform",
      params: { method: "split", split_ref: source, delimiters: [delimiter], outputs: { result: { type: "Array<string>", value: [] } } },
      downstream: [id],
      ...(entry.parent_id ? { parent_id: entry.parent_id } : {}),
      displayName: `Split for ${entry.displayName ?? id}`,
    });
    // v0.19 collected the output of the children that end the body; now each such output is collected into a list.
    const ends = [...model.entries.keys()].filter((c) => model.parentOf(c) === id && model.name(c) !== "IterationItem" && model.successors(c).length === 0);
    const outputs: Record<string, unknown> = {};
    ends.forEach((child, i) => {
      outputs[i === 0 ? "content" : `content_${i + 1}`] = { ref: model.outputRef(child), type: "Array<string>" };
    });
    entry.name = "Iteration";
    entry.params = { items_ref: `${split}@result`, variable: {}, outputs };
    ws.note(
      id,
      "Iteration",
      `now iterates over {${split}@result}, which splits ${source} on ${JSON.stringify(delimiter)}; collects ${ends.map((c) => model.outputRef(c)).join(", ") || "nothing"} into {${id}@content}`,
      "v0.19's Iteration split its input text itself and concatenated what its body produced; the current one iterates over a list and collects outputs into lists",
    );
    ws.note(split, undefined, `added before ${id}: splits ${source} on ${JSON.stringify(delimiter)}`, "the current Iteration needs a list to iterate over");
  }
}

/** Build the components map from the workspace, with upstream recomputed from downstream. */
function serialize(ws: Workspace): Record<string, unknown> {
  const upstream = new Map<string, string[]>();
  for (const [id, entry] of ws.entries) for (const next of entry.downstream) upstream.set(next, [...(upstream.get(next) ?? []), id]);
  const out: Record<string, unknown> = {};
  for (const [id, entry] of ws.entries) {
    out[id] = {
      ...(entry.extra ?? {}),
      obj: { component_name: entry.name, params: entry.params },
      downstream: entry.downstream.filter((d) => ws.get(d) !== undefined),
      upstream: unique(upstream.get(id) ?? []),
      ...(entry.parent_id ? { parent_id: entry.parent_id } : {}),
    };
  }
  return out;
}

function historyPairs(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === "string");
}

export function convertLegacyDsl(dsl: LooseDsl, step: string): { dsl: LooseDsl; notes: MigrationNote[] } {
  const components = componentsOf(dsl) ?? {};
  const model = new LegacyModel(components);
  const names = displayNames(dsl);
  const ws = new Workspace(step, model.entries.keys());

  for (const [id, entry] of model.entries) {
    const name = entry.obj.component_name;
    const { obj: _obj, downstream: _d, upstream: _u, parent_id: _p, ...extra } = entry;
    const work: WorkEntry = {
      name,
      params: entry.obj.params,
      downstream: model.successors(id),
      legacyName: name,
      ...(model.parentOf(id) ? { parent_id: model.parentOf(id) } : {}),
      ...(names.has(id) ? { displayName: names.get(id) } : {}),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    };
    const missing = model.missingDownstream(id);
    if (missing.length > 0) ws.note(id, name, `dropped the downstream ${missing.join(", ")}`, "no component has that id (an editor leftover)");
    const converted = convertComponent(model, id);
    if (converted) {
      work.name = converted.name;
      work.params = converted.params;
      if (converted.change) ws.note(id, name, converted.change, converted.reason);
      for (const extra of converted.more ?? []) ws.note(id, name, extra.change, extra.reason);
    }
    ws.set(id, work);
  }

  dissolveConcentrators(model, ws);
  addRelevanceSwitches(model, ws);
  convertIterations(model, ws);
  const turns = convertTurns(model, ws);

  const out: LooseDsl = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(dsl)) {
    if (LEGACY_TOP_LEVEL.includes(key)) dropped.push(key);
    else out[key] = value;
  }
  out.components = serialize(ws);
  if (Array.isArray(dsl.path) && dsl.path.length > 0) {
    ws.note(undefined, undefined, "path emptied (it was a list of lists)", "v0.19's executed path cannot be resumed by the current runtime; a new session starts from Begin");
  }
  out.path = [];
  out.history = historyPairs(dsl.history);
  const added: string[] = [];
  for (const [key, value] of [["retrieval", []], ["memory", []]] as const) {
    if (!Array.isArray(out[key])) {
      out[key] = [...value];
      added.push(key);
    }
  }
  const globals: Record<string, unknown> = { ...DEFAULT_GLOBALS, ...(isPlainObject(dsl.globals) ? dsl.globals : {}) };
  const variables: Record<string, unknown> = isPlainObject(dsl.variables) ? { ...dsl.variables } : {};
  if (turns.resumeVariable) {
    globals[`env.${turns.resumeVariable}`] = "";
    variables[turns.resumeVariable] = {
      name: turns.resumeVariable,
      type: "string",
      value: "",
      description: "The Answer of the converted v0.19 canvas after which the next turn continues (empty: from the start).",
    };
  }
  if (!isPlainObject(dsl.globals)) added.push("globals");
  if (!("variables" in dsl)) added.push("variables");
  out.globals = globals;
  out.variables = variables;
  if (!Array.isArray(out.messages)) delete out.messages;
  if (dropped.length > 0) ws.note(undefined, undefined, `dropped the top-level keys ${dropped.join(", ")}`, "they held v0.19's Answer queue, reference store and embedding model, which the current format keeps elsewhere or not at all");
  if (added.length > 0) ws.note(undefined, undefined, `added the top-level keys ${added.join(", ")}`, "the current format (and RAGFlow's runtime) expects them");

  const graphComponents = new Map<string, GraphComponent>();
  for (const [id, entry] of ws.entries) {
    graphComponents.set(id, { name: entry.name, params: entry.params, downstream: entry.downstream, ...(entry.parent_id ? { parent_id: entry.parent_id } : {}), ...(entry.displayName ? { displayName: entry.displayName } : {}) });
  }
  const graph = graphFromComponents(graphComponents, graphOf(dsl).nodes);
  // Editor notes are the user's text: kept. Nodes of components that no longer exist are editor leftovers.
  const isNote = (n: { type?: string; data?: { label?: string } }) => n.data?.label === "Note" || n.type === "noteNode";
  const oldNodes = graphOf(dsl).nodes;
  const stale = oldNodes.filter((n) => !isNote(n) && !model.has(n.id)).map((n) => n.id);
  if (stale.length > 0) ws.note(undefined, undefined, `dropped the graph nodes ${stale.join(", ")}`, "they belong to no component (editor leftovers)");
  out.graph = { ...(isPlainObject(dsl.graph) ? dsl.graph : {}), nodes: [...graph.nodes, ...oldNodes.filter(isNote)], edges: graph.edges };
  ws.note(undefined, undefined, "graph rebuilt from the converted components (positions and names kept)", "RAGFlow's editor rebuilds components from the graph on save, so the graph must describe what runs");
  return { dsl: out, notes: ws.notes };
}

