/**
 * Message: shows text to the user. One of `content`'s alternatives is picked at random; its
 * references are streamed one by one, and an upstream streamed output (an LLM answer) is
 * re-streamed chunk by chunk (research/ragflow.md §4.1).
 */
import { componentSchema } from "../dsl/schemas.js";
import { stringifyValue, type CompiledTemplate } from "../refs/template.js";
import { isPlainObject } from "../util/values.js";
import { checkMemoryIdsParam, saveToMemories } from "../memories/save.js";
import { renderJinja, looksLikeJinja } from "./jinja.js";
import { isTextStream, TextStream } from "./text-stream.js";
import type { ComponentContext, ComponentDefinition, Params, ParamProblem } from "./types.js";

/** `content` entries that are non-blank strings (RAGFlow's _valid_message_content). */
function messageChoices(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter((item): item is string => typeof item === "string" && item.trim().length > 0);
}

interface DownloadInfo {
  doc_id: unknown;
  filename: unknown;
  mime_type: unknown;
  include_download_info_in_content?: unknown;
}

function isDownloadInfo(value: unknown): value is DownloadInfo {
  return isPlainObject(value) && "doc_id" in value && "filename" in value && "mime_type" in value;
}

/** Download descriptors (from DocGenerator) go to `downloads` instead of the text. */
function extractDownloads(value: unknown): DownloadInfo[] {
  let v = value;
  if (typeof v === "string" && v.startsWith("{") || (typeof v === "string" && v.startsWith("["))) {
    try {
      v = JSON.parse(v as string);
    } catch {
      return [];
    }
  }
  if (isDownloadInfo(v)) return [v];
  if (Array.isArray(v) && v.length > 0 && v.every(isDownloadInfo)) return v as DownloadInfo[];
  return [];
}

/** How a referenced value appears in a message; download descriptors are collected aside. */
export function messageText(value: unknown, downloads: unknown[]): string {
  const found = extractDownloads(value);
  if (found.length > 0) {
    for (const item of found) {
      const { include_download_info_in_content: _drop, ...clean } = item;
      downloads.push(clean);
    }
    return found.some((item) => item.include_download_info_in_content) ? stringifyValue(found.length === 1 ? found[0] : found) : "";
  }
  return stringifyValue(value);
}

async function* streamTemplate(ctx: ComponentContext<Params>, template: CompiledTemplate, downloads: unknown[]): AsyncGenerator<string> {
  const cache = new Map<string, string>();
  for (const segment of template.segments) {
    if (typeof segment === "string") {
      yield segment;
      continue;
    }
    const key = segment.ref.expr;
    const cached = cache.get(key);
    if (cached !== undefined) {
      yield cached;
      continue;
    }
    const value = ctx.get(segment.ref);
    if (isTextStream(value)) {
      // Its own stream (a canvas loaded without validation): waiting for it would never end.
      if (value === ctx.output("content")) throw new Error(`reference {${key}}: a message cannot show its own content`);
      for await (const chunk of value) yield chunk;
      ctx.setInput(key, value.text);
      cache.set(key, value.text);
      continue;
    }
    const text = messageText(value, downloads);
    cache.set(key, text);
    yield text;
  }
}

/** The streamed message, saved to the memories `memory_ids` names once it is complete. */
async function* thenSaved(ctx: ComponentContext<Params>, source: AsyncIterable<string>): AsyncGenerator<string> {
  let text = "";
  for await (const chunk of source) {
    text += chunk;
    yield chunk;
  }
  await saveToMemories(ctx, text);
}

export const Message: ComponentDefinition = {
  name: "Message",
  paramsSchema: componentSchema("Message"),
  defaults: { content: [], stream: true, output_format: null, auto_play: false },
  capabilities: { emitsMessages: true },
  primaryOutput: "content",
  thoughts: () => "",
  check(params): ParamProblem[] {
    const problems: ParamProblem[] = [];
    if (messageChoices(params.content).length === 0) {
      problems.push({ pointer: "/content", message: "Message content must list at least one non-empty text" });
    }
    problems.push(...checkMemoryIdsParam(params.memory_ids));
    const format = params.output_format;
    if (typeof format === "string" && format !== "" && format.toLowerCase() !== "markdown") {
      problems.push({
        pointer: "/output_format",
        severity: "warning",
        message: `output_format "${format}" is not converted by canvasflow: the message is delivered as text and no attachment is produced`,
      });
    }
    return problems;
  },
  messageEnd(params, outputs) {
    const data: Record<string, unknown> = {};
    if (params.status !== undefined && params.status !== null && params.status !== "") data.status = params.status;
    if (outputs.attachment && typeof outputs.attachment === "object") data.attachment = outputs.attachment;
    if (Array.isArray(outputs.downloads) && outputs.downloads.length > 0) data.downloads = outputs.downloads;
    if (outputs.reference && typeof outputs.reference === "object") data.reference = outputs.reference;
    return data;
  },
  invoke(ctx) {
    const choices = messageChoices(ctx.params.content);
    if (choices.length === 0) throw new Error("Message content must list at least one non-empty text");
    const text = choices[Math.min(choices.length - 1, Math.floor(ctx.random() * choices.length))];
    const template = ctx.compile(text);
    const downloads: unknown[] = [];
    if (ctx.params.stream !== false && !looksLikeJinja(text)) {
      ctx.setOutput("content", new TextStream(thenSaved(ctx, streamTemplate(ctx, template, downloads))));
      ctx.setOutput("downloads", downloads);
      return;
    }
    return renderStatic(ctx, template, downloads);
  },
};

/** The non-streamed path (stream off, or Jinja syntax): upstream streams are read to the end first. */
async function renderStatic(ctx: ComponentContext<Params>, template: CompiledTemplate, downloads: unknown[]): Promise<void> {
  const values = new Map<string, string>();
  for (const ref of template.references) {
    if (values.has(ref.expr)) continue;
    let value = ctx.get(ref);
    if (isTextStream(value)) value = await value.readAll();
    values.set(ref.expr, messageText(value, downloads));
  }
  let content: string;
  if (looksLikeJinja(template.source)) {
    try {
      content = renderJinja({ template, values });
    } catch (error) {
      throw new Error(`Message template could not be rendered: ${(error as Error).message}`);
    }
  } else {
    content = template.segments.map((s) => (typeof s === "string" ? s : values.get(s.ref.expr) ?? "")).join("");
  }
  ctx.setOutput("content", content);
  ctx.setOutput("downloads", downloads);
  await saveToMemories(ctx, content);
}
