/** Conversation memories: written by Message (`memory_ids`), searched by Retrieval (`retrieval_from: "memory"`), each memory a tenant's. */
export type { MemoryMessage, MemoryStore, MemoryRef, NewMemoryMessage } from "../backends/contracts.js";
export { MemoryStoreError } from "../backends/errors.js";
export { DEFAULT_MEMORY_BYTES, DEFAULT_MEMORY_TENANT, MAX_MEMORY_ID_LENGTH, MAX_MESSAGE_CHARS, MAX_TENANT_LENGTH } from "../backends/shared/memories.js";
export { TenantMemories, runMemories, takeMemoryStore, withTenantMemories } from "./scope.js";
export { InProcessMemoryStore, ProcessMemoryStore } from "../backends/process/memories.js";
export { FileMemoryStore, type FileMemoryStoreOptions } from "../backends/files/memories.js";
export { RedisMemoryStore, DEFAULT_MEMORY_KEY_PREFIX, DEFAULT_LEGACY_MEMORY_KEY_PREFIX, type RedisMemoryStoreOptions } from "../backends/redis/memories.js";
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from "../backends/postgres/memories.js";
export { migratePostgresMemories } from "../backends/postgres/memories-schema.js";
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from "../backends/sqlite/memories.js";
export { openMemoryStore, memoriesOfSession, memoriesForRun, memoriesForServer, memoriesBesideSession, MEMORY_FOLDER, type OpenMemoryStoreOptions } from "../backends/open-memories.js";
export { searchMemories, formatMemories, type MemoryHit, type MemoryQuery } from "./search.js";
export {
  migrateLegacyMemories,
  legacyReportLines,
  hasLegacyLayout,
  type LegacyMemoryLayout,
  type LegacyMigrationReport,
  type LegacyMove,
  type LegacyRoute,
  type MemoryOwners,
  type MigrateLegacyOptions,
} from "./legacy.js";
