/**
 * Sending the Email tool's message with nodemailer (RAGFlow builds a MIME message and sends it
 * with smtplib). The SMTP server is the component's (smtp_server, smtp_port, email,
 * smtp_username, password, sender_name, as RAGFlow stores them) or, when smtp_server is empty,
 * canvasflow.config.json's `smtp`, whose password comes from the environment variable it names.
 * Port 465 speaks TLS from the start; any other port must upgrade with STARTTLS, as RAGFlow's
 * smtplib.starttls() does (the config may say "none" for a plain relay).
 *
 * The body is `content` as HTML (RAGFlow sends it so), with a plain-text alternative. canvasflow
 * adds `attachments`: references to files (a DocGenerator's download, an uploaded file).
 */
import { htmlToText } from "../components/http/html-to-text.js";
import { isIP } from "node:net";
import { UnavailableError } from "../components/unavailable.js";
import { checkEgress } from "../sandbox/egress/guard.js";
import { egressPolicyOf } from "../sandbox/egress/service.js";
import type { SmtpConfig } from "../config/types.js";
import { isPlainObject } from "../util/values.js";
import { readFileValue } from "./files/store.js";
import { ToolFailure, type ToolContext, type ToolOutput, type ToolRun } from "./types.js";
import { importPackage } from "../util/optional-package.js";
import { textArgument, toolTimeoutMs } from "./web/args.js";
import { EMAIL_TIMEOUT_S } from "./timeouts.js";


interface SmtpSettings {
  host: string;
  /** Where the host came from, as a refusal names it. */
  hostRole: string;
  port: number;
  tls: "implicit" | "starttls" | "none";
  allowSelfSigned: boolean;
  username: string;
  password: string;
  from: string;
  senderName: string;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : value === undefined || value === null ? "" : String(value).trim();
}

function configured(ctx: ToolContext): SmtpConfig | undefined {
  const tools = ctx.services.tools;
  return isPlainObject(tools) && isPlainObject(tools.smtp) ? (tools.smtp as unknown as SmtpConfig) : undefined;
}

function env(ctx: ToolContext): Readonly<Record<string, string | undefined>> {
  const tools = ctx.services.tools;
  return isPlainObject(tools) && isPlainObject(tools.env) ? (tools.env as Record<string, string | undefined>) : {};
}

/** The SMTP settings: the component's own, else the config's; missing ones are an UnavailableError. */
export function smtpSettings(ctx: ToolContext): SmtpSettings {
  const p = ctx.params;
  if (text(p.smtp_server) !== "") {
    const port = Number(text(p.smtp_port) || 465);
    const from = text(p.email);
    if (from === "") throw new UnavailableError("Email has no sender: the email param (the sender address) is empty");
    return {
      host: text(p.smtp_server),
      hostRole: "Email smtp_server",
      port,
      tls: port === 465 ? "implicit" : "starttls",
      allowSelfSigned: false,
      username: text(p.smtp_username) || from,
      password: typeof p.password === "string" ? p.password : "",
      from,
      senderName: text(p.sender_name),
    };
  }
  const smtp = configured(ctx);
  if (!smtp) throw new UnavailableError('Email has no SMTP server: set smtp_server on the component or "smtp" in canvasflow.config.json');
  const tls = smtp.tls ?? (smtp.port === undefined || smtp.port === 465 ? "implicit" : "starttls");
  let password = "";
  if (smtp.passwordEnv) {
    password = env(ctx)[smtp.passwordEnv] ?? "";
    if (password === "") throw new UnavailableError(`Email has no SMTP password: the environment variable ${smtp.passwordEnv} (smtp.passwordEnv) is not set`);
  }
  return {
    host: smtp.host,
    hostRole: "Email SMTP host (smtp.host in the config)",
    port: smtp.port ?? (tls === "implicit" ? 465 : 587),
    tls,
    allowSelfSigned: smtp.allowSelfSigned === true,
    username: smtp.username ?? smtp.from,
    password,
    from: smtp.from,
    senderName: text(p.sender_name) || (smtp.senderName ?? ""),
  };
}

/** Comma-separated addresses, blanks dropped. */
function addresses(value: string): string[] {
  return value
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
}

async function attachmentsOf(ctx: ToolContext): Promise<Array<{ filename: string; content: Buffer; contentType?: string }>> {
  const refs = Array.isArray(ctx.params.attachments) ? ctx.params.attachments : ctx.params.attachments ? [ctx.params.attachments] : [];
  const out: Array<{ filename: string; content: Buffer; contentType?: string }> = [];
  for (const ref of refs) {
    const value = typeof ref === "string" && ctx.get ? ctx.get(ref) : ref;
    const file = await readFileValue(ctx, value);
    if (!file) throw new Error(`attachments: ${typeof ref === "string" ? ref : "an entry"} holds no file`);
    out.push({ filename: file.filename, content: file.bytes, ...(file.mimeType ? { contentType: file.mimeType } : {}) });
  }
  return out;
}

/** SMTP failures in words: refused logins are the user's to fix, an unreachable server is the environment's. */
function sendError(error: unknown, settings: SmtpSettings): Error {
  const e = error as { code?: string; responseCode?: number; message?: string };
  if (e.code === "EAUTH") return new Error("SMTP Authentication failed. Please check your SMTP username(email) and authorization code.");
  if (e.code === "ECONNECTION" || e.code === "ETIMEDOUT" || e.code === "ESOCKET" || e.code === "EDNS") {
    return new UnavailableError(`Failed to connect to SMTP server ${settings.host}:${settings.port}: ${e.message ?? e.code}`);
  }
  return new Error(`SMTP error occurred: ${e.message ?? String(error)}`);
}

export const runEmail: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const to = await textArgument(args.to_email);
  if (to === "") throw new ToolFailure("Missing required field: to_email", { success: false });
  const cc = await textArgument(args.cc_email);
  const subject = (await textArgument(args.subject)) || "No Subject";
  const html = (await textArgument(args.content)) || "No content provided";
  const settings = smtpSettings(ctx);
  const timeout = toolTimeoutMs(ctx.params, EMAIL_TIMEOUT_S);
  // The egress guard: a relay on loopback or a private network only when the operator lists it.
  // nodemailer gets the checked address (it would look the name up again); the TLS name stays.
  const [address] = await checkEgress({ host: settings.host, port: settings.port, role: settings.hostRole }, egressPolicyOf(ctx.services));
  const name = settings.host.replace(/^\[(.*)\]$/, "$1");
  // nodemailer loads on first use, as the other heavy libraries do.
  const { default: nodemailer } = await importPackage<typeof import("nodemailer")>("nodemailer", "Email (sending mail)");
  const transport = nodemailer.createTransport({
    host: address.address,
    port: settings.port,
    secure: settings.tls === "implicit",
    requireTLS: settings.tls === "starttls",
    ignoreTLS: settings.tls === "none",
    ...(settings.password !== "" ? { auth: { user: settings.username, pass: settings.password } } : {}),
    tls: { rejectUnauthorized: !settings.allowSelfSigned, ...(isIP(name) === 0 ? { servername: name } : {}) },
    connectionTimeout: Math.min(timeout, 10_000),
    greetingTimeout: Math.min(timeout, 10_000),
    socketTimeout: timeout,
  });
  const onAbort = () => transport.close();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const attachments = await attachmentsOf(ctx);
    await transport.sendMail({
      from: settings.senderName ? { name: settings.senderName, address: settings.from } : settings.from,
      to: addresses(to),
      ...(cc !== "" ? { cc: addresses(cc) } : {}),
      subject,
      html,
      text: htmlToText(html),
      attachments,
    });
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("Email was cancelled");
    const failure = sendError(error, settings);
    if (failure instanceof UnavailableError) throw failure;
    throw new ToolFailure(failure.message, { success: false });
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    transport.close();
  }
  return { formalized_content: `Email sent to ${[to, cc].filter(Boolean).join(", ")}`, success: true };
};
