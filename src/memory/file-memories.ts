/**
 * Memories in a folder: one JSON-lines file per memory (`<id>.jsonl`, the id percent-encoded),
 * next to the session files. Writers of one memory take its lock file in turn, so processes
 * sharing the folder never lose each other's messages.
 */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { withFileLock } from "../stores/file-lock.js";
import { writeFileAtomic } from "../stores/file-io.js";
import { checkMaxBytes, checkMemoryId, completeMessage, forgetCount, MemoryStoreError, newMessageId, parseMessage, type MemoryMessage, type MemoryStore, type NewMemoryMessage } from "./types.js";

export interface FileMemoryStoreOptions {
  directory: string;
  maxBytes?: number;
}

export class FileMemoryStore implements MemoryStore {
  readonly location: string;
  private readonly directory: string;
  private readonly maxBytes: number;

  constructor(options: FileMemoryStoreOptions) {
    if (typeof options.directory !== "string" || options.directory === "") throw new MemoryStoreError("a file memory store needs a folder");
    this.directory = path.resolve(options.directory);
    this.location = this.directory;
    this.maxBytes = checkMaxBytes(options.maxBytes);
  }

  private file(memoryId: string): string {
    // Percent-encoding leaves no "/" and no name that is only dots beyond "." and "..", which get a prefix.
    const name = encodeURIComponent(checkMemoryId(memoryId)).replace(/^\.+$/, (dots) => dots.replace(/\./g, "%2E"));
    return path.join(this.directory, `${name}.jsonl`);
  }

  async add(memoryId: string, message: NewMemoryMessage): Promise<boolean> {
    const file = this.file(memoryId);
    await mkdir(this.directory, { recursive: true });
    return withFileLock(`${file}.lock`, { purpose: "save", waitMs: 10_000, staleAfterMs: 30_000, session: `memory "${memoryId}" (${file})`, key: memoryId }, async () => {
      const list = await this.read(file);
      if (message.source_key !== "" && list.some((m) => m.source_key === message.source_key)) return false;
      const added = completeMessage(memoryId, message, newMessageId());
      list.push(added);
      const drop = forgetCount(list, this.maxBytes);
      if (drop === 0) await appendFile(file, `${JSON.stringify(added)}\n`, "utf8");
      else await writeFileAtomic(file, list.slice(drop).map((m) => `${JSON.stringify(m)}\n`).join(""));
      return true;
    });
  }

  async messages(memoryId: string): Promise<MemoryMessage[]> {
    return this.read(this.file(memoryId));
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

  async close(): Promise<void> {}
}
