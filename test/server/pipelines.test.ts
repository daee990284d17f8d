/**
 * Ingestion pipelines on the server, through RAGFlow's routes: a dataflow canvas is created as an
 * agent (template envelope or bare DSL), documents are uploaded with POST /agents/{id}/upload,
 * a completion with their file dicts answers {message_id, session_id} at once and runs one
 * pipeline run per document in the background, and GET /agents/{id}/logs/{message_id} reads a
 * run's trace back. Real documents (test/helpers/pipeline-documents.ts), RAGFlow's own template
 * (the corpus's title_chunker.json), the mock LLM for its Extractor. Tested as an attacker too:
 * another tenant's agent, upload and log, a path in `files`, an oversized upload.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { UploadRecord } from "../../src/backends/contracts.js";
import type { CanvasEvent } from "../../src/engine/events.js";
import { pipelineLog } from "../../src/server/pipeline-log.js";
import { uploadDocuments } from "../../src/server/upload-documents.js";
import { TenantUploads } from "../../src/server/uploads.js";
import { corpusPath } from "../helpers/corpus.js";
import { startMockLlm } from "../helpers/mock-llm.js";
import { writePipelineDocuments } from "../helpers/pipeline-documents.js";
import { addKey, call, createAgent, injectTestServer, type TestServer, type TestServerOptions } from "../helpers/server.js";
import { hello } from "./canvases.js";

const folder = mkdtempSync(join(tmpdir(), "canvasflow-server-pipelines-"));
beforeAll(() => writePipelineDocuments(folder));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NO_PATHS = "a server run reads only its tenant's uploads, by id, never a path: upload the document with POST /api/v1/agents/{agent_id}/upload and pass the file dict it answers";
const NO_ACCESS = { code: 103, message: "Make sure you have permission to access the agent.", data: false };

/** RAGFlow's "Title Chunker" template as shipped: File → Parser → TitleChunker → Extractor (summary) → Tokenizer. */
function titleChunker(): Record<string, unknown> {
  return JSON.parse(readFileSync(corpusPath("ragflow/head", "title_chunker.json"), "utf8")) as Record<string, unknown>;
}

const CHAIN = ["File", "Parser:HipSignsRhyme", "TitleChunker:WideResultsTeach", "Extractor:DryRatsGive", "Tokenizer:WackyOnionsFly"];

async function pipelineServer(options: TestServerOptions = {}, script?: Parameters<typeof startMockLlm>[0]): Promise<TestServer> {
  const mock = await startMockLlm(script);
  return injectTestServer({ canvas: { services: { llm: mock.provider } }, ...options });
}

interface UploadFile {
  name: string;
  data?: Buffer;
  type?: string;
}

/** POST /agents/{id}/upload with these files in the multipart field `file` (the documents' bytes by default). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function upload(server: TestServer, agentId: string, files: UploadFile[], key = server.key): Promise<{ status: number; json: any }> {
  const boundary = "----canvasflow-test-boundary";
  const parts = files.map((file) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? "application/octet-stream"}\r\n\r\n`),
      file.data ?? readFileSync(join(folder, file.name)),
      Buffer.from("\r\n"),
    ]),
  );
  const answer = await server.app.inject({
    method: "POST",
    url: `/api/v1/agents/${agentId}/upload`,
    headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
  });
  return { status: answer.statusCode, json: answer.json() };
}

async function uploaded(server: TestServer, agentId: string, name: string, type?: string): Promise<Record<string, unknown>> {
  const answer = await upload(server, agentId, [{ name, ...(type ? { type } : {}) }]);
  expect(answer.json.code, JSON.stringify(answer.json)).toBe(0);
  return answer.json.data as Record<string, unknown>;
}

interface LogEntry {
  component_id: string;
  trace: Array<{ progress: number; message: string; datetime: string; timestamp: number; elapsed_time: number }>;
}

async function log(server: TestServer, agentId: string, messageId: string, key = server.key) {
  return call(server, `/api/v1/agents/${agentId}/logs/${messageId}`, { key });
}

/** The run's log once it has its END entry. */
async function finishedLog(server: TestServer, agentId: string, messageId: string): Promise<LogEntry[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await log(server, agentId, messageId);
    expect(answer.json.code, answer.text).toBe(0);
    const entries = answer.json.data as LogEntry[];
    if (entries.at(-1)?.component_id === "END") return entries;
    if (Date.now() > deadline) throw new Error(`the run ${messageId} did not end: ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function endOf(entries: LogEntry[]): { progress: number; output: Record<string, unknown> } {
  const end = entries.at(-1)!;
  expect(end.component_id).toBe("END");
  expect(end.trace).toHaveLength(1);
  return { progress: end.trace[0].progress, output: JSON.parse(end.trace[0].message) as Record<string, unknown> };
}

const note = (progress: number | ReturnType<typeof expect.any>, message: string) => ({ progress, message, datetime: expect.stringMatching(/^\d\d:\d\d:\d\d$/), timestamp: expect.any(Number), elapsed_time: expect.any(Number) });

describe("a pipeline as an agent", () => {
  it("is created from RAGFlow's template envelope and from a bare DSL, and shows canvas_category dataflow_canvas", async () => {
    const server = await pipelineServer();
    const template = titleChunker();
    const fromEnvelope = await call(server, "/api/v1/agents", { body: { title: "Title chunker", dsl: template } });
    expect(fromEnvelope.json).toMatchObject({ code: 0, message: "success", data: { title: "Title chunker", canvas_category: "dataflow_canvas", dsl: template.dsl } });
    const bare = JSON.parse(readFileSync(corpusPath("ragflow/head", "compiler.json"), "utf8"));
    const fromBare = await call(server, "/api/v1/agents", { body: { title: "Compiler", dsl: bare, canvas_category: "dataflow_canvas" } });
    expect(fromBare.json).toMatchObject({ code: 0, data: { canvas_category: "dataflow_canvas" } });
    const agent = await call(server, `/api/v1/agents/${fromBare.json.data.id}`);
    expect(agent.json.data.canvas_category).toBe("dataflow_canvas");
    const list = await call(server, "/api/v1/agents");
    expect(list.json.data.canvas.map((a: { title: string; canvas_category: string }) => [a.title, a.canvas_category]).sort()).toEqual([
      ["Compiler", "dataflow_canvas"],
      ["Title chunker", "dataflow_canvas"],
    ]);
    const agentCanvas = await createAgent(server, hello());
    expect((await call(server, `/api/v1/agents/${agentCanvas}`)).json.data.canvas_category).toBe("agent_canvas");
  });

  it("is validated as a pipeline: a category that says pipeline over an agent canvas, or a broken step, is refused naming the field", async () => {
    const server = await pipelineServer();
    const wrong = await call(server, "/api/v1/agents", { body: { title: "Not a pipeline", dsl: hello(), canvas_category: "dataflow_canvas" } });
    expect(wrong.json).toEqual({
      code: 101,
      message: '`canvas_category` is "dataflow_canvas", but `dsl` is not an ingestion pipeline: it is an agent canvas; a pipeline is a chain of steps from a File (Parser, a chunker, Extractor, Tokenizer…) with no Begin',
      data: false,
    });
    const template = titleChunker() as { dsl: { components: Record<string, { obj: { params: Record<string, unknown> } }> } };
    template.dsl.components["TitleChunker:WideResultsTeach"].obj.params.hierarchy = "";
    const broken = await call(server, "/api/v1/agents", { body: { title: "Broken", dsl: template } });
    expect(broken.json.code).toBe(101);
    expect(broken.json.message).toMatch(/^The DSL is not a valid agent canvas \(1 error\): \/dsl\/dsl\/components\/TitleChunker:WideResultsTeach\/obj\/params\/hierarchy: /);
  });

  it("passes a component policy that allows its steps; a policy that denies one is refused with the step named", async () => {
    const allowed = await pipelineServer({ policy: { components: { allow: ["File", "Parser", "TitleChunker", "Extractor", "Tokenizer"] } } });
    const created = await call(allowed, "/api/v1/agents", { body: { title: "Allowed", dsl: titleChunker() } });
    expect(created.json.code).toBe(0);
    const agentId = created.json.data.id as string;
    const file = await uploaded(allowed, agentId, "notes.txt", "text/plain");
    const started = await call(allowed, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files: [file] } });
    expect(started.json.code).toBe(0);
    expect(endOf(await finishedLog(allowed, agentId, started.json.data.message_id)).progress).toBe(1);

    const denied = await pipelineServer({ policy: { tenants: { t1: { components: { deny: ["Extractor"] } } } } });
    const refused = await call(denied, "/api/v1/agents", { body: { title: "Denied", dsl: titleChunker() } });
    expect(refused.json).toEqual({
      code: 103,
      message: 'This server\'s component policy denies what the DSL uses: component Extractor:DryRatsGive (component_name "Extractor") is denied by server.policy.tenants.t1.components.deny',
      data: { denied: [{ component_id: "Extractor:DryRatsGive", kind: "component", component_name: "Extractor", name: "Extractor", rule: "server.policy.tenants.t1.components.deny" }] },
    });
  });
});

describe("POST /api/v1/agents/{agent_id}/upload", () => {
  it("keeps the document for the key's tenant and answers RAGFlow's file dict (a list for several files)", async () => {
    const server = await pipelineServer();
    const agentId = await createAgent(server, titleChunker());
    const one = await upload(server, agentId, [{ name: "guide.md", type: "text/markdown" }]);
    expect(one.status).toBe(200);
    const size = readFileSync(join(folder, "guide.md")).length;
    expect(one.json).toEqual({
      code: 0,
      message: "success",
      data: { id: expect.stringMatching(UUID), name: "guide.md", size, extension: "md", mime_type: "text/markdown", created_by: "t1", created_at: expect.any(Number), preview_url: null },
    });
    const stored = await server.store.uploads.get("t1", one.json.data.id, Date.now());
    expect(stored!.data.equals(readFileSync(join(folder, "guide.md")))).toBe(true);
    expect(one.json.data.created_at).toBe(stored!.record.create_time / 1000);
    // Another tenant's store has nothing under that id.
    expect(await server.store.uploads.get("t2", one.json.data.id, Date.now())).toBeUndefined();

    const two = await upload(server, agentId, [{ name: "notes.txt", type: "text/plain" }, { name: "handbook.docx" }]);
    expect(two.json.code).toBe(0);
    expect(two.json.data.map((f: { name: string; extension: string; mime_type: string }) => [f.name, f.extension, f.mime_type])).toEqual([
      ["notes.txt", "txt", "text/plain"],
      ["handbook.docx", "docx", "application/octet-stream"],
    ]);
  });

  it("refuses a body without a file, a file name with a path, and an agent the key cannot reach", async () => {
    const server = await pipelineServer();
    const agentId = await createAgent(server, titleChunker());
    const none = await server.app.inject({
      method: "POST",
      url: `/api/v1/agents/${agentId}/upload`,
      headers: { authorization: `Bearer ${server.key}`, "content-type": "multipart/form-data; boundary=b" },
      payload: '--b\r\nContent-Disposition: form-data; name="user"\r\n\r\nada\r\n--b--\r\n',
    });
    expect(none.json()).toEqual({ code: 101, message: "No file in the request: send the document as the multipart field `file`.", data: null });
    expect((await upload(server, agentId, [{ name: "../../etc/passwd", data: Buffer.from("x") }])).json).toEqual({
      code: 101,
      message: "The field `file` needs a file name (its filename, without a path, at most 255 characters).",
      data: null,
    });
    const json = await call(server, `/api/v1/agents/${agentId}/upload`, { body: { file: "guide.md" } });
    expect(json.json).toEqual({ code: 101, message: "The upload must be multipart/form-data with the document in the field `file`.", data: null });
    const other = await addKey(server.store, "t2");
    expect((await upload(server, agentId, [{ name: "guide.md" }], other)).json).toEqual(NO_ACCESS);
    expect((await upload(server, "0123456789abcdef0123456789abcdef", [{ name: "guide.md" }])).json).toEqual(NO_ACCESS);
  });

  it("refuses an upload over limits.uploadBytes with HTTP 413 naming the setting, and keeps nothing", async () => {
    const server = await pipelineServer({ limits: { uploadBytes: 1000 } });
    const agentId = await createAgent(server, titleChunker());
    const tooLarge = { code: 413, message: "The upload is too large: the files of one request may take 1000 bytes (server.limits.uploadBytes)", data: null };
    // Within the body's framing allowance, over the limit for the files.
    const over = await upload(server, agentId, [{ name: "big.txt", data: Buffer.alloc(1001, 97) }]);
    expect(over).toEqual({ status: 413, json: tooLarge });
    // Far over: refused before the body is read.
    const far = await upload(server, agentId, [{ name: "huge.txt", data: Buffer.alloc(200_000, 97) }]);
    expect(far).toEqual({ status: 413, json: tooLarge });
    expect((await upload(server, agentId, [{ name: "small.txt", data: Buffer.alloc(1000, 97) }])).json.code).toBe(0);
  });
});

describe("a completion on a pipeline", () => {
  it("answers {message_id, session_id} at once and runs one pipeline run per document; each run's log is RAGFlow's", async () => {
    const server = await pipelineServer();
    const agentId = await createAgent(server, titleChunker());
    const files = [await uploaded(server, agentId, "guide.md", "text/markdown"), await uploaded(server, agentId, "handbook.docx"), await uploaded(server, agentId, "prices.xlsx")];
    const started = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files } });
    const sessionId = started.json.data.session_id as string;
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    const runId = expect.stringMatching(new RegExp(`^${sessionId}-[0-9a-f]{12}$`));
    expect(started.json).toEqual({ code: 0, message: "success", data: { message_id: runId, session_id: sessionId, runs: files.map((file) => ({ message_id: runId, file })) } });
    const runs = started.json.data.runs as Array<{ message_id: string }>;
    expect(started.json.data.message_id).toBe(runs[0].message_id);
    expect(new Set(runs.map((run) => run.message_id)).size).toBe(3);

    for (const [i, run] of runs.entries()) {
      const entries = await finishedLog(server, agentId, run.message_id);
      expect(entries.map((entry) => entry.component_id)).toEqual([...CHAIN, "END"]);
      expect(entries[0].trace).toEqual([note(1, "File fetched."), note(1, "Done")]);
      expect(entries[1].trace[0]).toEqual(note(expect.any(Number), i === 0 ? "Start to work on a markdown." : i === 1 ? "Start to work on a DOCX document" : "Start to work on a Spreadsheet."));
      expect(entries[3].trace).toEqual([note(0.1, "Start to generate."), ...entries[3].trace.slice(1, -1).map((n) => note(n.progress, n.message)), note(1, "Done")]);
      for (const entry of entries.slice(0, -1)) {
        expect(entry.trace.at(-1)).toEqual(note(1, "Done"));
        expect(entry.trace[0].elapsed_time).toBe(0);
      }
      const end = endOf(entries);
      expect(end.progress).toBe(1);
      // The last step's output: the document, its chunks summarized and made searchable.
      expect(end.output).toMatchObject({ name: files[i].name, file: files[i], output_format: "chunks" });
      expect(end.output).not.toHaveProperty("_trace");
      const chunks = end.output.chunks as Array<Record<string, unknown>>;
      expect(chunks.length).toBeGreaterThan(0);
      expect(chunks[0]).toMatchObject({ text: expect.any(String), summary: expect.stringContaining("[mock reply]"), title_tks: expect.any(String) });
    }
    // The END message is Python's json.dumps of the output (", " and ": " separators).
    const last = (await finishedLog(server, agentId, runs[0].message_id)).at(-1)!.trace[0].message;
    expect(last.startsWith(`{"name": "guide.md", "file": {"id": "${String(files[0].id)}", "name": "guide.md", `)).toBe(true);

    // The session: each document's question (with its file dict), then each run's answer.
    const session = await call(server, `/api/v1/agents/${agentId}/sessions/${sessionId}`);
    expect(session.json.data.message).toEqual([
      { role: "assistant", content: "" },
      ...runs.map((run, i) => ({ role: "user", content: "", id: run.message_id, files: [files[i]] })),
      ...runs.map((run) => ({ role: "assistant", content: "", id: run.message_id })),
    ]);
  });

  it("logs a document that fails in its run with the failing step's -1 note and an END of -1 naming the error; the next document runs", async () => {
    const server = await pipelineServer();
    const agentId = await createAgent(server, titleChunker());
    const broken = (await upload(server, agentId, [{ name: "broken.docx", data: Buffer.from("not a zip at all") }])).json.data;
    const started = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files: [broken, await uploaded(server, agentId, "notes.txt")] } });
    const [failed, next] = started.json.data.runs as Array<{ message_id: string }>;
    const error = "broken.docx is not a readable DOCX file: it is not a ZIP container (End of central directory record signature not found. Either not a zip file, or file is truncated.)";
    const entries = await finishedLog(server, agentId, failed.message_id);
    expect(entries.map((entry) => entry.component_id)).toEqual(["File", "Parser:HipSignsRhyme", "END"]);
    expect(entries[1].trace.at(-1)).toEqual(note(-1, error));
    const end = endOf(entries);
    expect(end).toEqual({ progress: -1, output: { name: "broken.docx", file: broken, _elapsed_time: expect.any(Number), _ERROR: error } });
    expect(endOf(await finishedLog(server, agentId, next.message_id)).progress).toBe(1);
  });

  it("shows a run still going: the entries of its steps so far, and no END", async () => {
    const server = await pipelineServer({}, { rules: [{ match: ".", reply: "A summary.", delay_ms: 1500 }] });
    const agentId = await createAgent(server, titleChunker());
    const file = await uploaded(server, agentId, "notes.txt", "text/plain");
    const started = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files: [file] } });
    const messageId = started.json.data.message_id as string;
    let seen: string[] = [];
    const deadline = Date.now() + 20_000;
    while (!seen.includes("TitleChunker:WideResultsTeach") && Date.now() < deadline) {
      seen = ((await log(server, agentId, messageId)).json.data as LogEntry[]).map((entry) => entry.component_id);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The Extractor waits on the model: the first three steps are logged, the run has not ended.
    expect(seen).toEqual(CHAIN.slice(0, 3));
    const entries = await finishedLog(server, agentId, messageId);
    expect(entries.map((entry) => entry.component_id)).toEqual([...CHAIN, "END"]);
  });

  it("refuses each entry of files that cannot run, naming its field, and runs the others", async () => {
    const server = await pipelineServer({ limits: { uploadBytes: 100_000 } });
    const agentId = await createAgent(server, titleChunker());
    const good = await uploaded(server, agentId, "notes.txt", "text/plain");
    const pdf = await uploaded(server, agentId, "report.pdf", "application/pdf");
    const archive = await upload(server, agentId, [{ name: "bundle.zip", data: Buffer.from("PK\u0003\u0004") }]);
    // An upload kept while the limit was higher (or by a server with another).
    const now = Date.now();
    const big: UploadRecord = { id: "00000000-0000-4000-8000-000000000001", tenant: "t1", user: "t1", name: "big.txt", size: 100_001, extension: "txt", mime_type: "text/plain", create_time: now, expire_time: now + 60_000 };
    await server.store.uploads.put(big, Buffer.alloc(100_001, 97), { maxFiles: 100, maxBytes: 200_000_000 });
    const files = [good, { id: "00000000-0000-4000-8000-00000000dead", name: "gone.md" }, { name: "passwd.txt", path: "/etc/passwd" }, archive.json.data, { id: big.id, name: "big.txt" }, pdf, "guide.md"];
    const started = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files } });
    const errors = [
      { field: "files[1].id", message: 'Field `files[1].id` names no upload of this tenant ("00000000-0000-4000-8000-00000000dead"; uploads are kept for an hour)' },
      { field: "files[2].path", message: `Field \`files[2].path\` is refused: ${NO_PATHS}` },
      { field: "files[3].name", message: "Field `files[3].name` (bundle.zip) cannot run through this pipeline: Parser:HipSignsRhyme: No suitable for file extension: `.zip`" },
      { field: "files[4]", message: "Field `files[4]` (big.txt) has 100001 bytes, more than the 100000 bytes a document may have on this server (server.limits.uploadBytes)" },
      {
        field: "files[5].name",
        message:
          'Field `files[5].name` (report.pdf) cannot run through this pipeline: Parser:HipSignsRhyme: parse_method "DeepDOC" of the pdf setup needs RAGFlow\'s DeepDOC models (ONNX OCR, layout and table-structure models, and the XGBoost text-concatenation model), which canvasflow cannot run; what runs here for pdf: "plain_text" (the PDF\'s text layer; no OCR, so a scanned PDF gives no text) or the name of a vision model (each page rendered and described by it)',
      },
      { field: "files[6]", message: "Field `files[6]` must be an upload's file dict ({id, name, …}), got string" },
    ];
    expect(started.json).toEqual({
      code: 0,
      message: "success",
      data: { message_id: expect.any(String), session_id: expect.any(String), runs: [{ message_id: started.json.data.message_id, file: good }], errors },
    });
    expect(endOf(await finishedLog(server, agentId, started.json.data.message_id)).progress).toBe(1);

    // Without the good one, nothing runs: every refusal, each entry one place earlier.
    const none = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files: files.slice(1) } });
    const earlier = (text: string) => text.replace(/files\[(\d)\]/, (_, i: string) => `files[${Number(i) - 1}]`);
    const shifted = errors.map((e) => ({ field: earlier(e.field), message: earlier(e.message) }));
    expect(shifted[0]).toEqual({ field: "files[0].id", message: 'Field `files[0].id` names no upload of this tenant ("00000000-0000-4000-8000-00000000dead"; uploads are kept for an hour)' });
    expect(none.json).toEqual({ code: 101, message: `No document of \`files\` can run: ${shifted.map((e) => e.message).join("; ")}`, data: { errors: shifted } });
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.total).toBe(1);
  });

  it("says what a pipeline takes: files are required, a session_id and OpenAI's format are refused", async () => {
    const server = await pipelineServer();
    const agentId = await createAgent(server, titleChunker());
    const usage = "an ingestion pipeline takes uploads: upload each document with POST /api/v1/agents/{agent_id}/upload and pass the file dicts it answers in `files`";
    expect((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "hi" } })).json).toEqual({ code: 101, message: `Field \`files\` is required: ${usage}.`, data: false });
    expect((await call(server, `/api/v1/agents/${agentId}/completions`, { body: { files: [] } })).json).toEqual({ code: 101, message: `Field \`files\` is required: ${usage}.`, data: false });
    const file = await uploaded(server, agentId, "notes.txt");
    expect((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files: [file], session_id: "0123456789abcdef0123456789abcdef" } })).json).toEqual({
      code: 101,
      message: "Field `session_id` is not taken by an ingestion pipeline: each request's documents run in a new session (its id comes back as session_id)",
      data: null,
    });
    const openAi = await call(server, `/api/v1/agents_openai/${agentId}/chat/completions`, { body: { model: "m", messages: [{ role: "user", content: "hi" }] } });
    expect(openAi.status).toBe(400);
    expect(openAi.json.message).toBe(`Agent ${agentId} is an ingestion pipeline: its runs start with the native completion and its \`files\`, not with OpenAI's format`);
    // At most 100 documents a request, each once.
    const many = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files: Array.from({ length: 101 }, () => file) } });
    expect(many.json).toEqual({ code: 101, message: "Field `files` has 101 entries, more than the 100 documents one request may run: send them in several requests.", data: false });
    const twice = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files: [file, file] } });
    expect(twice.json.data.runs).toHaveLength(1);
    expect(twice.json.data.errors).toEqual([{ field: "files[1].id", message: `Field \`files[1].id\` names an upload an earlier entry names already (${JSON.stringify(file.id)}): each document runs once` }]);
    await finishedLog(server, agentId, twice.json.data.message_id);
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.total).toBe(1);
  });

  it("stops the documents still waiting when a run is cancelled, and their logs say so", async () => {
    const server = await pipelineServer({}, { rules: [{ match: ".", reply: "A summary.", delay_ms: 3000 }] });
    const agentId = await createAgent(server, titleChunker());
    const files = [await uploaded(server, agentId, "notes.txt"), await uploaded(server, agentId, "guide.md")];
    const started = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files } });
    const [first, second] = started.json.data.runs as Array<{ message_id: string }>;
    const deadline = Date.now() + 20_000;
    while (!((await log(server, agentId, first.message_id)).json.data as LogEntry[]).some((e) => e.component_id === "TitleChunker:WideResultsTeach") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await call(server, `/api/v1/tasks/${started.json.data.session_id}/cancel`, { method: "POST" })).json).toEqual({ code: 0, message: "success", data: true });
    const cancelled = endOf(await finishedLog(server, agentId, first.message_id));
    expect(cancelled.progress).toBe(-1);
    expect(cancelled.output._ERROR).toBe("cancelled");
    const notRun = await finishedLog(server, agentId, second.message_id);
    expect(notRun).toEqual([{ component_id: "END", trace: [note(-1, `{"_ERROR": "not run: the run ${first.message_id} of the same request was cancelled"}`)] }]);
  });
});

describe("a run's log, from its events", () => {
  const base = { message_id: "m", created_at: 1796600000, task_id: "s" };
  const kind = { component_name: "Step", component_type: "Parser" };
  const progress = (id: string, value: number, message: string, at: number) => ({ ...base, event: "node_progress", data: { component_id: id, ...kind, progress: value, message, created_at: at } }) as CanvasEvent;
  const trace = [{ progress: 1, message: "File fetched.", datetime: "10:00:00", timestamp: 5.5, elapsed_time: 0 }];
  const fileDone = { ...base, event: "node_finished", data: { component_id: "File", ...kind, inputs: {}, outputs: { name: "a.md", _trace: trace }, error: null, elapsed_time: 0, created_at: 1796600000 } } as CanvasEvent;

  it("has a step still running with the notes its node_progress events logged, and no END", () => {
    const events = [progress("File", 1, "File fetched.", 1796600000.25), fileDone, progress("Parser:P", 0.03, "Start to work on a markdown.", 1796600001.5), progress("Parser:P", 0.5, "Half way.", 1796600002.75)];
    const at = (seconds: number) => new Date(seconds * 1000).toTimeString().slice(0, 8);
    expect(pipelineLog(events)).toEqual([
      { component_id: "File", trace },
      {
        component_id: "Parser:P",
        trace: [
          { progress: 0.03, message: "Start to work on a markdown.", datetime: at(1796600001.5), timestamp: 1796600001.5, elapsed_time: 0 },
          { progress: 0.5, message: "Half way.", datetime: at(1796600002.75), timestamp: 1796600002.75, elapsed_time: 1.25 },
        ],
      },
    ]);
  });

  it("ends with END: the last output as Python's json.dumps (non-ASCII escaped), -1 and _ERROR when the run failed", () => {
    const failed = { ...base, event: "workflow_finished", data: { inputs: {}, outputs: { name: "naïve 📄.md", _trace: trace }, elapsed_time: 2, created_at: 1796600000, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 }, error: "Parser_0: broken" } } as unknown as CanvasEvent;
    const end = pipelineLog([fileDone, failed]).at(-1);
    expect(end).toEqual({ component_id: "END", trace: [{ progress: -1, message: '{"name": "na\\u00efve \\ud83d\\udcc4.md", "_ERROR": "Parser_0: broken"}', datetime: new Date(1796600002 * 1000).toTimeString().slice(0, 8), timestamp: 5.5, elapsed_time: 0 }] });
  });
});

describe("a server that closes", () => {
  it("cancels the run going on, and notes the documents still waiting as not run", async () => {
    const server = await pipelineServer({}, { rules: [{ match: ".", reply: "A summary.", delay_ms: 3000 }] });
    const agentId = await createAgent(server, titleChunker());
    const files = [await uploaded(server, agentId, "notes.txt"), await uploaded(server, agentId, "guide.md")];
    const started = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, files } });
    const sessionId = started.json.data.session_id as string;
    const [first, second] = started.json.data.runs as Array<{ message_id: string }>;
    const deadline = Date.now() + 20_000;
    while (!((await log(server, agentId, first.message_id)).json.data as LogEntry[]).some((e) => e.component_id === "TitleChunker:WideResultsTeach") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The close waits for the batch: when it returns, the second document's fate is kept.
    await server.app.close();
    const record = await server.store.sessions.get("t1", sessionId);
    const answers = record!.message.filter((m) => m.role === "assistant" && m.id !== undefined);
    // A cancelled turn is rolled back, unrecorded (its events say how it ended); the waiting one says why it never ran.
    expect(answers.map((m) => [m.id, m.run?.error])).toEqual([[second.message_id, "the server shut down before this document's run started"]]);
    const cancelled = (await server.store.runs.events(sessionId)).filter((e) => e.event.message_id === first.message_id).at(-1)!.event;
    expect(cancelled).toMatchObject({ event: "workflow_finished", data: { error: "cancelled" } });
  });
});

describe("tenants", () => {
  it("keep their agents, uploads and logs: another tenant's are refused or read as missing", async () => {
    const server = await pipelineServer();
    const mine = await createAgent(server, titleChunker());
    const file = await uploaded(server, mine, "notes.txt", "text/plain");
    const started = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: mine, files: [file] } });
    const messageId = started.json.data.message_id as string;
    await finishedLog(server, mine, messageId);

    const intruder = await addKey(server.store, "t2");
    const theirs = await createAgent(server, titleChunker(), "Theirs", intruder);
    // My agent: not theirs to run, upload to, or read the logs of.
    expect((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: mine, files: [file] }, key: intruder })).json).toEqual(NO_ACCESS);
    expect((await log(server, mine, messageId, intruder)).json).toEqual(NO_ACCESS);
    // Their agent with my upload: no such upload of theirs; with my run's id: no such run.
    const stolen = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: theirs, files: [file] }, key: intruder });
    expect(stolen.json).toEqual({
      code: 101,
      message: `No document of \`files\` can run: Field \`files[0].id\` names no upload of this tenant (${JSON.stringify(file.id)}; uploads are kept for an hour)`,
      data: { errors: [{ field: "files[0].id", message: `Field \`files[0].id\` names no upload of this tenant (${JSON.stringify(file.id)}; uploads are kept for an hour)` }] },
    });
    const noRun = (id: string) => ({ code: 102, message: `Field \`message_id\` names no run of agent ${theirs} (${JSON.stringify(id)}): a run's id is the message_id its completion answered`, data: false });
    expect((await log(server, theirs, messageId, intruder)).json).toEqual(noRun(messageId));
    expect((await log(server, theirs, "not-a-run", intruder)).json).toEqual(noRun("not-a-run"));
    // And mine, under my other agent, is no run of that agent either.
    const other = await createAgent(server, titleChunker(), "Other");
    expect((await log(server, other, messageId)).json.code).toBe(102);

    // A run of theirs that names my upload by id (any way it gets into sys.files) cannot open it.
    const documents = uploadDocuments(new TenantUploads(server.store.uploads), "t2", 1_000_000);
    await expect(documents.open({ name: "notes.txt", id: file.id as string }, new AbortController().signal)).rejects.toThrow(`notes.txt: no upload ${JSON.stringify(file.id)} of this tenant (uploads are kept for an hour)`);
    await expect(documents.open({ name: "passwd", path: "/etc/passwd" }, new AbortController().signal)).rejects.toThrow(`passwd is given by path: ${NO_PATHS}`);
    const opened = await uploadDocuments(new TenantUploads(server.store.uploads), "t1", 1_000_000).open({ name: "notes.txt", id: file.id as string }, new AbortController().signal);
    expect(Buffer.from(await opened.bytes()).equals(readFileSync(join(folder, "notes.txt")))).toBe(true);
  });

  it("an agent canvas given an upload id or a path is refused naming the field; its inline files still run", async () => {
    const server = await pipelineServer();
    const agentId = await createAgent(server, hello());
    expect((await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", files: [{ name: "notes.txt", id: "00000000-0000-4000-8000-000000000001" }] } })).json).toEqual({
      code: 101,
      message: "Field `files[0].id` names an upload, which only an ingestion pipeline reads; this agent is an agent canvas, which takes its files inline ({name, mime_type, data_url})",
      data: null,
    });
    expect((await call(server, `/api/v1/agents/${agentId}/completions`, { body: { query: "Ada", files: [{ name: "a.txt", data_url: "data:text/plain;base64,aGk=" }, { name: "passwd", path: "/etc/passwd" }] } })).json).toEqual({
      code: 101,
      message: `Field \`files[1].path\` is refused: ${NO_PATHS}`,
      data: null,
    });
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.total).toBe(0);
    const inline = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", files: [{ name: "a.txt", mime_type: "text/plain", data_url: "data:text/plain;base64,aGk=" }] } });
    expect(inline.json.code).toBe(0);
  });
});
