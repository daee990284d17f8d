/**
 * Email (agent/tools/email.py): sends `content` (HTML) with `subject` to `to_email` and the
 * comma-separated `cc_email` through an SMTP server; `success` tells whether it was sent.
 */
import { positiveInteger } from "../components/param-checks.js";
import { parseSelector } from "../refs/grammar.js";
import { defineTool, lazyRun } from "./define-tool.js";
import { EMAIL_TIMEOUT_S } from "./timeouts.js";

export const Email = defineTool({
  name: "Email",
  functionName: "email",
  description:
    "The email is a method of electronic communication for sending and receiving information through the Internet. This tool helps users to send emails to one person or to multiple recipients with support for CC, BCC, file attachments, and markdown-to-HTML conversion.",
  // Addresses look like references ("a@b.com"), so these params are text with template references only.
  meta: {
    to_email: { default: "{sys.query}", textOnly: true, type: "string", description: "The target email address.", required: true },
    cc_email: { default: "", textOnly: true, type: "string", description: "The other email addresses needs to be send to. Comma splited." },
    content: { default: "", textOnly: true, type: "string", description: "The content of the email." },
    subject: { default: "", textOnly: true, type: "string", description: "The subject/title of the email." },
  },
  // An empty smtp_server uses canvasflow.config.json's "smtp" (its password from an environment variable).
  defaults: { smtp_server: "", smtp_port: 465, email: "", smtp_username: "", password: "", sender_name: "", attachments: [] },
  timeoutSeconds: EMAIL_TIMEOUT_S,
  primaryOutput: "success",
  check: (params) => positiveInteger(params, "smtp_port"),
  references: (params) => (Array.isArray(params.attachments) ? params.attachments : []).flatMap((ref) => (typeof ref === "string" && parseSelector(ref) ? [parseSelector(ref)!] : [])),
  thoughts: () => "Your email is on its way—sit tight!",
  run: lazyRun(() => import("./email-send.js"), (m) => m.runEmail),
});
