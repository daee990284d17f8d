/**
 * A read-only view of a RAGFlow v0.19 canvas that answers the questions the conversion asks:
 * what comes before a component, what its implicit input was, and what a legacy reference
 * `{Generate:X}` reads in the current format (research/ragflow.md §5.2).
 *
 * v0.19 components read their input implicitly: from `params.query` when set, else from the
 * output of the component that ran just before them (skipping Switch and Concentrator, and
 * Categorize/Relevant, whose output is a routing decision); an Answer there means "the user's
 * latest message". The current format spells every input as a reference.
 */
import { isPlainObject } from "../../util/values.js";
import { normalizeEntry, stringList, unique, type LooseEntry } from "../dsl-access.js";

/** The output a converted component's legacy "whole output" `{X}` becomes, by legacy component_name. */
const OUTPUT_OF: Readonly<Record<string, string>> = {
  Generate: "content",
  RewriteQuestion: "content",
  KeywordExtract: "content",
  Relevant: "content",
  Categorize: "category_name",
  Message: "content",
  Template: "result",
  Iteration: "content",
  IterationItem: "item",
  Code: "result",
  Invoke: "result",
  WenCai: "report",
  YahooFinance: "report",
};
const DEFAULT_OUTPUT = "formalized_content";

/** Components whose output is a routing decision or nothing: an implicit input looks past them. */
const PASS_THROUGH = new Set(["Switch", "Concentrator", "Categorize", "Relevant"]);

/** One input source: a reference (bare selector) or literal text. */
type Source = { ref: string } | { text: string };

const USER_MESSAGE = "sys.query";

/** `{X}` references as v0.19's Generate/Template found them (agent/component/generate.py). */
const LEGACY_REFERENCE = /\{([a-z]+[:@][a-z0-9_-]+)\}/gi;
/** `{word}` placeholders v0.19 left as they were (older DSL parameters, typos). */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

interface RewrittenText {
  text: string;
  /** Legacy references to components that do not exist, left as literal text. */
  dangling: string[];
  /** `{word}` placeholders that v0.19 did not substitute either. */
  placeholders: string[];
}

export class LegacyModel {
  readonly entries = new Map<string, LooseEntry>();
  private readonly preds = new Map<string, string[]>();

  constructor(components: Record<string, unknown>) {
    for (const [id, raw] of Object.entries(components)) this.entries.set(id, normalizeEntry(raw));
    for (const id of this.entries.keys()) this.preds.set(id, []);
    for (const [id] of this.entries) for (const next of this.successors(id)) this.preds.get(next)?.push(id);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  name(id: string): string {
    return this.entries.get(id)?.obj.component_name ?? "";
  }

  params(id: string): Record<string, unknown> {
    return this.entries.get(id)?.obj.params ?? {};
  }

  parentOf(id: string): string | undefined {
    const parent = this.entries.get(id)?.parent_id;
    return typeof parent === "string" && parent !== "" && this.entries.has(parent) ? parent : undefined;
  }

  /** Downstream ids that exist, plus the branch targets of routers (v0.19 routed through params). */
  successors(id: string): string[] {
    const entry = this.entries.get(id);
    if (!entry) return [];
    const params = entry.obj.params;
    const targets = [...entry.downstream];
    switch (entry.obj.component_name) {
      case "Categorize":
        if (isPlainObject(params.category_description)) {
          for (const c of Object.values(params.category_description)) if (isPlainObject(c)) targets.push(...targetList(c.to));
        }
        break;
      case "Switch":
        if (Array.isArray(params.conditions)) for (const c of params.conditions) if (isPlainObject(c)) targets.push(...targetList(c.to));
        targets.push(...targetList(params.end_cpn_id), ...targetList(params.end_cpn_ids));
        break;
      case "Relevant":
        targets.push(...targetList(params.yes), ...targetList(params.no));
        break;
    }
    return unique(targets).filter((t) => this.entries.has(t) && t !== id);
  }

  /** Downstream ids that name no component (stale editor leftovers). */
  missingDownstream(id: string): string[] {
    return (this.entries.get(id)?.downstream ?? []).filter((t) => !this.entries.has(t));
  }

  predecessors(id: string): string[] {
    return this.preds.get(id) ?? [];
  }

  /** What a legacy reference to the whole output of `id` reads now, as a bare selector. */
  outputRef(id: string): string {
    const name = this.name(id);
    if (name === "Answer" || name === "Begin") return USER_MESSAGE;
    if (name === "Switch" || name === "Concentrator") return this.implicitInput(id)[0] ?? USER_MESSAGE;
    return `${id}@${OUTPUT_OF[name] ?? DEFAULT_OUTPUT}`;
  }

  /** The selectors a component read implicitly (no `params.query`): what ran before it. */
  implicitInput(id: string): string[] {
    const seen = new Set<string>([id]);
    const resolve = (pred: string): string[] => {
      if (seen.has(pred)) return [];
      seen.add(pred);
      const name = this.name(pred);
      if (PASS_THROUGH.has(name)) return this.predecessors(pred).flatMap(resolve);
      if (name === "Answer" || name === "Begin") return [USER_MESSAGE];
      if (name === "IterationItem") return [`${pred}@item`];
      return [this.outputRef(pred)];
    };
    const refs = unique(this.predecessors(id).flatMap(resolve));
    return refs.length > 0 ? refs : [USER_MESSAGE];
  }

  /** The input sources of a component: its `params.query` list when set, else the implicit input. */
  inputSources(id: string): Source[] {
    const query = this.params(id).query;
    // Already explicit (a component in the current shape): kept as it is.
    if (typeof query === "string" && query.trim() !== "") return [{ text: query }];
    if (Array.isArray(query) && query.length > 0) {
      const sources: Source[] = [];
      for (const item of query) {
        if (!isPlainObject(item)) continue;
        const cid = typeof item.component_id === "string" ? item.component_id : "";
        if (cid !== "") {
          const ref = this.referenceTo(cid);
          if (ref) sources.push({ ref });
        } else if (typeof item.value === "string" && item.value !== "") {
          sources.push({ text: item.value });
        }
      }
      if (sources.length > 0) return sources;
    }
    return this.implicitInput(id).map((ref) => ({ ref }));
  }

  /** A legacy source id as a selector: `begin@key` stays, an Answer is the user's message, else the output. */
  referenceTo(sourceId: string): string | undefined {
    const at = sourceId.indexOf("@");
    if (at > 0 && sourceId.slice(0, at).toLowerCase().includes("begin")) return `begin${sourceId.slice(at)}`;
    if (!this.entries.has(sourceId)) return undefined;
    return this.outputRef(sourceId);
  }

  /** The input as template text: each reference in braces, sources on separate lines. */
  inputTemplate(id: string): string {
    return this.inputSources(id)
      .map((s) => ("ref" in s ? `{${s.ref}}` : s.text))
      .join("\n");
  }

  /** The input as one bare selector (the first reference), for params that take a selector. */
  inputSelector(id: string): string {
    for (const s of this.inputSources(id)) {
      if ("ref" in s) return s.ref;
      const selector = /^\{?\s*((?:sys|env)\.[A-Za-z0-9_.]+|[A-Za-z0-9_:]+@[A-Za-z0-9_.-]+)\s*\}?$/.exec(s.text);
      if (selector) return selector[1];
    }
    return USER_MESSAGE;
  }

  /**
   * The user's question as a component saw it: v0.19's RewriteQuestion replaced the latest user
   * message in the history, so everything after it read the rewritten question.
   */
  question(id: string): string {
    const seen = new Set<string>([id]);
    let frontier = this.predecessors(id);
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const pred of frontier) {
        if (seen.has(pred)) continue;
        seen.add(pred);
        const name = this.name(pred);
        if (name === "RewriteQuestion") return `${pred}@content`;
        if (name === "Answer" || name === "Begin") continue;
        next.push(...this.predecessors(pred));
      }
      frontier = next;
    }
    return USER_MESSAGE;
  }

  /** Rewrite v0.19 references in a prompt or template: `{X}`, `{begin@key}` and `{input}`. */
  rewriteText(text: string, host: string): RewrittenText {
    const dangling: string[] = [];
    let out = text.replace(LEGACY_REFERENCE, (whole, inner: string) => {
      if (inner.toLowerCase().startsWith("begin@")) return `{begin${inner.slice(inner.indexOf("@"))}}`;
      if (this.entries.has(inner)) return `{${this.outputRef(inner)}}`;
      dangling.push(inner);
      return whole;
    });
    if (out.includes("{input}")) out = out.split("{input}").join(this.inputTemplate(host));
    const placeholders = unique([...out.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((w) => !["item", "index", "result"].includes(w)));
    return { text: out, dangling, placeholders };
  }
}

/** A branch target in v0.19: one id as a string (current: a list). */
function targetList(value: unknown): string[] {
  if (typeof value === "string") return value === "" ? [] : [value];
  return stringList(value);
}

export { targetList };
