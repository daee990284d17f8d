/**
 * Email (agent/tools/email.py): sends `content` (HTML) with `subject` to `to_email` and the
 * comma-separated `cc_email` through an SMTP server; `success` tells whether it was sent.
 */
import { credential, positiveInteger } from "../components/param-checks.js";
import { defineTool } from "./define-tool.js";

export const Email = defineTool({
  name: "Email",
  // Addresses look like references ("a@b.com"), so these params are text with template references only.
  meta: {
    to_email: { default: "{sys.query}", textOnly: true },
    cc_email: { default: "", textOnly: true },
    content: { default: "", textOnly: true },
    subject: { default: "", textOnly: true },
  },
  defaults: { smtp_server: "", smtp_port: 465, email: "", smtp_username: "", password: "", sender_name: "" },
  timeoutSeconds: 60,
  primaryOutput: "success",
  check: (params) => [
    ...credential(params, "smtp_server", "the SMTP server"),
    ...positiveInteger(params, "smtp_port"),
    ...credential(params, "email", "the sender address"),
    ...credential(params, "password", "the SMTP password"),
    ...credential(params, "sender_name", "the sender name"),
  ],
});
