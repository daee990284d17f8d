/**
 * pipeline-ingest (issue 27): RAGFlow's ingestion pipeline title_chunker.json, as shipped (the
 * corpus file, read in place), as a local knowledge base's chunker: File → Parser → TitleChunker
 * (hierarchy, 3 levels) → Extractor (one summary per chunk, asked of a chat model) → Tokenizer.
 * The mock LLM server (startMockLlmServer, in this process, over loopback) answers the
 * Extractor's chats and the knowledge base's embeddings (/v1/embeddings, 384 dimensions).
 *
 * What is measured:
 * - documents/s: one run is `updateIndex` of a folder of 200 generated files into a new index
 *   folder, chunked by the pipeline (`openPipelineChunker`: one run of the pipeline per file, a
 *   chat per chunk) and embedded (chunks and file names): read, parse, chunk, summarize, tokenize,
 *   embed, write the cache. The 200 files (deterministic, 734 KB): 134 Markdown files of
 *   1.3–8.5 KB (headings at four levels, paragraphs, bulleted and numbered lists, pipe tables, code
 *   blocks) and 66 text files of 0.9–3.9 KB (a title line and paragraphs). Timed by the runner's samples on the CPU clock of this process (the
 *   mock server's work included, on both sides); documents/s = 200 / median run.
 * - the in-run reference: canvasflow's default chunker indexing the same 200 files with the same
 *   embeddings (`updateIndex` without a chunker: Markdown by headings, text by paragraphs, no
 *   chat), 5 runs after one warm-up, after the samples, on the same clock.
 * - peak RSS: in a fresh child process (this file run as a script, importing only canvasflow's core
 *   entry), one run of the pipeline (`loadCanvas`, `run({ files: [csv] })` with `services: {
 *   documents: localDocuments(), llm }`, every event consumed) over a generated CSV of order records
 *   (9 columns, quoted notes) of 10 MB and one of 50 MB; the figure is the child's
 *   `process.resourceUsage().maxRSS`. The child's LLM is the mock server of this process, so the
 *   peak is the run's (and Node's with canvasflow loaded: rss_before_mb). The template parses a
 *   spreadsheet to HTML, so the document reaches TitleChunker as one table of at most
 *   ParseLimits.maxTextChars (20 million) characters, cut at the token cap.
 * Target: peak RSS under 300 MB for the 50 MB CSV, and at most 1.2× the 10 MB CSV's (independent
 * of the file's size).
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { random } from "../lib.mjs";

const FILES = 200;
const DIMENSIONS = 384;
const CSV_SIZES_MB = [10, 50];
const REFERENCE_RUNS = 5;
export const plan = { warmup: 2, warmupMs: 1000, samples: 5, clock: "cpu" };

const HERE = fileURLToPath(import.meta.url);
const CORE = new URL("../../dist/bundle/index.js", import.meta.url).href;

/**
 * title_chunker.json in the shared DSL corpus, read in place (never copied or edited), found as the
 * tests find it (test/helpers/corpus.ts): CANVASFLOW_DSL_CORPUS, else shared/ beside the project
 * (CANVASFLOW_SHARED, ../shared, /work/shared).
 */
function titleChunkerPath() {
  const shared = [process.env.CANVASFLOW_SHARED, path.join(HERE, "../../../../shared"), "/work/shared"].filter(Boolean).map((s) => path.join(s, "dsl-corpus"));
  const candidates = [process.env.CANVASFLOW_DSL_CORPUS, ...shared].filter(Boolean).map((corpus) => path.join(corpus, "ragflow/head/title_chunker.json"));
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`title_chunker.json was not found in the DSL corpus (looked for ${candidates.join(", ")}); clone the project beside shared/ or set CANVASFLOW_DSL_CORPUS`);
  return found;
}

const WORDS = (
  "the of and to in a is that for it as with was on be by this are or from at an which have not has but were can all their more one " +
  "will when there also other been into its than only these may new some time such used any most after between first two each over " +
  "system data process orchard harvest storage pipeline document report customer order supplier region quality season delivery " +
  "schedule team review policy budget contract invoice warehouse inventory shipment crate pallet grade sample inspection record " +
  "index search model chunk section table field value request response service server client queue worker retry limit error " +
  "measure result figure target cost price quantity volume weight temperature humidity sensor reading alert threshold average " +
  "apple pear cherry plum quince apricot variety tree block row irrigation pruning spray blossom frost yield picker packing " +
  "monday friday morning evening week month quarter annual daily weekly north south east west central coastal valley hill " +
  "manager operator analyst engineer auditor clerk driver grower buyer agent partner vendor carrier office depot market " +
  "increase decrease change update check confirm approve reject assign track report compare estimate forecast plan prepare " +
  "quickly carefully usually rarely often before during within without under above across through against along around"
).split(" ");

function textOf(rand) {
  /** Zipf-like: low ranks are common, as in real text. */
  const word = () => WORDS[Math.floor(WORDS.length * rand() ** 2.2)];
  const sentence = () => {
    const words = Array.from({ length: 7 + Math.floor(rand() * 12) }, word);
    if (rand() < 0.15) words.splice(2 + Math.floor(rand() * 3), 0, `${Math.floor(rand() * 900) + 10}`);
    return `${words[0][0].toUpperCase()}${words.join(" ").slice(1)}${rand() < 0.1 ? "?" : "."}`;
  };
  const paragraph = (min = 2, spread = 4) => Array.from({ length: min + Math.floor(rand() * spread) }, sentence).join(" ");
  const title = (n = 2 + Math.floor(rand() * 3)) => {
    const t = Array.from({ length: n }, word).join(" ");
    return `${t[0].toUpperCase()}${t.slice(1)}`;
  };
  return { word, sentence, paragraph, title, rand };
}

function markdownFile(i) {
  const { word, sentence, paragraph, title, rand } = textOf(random(1000 + i));
  const out = [`# ${title(3)} (${i})`, paragraph(2, 3)];
  const sections = 3 + Math.floor(rand() * 4);
  for (let s = 1; s <= sections; s++) {
    out.push(`## ${s}. ${title()}`, paragraph());
    if (rand() < 0.5) out.push(Array.from({ length: 3 + Math.floor(rand() * 4) }, () => `- ${sentence()}`).join("\n"));
    const subsections = Math.floor(rand() * 3);
    for (let u = 1; u <= subsections; u++) {
      out.push(`### ${s}.${u} ${title()}`, paragraph(1, 3));
      const kind = rand();
      if (kind < 0.3) {
        const columns = 3 + Math.floor(rand() * 3);
        const rows = [`| ${Array.from({ length: columns }, () => word()).join(" | ")} |`, `|${"---|".repeat(columns)}`];
        for (let r = 0; r < 3 + Math.floor(rand() * 6); r++) rows.push(`| ${Array.from({ length: columns }, (_, c) => (c === 0 ? word() : (rand() * 1000).toFixed(c % 2 ? 0 : 2))).join(" | ")} |`);
        out.push(rows.join("\n"));
      } else if (kind < 0.5) {
        out.push(Array.from({ length: 3 + Math.floor(rand() * 3) }, (_, n) => `${n + 1}. ${sentence()}`).join("\n"));
      } else if (kind < 0.6) {
        out.push(["```sh", `canvasflow kb index ${word()} --pipeline title_chunker.json`, `canvasflow kb search ${word()} "${word()} ${word()}"`, "```"].join("\n"));
      }
      if (rand() < 0.35) out.push(`#### ${title()}`, paragraph(1, 2));
      if (rand() < 0.5) out.push(paragraph());
    }
  }
  return `${out.join("\n\n")}\n`;
}

function textFile(i) {
  const { paragraph, title, rand } = textOf(random(5000 + i));
  const out = [title(4).toUpperCase()];
  for (let p = 0; p < 5 + Math.floor(rand() * 10); p++) out.push(paragraph(2, 5));
  return `${out.join("\n\n")}\n`;
}

/** The 200 files: two Markdown files for each text file. */
export async function writeDocuments(dir) {
  const sizes = { md: [], txt: [] };
  for (let i = 0; i < FILES; i++) {
    const kind = i % 3 === 2 ? "txt" : "md";
    const text = kind === "md" ? markdownFile(i) : textFile(i);
    await writeFile(path.join(dir, `${kind === "md" ? "doc" : "notes"}-${String(i).padStart(3, "0")}.${kind}`), text);
    sizes[kind].push(Buffer.byteLength(text));
  }
  const summary = (xs) => ({ files: xs.length, min_bytes: Math.min(...xs), max_bytes: Math.max(...xs), total_bytes: xs.reduce((a, b) => a + b, 0) });
  return { markdown: summary(sizes.md), text: summary(sizes.txt) };
}

/** A CSV of order records of `mb` MB (2^20 bytes), deterministic. */
export async function writeCsv(file, mb) {
  const rand = random(77 + mb);
  const out = createWriteStream(file);
  const regions = ["North", "South", "East", "West", "Central", "Coastal"];
  const products = ["apple crates", "pear boxes", "cherry punnets", "plum trays", "quince sacks", "apricot flats", "mixed pallet"];
  const names = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia", "Tim", "Margaret", "Niklaus"];
  let text = "order_id,date,customer,region,product,quantity,unit_price,total,note\n";
  let bytes = 0;
  let rows = 0;
  const target = mb * 1024 * 1024;
  while (bytes + text.length < target) {
    const quantity = 1 + Math.floor(rand() * 60);
    const price = 2 + rand() * 90;
    const day = `2026-${String(1 + Math.floor(rand() * 12)).padStart(2, "0")}-${String(1 + Math.floor(rand() * 28)).padStart(2, "0")}`;
    const note = rand() < 0.2 ? `"left at dock ${Math.floor(rand() * 20)}, signed by ${names[Math.floor(rand() * names.length)]} (""urgent"")"` : rand() < 0.5 ? "" : `delivered ${day}`;
    text += `${100000 + rows},${day},${names[Math.floor(rand() * names.length)]} ${String.fromCharCode(65 + Math.floor(rand() * 26))}. Orchards,${regions[Math.floor(rand() * regions.length)]},${products[Math.floor(rand() * products.length)]},${quantity},${price.toFixed(2)},${(quantity * price).toFixed(2)},${note}\n`;
    rows++;
    if (text.length > 1 << 20) {
      bytes += text.length;
      if (!out.write(text)) await new Promise((resolve) => out.once("drain", resolve));
      text = "";
    }
  }
  out.end(text);
  await finished(out);
  return { rows, bytes: statSync(file).size };
}

async function timed(fn) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, wall_ms: performance.now() - wall, cpu_ms: (used.user + used.system) / 1000 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** One pipeline run over the CSV in a fresh process; its peak RSS (MB) and what the run made. */
function csvPeak(csv, mockUrl) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HERE, "--csv-peak", csv, mockUrl], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (piece) => (stdout += piece));
    child.stderr.on("data", (piece) => (stderr += piece));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`the CSV run over ${csv} exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1)));
    });
  });
}

/** The child: one run of the pipeline over the CSV, the chats sent to the parent's mock server. */
async function csvPeakChild(csv, mockUrl) {
  const api = await import(CORE);
  const rssBefore = process.memoryUsage().rss;
  const llm = api.createLlmProvider({ providers: { mock: { baseURL: mockUrl } }, defaultModel: { provider: "mock", model: "mock" } }, {});
  const started = performance.now();
  const canvas = await api.loadCanvas(titleChunkerPath(), { services: { llm, documents: api.localDocuments() } });
  let last;
  let lastStep;
  const warnings = [];
  // When each step finished, ms from the start (the run's steps follow each other).
  const steps = {};
  for await (const event of canvas.run({ files: [{ name: path.basename(csv), path: csv }] })) {
    last = event;
    if (event.event === "node_finished") {
      lastStep = event.data.component_id;
      steps[lastStep.split(":")[0]] = Math.round(performance.now() - started);
      for (const warning of event.data.outputs?._warnings ?? []) warnings.push(String(warning));
    }
  }
  if (last?.event !== "workflow_finished" || last.data.error) throw new Error(`the run did not finish cleanly: ${JSON.stringify(last?.data?.error)}`);
  const chunks = canvas.outputs(lastStep)?.chunks;
  process.stdout.write(
    `${JSON.stringify({ peak_rss_mb: process.resourceUsage().maxRSS / 1024, rss_before_mb: rssBefore / 1048576, ms: performance.now() - started, steps_ms: steps, chunks: chunks?.length ?? null, warnings })}\n`,
  );
}

export async function canvasflowSide() {
  const { canvasflow } = await import("../lib.mjs");
  const api = await canvasflow();
  const { openPipelineChunker } = await import("../../dist/src/pipelines/kb-chunker.js");
  api.setIndexNotifier(() => undefined);
  const log = (what) => process.stderr.write(`pipeline-ingest bench: ${what}\n`);

  const root = mkdtempSync(path.join(tmpdir(), "canvasflow-bench-ingest-"));
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, "kb");
  mkdirSync(dir);
  mkdirSync(path.join(root, "index"));
  const written = await writeDocuments(dir);
  const csvs = [];
  for (const mb of CSV_SIZES_MB) {
    const file = path.join(root, `orders-${mb}mb.csv`);
    csvs.push({ mb, file, ...(await writeCsv(file, mb)) });
  }
  log("files written");

  const mock = await api.startMockLlmServer();
  const llm = api.createLlmProvider({ providers: { mock: { baseURL: mock.url } }, defaultModel: { provider: "mock", model: "mock" } }, {});
  const models = api.createKnowledgeModels({ providers: { mock: { baseURL: mock.url } }, embedding: { provider: "mock", model: "bench-embed", dimensions: DIMENSIONS, batchSize: 64 } }, {});
  const embedding = models.embeddingFor({ type: "local", dir }, "bench");
  const chunker = await openPipelineChunker(titleChunkerPath(), { llm });

  let runs = 0;
  /** `kb index` of the folder into a new index folder, by the pipeline or (without a chunker) the default chunker. */
  const index = async (withChunker) => {
    const indexDir = path.join(root, "index", `run-${runs++}`);
    // Each run's index stays until the process exits (removing it would be timed too).
    const report = await api.updateIndex({ dir, embedding, indexDir, ...(withChunker ? { chunker } : {}) });
    if (report.files !== FILES || report.chunkedFiles !== FILES || report.skipped.length > 0) throw new Error(`expected ${FILES} files chunked, got ${JSON.stringify({ ...report, notes: undefined })}`);
    return report;
  };
  let last;
  return {
    run: async () => {
      last = await index(true);
    },
    extra: async () => {
      await index(false);
      const reference = [];
      for (let r = 0; r < REFERENCE_RUNS; r++) reference.push(await timed(() => index(false)));
      log(`reference: ${reference.map((r) => r.cpu_ms.toFixed(0)).join(" / ")} ms CPU`);
      const peaks = [];
      for (const csv of csvs) {
        const peak = await csvPeak(csv.file, mock.url);
        log(`${csv.mb} MB CSV: peak RSS ${peak.peak_rss_mb.toFixed(0)} MB in ${(peak.ms / 1000).toFixed(0)} s`);
        peaks.push({ mb: csv.mb, bytes: csv.bytes, rows: csv.rows, ...peak });
      }
      await mock.close();
      return {
        files: FILES,
        written,
        chunks: last.chunks,
        embedded_chunks: last.embeddedChunks,
        reference_chunks: reference.at(-1).value.chunks,
        reference_cpu_ms: reference.map((r) => r.cpu_ms),
        reference_wall_ms: reference.map((r) => r.wall_ms),
        reference_cpu_median_ms: median(reference.map((r) => r.cpu_ms)),
        csv: peaks,
      };
    },
  };
}

if (process.argv[1] === HERE && process.argv[2] === "--csv-peak") await csvPeakChild(process.argv[3], process.argv[4]);

