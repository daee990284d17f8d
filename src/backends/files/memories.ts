/**
 * Memories in a folder: one JSON-lines file per memory, in one folder per tenant:
 * `<folder>/tenants/<tenant>/<id>.jsonl` (names from fileNameOf: case- and dot-safe, never a
 * path). Writers of one memory take its lock file in turn, so processes sharing the folder never
 * lose each other's messages. Folders are made 0700 and files 0600: memories are what was said.
 *
 * Releases before tenant scopes kept `<folder>/<id>.jsonl` (legacy.ts moves those): a move writes
 * each tenant's file whole (a rename), then rewrites or removes the legacy file, holding the legacy
 * file's lock throughout. A crash in between leaves the legacy file whole; the next move finds the
 * copies already made (by message id) and does not add them twice.
 */
import { appendFile, mkdir, readdir, readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { withFileLock } from "./lock.js";
import { writeFileAtomic } from "./io.js";
import { mergeMoved, splitByTenant, type LegacyMemoryLayout, type LegacyMove, type LegacyRoute } from "../../memories/legacy.js";
import { fileNameOf, legacyFileNameOf, legacyIdOf } from "../shared/memory-names.js";
import { checkMaxBytes, checkMemoryRef, completeMessage, describeMemory, forgetCount, newMessageId, parseMessage } from "../shared/memories.js";
import { MemoryStoreError } from "../errors.js";
import type { MemoryMessage, MemoryRef, MemoryStore, NewMemoryMessage } from "../contracts.js";

export interface FileMemoryStoreOptions {
  directory: string;
  maxBytes?: number;
}

/** The folder of the tenants' folders, beside the legacy files. */
export const TENANTS_FOLDER = "tenants";
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
const LOCK = { purpose: "save", waitMs: 10_000, staleAfterMs: 30_000 } as const;

export class FileMemoryStore implements MemoryStore, LegacyMemoryLayout {
  readonly scope = "tenant" as const;
  readonly location: string;
  private readonly directory: string;
  private readonly maxBytes: number;

  constructor(options: FileMemoryStoreOptions) {
    if (typeof options.directory !== "string" || options.directory === "") throw new MemoryStoreError("a file memory store needs a folder");
    this.directory = path.resolve(options.directory);
    this.location = this.directory;
    this.maxBytes = checkMaxBytes(options.maxBytes);
  }

  /** The file of a tenant's memory. */
  fileOf(memory: MemoryRef): string {
    const { tenant, id } = checkMemoryRef(memory);
    return path.join(this.directory, TENANTS_FOLDER, fileNameOf(tenant), `${fileNameOf(id)}.jsonl`);
  }

  async add(memory: MemoryRef, message: NewMemoryMessage): Promise<boolean> {
    const file = this.fileOf(memory);
    await mkdir(path.dirname(file), { recursive: true, mode: FOLDER_MODE });
    return withFileLock(`${file}.lock`, { ...LOCK, session: `${describeMemory(memory)} (${file})`, key: memory.id }, async () => {
      const list = await this.read(file);
      if (message.source_key !== "" && list.some((m) => m.source_key === message.source_key)) return false;
      const added = completeMessage(memory.id, message, newMessageId());
      list.push(added);
      const drop = forgetCount(list, this.maxBytes);
      if (drop === 0) await appendFile(file, `${JSON.stringify(added)}\n`, { encoding: "utf8", mode: FILE_MODE });
      else await writeFileAtomic(file, lines(list.slice(drop)), { mode: FILE_MODE });
      return true;
    });
  }

  async messages(memory: MemoryRef): Promise<MemoryMessage[]> {
    return this.read(this.fileOf(memory));
  }

  private async read(file: string): Promise<MemoryMessage[]> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new MemoryStoreError(`memory file ${file} cannot be read: ${(error as Error).message}`);
    }
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line, i) => parseMessage(line, `memory file ${file}, line ${i + 1}`));
  }

  async legacyMemoryIds(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new MemoryStoreError(`memory folder ${this.directory} cannot be read: ${(error as Error).message}`);
    }
    return names.map(legacyIdOf).filter((id): id is string => id !== undefined);
  }

  async moveLegacyMemory(id: string, route: LegacyRoute): Promise<LegacyMove> {
    const legacy = path.join(this.directory, legacyFileNameOf(id));
    // Writers of releases before tenant scopes take this lock too: none adds to it meanwhile.
    return withFileLock(`${legacy}.lock`, { ...LOCK, session: `legacy memory ${JSON.stringify(id)} (${legacy})`, key: id }, async () => {
      const messages = await this.read(legacy);
      const tenants = await route(messages);
      const { byTenant, kept } = splitByTenant(messages, tenants);
      if (byTenant.size === 0) return { moved: new Map(), kept: kept.length };
      for (const [tenant, moving] of byTenant) await this.receive({ tenant, id }, moving);
      // Only now does the legacy file change: until here a crash leaves it whole.
      if (kept.length > 0) await writeFileAtomic(legacy, lines(kept), { mode: FILE_MODE });
      else await unlink(legacy).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
      return { moved: new Map([...byTenant].map(([tenant, list]) => [tenant, list.length])), kept: kept.length };
    });
  }

  /** Merge moved messages into a tenant's memory, skipping those a failed move copied already. */
  private async receive(memory: MemoryRef, moving: readonly MemoryMessage[]): Promise<void> {
    const file = this.fileOf(memory);
    await mkdir(path.dirname(file), { recursive: true, mode: FOLDER_MODE });
    await withFileLock(`${file}.lock`, { ...LOCK, session: `${describeMemory(memory)} (${file})`, key: memory.id }, async () => {
      const movingIds = new Set(moving.map((m) => m.message_id));
      const own = (await this.read(file)).filter((m) => !movingIds.has(m.message_id));
      await writeFileAtomic(file, lines(mergeMoved(own, moving)), { mode: FILE_MODE });
    });
  }

  async close(): Promise<void> {}
}

function lines(messages: readonly MemoryMessage[]): string {
  return messages.map((m) => `${JSON.stringify(m)}\n`).join("");
}
