/**
 * `canvasflow kb index DIR` builds or updates a local knowledge base's index (what a Retrieval
 * would otherwise build on its first search), with a progress bar on a terminal, and reports the
 * files, chunks, tokens embedded and time. `canvasflow kb search DIR "query"` shows the scored
 * chunks — term, vector and blended similarity — for tuning similarity_threshold and
 * keywords_similarity_weight.
 *
 * DIR's settings (embedding model, index folder) come from the config entry under
 * `knowledgeBases` whose `dir` is DIR, else from the config's default `embedding`.
 */
import path from "node:path";
import { statSync } from "node:fs";
import type { LocalKnowledgeBaseConfig } from "../config/types.js";
import { isUnavailable } from "../components/unavailable.js";
import { DEFAULT_INDEX_FOLDER, updateIndex, type IndexProgress, type IndexReport } from "../knowledge/indexer.js";
import { DEFAULT_CHUNKER } from "../knowledge/chunkers.js";
import { chunkerFor, setIndexNotifier } from "../knowledge/knowledge-base.js";
import { effectiveThreshold } from "../knowledge/similarity.js";
import { searchKnowledgeBases } from "../tools/retrieval/search.js";
import type { RetrievedChunk } from "../tools/retrieval/types.js";
import { UsageError, type CliIO } from "./io.js";
import { integerFlag } from "./numeric-flags.js";
import { EXIT } from "./run-command.js";
import { isSetupError, openRunServices } from "./services.js";

export interface KbArgs {
  action: string | undefined;
  positionals: string[];
  config?: string;
  mockLlm?: boolean;
  mockLlmScript?: string;
  /** search */
  topN?: string;
  topK?: string;
  threshold?: string;
  keywordsWeight?: string;
  rerankId?: string;
  json?: boolean;
  /** index: chunk the folder with this ingestion pipeline (recorded in the index, so searches use it too). */
  pipeline?: string;
  /** index: chunk the folder with the default chunker again, whatever pipeline the index records. */
  defaultChunker?: boolean;
}

const BAR_WIDTH = 30;

function unitFlag(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = /^[0-9]*\.?[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 1)) throw new UsageError(`${flag} must be a number from 0 to 1, got ${JSON.stringify(value)}`);
  return n;
}

function folderOf(value: string | undefined, action: string): string {
  if (value === undefined) throw new UsageError(`kb ${action} expects a folder: canvasflow kb ${action} DIR${action === "search" ? ' "query"' : ""}`);
  const dir = path.resolve(value);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UsageError(`kb ${action}: ${dir} is not a folder`);
  return dir;
}

/** The config entry of a folder, or a plain one using the defaults. */
function knowledgeBaseFor(dir: string, configured: Readonly<Record<string, { type: string }>>): { id: string; config: LocalKnowledgeBaseConfig } {
  for (const [id, kb] of Object.entries(configured)) {
    if (kb.type === "local" && path.resolve((kb as LocalKnowledgeBaseConfig).dir) === dir) return { id, config: kb as LocalKnowledgeBaseConfig };
  }
  return { id: path.basename(dir), config: { type: "local", dir } };
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function progressBar(io: CliIO): { update(p: IndexProgress): void; done(): void } {
  if (!io.isTTY) return { update: () => undefined, done: () => undefined };
  let last = "";
  return {
    update(p) {
      const share = p.total > 0 ? p.done / p.total : 1;
      const filled = Math.round(share * BAR_WIDTH);
      const line = `${p.phase === "reading" ? "reading  " : "embedding"} [${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${p.done}/${p.total}`;
      if (line !== last) io.err(`\r${line}`);
      last = line;
    },
    done() {
      if (last !== "") io.err("\r\x1b[2K");
    },
  };
}

function reportText(dir: string, indexDir: string, model: string, chunking: string, report: IndexReport): string {
  const lines = [
    `indexed ${dir} → ${indexDir}`,
    `  chunked by: ${chunking}`,
    `  files:  ${report.files} (${report.chunkedFiles} read, ${report.reusedFiles} from the cache)${report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : ""}`,
    `  chunks: ${report.chunks} (${report.embeddedChunks} embedded)`,
    `  tokens embedded: ${report.tokens}`,
    `  embedding: ${model}`,
    `  time:   ${seconds(report.ms)}`,
  ];
  for (const skip of report.skipped) lines.push(`skipped ${skip.path}: ${skip.reason}`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  return `${lines.join("\n")}\n`;
}

function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function chunkLines(chunks: readonly RetrievedChunk[], threshold: number): string {
  const lines: string[] = [];
  let marked = false;
  chunks.forEach((chunk, i) => {
    if (!marked && chunk.similarity < threshold) {
      lines.push(`   ── below similarity_threshold ${threshold} ──`);
      marked = true;
    }
    const where = chunk.section ? `${chunk.document_name} › ${chunk.section}` : chunk.document_name;
    lines.push(`${String(i + 1).padStart(2)}. ${chunk.similarity.toFixed(4)}  (term ${(chunk.term_similarity ?? 0).toFixed(4)}, vector ${(chunk.vector_similarity ?? 0).toFixed(4)})  ${where}`);
    lines.push(`    ${excerpt(chunk.content)}`);
  });
  return lines.length > 0 ? `${lines.join("\n")}\n` : "no chunk matches\n";
}

export async function kbCommand(args: KbArgs, io: CliIO): Promise<number> {
  const { action, positionals } = args;
  if (action !== "index" && action !== "search") throw new UsageError(action === undefined ? "kb expects a subcommand: index or search" : `unknown kb subcommand "${action}": use index or search`);
  const expected = action === "index" ? 1 : 2;
  if (args.pipeline !== undefined && action !== "index") throw new UsageError("--pipeline goes with kb index: a search uses the pipeline the index was made with");
  if (args.defaultChunker && action !== "index") throw new UsageError("--default-chunker goes with kb index");
  if (args.defaultChunker && args.pipeline !== undefined) throw new UsageError("kb index takes --pipeline FILE or --default-chunker, not both");
  if (positionals.length !== expected) throw new UsageError(action === "index" ? `kb index expects one DIR, got ${positionals.length} arguments` : `kb search expects DIR and "query", got ${positionals.length} arguments`);
  const dir = folderOf(positionals[0], action);
  const search = action === "search"
    ? {
        query: positionals[1],
        topN: args.topN === undefined ? 8 : integerFlag("--top-n", args.topN, { min: 1, max: 1000 }),
        topK: args.topK === undefined ? 1024 : integerFlag("--top-k", args.topK, { min: 1, max: 100_000 }),
        threshold: unitFlag("--threshold", args.threshold, 0.2),
        keywordsWeight: unitFlag("--keywords-weight", args.keywordsWeight, 0.5),
      }
    : undefined;

  let services;
  try {
    services = await openRunServices({ config: args.config, mockLlm: args.mockLlm, mockLlmScript: args.mockLlmScript }, io);
  } catch (error) {
    if (isSetupError(error)) {
      io.err(`canvasflow: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  const notes: string[] = [];
  const previousNotifier = setIndexNotifier((note) => notes.push(note));
  try {
    const tools = services.services.tools!;
    const { id, config } = knowledgeBaseFor(dir, tools.knowledgeBases);
    const embedding = tools.knowledgeModels?.embeddingFor(config, id);
    if (!search) {
      const indexDir = path.resolve(config.indexDir ?? path.join(dir, DEFAULT_INDEX_FOLDER));
      const pipeline = args.pipeline !== undefined ? path.resolve(args.pipeline) : config.pipeline;
      const chunker = args.defaultChunker ? DEFAULT_CHUNKER : await chunkerFor({ indexDir, pipeline, openPipeline: tools.pipelineChunker });
      const bar = progressBar(io);
      let report: IndexReport;
      try {
        report = await updateIndex({ dir, indexDir, embedding, chunker, onProgress: (p) => bar.update(p) });
      } finally {
        bar.done();
      }
      io.stdout.write(reportText(dir, indexDir, embedding?.label ?? "none (keywords only)", chunker.label, report));
      return EXIT.finished;
    }
    // Everything down to a similarity of 0, so the chunks just below the threshold show too.
    const result = await searchKnowledgeBases(
      [{ id, config }],
      {
        query: search.query,
        topN: search.topN,
        topK: search.topK,
        similarityThreshold: 0,
        keywordsWeight: search.keywordsWeight,
        rerankId: args.rerankId ?? "",
        useKg: false,
        tocEnhance: false,
        crossLanguages: [],
        signal: new AbortController().signal,
      },
      tools.env,
      tools.knowledgeModels,
      tools.pipelineChunker,
    );
    for (const note of notes) io.err(`canvasflow: ${note}\n`);
    if (args.json) io.stdout.write(`${JSON.stringify(result.chunks, null, 2)}\n`);
    else io.stdout.write(chunkLines(result.chunks, effectiveThreshold(search.keywordsWeight, search.threshold)));
    return EXIT.finished;
  } catch (error) {
    // An embedding or rerank service that cannot answer, a folder that cannot be read.
    if (isUnavailable(error)) {
      io.err(`canvasflow: ${(error as Error).message}\n`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    setIndexNotifier(previousNotifier);
    await services.close();
  }
}
