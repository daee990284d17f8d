/** Conversation memories: written by Message (`memory_ids`), searched by Retrieval (`retrieval_from: "memory"`). */
export { type MemoryMessage, type MemoryStore, type NewMemoryMessage, MemoryStoreError, DEFAULT_MEMORY_BYTES, MAX_MEMORY_ID_LENGTH, MAX_MESSAGE_CHARS } from "./types.js";
export { ProcessMemoryStore } from "./process-memories.js";
export { FileMemoryStore, type FileMemoryStoreOptions } from "./file-memories.js";
export { RedisMemoryStore, DEFAULT_MEMORY_KEY_PREFIX, type RedisMemoryStoreOptions } from "./redis-memories.js";
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from "./postgres-memories.js";
export { openMemoryStore, memoriesOfSession, memoriesForRun, memoriesForServer, MEMORY_FOLDER, type OpenMemoryStoreOptions } from "./open.js";
export { searchMemories, formatMemories, type MemoryHit, type MemoryQuery } from "./search.js";
