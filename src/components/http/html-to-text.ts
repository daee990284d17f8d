/**
 * Invoke's `clean_html`: the readable text of an HTML page. html-to-text parses with
 * htmlparser2 (tolerant of real-world markup) and already drops script/style content, which a
 * regex stripper gets wrong.
 */
import type * as HtmlToText from "html-to-text";
import type { HtmlToTextOptions } from "html-to-text";
import { lazyPackage } from "../../util/optional-package.js";

const loadHtmlToText = lazyPackage<typeof HtmlToText>("html-to-text", "HTML to text");

const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
};

export function htmlToText(html: string): string {
  return loadHtmlToText().convert(html, OPTIONS).trim();
}
