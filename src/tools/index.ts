/**
 * The components that need a tool provider: RAGFlow's Agent tools (each also usable as a canvas
 * node) plus DocGenerator and ExcelProcessor, which produce files.
 */
import type { ComponentDefinition } from "../components/types.js";
import { CodeExec } from "./code-exec.js";
import { DocGenerator } from "./doc-generator.js";
import { Email } from "./email.js";
import { ExcelProcessor } from "./excel-processor.js";
import { ExeSQL } from "./exesql.js";
import { AkShare, WenCai, YahooFinance } from "./finance.js";
import { ArXiv, GitHub, GoogleScholar, PubMed, Wikipedia } from "./knowledge-search.js";
import { Retrieval } from "./retrieval.js";
import { Crawler, DeepL, QWeather } from "./web-utilities.js";
import { BGPT, DuckDuckGo, Google, KeenableSearch, QueritContents, QueritSearch, SearXNG, TavilyExtract, TavilySearch } from "./web-search.js";

export { defineTool, metaReferences, type MetaParam, type ToolSpec } from "./define-tool.js";

export const TOOL_COMPONENTS: readonly ComponentDefinition[] = [
  Retrieval,
  CodeExec,
  TavilySearch,
  TavilyExtract,
  Google,
  DuckDuckGo,
  Wikipedia,
  PubMed,
  ArXiv,
  GoogleScholar,
  GitHub,
  SearXNG,
  KeenableSearch,
  QueritSearch,
  QueritContents,
  BGPT,
  Crawler,
  DeepL,
  QWeather,
  AkShare,
  WenCai,
  YahooFinance,
  ExeSQL,
  Email,
  DocGenerator,
  ExcelProcessor,
];
