/**
 * `canvasflow/server`: the HTTP server (RAGFlow's, OpenAI's and Dify's APIs) and what it keeps:
 * its stores in process memory and in a data folder, API keys, the component policy, and the
 * conversation memories of its tenants. Redis, PostgreSQL and SQLite stores: `canvasflow/redis`,
 * `canvasflow/postgres`, `canvasflow/sqlite`.
 */
export { createServer, isLoopbackHost, InsecureListenError, DEFAULT_BODY_LIMIT, type CreateServerOptions } from "./app.js";
export { sessionOwners } from "./memory-owners.js";
export { AGENT_BODY_LIMIT } from "./routes/agents.js";
export { ServerOptionsError } from "./settings.js";
export { PolicyRefusal, type DenialView } from "./component-policy.js";
export { DuplicateTitleError, ServerStoreError, StoredRecordError } from "../backends/errors.js";
export type { AgentPatch, AgentRecord, AgentStore, ApiKeyRecord, ApiKeyStore, ListQuery, Page, RateLimitCounters, ServerStore, MessageFeedback, RunSummary, SessionMessage, SessionPatch, SessionRecord, SessionRecordStore, UploadLimits, UploadRecord, UploadStore } from "../backends/contracts.js";
export { isUploadId } from "../backends/shared/uploads.js";
export { isRecordId, isKeyHash } from "../backends/shared/records.js";
export { InProcessServerStore, MemoryServerStore } from "../backends/process/server-store.js";
export { createApiKey, hashApiKey, API_KEY_PREFIX, type CreateApiKeyOptions, type CreatedApiKey } from "./store/api-keys.js";
export { openServerStore, DEFAULT_DATA_FOLDER, type OpenServerStoreOptions } from "../backends/open-server.js";
export { migrateLegacyMemories, type MemoryOwners, type LegacyMigrationReport } from "../memories/legacy.js";
