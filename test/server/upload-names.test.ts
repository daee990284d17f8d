/**
 * File names with NUL or another control character are refused, naming the field: Dify's upload
 * (the multipart file's filename, sent byte for byte as a client could), and the `files` of a
 * native completion, over HTTP and over a WebSocket. Nothing is stored or run.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { fileNameProblem } from "../../src/server/file-names.js";
import { corpusPath } from "../helpers/corpus.js";
import { scratchDir } from "../helpers/scratch.js";
import { call, createAgent, startTestServer, type TestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

const BAD_NAMES: Array<[string, string]> = [
  ["notes\u0000.txt", "U+0000) at character 6"],
  ["\u001b[31mred.txt", "U+001B) at character 1"],
  ["line\nbreak.txt", "U+000A) at character 5"],
  ["tab\t.txt", "U+0009) at character 4"],
  ["del\u007f.txt", "U+007F) at character 4"],
  ["c1\u0085.txt", "U+0085) at character 3"],
  ["日本\u0000.txt", "U+0000) at character 3"],
];

/** A multipart body with one file part named `filename` (its bytes as UTF-8, unescaped) and a user. */
function multipart(filename: string): { body: Buffer; type: string } {
  const boundary = "----canvasflow-test-boundary";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
    Buffer.from(filename, "utf8"),
    Buffer.from(`"\r\nContent-Type: text/plain\r\n\r\nsome notes\r\n--${boundary}\r\nContent-Disposition: form-data; name="user"\r\n\r\nada\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(server: TestServer, filename: string): Promise<{ status: number; json: { code?: string; message?: string; name?: string } }> {
  const { body, type } = multipart(filename);
  const answer = await fetch(`${server.base}/v1/files/upload`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": type }, body });
  return { status: answer.status, json: (await answer.json()) as { code?: string; message?: string } };
}

async function difyServer(): Promise<TestServer> {
  const dir = join(scratchDir("cf-upload-names-").dir, "agents");
  mkdirSync(dir);
  writeFileSync(join(dir, "hello.yml"), readFileSync(corpusPath("dify", "conditional_hello_branching_workflow.yml")));
  return startTestServer({ agentsDir: dir, difyApp: "hello" });
}

describe("file names with control characters", () => {
  it("fileNameProblem names the character and where it is; ordinary names (any script, spaces, dots) pass", () => {
    for (const [name, where] of BAD_NAMES) expect(fileNameProblem(name)).toBe(`has a control character (${where}: file names may not contain NUL or other control characters`);
    for (const name of ["notes.txt", "Quarterly report (final) v2.pdf", "日本語のファイル.docx", ".hidden", "a\u00a0b.txt", "emoji 😀.png"]) expect(fileNameProblem(name)).toBeUndefined();
  });

  it("Dify's POST /v1/files/upload refuses them with 400 invalid_param naming the field; an ordinary name is kept", async () => {
    const server = await difyServer();
    for (const [name, where] of BAD_NAMES) {
      const refused = await upload(server, name);
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(refused.json).toEqual({
        code: "invalid_param",
        message: `The file's name (the filename of the multipart field \`file\`) has a control character (${where}: file names may not contain NUL or other control characters.`,
        status: 400,
      });
    }
    const kept = await upload(server, "notes.txt");
    expect(kept.status).toBe(201);
    expect(kept.json.name).toBe("notes.txt");
  });

  it("a completion's files (HTTP, and a WebSocket's run frame) with such a name are refused with code 101 naming files[i].name; nothing runs", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, hello());
    const files = [{ name: "fine.txt", mime_type: "text/plain", data_url: "data:text/plain;base64,aGk=" }, { name: "bad\u0000.txt", mime_type: "text/plain", data_url: "data:text/plain;base64,aGk=" }];
    const refused = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", files } });
    expect(refused.json).toEqual({ code: 101, message: "Field `files[1].name` has a control character (U+0000) at character 4: file names may not contain NUL or other control characters", data: null });
    const filename = await call(server, `/api/v1/agents/${agentId}/completions`, { body: { query: "Ada", files: [{ filename: "x\u001b.txt" }], stream: true } });
    expect(filename.json).toMatchObject({ code: 101, message: expect.stringMatching(/^Field `files\[0\]\.filename` has a control character \(U\+001B\)/) });
    expect((await call(server, `/api/v1/agents/${agentId}/sessions`)).json.data).toEqual([]);

    const socket = new WebSocket(`${server.base.replace("http", "ws")}/api/v1/agents/${agentId}/ws`, { headers: { authorization: `Bearer ${server.key}` } });
    const frames: unknown[] = [];
    await new Promise((resolve) => socket.once("open", resolve));
    const done = new Promise<void>((resolve) =>
      socket.on("message", (data) => {
        const frame = JSON.parse(String(data)) as { type?: string };
        frames.push(frame);
        if (frame.type === "done") resolve();
      }),
    );
    socket.send(JSON.stringify({ type: "run", query: "Ada", files }));
    await done;
    expect(frames).toEqual([{ code: 101, message: "Field `files[1].name` has a control character (U+0000) at character 4: file names may not contain NUL or other control characters", data: null }, { type: "done" }]);
    socket.close();

    // Ordinary names run.
    const ran = await call(server, "/api/v1/agents/chat/completions", { body: { agent_id: agentId, query: "Ada", files: [files[0]] } });
    expect(ran.json.code).toBe(0);
  });
});
