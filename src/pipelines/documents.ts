/**
 * Where a pipeline run's documents come from. A run is given descriptors (`sys.files`: plain
 * JSON, kept in checkpoints), and the File step opens the one of its turn through the
 * `documents` service: the CLI and the library read local paths, the server its uploads. A
 * canvas names no file itself, so an untrusted canvas cannot make the server read one.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { RuntimeServices } from "../contracts/values.js";
import { isPlainObject } from "../util/values.js";
import { DEFAULT_PARSE_LIMITS, type DocumentSource } from "./payload.js";

/** The key of the documents service among a run's services. */
export const DOCUMENTS_SERVICE = "documents";

/** A document given to a pipeline: its name (with the extension the Parser goes by) and where it is. */
export interface PipelineFile {
  /** The file's name, e.g. `report.pdf`. */
  name: string;
  /** A local path (CLI, library). */
  path?: string;
  /** An upload's id (server). */
  id?: string;
  size?: number;
  mime_type?: string;
  [key: string]: unknown;
}

/** Opens the documents a run was given. */
export interface DocumentOpener {
  open(file: PipelineFile, signal: AbortSignal): Promise<DocumentSource>;
}

/** A clear failure to find or read a document, naming it. */
export class DocumentUnavailableError extends Error {
  constructor(
    readonly document: string,
    message: string,
  ) {
    super(message);
    this.name = "DocumentUnavailableError";
  }
}

/** A descriptor from `sys.files`, checked: a name, and a path or an id. */
export function pipelineFile(value: unknown, index: number): PipelineFile {
  if (typeof value === "string" && value !== "") return { name: basename(value), path: value };
  if (!isPlainObject(value)) throw new DocumentUnavailableError(`files[${index}]`, `files[${index}] must be a document ({ name, path } or { name, id }), got ${value === null ? "null" : typeof value}`);
  const name = value.name;
  if (typeof name !== "string" || name === "") throw new DocumentUnavailableError(`files[${index}]`, `files[${index}] has no name: a document needs one, with its extension (the Parser chooses its setup by it)`);
  if (typeof value.path !== "string" && typeof value.id !== "string") throw new DocumentUnavailableError(name, `files[${index}] (${name}) says neither where it is (path) nor which upload it is (id)`);
  return value as PipelineFile;
}

/** The documents service of a run's services, if the caller gave one. */
export function documentOpenerOf(services: RuntimeServices): DocumentOpener | undefined {
  const opener = services[DOCUMENTS_SERVICE] as DocumentOpener | undefined;
  return opener && typeof opener.open === "function" ? opener : undefined;
}

/** Local files by path, each refused past `maxFileBytes` before it is read (the CLI's and the library's opener). */
export function localDocuments(options: { maxFileBytes?: number } = {}): DocumentOpener {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_PARSE_LIMITS.maxFileBytes;
  return {
    async open(file) {
      if (typeof file.path !== "string") throw new DocumentUnavailableError(file.name, `${file.name} is an upload (id ${String(file.id)}), and this run reads only local files`);
      const path = file.path;
      let size: number;
      try {
        const info = await stat(path);
        if (!info.isFile()) throw new DocumentUnavailableError(file.name, `${path} is not a file`);
        size = info.size;
      } catch (error) {
        if (error instanceof DocumentUnavailableError) throw error;
        throw new DocumentUnavailableError(file.name, `cannot read ${path}: ${(error as Error).message}`);
      }
      if (size > maxFileBytes) {
        throw new DocumentUnavailableError(file.name, `${path} has ${size} bytes, more than the ${maxFileBytes} bytes a document may have (the config's pipelines.limits.maxFileBytes); it was not read`);
      }
      return {
        name: file.name,
        size,
        bytes: async () => new Uint8Array(await readFile(path)),
        stream: () => createReadStream(path) as AsyncIterable<Uint8Array>,
      };
    },
  };
}
