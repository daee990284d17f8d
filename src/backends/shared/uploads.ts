/**
 * What every backend's UploadStore shares: the id check (ids are used in file names and keys),
 * the record check, and which of a tenant's files go when it keeps too many or too much.
 */
import { ServerStoreError } from "../errors.js";
import type { UploadLimits, UploadRecord } from "../contracts.js";

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `id` can be an upload's id (a lowercase UUID). */
export function isUploadId(id: unknown): id is string {
  return typeof id === "string" && UPLOAD_ID.test(id);
}

/** A record ready to keep, or a ServerStoreError naming the field. */
export function checkUpload(record: UploadRecord, data: Buffer, limits: UploadLimits, store: string): void {
  const problem = !isUploadId(record.id)
    ? "id must be a lowercase UUID"
    : typeof record.tenant !== "string" || record.tenant === ""
      ? "tenant must be a non-empty string"
      : !Buffer.isBuffer(data) || data.length !== record.size
        ? `size is ${String(record.size)} but the data has ${Buffer.isBuffer(data) ? data.length : "no"} bytes`
        : !Number.isFinite(record.create_time) || !Number.isFinite(record.expire_time) || record.expire_time <= record.create_time
          ? "expire_time must be a time after create_time (epoch ms)"
          : !(limits.maxFiles >= 1 && limits.maxBytes >= 1)
            ? "limits must allow at least one file of one byte"
            : undefined;
  if (problem) throw new ServerStoreError(`${store}: cannot keep an upload: ${problem}`);
}

/** The ids of a tenant's files to drop: the expired ones, then the oldest while past a limit. */
export function uploadsToDrop(files: ReadonlyArray<Pick<UploadRecord, "id" | "size" | "create_time" | "expire_time">>, limits: UploadLimits, now: number): string[] {
  const drop: string[] = [];
  const live = files.filter((f) => (f.expire_time > now ? true : (drop.push(f.id), false))).sort((a, b) => a.create_time - b.create_time || a.id.localeCompare(b.id));
  let count = live.length;
  let bytes = live.reduce((sum, f) => sum + f.size, 0);
  for (const file of live) {
    if (count <= limits.maxFiles && bytes <= limits.maxBytes) break;
    drop.push(file.id);
    count--;
    bytes -= file.size;
  }
  return drop;
}
