/**
 * The email file type. The expected header texts and metadata are what Python's email package
 * (policy.default, as RAGFlow's Parser uses it) gives for the same messages.
 */
import { describe, expect, it } from "vitest";
import { emailText, parseEmail, pythonDateHeader, pythonJsonDumps } from "../../../src/pipelines/parsing/email.js";

const LIMITS = { maxFileBytes: 1 << 20, maxInflatedBytes: 1 << 20, maxTextChars: 1_000_000, maxRows: 1000 };

function source(name: string, bytes: Uint8Array) {
  return {
    name,
    size: bytes.length,
    bytes: async () => bytes,
    async *stream() {
      yield bytes;
    },
  };
}

async function parse(name: string, content: string | Uint8Array, setup: Record<string, unknown> = {}, limits = LIMITS) {
  const warnings: string[] = [];
  const bytes = typeof content === "string" ? new TextEncoder().encode(content.replace(/\n/g, "\r\n")) : content;
  const result = await parseEmail({
    source: source(name, bytes),
    setup: { output_format: "json", ...setup },
    limits,
    progress: () => {},
    warn: (message) => warnings.push(message),
    signal: new AbortController().signal,
  });
  return { result, warnings, item: result.json?.[0] };
}

const MULTIPART = `From: =?utf-8?q?J=C3=B6rg?= <jorg@example.com>
To: Alice <alice@example.com>, bob@example.com,
 "Doe, John" <john@example.com>
Subject: =?utf-8?b?SGVsbG8gd8O2cmxk?=
 continued
Date: Mon, 1 Jan 2024 10:00:00 +0000
Message-ID: <abc@example.com>
X-Custom: one
X-Custom: two
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="B1"

--B1
Content-Type: multipart/alternative; boundary="B2"

--B2
Content-Type: text/plain; charset=utf-8

Plain body é
--B2
Content-Type: text/html; charset=utf-8

<p>HTML body</p>
--B2--
--B1
Content-Type: text/plain; charset=iso-8859-1
Content-Disposition: attachment; filename="notes.txt"
Content-Transfer-Encoding: quoted-printable

caf=E9
--B1
Content-Type: application/octet-stream
Content-Disposition: attachment; filename="bin.dat"
Content-Transfer-Encoding: base64

AAECAwQ=
--B1--
`;

describe("parseEmail", () => {
  it("splits headers, metadata, body and text attachments of a multipart message", async () => {
    const { item, warnings } = await parse("mail.eml", MULTIPART);
    expect(item).toEqual({
      metadata: { "message-id": "<abc@example.com>", "x-custom": "two", "mime-version": "1.0", "content-type": 'multipart/mixed; boundary="B1"' },
      from: "Jörg <jorg@example.com>",
      to: 'Alice <alice@example.com>, bob@example.com, "Doe, John" <john@example.com>',
      subject: "Hello wörld continued",
      date: "Mon, 01 Jan 2024 10:00:00 +0000",
      text: "Plain body é",
      text_html: "<p>HTML body</p>",
      attachments: [{ filename: "notes.txt", payload: "café" }],
      doc_type_kwd: "text",
    });
    expect(Object.keys(item!)).toEqual(["metadata", "from", "to", "subject", "date", "text", "text_html", "attachments", "doc_type_kwd"]);
    expect(warnings).toEqual(['mail.eml: the attachment "bin.dat" (application/octet-stream) is not text and is left out']);
  });

  it("keeps only the fields asked for; metadata is always there", async () => {
    const { item } = await parse("mail.eml", MULTIPART, { fields: ["subject", "from"] });
    expect(Object.keys(item!)).toEqual(["metadata", "from", "subject", "doc_type_kwd"]);
  });

  it("writes text as RAGFlow does: key:value lines, metadata as Python's json.dumps, filename:payload", async () => {
    const { result } = await parse("mail.eml", MULTIPART, { output_format: "text" });
    expect(result.output_format).toBe("text");
    expect(result.text).toBe(
      [
        'metadata:{"message-id": "<abc@example.com>", "x-custom": "two", "mime-version": "1.0", "content-type": "multipart/mixed; boundary=\\"B1\\""}',
        "from:Jörg <jorg@example.com>",
        'to:Alice <alice@example.com>, bob@example.com, "Doe, John" <john@example.com>',
        "subject:Hello wörld continued",
        "date:Mon, 01 Jan 2024 10:00:00 +0000",
        "text:Plain body é",
        "text_html:<p>HTML body</p>",
        "notes.txt:café",
        "",
      ].join("\n"),
    );
  });

  it("reads a single-part message in a legacy charset", async () => {
    const head = "From: a@example.com\r\nSubject: =?gbk?b?1tDOxA==?=\r\nContent-Type: text/plain; charset=gbk\r\nContent-Transfer-Encoding: 8bit\r\n\r\n";
    const bytes = Uint8Array.from([...Buffer.from(head), ...Buffer.from("d6d0cec4d5fdcec4", "hex")]);
    const { item } = await parse("cn.eml", bytes);
    expect(item).toMatchObject({ subject: "中文", text: "中文正文", text_html: "" });
  });

  it("refuses .msg files and OLE2 files, naming .eml as the way", async () => {
    await expect(parse("mail.msg", "x")).rejects.toMatchObject({ name: "DocumentParseError", document: "mail.msg", message: expect.stringMatching(/\.eml/) });
    const ole = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    await expect(parse("disguised.eml", ole)).rejects.toThrow(/Outlook \.msg/);
  });

  it("refuses what is not a MIME message", async () => {
    await expect(parse("notes.eml", "just some words\nand more\n")).rejects.toMatchObject({ name: "DocumentParseError", message: expect.stringMatching(/does not start with a header/) });
    await expect(parse("bin.eml", Uint8Array.from([1, 0, 2, 0, 3]))).rejects.toThrow(/binary/);
  });

  it("leaves out a header line that is not Name: value, with a warning", async () => {
    const { item, warnings } = await parse("odd.eml", "Subject: s\nnot a header\nX-A: b\n\nbody\n");
    expect(item).toMatchObject({ subject: "s", metadata: { "x-a": "b" }, text: "body\n" });
    expect(warnings).toEqual(['odd.eml: 1 header line is not "Name: value" and left out']);
  });

  it("holds the text to maxTextChars and the file to maxFileBytes", async () => {
    const long = `From: a@example.com\nSubject: long\nContent-Type: text/plain\n\n${"x".repeat(500)}\n`;
    const { item, warnings } = await parse("long.eml", long, {}, { ...LIMITS, maxTextChars: 100 });
    expect((item!.text as string).length).toBe(100);
    expect(warnings.join()).toMatch(/maxTextChars/);
    await expect(parse("long.eml", long, {}, { ...LIMITS, maxFileBytes: 50 })).rejects.toThrow(/maxFileBytes/);
  });

  it("names bad fields and output_format", async () => {
    await expect(parse("a.eml", MULTIPART, { fields: "from" })).rejects.toThrow(/fields/);
    await expect(parse("a.eml", MULTIPART, { output_format: "markdown" })).rejects.toThrow(/output_format/);
  });
});

describe("email helpers", () => {
  it("print dates as Python's email package does", () => {
    expect(pythonDateHeader("Mon, 1 Jan 2024 10:00:00 +0000")).toBe("Mon, 01 Jan 2024 10:00:00 +0000");
    expect(pythonDateHeader("1 Jan 24 10:00 GMT")).toBe("Mon, 01 Jan 2024 10:00:00 +0000");
    expect(pythonDateHeader("Tue, 5 Mar 2024 9:05:07 -0800 (PST)")).toBe("Tue, 05 Mar 2024 09:05:07 -0800");
    expect(pythonDateHeader("Wed, 5 Mar 99 10:00:00 EST")).toBe("Fri, 05 Mar 1999 10:00:00 -0500");
    expect(pythonDateHeader("5 Mar 2024 10:00:00")).toBe("Tue, 05 Mar 2024 10:00:00 -0000");
    expect(pythonDateHeader("Fri, 5 Mar 2024 10:00:00 XYZ")).toBe("Tue, 05 Mar 2024 10:00:00 -0000");
    expect(pythonDateHeader("not a date")).toBe("not a date");
    expect(pythonDateHeader("Mon, 31 Feb 2024 10:00:00 +0000")).toBe("Mon, 31 Feb 2024 10:00:00 +0000");
    expect(pythonDateHeader("Mon, 1 Jan 2024 25:00:00 +0000")).toBe("Mon, 1 Jan 2024 25:00:00 +0000");
  });

  it("dump JSON as Python's json.dumps does", () => {
    expect(pythonJsonDumps({ a: "é😀", "b\n": 'q"' })).toBe('{"a": "\\u00e9\\ud83d\\ude00", "b\\n": "q\\""}');
    expect(emailText({ metadata: {}, subject: "s", attachments: [{ filename: "f", payload: "p" }] })).toBe("metadata:{}\nsubject:s\nf:p\n");
  });
});
