/**
 * Files uploaded to the server (Dify's POST /v1/files/upload, RAGFlow's POST
 * /api/v1/agents/{id}/upload), kept in the server's store for an hour, so any server process on
 * the store, or the same one after a restart, finds them. Each tenant's are its own (another
 * tenant's id reads as missing) and bounded, in count and bytes: past either bound the tenant's
 * oldest files go.
 */
import { randomUUID } from "node:crypto";
import { isUploadId } from "../backends/shared/uploads.js";
import type { UploadRecord, UploadStore } from "../backends/contracts.js";

/** How long an upload is kept. */
export const UPLOAD_KEEP_MS = 60 * 60 * 1000;
/** What one tenant may keep at once. */
export const UPLOAD_TENANT_LIMITS = { maxFiles: 100, maxBytes: 100 * 1024 * 1024 } as const;

export class TenantUploads {
  constructor(protected readonly store: UploadStore) {}

  /** Keep a file for the tenant: its record (a new id, its extension from its name). */
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
      expire_time: now + UPLOAD_KEEP_MS,
    };
    await this.store.put(record, data, UPLOAD_TENANT_LIMITS);
    return record;
  }

  /** The tenant's file with its bytes, unless it is not one (another tenant's, expired, never made). */
  async get(tenant: string, id: unknown, now = Date.now()): Promise<{ record: UploadRecord; data: Buffer } | undefined> {
    return isUploadId(id) ? this.store.get(tenant, id, now) : undefined;
  }
}
