/**
 * The documents service of a server run (pipelines/documents.ts): an ingestion pipeline's document
 * is one of its tenant's uploads, read by id from the server's store, and never a local path,
 * whatever `sys.files` names. An upload larger than the server's `limits.uploadBytes` (one kept
 * while the limit was higher, or by a server with another) is refused before it is read.
 */
import { DocumentUnavailableError, type DocumentOpener } from "../pipelines/documents.js";
import type { TenantUploads } from "./uploads.js";

/** What a server run says to a document given by path. */
export const NO_PATHS_ON_THE_SERVER =
  "a server run reads only its tenant's uploads, by id, never a path: upload the document with POST /api/v1/agents/{agent_id}/upload and pass the file dict it answers";

export function uploadDocuments(uploads: TenantUploads, tenant: string, maxBytes: number): DocumentOpener {
  return {
    async open(file) {
      if (file.path !== undefined) throw new DocumentUnavailableError(file.name, `${file.name} is given by path: ${NO_PATHS_ON_THE_SERVER}`);
      const found = await uploads.get(tenant, file.id);
      if (!found) throw new DocumentUnavailableError(file.name, `${file.name}: no upload ${JSON.stringify(file.id)} of this tenant (uploads are kept for an hour)`);
      const { record, data } = found;
      if (record.size > maxBytes) {
        throw new DocumentUnavailableError(file.name, `${file.name} (upload ${record.id}) has ${record.size} bytes, more than the ${maxBytes} bytes a document may have on this server (server.limits.uploadBytes); it was not read`);
      }
      return {
        name: file.name,
        size: record.size,
        bytes: async () => new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        stream: async function* () {
          yield new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        },
      };
    },
  };
}
