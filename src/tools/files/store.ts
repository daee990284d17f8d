/**
 * Files the tools produce (DocGenerator's documents, ExcelProcessor's workbooks) and read (an
 * uploaded workbook, a document to attach to an e-mail). A produced file is written under the
 * files folder (`files.dir` in canvasflow.config.json, default <tmp>/canvasflow-files) as
 * <doc_id>/<filename>, and described as RAGFlow describes a download: {doc_id, filename,
 * mime_type, size, base64}, plus its `path` here.
 *
 * A file value is read from base64 (a descriptor's `base64`, a `data:` URI) or from a path inside
 * the files folder; a path anywhere else is refused, so a canvas cannot read the host's files.
 */
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve, sep } from "node:path";
import { makePrivateFolder, PRIVATE_FILE_MODE } from "../../util/private-files.js";
import { isPlainObject } from "../../util/values.js";
import type { ToolContext } from "../types.js";

interface DownloadInfo {
  doc_id: string;
  filename: string;
  mime_type: string;
  size: number;
  base64: string;
  path: string;
  [key: string]: unknown;
}

interface FileBytes {
  bytes: Buffer;
  filename: string;
  mimeType?: string;
}

export function filesDir(ctx: ToolContext): string {
  const tools = ctx.services.tools;
  const files = isPlainObject(tools) && isPlainObject(tools.files) ? tools.files : {};
  return typeof files.dir === "string" && files.dir !== "" ? resolve(files.dir) : join(tmpdir(), "canvasflow-files");
}

/** A file name without folders or characters that break paths, keeping its extension. */
export function safeFilename(name: string, extension: string): string {
  const base = basename(name.trim()).replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "_").replace(/^\.+/, "");
  const stem = base.toLowerCase().endsWith(`.${extension}`) ? base.slice(0, -extension.length - 1) : base;
  return `${(stem || "document").slice(0, 120)}.${extension}`;
}

export async function saveFile(ctx: ToolContext, bytes: Buffer, filename: string, mimeType: string): Promise<DownloadInfo> {
  const docId = randomUUID().replace(/-/g, "");
  const folder = join(filesDir(ctx), docId);
  // Documents a tenant's run made are nobody else's on the machine (the default folder is in the shared temp folder).
  await makePrivateFolder(folder);
  const path = join(folder, filename);
  await writeFile(path, bytes, { mode: PRIVATE_FILE_MODE });
  return { doc_id: docId, filename, mime_type: mimeType, size: bytes.length, base64: bytes.toString("base64"), path };
}

function inside(dir: string, path: string): boolean {
  const full = resolve(path);
  return full === dir || full.startsWith(dir + sep);
}

/** The bytes of a file value, or undefined when the value holds no file. */
export async function readFileValue(ctx: ToolContext, value: unknown): Promise<FileBytes | undefined> {
  let v = value;
  if (typeof v === "string" && v.trim().startsWith("{")) {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(v)) return v.length > 0 ? readFileValue(ctx, v[0]) : undefined;
  if (typeof v === "string") {
    const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(v.trim());
    if (match) return { bytes: Buffer.from(match[3], match[2] ? "base64" : "utf8"), filename: "uploaded", ...(match[1] ? { mimeType: match[1] } : {}) };
    return undefined;
  }
  if (!isPlainObject(v)) return undefined;
  const filename = String(v.filename ?? v.name ?? "file");
  const mimeType = typeof v.mime_type === "string" ? v.mime_type : typeof v.mimeType === "string" ? v.mimeType : undefined;
  const withMime = mimeType ? { mimeType } : {};
  if (typeof v.base64 === "string" && v.base64 !== "") return { bytes: Buffer.from(v.base64, "base64"), filename, ...withMime };
  if (typeof v.path === "string" && v.path !== "") {
    const dir = filesDir(ctx);
    if (!inside(dir, v.path)) throw new Error(`the file ${JSON.stringify(basename(v.path))} is outside the files folder (${dir}): only files there are read`);
    return { bytes: await readFile(v.path), filename: filename === "file" ? basename(v.path) : filename, ...withMime };
  }
  return undefined;
}
