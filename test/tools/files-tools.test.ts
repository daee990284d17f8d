/**
 * The tools that make and send files: DocGenerator (a PDF read back with pdftotext, a DOCX
 * unzipped), ExcelProcessor (a workbook written, read back and merged), and Email through a real
 * SMTP server (smtp-server on 127.0.0.1, STARTTLS with its own certificate), the message parsed
 * back with mailparser: headers, body and a DocGenerator attachment.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/api.js";
import { canvasDsl, finished, messageEnd, node, nodeFinished } from "../helpers/dsl.js";
import { builtinDefinition } from "../helpers/registry.js";
import { scratchDir } from "../helpers/scratch.js";
import { missing } from "../helpers/system-tools.js";
import { toolContext } from "../helpers/tools.js";
import { PRIVATE_NETWORK_HINT, type HostResolver } from "../../src/sandbox/egress/guard.js";

const MARKDOWN = `# Quarterly Report

Revenue grew **twelve percent** this quarter.

- North region up
- South region flat

| Region | Growth |
| --- | --- |
| North | 12% |
`;

function tools(dir: string, extra: Record<string, unknown> = {}) {
  return { knowledgeBases: {}, endpoints: {}, env: {}, files: { dir }, ...extra };
}

async function generate(format: string, params: Record<string, unknown> = {}) {
  const scratch = scratchDir("cf-docs-");
  const dsl = canvasDsl({
    begin: node("Begin", {}, ["DocGenerator:D"]),
    "DocGenerator:D": node("DocGenerator", { output_format: format, content: "{sys.query}", filename: "report", header_text: "ACME Corp", footer_text: "Confidential", watermark_text: "DRAFT", ...params }, ["Message:M"]),
    "Message:M": node("Message", { content: ["Here it is: {DocGenerator:D@download}"] }),
  });
  const canvas = await loadCanvas(dsl, { services: { tools: tools(scratch.dir) } });
  const events = await canvas.runToEnd({ query: MARKDOWN });
  expect(finished(events).error).toBeUndefined();
  // The whole outputs (events show large values truncated).
  const outputs = canvas.outputs("DocGenerator:D") as Record<string, unknown>;
  const download = JSON.parse(String(outputs.download)) as { doc_id: string; filename: string; mime_type: string; size: number; base64: string; path: string };
  return { events, outputs, download, dir: scratch.dir };
}

const noPdftotext = missing("pdftotext", "DocGenerator's PDF test");
const noUnzip = missing("unzip", "DocGenerator's DOCX test");

describe("DocGenerator", () => {
  it.skipIf(noPdftotext)("makes a PDF that pdftotext reads: the text, header, footer, page numbers and timestamp; the Message lists it under downloads", async () => {
    const { events, outputs, download, dir } = await generate("pdf");
    expect(outputs).toMatchObject({ filename: "report.pdf", mime_type: "application/pdf", size: download.size, doc_id: download.doc_id });
    expect(download.path.startsWith(dir)).toBe(true);
    const bytes = readFileSync(download.path);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(Buffer.from(download.base64, "base64").equals(bytes)).toBe(true);
    const text = execFileSync("pdftotext", ["-layout", download.path, "-"], { encoding: "utf8" });
    for (const expected of ["Quarterly Report", "Revenue grew twelve percent this quarter.", "• North region up", "North | 12%", "ACME Corp", "Confidential", "Page 1 of 1"]) expect(text).toContain(expected);
    // The watermark is drawn diagonally: read without layout, its letters come out in order.
    expect(execFileSync("pdftotext", [download.path, "-"], { encoding: "utf8" }).replace(/\s+/g, "")).toContain("DRAFT");
    expect(text).toMatch(/Generated: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const end = messageEnd(events) as { downloads?: Array<{ doc_id: string; filename: string }> };
    expect(end.downloads?.map((d) => [d.doc_id, d.filename])).toEqual([[download.doc_id, "report.pdf"]]);
  });

  it.skipIf(noUnzip)("makes a DOCX whose document.xml holds the text, and whose header and footer hold theirs", async () => {
    const { download } = await generate("docx", { add_timestamp: false });
    expect(download.filename).toBe("report.docx");
    const xml = execFileSync("unzip", ["-p", download.path, "word/document.xml"], { encoding: "utf8" });
    const text = xml.replace(/<[^>]+>/g, "");
    for (const expected of ["Quarterly Report", "twelve percent", "North region up", "Region", "Growth", "12%"]) expect(text).toContain(expected);
    expect(xml).toContain('w:val="Heading1"');
    const parts = execFileSync("unzip", ["-l", download.path], { encoding: "utf8" });
    expect(parts).toMatch(/word\/header1\.xml/);
    expect(execFileSync("unzip", ["-p", download.path, "word/header1.xml"], { encoding: "utf8" })).toContain("ACME Corp");
    expect(execFileSync("unzip", ["-p", download.path, "word/footer1.xml"], { encoding: "utf8" })).toContain("Confidential");
  });

  it("makes html, markdown and txt files", async () => {
    const html = readFileSync((await generate("html", { add_timestamp: false })).download.path, "utf8");
    expect(html).toContain("<h1>Quarterly Report</h1>");
    expect(html).toContain("<strong>twelve percent</strong>");
    expect(html).toContain("<td>North</td>");
    const md = await generate("markdown", { add_timestamp: false });
    expect(md.download.filename).toBe("report.md");
    expect(readFileSync(md.download.path, "utf8")).toBe(MARKDOWN.trim());
    const txt = readFileSync((await generate("txt", { add_timestamp: false })).download.path, "utf8");
    expect(txt).toContain("Revenue grew twelve percent this quarter.");
    expect(txt).not.toContain("<");
  });
});

describe("ExcelProcessor", () => {
  it("writes rows to an xlsx, reads it back (round trip) and merges two workbooks", async () => {
    const scratch = scratchDir("cf-excel-");
    const rows = [
      { name: "Ada", dept: "R&D", salary: 120 },
      { name: "Linus", dept: "Ops", salary: 100.5 },
    ];
    const other = { Staff: [{ name: "Grace", dept: "R&D", salary: 130 }], Depts: [{ dept: "R&D", floor: 3 }] };
    const dsl = canvasDsl(
      {
        begin: node("Begin", {}, ["ExcelProcessor:Write"]),
        "ExcelProcessor:Write": node("ExcelProcessor", { operation: "output", transform_data: "env.rows", output_filename: "staff" }, ["ExcelProcessor:Write2"]),
        "ExcelProcessor:Write2": node("ExcelProcessor", { operation: "output", transform_data: "env.other", output_filename: "more" }, ["ExcelProcessor:Read"]),
        "ExcelProcessor:Read": node("ExcelProcessor", { operation: "read", input_files: ["ExcelProcessor:Write@download", "ExcelProcessor:Write2@download"] }, ["ExcelProcessor:Merge"]),
        "ExcelProcessor:Merge": node("ExcelProcessor", { operation: "merge", input_files: ["ExcelProcessor:Write@download", "ExcelProcessor:Write2@download"], sheet_selection: "first" }, ["Message:M"]),
        "Message:M": node("Message", { content: ["{ExcelProcessor:Read@markdown}"] }),
      },
      { globals: { "env.rows": rows, "env.other": other }, variables: { rows: { name: "rows", type: "array<object>", value: rows }, other: { name: "other", type: "object", value: other } } },
    );
    const canvas = await loadCanvas(dsl, { services: { tools: tools(scratch.dir) } });
    const events = await canvas.runToEnd({ query: "go" });
    expect(finished(events).error).toBeUndefined();

    const written = canvas.outputs("ExcelProcessor:Write") as Record<string, unknown>;
    expect(written.summary).toBe("Generated staff.xlsx with 1 sheet(s), 2 total rows");
    expect(written.attachment).toMatchObject({ format: "xlsx", file_name: "staff.xlsx" });
    const path = (JSON.parse(String(written.download)) as { path: string }).path;
    expect(readFileSync(path).subarray(0, 2).toString()).toBe("PK");

    const read = canvas.outputs("ExcelProcessor:Read") as Record<string, unknown>;
    expect(read.data).toEqual({ "staff.xlsx": rows, "more.xlsx_Staff": other.Staff, "more.xlsx_Depts": other.Depts });
    expect(read.summary).toBe("**staff.xlsx**: 2 rows, 3 columns (name, dept, salary)\n**more.xlsx_Staff**: 1 rows, 3 columns (name, dept, salary)\n**more.xlsx_Depts**: 1 rows, 2 columns (dept, floor)");
    expect(String(read.markdown)).toMatch(/^### staff\.xlsx\n\n\| name +\| dept +\| salary +\|/);

    const merged = canvas.outputs("ExcelProcessor:Merge") as Record<string, unknown>;
    expect(merged.data).toEqual({ merged: [...rows, ...other.Staff] });
    expect(merged.summary).toBe("Merged 2 sources into 3 rows, 3 columns");
  });

  it("joins on a column and writes csv", async () => {
    const scratch = scratchDir("cf-excel-");
    const { ctx } = toolContext({ params: { operation: "output", transform_data: "x", output_format: "csv", output_filename: "out" } });
    const withData = { ...ctx, services: { tools: tools(scratch.dir) }, get: () => [{ a: 1, b: "x,y" }] };
    const out = await (await import("../../src/tools/excel/process.js")).runExcelProcessor({}, withData);
    const info = JSON.parse(String((out as Record<string, unknown>).download)) as { path: string };
    expect(readFileSync(info.path, "utf8")).toBe('a,b\n1,"x,y"\n');
    const left = { base64: (await import("../../src/tools/excel/workbook.js")).writeCsv([{ id: 1, n: "a" }, { id: 2, n: "b" }]).toString("base64"), filename: "l.csv" };
    const right = { base64: (await import("../../src/tools/excel/workbook.js")).writeCsv([{ id: 2, v: "z" }]).toString("base64"), filename: "r.csv" };
    const join = { ...ctx, params: { operation: "merge", merge_strategy: "join", join_on: "id", input_files: ["l", "r"] }, services: { tools: tools(scratch.dir) }, get: (s: string) => (s === "l" ? left : right) };
    const merged = await (await import("../../src/tools/excel/process.js")).runExcelProcessor({}, join);
    expect(merged.data).toEqual({ merged: [{ id: 1, n: "a" }, { id: 2, n: "b", v: "z" }] });
  });
});

describe("Email through a real SMTP server", () => {
  let server: SMTPServer | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function smtp(): Promise<{ port: number; received: Promise<{ mail: ParsedMail; envelope: { from: string; to: string[] }; user: string }> }> {
    let deliver: (value: { mail: ParsedMail; envelope: { from: string; to: string[] }; user: string }) => void;
    const received = new Promise<{ mail: ParsedMail; envelope: { from: string; to: string[] }; user: string }>((resolve) => (deliver = resolve));
    let user = "";
    server = new SMTPServer({
      // STARTTLS with smtp-server's own self-signed certificate.
      authMethods: ["PLAIN", "LOGIN"],
      onAuth(auth, _session, callback) {
        if (auth.username === "bot@example.com" && auth.password === "s3cret") {
          user = auth.username;
          return callback(null, { user: auth.username });
        }
        callback(new Error("Invalid username or password"));
      },
      onData(stream, session, callback) {
        simpleParser(stream).then((mail) => {
          deliver({ mail, envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address) }, user });
          callback();
        }, callback);
      },
      logger: false,
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return { port: (server.server.address() as AddressInfo).port, received };
  }

  it("sends headers, HTML body and a DocGenerator PDF as attachment, with the config's SMTP and a password from the environment", async () => {
    const { port, received } = await smtp();
    const scratch = scratchDir("cf-mail-");
    const dsl = canvasDsl({
      begin: node("Begin", {}, ["DocGenerator:D"]),
      "DocGenerator:D": node("DocGenerator", { output_format: "pdf", content: "# Invoice\n\nTotal due: 42 EUR", filename: "invoice" }, ["Email:E"]),
      "Email:E": node("Email", { to_email: "{sys.query}", cc_email: "boss@example.com, audit@example.com", subject: "Your invoice", content: "<p>Hello, <b>see attached</b>.</p>", attachments: ["DocGenerator:D@download"] }, ["Message:M"]),
      "Message:M": node("Message", { content: ["sent: {Email:E@success}"] }),
    });
    const canvas = await loadCanvas(dsl, {
      services: {
        // The egress guard refuses a relay on loopback unless the operator lists it.
        egress: { allow: [`127.0.0.1:${port}`] },
        tools: tools(scratch.dir, {
          env: { SMTP_PASSWORD: "s3cret" },
          smtp: { host: "127.0.0.1", port, tls: "starttls", allowSelfSigned: true, from: "bot@example.com", senderName: "Billing Bot", passwordEnv: "SMTP_PASSWORD" },
        }),
      },
    });
    const events = await canvas.runToEnd({ query: "client@example.org" });
    expect(finished(events).error).toBeUndefined();
    expect(nodeFinished(events, "Email:E").outputs).toMatchObject({ success: true });

    const { mail, envelope, user } = await received;
    expect(user).toBe("bot@example.com");
    expect(envelope).toEqual({ from: "bot@example.com", to: ["client@example.org", "boss@example.com", "audit@example.com"] });
    expect(mail.from?.value).toEqual([{ address: "bot@example.com", name: "Billing Bot" }]);
    expect(mail.subject).toBe("Your invoice");
    expect((mail.to as { text: string }).text).toBe("client@example.org");
    expect((mail.cc as { text: string }).text).toBe("boss@example.com, audit@example.com");
    expect(mail.html).toContain("<p>Hello, <b>see attached</b>.</p>");
    expect(mail.text?.trim()).toBe("Hello, see attached.");
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([["invoice.pdf", "application/pdf"]]);
    expect(mail.attachments[0].content.subarray(0, 5).toString()).toBe("%PDF-");
    const sent = JSON.parse(String(canvas.outputs("DocGenerator:D")?.download)) as { base64: string };
    expect(mail.attachments[0].content.equals(Buffer.from(sent.base64, "base64"))).toBe(true);
  });

  it("a wrong password is RAGFlow's authentication error with success false; no SMTP server is an UnavailableError", async () => {
    const { port } = await smtp();
    const { ctx } = toolContext({ params: { smtp_server: "127.0.0.1", smtp_port: port, email: "bot@example.com", password: "wrong" } });
    // RAGFlow's own params: port other than 465 means STARTTLS, and its certificate must be valid.
    const egress = { allow: [`127.0.0.1:${port}`] };
    const selfSigned = { ...ctx, services: { egress, tools: { knowledgeBases: {}, endpoints: {}, env: {}, smtp: { host: "127.0.0.1", port, tls: "starttls" as const, allowSelfSigned: true, from: "bot@example.com", passwordEnv: "P" } } } };
    const email = builtinDefinition("Email").tool!;
    await expect(email.run({ to_email: "a@example.org" }, { ...selfSigned, params: {} })).rejects.toThrow("Email has no SMTP password: the environment variable P (smtp.passwordEnv) is not set");
    const wrong = { ...selfSigned, params: {}, services: { egress, tools: { ...selfSigned.services.tools, env: { P: "wrong" } } } };
    await expect(email.run({ to_email: "a@example.org" }, wrong)).rejects.toMatchObject({ message: "SMTP Authentication failed. Please check your SMTP username(email) and authorization code.", outputs: { success: false } });
    await expect(email.run({ to_email: "a@example.org" }, toolContext().ctx)).rejects.toThrow('Email has no SMTP server: set smtp_server on the component or "smtp" in canvasflow.config.json');
    await expect(email.run({ to_email: "" }, ctx)).rejects.toMatchObject({ message: "Missing required field: to_email", outputs: { success: false } });
  });

  it("a relay on loopback is refused unless the operator lists it, before any connection, for the component's server and the config's alike", async () => {
    const { port } = await smtp();
    let connections = 0;
    server!.server.on("connection", () => connections++);
    const email = builtinDefinition("Email").tool!;
    const own = toolContext({ params: { smtp_server: "127.0.0.1", smtp_port: port, email: "bot@example.com", password: "x" } }).ctx;
    const hint = (entry: string) => PRIVATE_NETWORK_HINT.replace("{entry}", entry);
    const refused = "a non-public address (loopback): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them";
    await expect(email.run({ to_email: "a@example.org" }, own)).rejects.toThrow(`Email smtp_server "127.0.0.1" is 127.0.0.1, ${refused}; ${hint(`127.0.0.1:${port}`)}`);
    const config = toolContext({ params: {} }).ctx;
    const configured = { ...config, services: { tools: { knowledgeBases: {}, endpoints: {}, env: {}, smtp: { host: "localhost", port, tls: "none" as const, from: "bot@example.com" } } } };
    await expect(email.run({ to_email: "a@example.org" }, configured)).rejects.toThrow(/^Email SMTP host \(smtp\.host in the config\) "localhost" resolves to (127\.0\.0\.1|::1), a non-public address \(loopback\)/);
    await expect(email.run({ to_email: "a@example.org" }, configured)).rejects.toThrow(`add "localhost:${port}" to egress.allow`);
    expect(connections).toBe(0);
  });

  it("a name that resolves to loopback, once listed, is sent to the address the guard checked, TLS keeping the name", async () => {
    const { port, received } = await smtp();
    const asked: string[] = [];
    // mail.example.test cannot be resolved by the system (RFC 2606): only the pinned address reaches the relay.
    const lookup: HostResolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const email = builtinDefinition("Email").tool!;
    const { ctx } = toolContext({ params: {} });
    const smtpConfig = { host: "mail.example.test", port, tls: "starttls" as const, allowSelfSigned: true, from: "bot@example.com", passwordEnv: "P" };
    const services = (egress: Record<string, unknown>) => ({ egress, tools: { knowledgeBases: {}, endpoints: {}, env: { P: "s3cret" }, smtp: smtpConfig } });
    await expect(email.run({ to_email: "a@example.org" }, { ...ctx, services: services({ lookup }) })).rejects.toThrow('Email SMTP host (smtp.host in the config) "mail.example.test" resolves to 127.0.0.1');
    const sent = await email.run({ to_email: "a@example.org", subject: "pinned" }, { ...ctx, services: services({ lookup, allow: ["mail.example.test"] }) });
    expect(sent).toMatchObject({ success: true });
    expect((await received).mail.subject).toBe("pinned");
    expect(asked).toEqual(["mail.example.test", "mail.example.test"]);
  });
});
