/**
 * Uploaded files in a SQLite database file (table `uploads`, migration 3 of schema.ts): one row
 * each, the record as JSON text and the bytes as a BLOB. A tenant's expired and surplus uploads
 * go when it uploads again, in the same immediate transaction, so two uploads at once (from any
 * process) cannot both keep past the limits.
 */
import type { UploadLimits, UploadRecord, UploadStore } from "../contracts.js";
import { ServerStoreError, StoredRecordError } from "../errors.js";
import { parseStoredJson } from "../shared/records.js";
import { checkUpload, isUploadId, uploadsToDrop } from "../shared/uploads.js";
import { isPlainObject } from "../../util/values.js";
import { violatedConstraint, type ServerDatabase } from "./server-database.js";

export class SqliteUploads implements UploadStore {
  constructor(
    private readonly store: ServerDatabase,
    /** The clock expired uploads are dropped by when a tenant uploads. */
    private readonly now: () => number,
  ) {}

  async put(record: UploadRecord, data: Buffer, limits: UploadLimits): Promise<void> {
    checkUpload(record, data, limits, this.store.location);
    try {
      this.store.write(`keeping upload ${record.id}`, () => {
        this.store
          .sql("INSERT INTO uploads (id, tenant, record, data, size, create_time, expire_time) VALUES (?, ?, ?, ?, ?, ?, ?)")
          .run(record.id, record.tenant, JSON.stringify(record), data, record.size, record.create_time, record.expire_time);
        const files = this.store.sql<[string], { id: string; size: number; create_time: number; expire_time: number }>("SELECT id, size, create_time, expire_time FROM uploads WHERE tenant = ?").all(record.tenant);
        const drop = uploadsToDrop(files, limits, this.now());
        if (drop.length > 0) this.store.sql("DELETE FROM uploads WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))").run(record.tenant, JSON.stringify(drop));
      });
    } catch (error) {
      if (violatedConstraint(error) === "primary key") throw new ServerStoreError(`${this.store.location}: upload ${record.id} already exists`);
      throw error;
    }
  }

  async get(tenant: string, id: string, now: number): Promise<{ record: UploadRecord; data: Buffer } | undefined> {
    if (!isUploadId(id)) return undefined;
    const row = this.store.run(`reading upload ${id}`, () =>
      this.store.sql<[string, string, number], { record: string; data: Buffer }>("SELECT record, data FROM uploads WHERE id = ? AND tenant = ? AND expire_time > ?").get(id, tenant, now),
    );
    if (!row) return undefined;
    const where = this.store.rowWhere("uploads", id);
    const record = parseStoredJson(row.record, "its record column", where);
    if (!isPlainObject(record)) throw new StoredRecordError(`${where}: its record column is not a JSON object`, where);
    if (!Buffer.isBuffer(row.data)) throw new StoredRecordError(`${where}: its data column is not a BLOB`, where);
    return { record: record as unknown as UploadRecord, data: row.data };
  }
}
