/**
 * Dify's view of the server's uploads (uploads.ts): POST /v1/files/upload answers a file's
 * record, and a run that names one (`files: [{transfer_method: "local_file", upload_file_id}]`)
 * gets it in `sys.files` with its text, which the document-extractor reads.
 */
import { isPlainObject } from "../../util/values.js";
import type { UploadRecord } from "../../backends/contracts.js";
import { TenantUploads } from "../uploads.js";
import { invalidParam, notFound } from "./errors.js";

const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|csv))/;

/** Dify's file kind of a MIME type. */
function fileType(mime: string): string {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

export class UploadedFiles extends TenantUploads {
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
      const found = await this.get(tenant, id);
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
