/**
 * The plain values every contract is made of: params, outputs, history entries, form fields,
 * token usage, retrieved references and the services a run hands its components.
 */
export type Params = Record<string, unknown>;

export type HistoryEntry = [role: string, content: unknown];

export type Outputs = Record<string, unknown>;

/**
 * How a state key merges a write into its value: `(current, update) => next`, never mutating
 * `current`. Conversation variables that declare a `reducer` are state keys (canvasflow/graph).
 */
export type StateReducer = (current: unknown, update: unknown) => unknown;

/** One write to a state key (`env.<key>`): its key and the value its reducer merges in. */
export type StateWrite = readonly [key: string, value: unknown];

/** A JSON Schema object (draft 2020-12 subset that ajv understands). */
export type JsonSchema = Record<string, unknown>;

/** One field of an input form (Begin, UserFillUp), as RAGFlow stores it. */
export interface InputField {
  name?: string;
  type?: string;
  optional?: boolean;
  options?: unknown[];
  value?: unknown;
  [key: string]: unknown;
}

/** Tokens of one model call. */
export interface UsageReport {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
}

/** A retrieved chunk, as RAGFlow sends it in `message_end.reference.chunks`. */
export interface ReferenceChunk {
  id: string;
  content: string;
  document_id?: string;
  document_name?: string;
  dataset_id?: string;
  similarity?: number;
  url?: string;
  [key: string]: unknown;
}

/** A source document of retrieved chunks (`message_end.reference.doc_aggs`). */
export interface ReferenceDocument {
  doc_id: string;
  doc_name: string;
  count: number;
  url?: string;
  [key: string]: unknown;
}

/** Attribute values a span takes (OpenTelemetry's AttributeValue, without importing it). */
export type SpanAttributes = Record<string, string | number | boolean | readonly string[] | readonly number[] | undefined>;

/** A child span while its work runs (ComponentContext.span): more attributes, or the error that failed it. */
export interface SpanScope {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed (status ERROR, `canvasflow.error`) without ending it. */
  recordError(error: unknown): void;
}

/** Hooks into the world outside the canvas. Providers arrive with the LLM and tools work. */
export interface RuntimeServices {
  /** Extra services registered by the embedding application, keyed by name. */
  readonly [name: string]: unknown;
}
