/**
 * Files uploaded through POST /v1/files/upload, kept in this process's memory for an hour (Dify
 * keeps them in its object storage): a run that names one (`files: [{transfer_method:
 * "local_file", upload_file_id}]`) gets it in `sys.files` with its text, which the
 * document-extractor reads. Bounded per tenant, in count and bytes; the oldest go first.
 */
import { randomUUID } from "node:crypto";
import { isPlainObject } from "../../util/values.js";
import { invalidParam, notFound } from "./errors.js";

const KEEP_MS = 60 * 60 * 1000;
const MAX_FILES_PER_TENANT = 100;
const MAX_BYTES_PER_TENANT = 100 * 1024 * 1024;

export interface UploadedFile {
  id: string;
  tenant: string;
  user: string;
  name: string;
  size: number;
  extension: string;
  mime_type: string;
  created_at: number;
  data: Buffer;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|csv))/;

/** Dify's file kind of a MIME type. */
function fileType(mime: string): string {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

export class UploadedFiles {
  private readonly files = new Map<string, UploadedFile>();

  add(tenant: string, user: string, name: string, mime: string, data: Buffer, now = Date.now()): UploadedFile {
    this.expire(now);
    const dot = name.lastIndexOf(".");
    const file: UploadedFile = {
      id: randomUUID(),
      tenant,
      user,
      name,
      size: data.length,
      extension: dot > 0 ? name.slice(dot + 1).toLowerCase() : "",
      mime_type: mime,
      created_at: Math.floor(now / 1000),
      data: Buffer.from(data),
    };
    this.files.set(file.id, file);
    this.bound(tenant);
    return file;
  }

  /** What the upload answer shows. */
  static view(file: UploadedFile): Record<string, unknown> {
    return { id: file.id, name: file.name, size: file.size, extension: file.extension, mime_type: file.mime_type, created_by: file.user, created_at: file.created_at };
  }

  /**
   * A run body's `files` as `sys.files`: uploads looked up (the tenant's only), remote URLs
   * passed on (the SSRF guard checks them when a node reads them).
   */
  resolve(tenant: string, files: readonly unknown[]): Record<string, unknown>[] {
    this.expire(Date.now());
    return files.map((entry, i) => {
      if (!isPlainObject(entry)) throw invalidParam(`files[${i}] must be an object {type, transfer_method, upload_file_id | url}`);
      const method = entry.transfer_method;
      if (method === "remote_url") {
        if (typeof entry.url !== "string" || entry.url === "") throw invalidParam(`files[${i}].url is required with transfer_method remote_url`);
        return { type: entry.type ?? "document", transfer_method: method, url: entry.url, remote_url: entry.url };
      }
      if (method !== "local_file") throw invalidParam(`files[${i}].transfer_method must be "local_file" or "remote_url", got ${JSON.stringify(method)}`);
      const id = entry.upload_file_id;
      const file = typeof id === "string" ? this.files.get(id) : undefined;
      if (!file || file.tenant !== tenant) throw notFound(`files[${i}].upload_file_id ${JSON.stringify(id)}: no such uploaded file (uploads are kept for an hour)`);
      return {
        type: entry.type ?? fileType(file.mime_type),
        transfer_method: method,
        related_id: file.id,
        filename: file.name,
        extension: file.extension ? `.${file.extension}` : "",
        mime_type: file.mime_type,
        size: file.size,
        ...(TEXT_TYPES.test(file.mime_type) ? { text: file.data.toString("utf8") } : {}),
      };
    });
  }

  private expire(now: number): void {
    for (const [id, file] of this.files) if (now - file.created_at * 1000 > KEEP_MS) this.files.delete(id);
  }

  /** Drop the tenant's oldest files past its count or bytes. */
  private bound(tenant: string): void {
    const own = [...this.files.values()].filter((f) => f.tenant === tenant);
    let bytes = own.reduce((sum, f) => sum + f.size, 0);
    let count = own.length;
    for (const file of own) {
      if (count <= MAX_FILES_PER_TENANT && bytes <= MAX_BYTES_PER_TENANT) break;
      this.files.delete(file.id);
      count--;
      bytes -= file.size;
    }
  }
}
