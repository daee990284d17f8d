/**
 * Which knowledge bases a Retrieval searches, and where they are.
 *
 * The DSL names datasets in `dataset_ids` (or, when that is empty, the older `kb_ids`), plus the
 * older `kb_vars`. An entry holding "@" is a reference to a value computed by the canvas (a dataset
 * id, or a list of them). Each id is looked up in the configured knowledge bases; the id "*"
 * configures a knowledge base for every id that has none (and for a Retrieval that names none).
 * A knowledge base that is not configured makes the Retrieval unavailable (UnavailableError): the
 * run records it and goes on.
 */
import type { KnowledgeBaseConfig } from "../../config/types.js";
import type { Params } from "../../components/types.js";
import { parseSelector } from "../../refs/grammar.js";
import { UnavailableError } from "../../components/unavailable.js";
import { showValue } from "../../util/values.js";

/** The configuration key of the knowledge base used for ids that have none. */
const ANY_KNOWLEDGE_BASE = "*";

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim()) : [];
}

/** The dataset ids the DSL names, references resolved with `get` (undefined: outside a canvas). */
export function datasetIds(params: Params, get: ((selector: string) => unknown) | undefined): string[] {
  const named = strings(params.dataset_ids);
  const entries = [...(named.length > 0 ? named.map((e) => ({ key: "dataset_ids", e })) : strings(params.kb_ids).map((e) => ({ key: "kb_ids", e }))), ...strings(params.kb_vars).map((e) => ({ key: "kb_vars", e }))];
  const ids: string[] = [];
  for (const { key, e } of entries) {
    const ref = e.includes("@") || key === "kb_vars" ? parseSelector(e) : null;
    if (!ref) {
      ids.push(e);
      continue;
    }
    if (!get) throw new Error(`${key} entry "${e}" is a reference, which can only be read when Retrieval runs inside a canvas`);
    const value = get(e);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && item.trim() !== "") ids.push(item.trim());
      else if (typeof item === "number") ids.push(String(item));
      else throw new Error(`${key} entry "${e}" must give a dataset id or a list of them, got ${showValue(item)}`);
    }
  }
  return [...new Set(ids)];
}

export interface KnowledgeBaseChoice {
  id: string;
  config: KnowledgeBaseConfig;
}

const HOW_TO_CONFIGURE = "add it with --kb ID=DIR or under knowledgeBases in canvasflow.config.json";

/** Each id with its configuration. Unknown ids fail with the id and how to configure it. */
export function knowledgeBasesFor(ids: readonly string[], configured: Readonly<Record<string, KnowledgeBaseConfig>>): KnowledgeBaseChoice[] {
  const fallback = configured[ANY_KNOWLEDGE_BASE];
  if (ids.length === 0) {
    if (fallback) return [{ id: ANY_KNOWLEDGE_BASE, config: fallback }];
    throw new UnavailableError(`no dataset is selected (dataset_ids and kb_ids are empty): name one in the DSL, or configure a knowledge base for any dataset under the id "${ANY_KNOWLEDGE_BASE}" (--kb '${ANY_KNOWLEDGE_BASE}=DIR')`);
  }
  const missing = ids.filter((id) => !Object.hasOwn(configured, id));
  if (missing.length > 0 && !fallback) {
    const list = missing.map((id) => `"${id}"`).join(", ");
    throw new UnavailableError(`knowledge base ${list} ${missing.length === 1 ? "is" : "are"} not configured: ${HOW_TO_CONFIGURE.replace("ID", missing[0])}`);
  }
  return ids.map((id) => ({ id, config: Object.hasOwn(configured, id) ? configured[id] : fallback! }));
}
