/**
 * A mock OpenAI-compatible server on node:http, for running canvases without a model or a key
 * (`canvasflow mock-llm`, `canvasflow run --mock-llm`) and for tests that use the real `openai`
 * client over loopback. It speaks the wire format the client parses:
 *
 * - `POST /v1/chat/completions`: JSON, or Server-Sent Events when `stream` is true (chunks, a
 *   usage chunk when `stream_options.include_usage`, then `data: [DONE]`);
 * - `GET /v1/models`;
 * - `POST /v1/embeddings`: deterministic unit vectors (hashed character n-grams, or a script's
 *   concept vectors), as floats or base64 (the client asks for base64 by default);
 * - `POST /v1/rerank` (and `/v1/reranking`, `/rerank`): the rerank API of Jina, Cohere, vLLM and
 *   Xinference — `{query, documents, top_n}` in, `{results: [{index, relevance_score}]}` out;
 * - `POST /v1/audio/transcriptions`: multipart `file` and `model` in, `{text}` out, a text that
 *   names the file and its size (an ingestion pipeline's audio setup).
 *
 * What it answers is decided in mock-replies.ts (chat) and mock-vectors.ts (embeddings, rerank).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { completionTokens, countWords, MockResponder, promptTokens, type MockChatRequest, type MockPlan } from "./mock-replies.js";
import { loadMockLlmScript, type MockLlmScript } from "./mock-script.js";
import { MockVectors } from "./mock-vectors.js";

export const MOCK_MODEL = "canvasflow-mock";
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_EMBEDDING_DIMENSIONS = 256;
const MAX_RERANK_DOCUMENTS = 10_000;
/** Where rerank servers take requests: Jina, Cohere v1, vLLM and Xinference at /v1/rerank; some at /rerank or /v1/reranking. */
const RERANK_PATHS: ReadonlySet<string> = new Set(["/v1/rerank", "/rerank", "/v1/reranking"]);
/** Requests kept in `requests` (a long-running mock must not grow without bound). */
const MAX_RECORDED = 1000;

export interface MockLlmServerOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Rules, or the path of a script file (checked against schemas/mock-llm-script.schema.json). */
  script?: MockLlmScript | string;
  /** One line per request, e.g. for `canvasflow mock-llm`'s console. */
  log?: (line: string) => void;
}

export interface MockRecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface MockLlmServer {
  /** The base URL to give an OpenAI client: `http://127.0.0.1:<port>/v1`. */
  url: string;
  port: number;
  /** The requests received so far (oldest first; the last 1000). */
  requests: MockRecordedRequest[];
  /** Stops listening, cuts open connections and cancels delayed answers. */
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

function errorType(status: number): string {
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, type = errorType(status)): void {
  sendJson(res, status, { error: { message, type, param: null, code: null } });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A transcription request's multipart form: the file's name and size, and the model. */
async function readTranscriptionForm(req: IncomingMessage): Promise<{ model: string; file: { name: string; size: number } }> {
  const body = await readBody(req);
  let form: FormData;
  try {
    form = await new Request("http://mock/", { method: "POST", headers: { "content-type": String(req.headers["content-type"] ?? "") }, body }).formData();
  } catch (error) {
    throw new HttpError(400, `request body is not a multipart form: ${(error as Error).message}`);
  }
  const file = form.get("file");
  if (!(file instanceof Blob)) throw new HttpError(400, "'file' must be an uploaded file");
  const model = form.get("model");
  if (typeof model !== "string" || model === "") throw new HttpError(400, "'model' must be a non-empty string");
  return { model, file: { name: (file as File).name ?? "audio", size: file.size } };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = (await readBody(req)).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Words with their trailing space, so the pieces joined are exactly the text. */
function pieces(text: string): string[] {
  if (text === "") return [];
  return text.match(/\s*\S+\s*/g) ?? [text];
}

function checkChatRequest(body: unknown): MockChatRequest & { stream?: boolean; stream_options?: { include_usage?: boolean } } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "request body must be a JSON object");
  const request = body as Record<string, unknown>;
  if (!Array.isArray(request.messages) || request.messages.length === 0) throw new HttpError(400, "'messages' must be a non-empty array");
  if (request.tools !== undefined && !Array.isArray(request.tools)) throw new HttpError(400, "'tools' must be an array");
  return request as unknown as ReturnType<typeof checkChatRequest>;
}

export async function startMockLlmServer(options: MockLlmServerOptions = {}): Promise<MockLlmServer> {
  const script = typeof options.script === "string" ? await loadMockLlmScript(options.script) : options.script;
  const responder = new MockResponder(script);
  const vectors = new MockVectors(script?.embeddings, script?.rerank);
  const log = options.log;
  const requests: MockRecordedRequest[] = [];
  // Aborted on close(): cancels every delayed or slowly streamed answer.
  const closing = new AbortController();
  let counter = 0;
  const record = (entry: MockRecordedRequest) => {
    requests.push(entry);
    if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);
  };

  async function pause(ms: number, res: ServerResponse): Promise<boolean> {
    if (ms > 0) await sleep(ms, undefined, { signal: closing.signal }).catch(() => undefined);
    return !closing.signal.aborted && !res.destroyed;
  }

  async function chatCompletions(body: unknown, res: ServerResponse): Promise<void> {
    const request = checkChatRequest(body);
    const plan: MockPlan = responder.plan(request);
    const model = typeof request.model === "string" && request.model !== "" ? request.model : MOCK_MODEL;
    log?.(`POST /v1/chat/completions model=${model}${request.stream ? " stream" : ""} → ${plan.kind === "error" ? `HTTP ${plan.status}` : "answer"} (${plan.why})`);
    if (!(await pause(plan.delayMs, res))) return;
    if (plan.kind === "error") {
      sendError(res, plan.status, plan.message);
      return;
    }
    const id = `chatcmpl-mock-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const prompt = promptTokens(request.messages);
    const completion = completionTokens(plan);
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    const content = plan.think ? `<think>${plan.think}</think>${plan.content}` : plan.content;
    const toolCalls = plan.toolCalls.map((call, i) => ({ id: `call_mock_${counter}_${i}`, type: "function" as const, function: call }));
    const finishReason = toolCalls.length > 0 ? "tool_calls" : "stop";

    if (!request.stream) {
      sendJson(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: toolCalls.length > 0 && content === "" ? null : content, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        ...(plan.sendUsage ? { usage } : {}),
      });
      return;
    }

    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    const frames: unknown[] = [chunk({ role: "assistant", content: "" })];
    const texts = plan.think ? ["<think>", ...pieces(plan.think), "</think>", ...pieces(plan.content)] : pieces(plan.content);
    for (const text of texts) frames.push(chunk({ content: text }));
    toolCalls.forEach((call, index) => {
      // The first fragment names the call; the arguments follow in two pieces, as real servers split them.
      frames.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
      const half = Math.ceil(call.function.arguments.length / 2);
      for (const part of [call.function.arguments.slice(0, half), call.function.arguments.slice(half)]) {
        if (part) frames.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
      }
    });
    frames.push(chunk({}, finishReason));
    if (plan.sendUsage && request.stream_options?.include_usage) {
      frames.push({ id, object: "chat.completion.chunk", created, model, system_fingerprint: null, choices: [], usage });
    }
    for (const frame of frames) {
      if (res.destroyed || closing.signal.aborted) return;
      res.write(`data: ${JSON.stringify(frame)}\n\n`);
      if (plan.chunkDelayMs > 0 && !(await pause(plan.chunkDelayMs, res))) return;
    }
    res.end("data: [DONE]\n\n");
  }

  async function embeddings(body: unknown, res: ServerResponse): Promise<void> {
    if (typeof body !== "object" || body === null) throw new HttpError(400, "request body must be a JSON object");
    const request = body as { input?: unknown; model?: unknown; dimensions?: unknown; encoding_format?: unknown };
    const raw = request.input;
    const inputs: unknown[] = Array.isArray(raw) && !raw.every((x) => typeof x === "number") ? raw : [raw];
    if (raw === undefined || inputs.length === 0) throw new HttpError(400, "'input' must be a string or an array of strings");
    const dimensions = request.dimensions === undefined ? DEFAULT_EMBEDDING_DIMENSIONS : Number(request.dimensions);
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096) throw new HttpError(400, "'dimensions' must be an integer from 1 to 4096");
    const base64 = request.encoding_format === "base64";
    const texts = inputs.map((input) => (typeof input === "string" ? input : JSON.stringify(input)));
    const plan = vectors.embed(texts, dimensions);
    log?.(`POST /v1/embeddings ${inputs.length} input(s) → ${plan.kind === "error" ? `HTTP ${plan.failure.status} (${plan.failure.why})` : `${dimensions} dimensions (${plan.why})`}`);
    if (!(await pause(plan.delayMs, res))) return;
    if (plan.kind === "error") {
      sendError(res, plan.failure.status, plan.failure.message);
      return;
    }
    let tokens = 0;
    const data = plan.vectors.map((vector, index) => {
      tokens += countWords(texts[index]);
      const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
      return { object: "embedding", index, embedding };
    });
    const model = typeof request.model === "string" && request.model ? request.model : MOCK_MODEL;
    sendJson(res, 200, { object: "list", data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  }

  async function rerank(body: unknown, res: ServerResponse): Promise<void> {
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "request body must be a JSON object");
    const request = body as { query?: unknown; documents?: unknown; top_n?: unknown; model?: unknown; return_documents?: unknown };
    if (typeof request.query !== "string") throw new HttpError(400, "'query' must be a string");
    if (!Array.isArray(request.documents)) throw new HttpError(400, "'documents' must be an array of strings");
    if (request.documents.length > MAX_RERANK_DOCUMENTS) throw new HttpError(400, `'documents' has ${request.documents.length} entries; the mock takes at most ${MAX_RERANK_DOCUMENTS}`);
    // Cohere and Jina also accept {text: "..."} objects.
    const documents = request.documents.map((d, i) => {
      if (typeof d === "string") return d;
      if (d && typeof d === "object" && typeof (d as { text?: unknown }).text === "string") return (d as { text: string }).text;
      throw new HttpError(400, `'documents[${i}]' must be a string or {text}`);
    });
    const topN = request.top_n === undefined ? documents.length : Number(request.top_n);
    if (!Number.isInteger(topN) || topN < 1) throw new HttpError(400, "'top_n' must be a positive integer");
    const plan = vectors.rerank(request.query, documents);
    log?.(`POST /v1/rerank ${documents.length} document(s) → ${plan.kind === "error" ? `HTTP ${plan.failure.status} (${plan.failure.why})` : plan.why}`);
    if (!(await pause(plan.delayMs, res))) return;
    if (plan.kind === "error") {
      sendError(res, plan.failure.status, plan.failure.message);
      return;
    }
    const results = plan.scores
      .map((relevance_score, index) => ({ index, relevance_score, ...(request.return_documents === true ? { document: { text: documents[index] } } : {}) }))
      .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
      .slice(0, topN);
    const tokens = countWords(request.query) * Math.max(1, documents.length) + documents.reduce((n, d) => n + countWords(d), 0);
    const model = typeof request.model === "string" && request.model ? request.model : MOCK_MODEL;
    sendJson(res, 200, { id: `rerank-mock-${++counter}`, model, results, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://mock").pathname.replace(/\/+$/, "");
    const method = req.method ?? "GET";
    try {
      if (path === "/v1/models") {
        if (method !== "GET") throw new HttpError(405, `${method} is not allowed on ${path}`);
        record({ method, path, body: undefined });
        sendJson(res, 200, { object: "list", data: [{ id: MOCK_MODEL, object: "model", created: 0, owned_by: "canvasflow" }] });
        return;
      }
      const rerankPath = RERANK_PATHS.has(path);
      if (path !== "/v1/chat/completions" && path !== "/v1/embeddings" && path !== "/v1/audio/transcriptions" && !rerankPath) {
        throw new HttpError(404, `the mock LLM serves /v1/chat/completions, /v1/embeddings, /v1/rerank, /v1/audio/transcriptions and /v1/models, not ${path}`);
      }
      if (method !== "POST") throw new HttpError(405, `${method} is not allowed on ${path}`);
      if (path === "/v1/audio/transcriptions") {
        const form = await readTranscriptionForm(req);
        record({ method, path, body: form });
        log?.(`POST ${path} ${form.file.name} (${form.file.size} bytes)`);
        sendJson(res, 200, { text: `[mock transcription] ${form.file.name}, ${form.file.size} bytes` });
        return;
      }
      const body = await readJson(req);
      record({ method, path, body });
      if (path === "/v1/embeddings") await embeddings(body, res);
      else if (rerankPath) await rerank(body, res);
      else await chatCompletions(body, res);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        log?.(`${method} ${path} → HTTP ${error.status}: ${error.message}`);
        sendError(res, error.status, error.message, error.type);
      } else {
        log?.(`${method} ${path} → HTTP 500: ${(error as Error).message}`);
        sendError(res, 500, `mock LLM failed: ${(error as Error).message}`);
      }
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}/v1`,
    port: address.port,
    requests,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
