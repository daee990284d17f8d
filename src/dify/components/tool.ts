/**
 * Dify's tool node, for its built-in tools that canvasflow has (catalog.ts TOOL_MAP): the node's
 * parameters (`mixed`: a template, `variable`: a selector, `constant`) and configurations become
 * the canvasflow tool's arguments and params. `time/current_time` runs here, with no network.
 * Outputs `text`, `files`, `json`.
 */
import type { ComponentContext, ComponentDefinition, ParamProblem, Params } from "../../components/types.js";
import { toolSpans, type ToolContext } from "../../tools/types.js";
import { isPlainObject } from "../../util/values.js";
import { TOOL_MAP, toolKey } from "../catalog.js";
import { selectorReference, templateReferences } from "../references.js";
import { readSelector, record, renderText } from "./common.js";

/** A parameter or configuration value as the node stores it: `{type, value}`, or bare (legacy). */
function valueOf(ctx: ComponentContext, entry: unknown): unknown {
  if (!isPlainObject(entry) || !("value" in entry)) return entry;
  if (entry.type === "variable") return readSelector(ctx, entry.value) ?? null;
  if (entry.type === "mixed") return renderText(ctx, entry.value ?? "");
  return entry.value;
}

function values(ctx: ComponentContext, entries: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(record(entries))) {
    if (entry === null || entry === undefined) continue;
    const value = valueOf(ctx, entry);
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/** How each Dify tool's inputs become the canvasflow tool's arguments (what the model would pass) and params. */
const ADAPTERS: Readonly<Record<string, (input: Record<string, unknown>) => { args: Record<string, unknown>; params: Params }>> = {
  "duckduckgo/ddgo_search": (i) => ({ args: { query: i.query }, params: i.max_results !== undefined ? { top_n: Number(i.max_results) } : {} }),
  "wikipedia/wikipedia_search": (i) => ({ args: { query: i.query }, params: i.language ? { language: languageCode(String(i.language)) } : {} }),
  "tavily/tavily_search": (i) => ({
    args: { query: i.query, ...(i.include_domains ? { include_domains: splitList(i.include_domains) } : {}), ...(i.exclude_domains ? { exclude_domains: splitList(i.exclude_domains) } : {}) },
    params: {
      ...(i.max_results !== undefined ? { max_results: Number(i.max_results) } : {}),
      ...(i.search_depth ? { search_depth: i.search_depth } : {}),
      include_answer: truthy(i.include_answer),
      include_raw_content: truthy(i.include_raw_content),
      include_images: truthy(i.include_images),
    },
  }),
  "searxng/searxng_search": (i) => ({ args: { query: i.query }, params: i.num_results !== undefined ? { top_n: Number(i.num_results) } : {} }),
  "webscraper/webscraper": (i) => ({ args: { query: i.url }, params: {} }),
  "jina/jina_reader": (i) => ({ args: { query: i.url }, params: {} }),
};

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "true";
}

function splitList(value: unknown): string[] {
  return String(value)
    .split(/[,\s]+/)
    .filter(Boolean);
}

/** Dify's Wikipedia languages are names ("English"); canvasflow's tool takes codes. */
function languageCode(language: string): string {
  const codes: Record<string, string> = { english: "en", chinese: "zh", japanese: "ja", german: "de", french: "fr", spanish: "es", russian: "ru", italian: "it", portuguese: "pt" };
  return codes[language.toLowerCase()] ?? language;
}

// ---- time/current_time ----

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The wall-clock fields of an instant in a time zone. */
function zoned(date: Date, timeZone: string): { y: number; m: number; d: number; H: number; M: number; S: number; w: number; offset: string } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", weekday: "short", timeZoneName: "longOffset" }).formatToParts(date);
  } catch {
    throw new Error(`the timezone ${JSON.stringify(timeZone)} is not a known time zone`);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(get("weekday"));
  const offset = get("timeZoneName").replace("GMT", "").replace(":", "") || "+0000";
  return { y: Number(get("year")), m: Number(get("month")), d: Number(get("day")), H: Number(get("hour")), M: Number(get("minute")), S: Number(get("second")), w: weekday, offset };
}

/** Python's strftime, for the directives Dify's time tool is used with. */
export function strftime(date: Date, format: string, timeZone: string): string {
  const t = zoned(date, timeZone);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const dayOfYear = Math.round((Date.UTC(t.y, t.m - 1, t.d) - Date.UTC(t.y, 0, 1)) / 86_400_000) + 1;
  return format.replace(/%([a-zA-Z%])/g, (whole, directive: string) => {
    switch (directive) {
      case "Y":
        return String(t.y);
      case "y":
        return pad(t.y % 100);
      case "m":
        return pad(t.m);
      case "d":
        return pad(t.d);
      case "H":
        return pad(t.H);
      case "I":
        return pad(t.H % 12 === 0 ? 12 : t.H % 12);
      case "p":
        return t.H < 12 ? "AM" : "PM";
      case "M":
        return pad(t.M);
      case "S":
        return pad(t.S);
      case "f":
        return pad(date.getMilliseconds() * 1000, 6);
      case "A":
        return WEEKDAYS[t.w] ?? "";
      case "a":
        return (WEEKDAYS[t.w] ?? "").slice(0, 3);
      case "B":
        return MONTHS[t.m - 1];
      case "b":
        return MONTHS[t.m - 1].slice(0, 3);
      case "j":
        return pad(dayOfYear, 3);
      case "z":
        return t.offset === "" ? "+0000" : t.offset;
      case "Z":
        return timeZone;
      case "%":
        return "%";
      default:
        return whole;
    }
  });
}

function currentTime(input: Record<string, unknown>): string {
  const format = typeof input.format === "string" && input.format !== "" ? input.format : "%Y-%m-%d %H:%M:%S %Z";
  const timeZone = typeof input.timezone === "string" && input.timezone !== "" ? input.timezone : "UTC";
  return strftime(new Date(), format, timeZone);
}

export const DifyTool: ComponentDefinition = {
  name: "DifyTool",
  thoughts: (params) => `Running the tool ${toolKey(params)}.`,
  timeoutMs: 600_000,
  references(params) {
    const refs = [];
    for (const entry of [...Object.values(record(params.tool_parameters)), ...Object.values(record(params.tool_configurations))]) {
      if (!isPlainObject(entry)) continue;
      if (entry.type === "variable") {
        const ref = selectorReference(entry.value);
        if (ref) refs.push(ref);
      } else if (entry.type === "mixed") refs.push(...templateReferences(entry.value));
    }
    return refs;
  },
  check(params): ParamProblem[] {
    return typeof params.tool_name === "string" && params.tool_name !== "" ? [] : [{ pointer: "/tool_name", message: "the tool node names no tool" }];
  },
  async invoke(ctx) {
    const key = toolKey(ctx.params);
    const input = { ...values(ctx, ctx.params.tool_configurations), ...values(ctx, ctx.params.tool_parameters) };
    for (const [name, value] of Object.entries(input)) ctx.setInput(name, value);
    if (key === "time/current_time") {
      ctx.setOutput("text", currentTime(input));
      ctx.setOutput("files", []);
      ctx.setOutput("json", []);
      return;
    }
    const adapter = ADAPTERS[key];
    const def = TOOL_MAP[key] ? ctx.canvas.componentType(TOOL_MAP[key]) : undefined;
    if (!adapter || !def?.tool) throw new Error(`the tool ${key} is not available in canvasflow`);
    const { args, params } = adapter(input);
    const toolContext: ToolContext = {
      signal: ctx.signal,
      services: ctx.services,
      params: { ...(def.defaults ?? {}), ...params },
      label: ctx.id,
      addReferences: (chunks, documents) => ctx.addReferences(chunks, documents),
      addUsage: (usage) => ctx.addUsage(usage),
      get: (selector) => ctx.get(selector),
      ...toolSpans(ctx),
    };
    const output = await def.tool.run(args, toolContext);
    ctx.setOutput("text", output.formalized_content);
    ctx.setOutput("files", []);
    ctx.setOutput("json", output.json === undefined ? [] : Array.isArray(output.json) ? output.json : [output.json]);
  },
};
