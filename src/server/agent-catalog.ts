/**
 * The agents a tenant sees: the read-only agents of `--agents DIR` (the same for every tenant),
 * then the tenant's own agents in the store. A folder agent shadows a stored agent with the same
 * id; lists show the folder's agents first.
 */
import { listPage } from "../backends/shared/paging.js";
import type { AgentRecord, AgentStore, ListQuery, Page } from "../backends/contracts.js";
import type { FolderAgent } from "./agent-folder.js";

export class AgentCatalog {
  private readonly folder: ReadonlyMap<string, FolderAgent>;

  constructor(
    readonly store: AgentStore,
    folderAgents: readonly FolderAgent[] = [],
  ) {
    this.folder = new Map(folderAgents.map((agent) => [agent.id, agent]));
  }

  /** Whether the id names an agent of `--agents DIR` (which cannot be changed or deleted through the API). */
  isReadOnly(id: string): boolean {
    return this.folder.has(id);
  }

  async get(tenant: string, id: string): Promise<AgentRecord | undefined> {
    const fromFolder = this.folder.get(id);
    return fromFolder ? folderRecord(fromFolder, tenant) : this.store.get(tenant, id);
  }

  async list(tenant: string, query: ListQuery): Promise<Page<AgentRecord>> {
    const folder = listPage([...this.folder.values()].map((agent) => folderRecord(agent, tenant)), { ...query, page: 1, page_size: Number.MAX_SAFE_INTEGER }, (a) => a.title);
    const size = query.page_size;
    const start = (Math.max(1, query.page) - 1) * size;
    const items = folder.items.slice(start, start + size);
    // The store's records follow the folder's: its part of this page starts at `offset` in its own order.
    const offset = Math.max(0, start - folder.total);
    const firstPage = Math.floor(offset / size) + 1;
    const page = await this.store.list(tenant, { ...query, page: firstPage, page_size: size });
    const stored = page.items.slice(offset % size);
    if (items.length + stored.length < size && page.total > firstPage * size) {
      stored.push(...(await this.store.list(tenant, { ...query, page: firstPage + 1, page_size: size })).items);
    }
    const hidden = (agent: AgentRecord) => this.folder.has(agent.id);
    items.push(...stored.filter((agent) => !hidden(agent)).slice(0, size - items.length));
    return { items, total: folder.total + page.total, ...(page.damaged ? { damaged: page.damaged } : {}) };
  }
}

function folderRecord(agent: FolderAgent, tenant: string): AgentRecord {
  return {
    id: agent.id,
    tenant,
    title: agent.title,
    description: agent.description,
    dsl: agent.dsl,
    canvas_type: "",
    avatar: null,
    create_time: agent.mtime,
    update_time: agent.mtime,
  };
}
