/**
 * The `email` file type (research/ragflow-pipelines.md §4.2 "Email"), for `.eml` (MIME) files,
 * read with mailparser: the headers named in the setup's `fields` become lower-case keys holding
 * the header's text (encoded words decoded, folding removed), every other header goes into
 * `metadata`; `body` gives `text` (the text/plain parts) and `text_html` (the HTML view);
 * `attachments` gives `{filename, payload}` with each text attachment decoded. json is one item
 * (plus `doc_type_kwd: "text"`); text is `key:value` lines, `metadata:` as Python's json.dumps
 * writes it, and `filename:payload` per attachment.
 *
 * RAGFlow reads the root message's payload for every text part, so multipart messages fail
 * there, and a binary attachment fails the document; here both work, binary attachments being
 * left out with a warning. Outlook `.msg` files are refused with what to do instead.
 */
import type { FormatParser, ParserSetup } from "./contract.js";
import { DocumentParseError, type ParsedItem } from "../payload.js";
import { importPackage } from "../../util/optional-package.js";
import { readDocumentBytes } from "./read-document.js";
import { outputFormatOf } from "./setup-params.js";

export const EMAIL_DEFAULT_FIELDS = ["from", "to", "cc", "bcc", "date", "subject", "body", "attachments", "metadata"] as const;
/** Headers that are never metadata, in `fields` or not. */
const MAIN_HEADERS = new Set(["from", "to", "cc", "bcc", "date", "subject"]);
/** Field names that are parts of the item, not headers. */
const CONTENT_FIELDS = new Set(["body", "attachments", "metadata"]);
/** Python's fallbacks for a text part whose charset does not decode it. */
const FALLBACK_CHARSETS = ["utf-8", "gb18030", "windows-1252"];
/** The start of an OLE2 compound file: what an Outlook .msg is, whatever its name. */
const OLE2_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

interface MailAttachment {
  filename?: string;
  contentType: string;
  contentDisposition?: string;
  content: Uint8Array;
  headers: Map<string, unknown>;
}
interface ParsedMail {
  headerLines: { key: string; line: string }[];
  text?: string;
  html?: string | false;
  attachments: MailAttachment[];
}
interface Mailparser {
  simpleParser(source: Buffer, options: Record<string, unknown>): Promise<ParsedMail>;
}
interface Libmime {
  decodeWords(text: string): string;
}

export interface EmailAttachment {
  filename: string;
  payload: string;
}

function refuseMsg(document: string): DocumentParseError {
  return new DocumentParseError(
    document,
    `${document} is an Outlook .msg file, which canvasflow does not read: save the message as .eml instead (most mail clients can, Outlook on the web included; a .msg file converts with a tool such as msgconvert) and parse the .eml`,
  );
}

function fieldsOf(document: string, setup: ParserSetup): Set<string> {
  const raw = setup.fields ?? EMAIL_DEFAULT_FIELDS;
  if (!Array.isArray(raw) || raw.some((field) => typeof field !== "string")) {
    throw new DocumentParseError(document, `the email setup's fields is ${JSON.stringify(raw)}; it must be a list of field names such as ${JSON.stringify(EMAIL_DEFAULT_FIELDS)}`);
  }
  return new Set(raw.map((field: string) => field.toLowerCase()));
}

/** A header line's text as Python's email package (policy.default) gives it: unfolded, encoded words decoded. */
function headerText(line: string, libmime: Libmime): string {
  const colon = line.indexOf(":");
  const value = line
    .slice(colon + 1)
    .replace(/^[ \t]+/, "")
    .replace(/[\r\n]/g, "");
  try {
    return libmime.decodeWords(value).trimEnd();
  } catch {
    return value.trimEnd();
  }
}

/** Headers Python's email package reads as dates, and writes back in RFC 5322 form. */
const DATE_HEADERS = new Set(["date", "resent-date", "orig-date"]);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const ZONES: Record<string, string> = { UT: "+0000", UTC: "+0000", GMT: "+0000", Z: "+0000", EST: "-0500", EDT: "-0400", CST: "-0600", CDT: "-0500", MST: "-0700", MDT: "-0600", PST: "-0800", PDT: "-0700" };

/**
 * A date header as Python's email package (policy.default) prints it: "Mon, 01 Jan 2024 10:00:00
 * +0000", the weekday computed, an unknown or missing zone as -0000. A date it cannot read stays as written.
 */
export function pythonDateHeader(value: string): string {
  const match = /^\s*(?:[A-Za-z]+,?\s*)?(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+([+-]\d{4}|[A-Za-z]+))?/.exec(value);
  const month = match ? MONTHS.findIndex((name) => name.toLowerCase() === match[2].toLowerCase()) : -1;
  if (!match || month < 0) return value;
  let year = Number(match[3]);
  // Python's rule for short years: 00–49 are 20xx, 50–99 are 19xx, three digits add 1900.
  if (match[3].length === 2) year += year < 50 ? 2000 : 1900;
  else if (match[3].length === 3) year += 1900;
  const day = Number(match[1]);
  const date = new Date(Date.UTC(year, month, day));
  // A date Python cannot build (31 Feb, hour 25) stays as written, as there.
  if (date.getUTCDate() !== day || Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) return value;
  const weekday = DAYS[date.getUTCDay()];
  const zone = match[7] ? (/^[+-]/.test(match[7]) ? match[7] : (ZONES[match[7].toUpperCase()] ?? "-0000")) : "-0000";
  const two = (n: string | number) => String(n).padStart(2, "0");
  return `${weekday}, ${two(day)} ${MONTHS[month]} ${year} ${two(match[4])}:${match[5]}:${two(match[6] ?? "0")} ${zone}`;
}

function decodeWith(bytes: Uint8Array, charset: string): string | undefined {
  try {
    return new TextDecoder(charset, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A text attachment's payload in its charset (then Python's fallbacks), or undefined for binary content. */
function attachmentText(attachment: MailAttachment): string | undefined {
  const contentType = attachment.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  const charset = contentType?.params?.charset;
  const isText = attachment.contentType.startsWith("text/") || charset !== undefined;
  if (!isText) return undefined;
  for (const candidate of [charset, ...FALLBACK_CHARSETS]) {
    if (!candidate) continue;
    const text = decodeWith(attachment.content, candidate);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** Python's `json.dumps` of a dict of strings: `", "` and `": "` separators, non-ASCII as \uXXXX. */
export function pythonJsonDumps(value: Record<string, string>): string {
  const ascii = (text: string) => JSON.stringify(text).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `{${Object.entries(value)
    .map(([key, text]) => `${ascii(key)}: ${ascii(text)}`)
    .join(", ")}}`;
}

/** RAGFlow's text output: `key:value` per string, `key:<json>` for metadata, `filename:payload` per attachment. */
export function emailText(content: Record<string, unknown>): string {
  let text = "";
  for (const [key, value] of Object.entries(content)) {
    if (typeof value === "string") text += `${key}:${value}\n`;
    else if (Array.isArray(value)) for (const attachment of value as EmailAttachment[]) text += `${attachment.filename}:${attachment.payload}\n`;
    else if (value && typeof value === "object") text += `${key}:${pythonJsonDumps(value as Record<string, string>)}\n`;
  }
  return text;
}

export const parseEmail: FormatParser<ParserSetup> = async ({ source, setup, limits, warn, signal }) => {
  const document = source.name;
  const outputFormat = outputFormatOf(document, "email", setup, ["json", "text"] as const);
  const fields = fieldsOf(document, setup);
  if (document.toLowerCase().endsWith(".msg")) throw refuseMsg(document);

  const bytes = await readDocumentBytes(source, limits, signal);
  if (OLE2_SIGNATURE.every((byte, i) => bytes[i] === byte)) throw refuseMsg(document);
  if (bytes.subarray(0, 8000).includes(0)) throw new DocumentParseError(document, `${document} holds binary data (a NUL byte), not a MIME e-mail message`);
  const [{ simpleParser }, libmime] = await Promise.all([
    importPackage<Mailparser>("mailparser", "Parsing e-mail (.eml) documents"),
    importPackage<Libmime & { default?: Libmime }>("libmime", "Parsing e-mail (.eml) documents").then((m) => m.default ?? m),
  ]);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  } catch (error) {
    throw new DocumentParseError(document, `${document} is not a readable MIME message: ${(error as Error).message}`);
  }
  signal.throwIfAborted();
  // mailparser keeps a line without a "Name:" among the headers with an empty key.
  if (!mail.headerLines[0]?.key) throw new DocumentParseError(document, `${document} is not a MIME e-mail message: it does not start with a header (a message starts with lines such as "From: …" and "Subject: …")`);
  const malformed = mail.headerLines.filter((header) => !header.key).length;
  if (malformed > 0) warn(`${document}: ${malformed} header line${malformed === 1 ? " is" : "s are"} not "Name: value" and left out`);

  // Insertion order is RAGFlow's: metadata, the headers in file order, text, text_html, attachments.
  const content: Record<string, unknown> = {};
  const metadata: Record<string, string> = {};
  content.metadata = metadata;
  for (const { key, line } of mail.headerLines) {
    if (!key) continue;
    const name = key.toLowerCase();
    const text = DATE_HEADERS.has(name) ? pythonDateHeader(headerText(line, libmime)) : headerText(line, libmime);
    if (fields.has(name) && !CONTENT_FIELDS.has(name)) content[name] = text;
    else if (!MAIN_HEADERS.has(name)) metadata[name] = text;
  }

  let room = limits.maxTextChars;
  let cut = false;
  const within = (text: string): string => {
    if (text.length <= room) {
      room -= text.length;
      return text;
    }
    const kept = text.slice(0, room);
    room = 0;
    cut = true;
    return kept;
  };
  if (fields.has("body")) {
    content.text = within(mail.text ?? "");
    content.text_html = within(typeof mail.html === "string" ? mail.html : "");
  }
  if (fields.has("attachments")) {
    const attachments: EmailAttachment[] = [];
    for (const attachment of mail.attachments) {
      if (attachment.contentDisposition !== "attachment") continue;
      const filename = attachment.filename ?? "";
      const payload = attachmentText(attachment);
      if (payload === undefined) {
        warn(`${document}: the attachment ${JSON.stringify(filename)} (${attachment.contentType}) is not text and is left out`);
        continue;
      }
      if (room === 0) {
        cut = true;
        break;
      }
      attachments.push({ filename, payload: within(payload) });
    }
    content.attachments = attachments;
  }
  if (cut) warn(`${document}: the e-mail's text reached ${limits.maxTextChars} characters (the config's pipelines.limits.maxTextChars); the rest is left out`);

  if (outputFormat === "json") return { output_format: "json", json: [{ ...content, doc_type_kwd: "text" } as ParsedItem] };
  return { output_format: "text", text: emailText(content) };
};
