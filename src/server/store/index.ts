/** The server's store: agents, session records and API keys per tenant, with the sessions' run state and cancel signals, on one backend. */
export {
  DuplicateTitleError,
  ServerStoreError,
  type AgentPatch,
  type AgentRecord,
  type AgentStore,
  type ApiKeyRecord,
  type ApiKeyStore,
  type ListQuery,
  type Page,
  type ServerStore,
  type MessageFeedback,
  type RunSummary,
  type SessionMessage,
  type SessionPatch,
  type SessionRecord,
  type SessionRecordStore,
  type UploadLimits,
  type UploadRecord,
  type UploadStore,
} from "./types.js";
export { isUploadId } from "./uploads.js";
export { StoredRecordError, isRecordId, isKeyHash } from "./records.js";
export { MemoryServerStore } from "./memory.js";
export { DataFolderServerStore, DATA_FOLDER_LAYOUT, type DataFolderServerStoreOptions } from "./data-folder.js";
export { RedisServerStore, DEFAULT_REDIS_SERVER_PREFIX, serverCancelLayout, type RedisServerStoreOptions } from "./redis.js";
export { PostgresServerStore, type PostgresServerStoreOptions } from "./postgres.js";
export { PostgresWithRedisServerStore, type PostgresWithRedisServerStoreOptions } from "./postgres-with-redis.js";
export { migratePostgresServer, POSTGRES_SERVER_SCHEMA_VERSION, type MigratePostgresServerOptions } from "./postgres-schema.js";
export { createApiKey, hashApiKey, API_KEY_PREFIX, type CreateApiKeyOptions, type CreatedApiKey } from "./api-keys.js";
export { openServerStore, DEFAULT_DATA_FOLDER, type OpenServerStoreOptions } from "./open.js";
