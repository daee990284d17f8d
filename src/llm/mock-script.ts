/**
 * Scripts for the mock LLM server: ordered rules that say how to answer requests whose messages
 * match a regex (`schemas/mock-llm-script.schema.json` describes every key).
 */
import { readJsonFile } from "../util/json-file.js";
import { formatSchemaIssues, schemaIssues, type SchemaIssue } from "../util/json-schema.js";

export type MockMatchTarget = "last_user" | "system" | "any" | "tool";

export interface MockToolCall {
  name: string;
  /** An object (sent as JSON) or the exact JSON text. Default {}. */
  arguments?: Record<string, unknown> | string;
}

export interface MockLlmRule {
  /** JavaScript regex source, searched for in the text `on` selects. */
  match: string;
  /** Regex flags; default "i". */
  flags?: string;
  on?: MockMatchTarget;
  reply?: string;
  /** Sent before the reply as `<think>…</think>`. */
  think?: string;
  tool_calls?: MockToolCall[];
  /** Answer with this HTTP error status instead. */
  status?: number;
  /** The error message sent with `status`. */
  message?: string;
  /** Answer at most this many requests, then pass the rule over. */
  times?: number;
  delay_ms?: number;
  chunk_delay_ms?: number;
  /** false: send no usage. */
  usage?: boolean;
}

/** A rule for /v1/embeddings: texts it matches get the concept's vector, or the request fails. */
export interface MockEmbeddingRule {
  /** JavaScript regex source, searched for in each input text. */
  match: string;
  /** Regex flags; default "i". */
  flags?: string;
  /** Texts that match get this concept's vector: every text pinned to one concept gets the same one. */
  concept?: string;
  /** Fail a request with any matching input with this HTTP status instead. */
  status?: number;
  message?: string;
  times?: number;
  delay_ms?: number;
}

/** A rule for /v1/rerank, matched against the query. */
export interface MockRerankRule {
  match: string;
  flags?: string;
  /** Relevance scores by document position (missing ones are 0). */
  scores?: number[];
  /** "reverse": the last document first; "given": the documents' own order. */
  order?: "reverse" | "given";
  status?: number;
  message?: string;
  times?: number;
  delay_ms?: number;
}

export interface MockLlmScript {
  rules?: MockLlmRule[];
  embeddings?: MockEmbeddingRule[];
  rerank?: MockRerankRule[];
}

const MOCK_SCRIPT_SCHEMA = "mock-llm-script.schema.json";

export class MockScriptError extends Error {
  constructor(
    readonly source: string,
    readonly issues: SchemaIssue[],
  ) {
    super(`invalid mock LLM script:\n${formatSchemaIssues(source, issues)}`);
    this.name = "MockScriptError";
  }
}

/** Check a script (already parsed JSON) against the schema, and each regex by compiling it. */
export function parseMockLlmScript(value: unknown, source = "mock LLM script"): MockLlmScript {
  const issues = schemaIssues(MOCK_SCRIPT_SCHEMA, value);
  if (issues.length === 0) {
    const script = value as MockLlmScript;
    for (const key of ["rules", "embeddings", "rerank"] as const) {
      (script[key] ?? []).forEach((rule: { match: string; flags?: string }, i: number) => {
        try {
          new RegExp(rule.match, rule.flags ?? "i");
        } catch (error) {
          issues.push({ pointer: `/${key}/${i}/match`, message: `is not a valid regular expression: ${(error as Error).message}` });
        }
      });
    }
  }
  if (issues.length > 0) throw new MockScriptError(source, issues);
  return value as MockLlmScript;
}

/** Read and check a script file. */
export async function loadMockLlmScript(file: string): Promise<MockLlmScript> {
  const read = await readJsonFile(file);
  if (!read.ok) throw new MockScriptError(file, [{ pointer: "", message: read.problem }]);
  return parseMockLlmScript(read.value, file);
}
