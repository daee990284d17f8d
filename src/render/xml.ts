/** Escaping for text placed in XML/HTML (SVG text, attributes, inline JSON). */

/** Characters XML 1.0 forbids anywhere (most C0 controls, lone surrogates, U+FFFE/U+FFFF). */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text or attribute value safe in XML and HTML. */
export function escapeXml(text: string): string {
  return text
    .replace(FORBIDDEN, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * JSON safe inside an HTML `<script type="application/json">`: `<`, `>` and `&` as \u escapes, so
 * no value can close the script element; U+2028/U+2029 escaped for old parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
