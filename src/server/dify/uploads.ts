/**
 * Files uploaded through POST /v1/files/upload, kept in the server's store for an hour (Dify
 * keeps them in its object storage), so any server process on the store, or the same one after a
 * restart, finds them: a run that names one (`files: [{transfer_method: "local_file",
 * upload_file_id}]`) gets it in `sys.files` with its text, which the document-extractor reads.
 * Bounded per tenant, in count and bytes; the oldest go first.
 */
import { randomUUID } from "node:crypto";
import { isPlainObject } from "../../util/values.js";
import type { UploadRecord, UploadStore } from "../../backends/contracts.js";
import { invalidParam, notFound } from "./errors.js";

const KEEP_MS = 60 * 60 * 1000;
const MAX_FILES_PER_TENANT = 100;
const MAX_BYTES_PER_TENANT = 100 * 1024 * 1024;

const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|csv))/;

/** Dify's file kind of a MIME type. */
function fileType(mime: string): string {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

export class UploadedFiles {
  constructor(private readonly store: UploadStore) {}

  async add(tenant: string, user: string, name: string, mime: string, data: Buffer, now = Date.now()): Promise<UploadRecord> {
    const dot = name.lastIndexOf(".");
    const record: UploadRecord = {
      id: randomUUID(),
      tenant,
      user,
      name,
      size: data.length,
      extension: dot > 0 ? name.slice(dot + 1).toLowerCase() : "",
      mime_type: mime,
      create_time: now,
      expire_time: now + KEEP_MS,
    };
    await this.store.put(record, data, { maxFiles: MAX_FILES_PER_TENANT, maxBytes: MAX_BYTES_PER_TENANT });
    return record;
  }

  /** What the upload answer shows. */
  static view(file: UploadRecord): Record<string, unknown> {
    return { id: file.id, name: file.name, size: file.size, extension: file.extension, mime_type: file.mime_type, created_by: file.user, created_at: Math.floor(file.create_time / 1000) };
  }

  /**
   * A run body's `files` as `sys.files`: uploads looked up (the tenant's only), remote URLs
   * passed on (the SSRF guard checks them when a node reads them).
   */
  async resolve(tenant: string, files: readonly unknown[]): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (const [i, entry] of files.entries()) {
      if (!isPlainObject(entry)) throw invalidParam(`files[${i}] must be an object {type, transfer_method, upload_file_id | url}`);
      const method = entry.transfer_method;
      if (method === "remote_url") {
        if (typeof entry.url !== "string" || entry.url === "") throw invalidParam(`files[${i}].url is required with transfer_method remote_url`);
        out.push({ type: entry.type ?? "document", transfer_method: method, url: entry.url, remote_url: entry.url });
        continue;
      }
      if (method !== "local_file") throw invalidParam(`files[${i}].transfer_method must be "local_file" or "remote_url", got ${JSON.stringify(method)}`);
      const id = entry.upload_file_id;
      const found = typeof id === "string" ? await this.store.get(tenant, id, Date.now()) : undefined;
      if (!found) throw notFound(`files[${i}].upload_file_id ${JSON.stringify(id)}: no such uploaded file (uploads are kept for an hour)`);
      const file = found.record;
      out.push({
        type: entry.type ?? fileType(file.mime_type),
        transfer_method: method,
        related_id: file.id,
        filename: file.name,
        extension: file.extension ? `.${file.extension}` : "",
        mime_type: file.mime_type,
        size: file.size,
        ...(TEXT_TYPES.test(file.mime_type) ? { text: found.data.toString("utf8") } : {}),
      });
    }
    return out;
  }
}
