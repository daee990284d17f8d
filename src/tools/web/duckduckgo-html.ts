/**
 * Reading DuckDuckGo's HTML results page (html.duckduckgo.com/html/), the keyless endpoint the
 * duckduckgo_search package's "html" backend reads: one `div.result` per hit with a
 * `a.result__a` title link and a `.result__snippet`, and a "Next" form holding the fields that
 * ask for the following page.
 */
import { domUtils, htmlparser2, type DomDocument, type DomElement as Element } from "./dom.js";

/** One hit, in the duckduckgo_search shape RAGFlow passes on as `json`. */
export interface DuckDuckGoTextHit {
  title: string;
  href: string;
  body: string;
}

interface DuckDuckGoHtmlPage {
  hits: DuckDuckGoTextHit[];
  /** The form fields of the "Next" button, when there is a next page. */
  next?: Record<string, string>;
  /** DuckDuckGo answered with its bot check instead of results. */
  blocked: boolean;
}

function classes(element: Element): string[] {
  return (domUtils().getAttributeValue(element, "class") ?? "").split(/\s+/).filter((c) => c !== "");
}

function hasClass(element: Element, name: string): boolean {
  return classes(element).includes(name);
}

function cleanText(element: Element | undefined | null): string {
  return element ? domUtils().textContent(element).replace(/\s+/g, " ").trim() : "";
}

/**
 * The target of a result link. DuckDuckGo wraps it in a redirect ("//duckduckgo.com/l/?uddg=
 * <encoded url>&rut=…"); the real URL is the `uddg` parameter.
 */
export function resultUrl(href: string): string {
  const absolute = href.startsWith("//") ? `https:${href}` : href;
  try {
    const url = new URL(absolute, "https://duckduckgo.com");
    const target = url.searchParams.get("uddg");
    if (target) return target;
    return url.href;
  } catch {
    return href;
  }
}

/** Ads link to DuckDuckGo's ad redirect (y.js) or are marked result--ad. */
function isAd(result: Element, href: string): boolean {
  return hasClass(result, "result--ad") || resultUrl(href).startsWith("https://duckduckgo.com/y.js");
}

function nextPageFields(document: DomDocument): Record<string, string> | undefined {
  for (const form of domUtils().findAll((el) => el.name === "form", document.children)) {
    const inputs = domUtils().findAll((el) => el.name === "input", form.children);
    const isNext = inputs.some((input) => domUtils().getAttributeValue(input, "type") === "submit" && /next/i.test(domUtils().getAttributeValue(input, "value") ?? ""));
    if (!isNext) continue;
    const fields: Record<string, string> = {};
    for (const input of inputs) {
      const name = domUtils().getAttributeValue(input, "name");
      if (name && domUtils().getAttributeValue(input, "type") === "hidden") fields[name] = domUtils().getAttributeValue(input, "value") ?? "";
    }
    return fields;
  }
  return undefined;
}

export function parseDuckDuckGoHtml(html: string): DuckDuckGoHtmlPage {
  const document = htmlparser2().parseDocument(html);
  const blocked = domUtils().findOne((el) => hasClass(el, "anomaly-modal__title") || hasClass(el, "anomaly-modal__modal"), document.children) !== null;
  const hits: DuckDuckGoTextHit[] = [];
  for (const result of domUtils().findAll((el) => el.name === "div" && hasClass(el, "result"), document.children)) {
    const link = domUtils().findOne((el) => el.name === "a" && hasClass(el, "result__a"), result.children);
    if (!link) continue;
    const href = domUtils().getAttributeValue(link, "href") ?? "";
    if (href === "" || isAd(result, href)) continue;
    const snippet = domUtils().findOne((el) => hasClass(el, "result__snippet"), result.children);
    hits.push({ title: cleanText(link), href: resultUrl(href), body: cleanText(snippet) });
  }
  const next = nextPageFields(document);
  return { hits, blocked, ...(next ? { next } : {}) };
}

/** Text of an HTML fragment (news excerpts carry <b> tags and entities). */
export function htmlFragmentText(fragment: string): string {
  return domUtils().textContent(htmlparser2().parseDocument(fragment)).replace(/\s+/g, " ").trim();
}

/**
 * The search token (vqd) DuckDuckGo's JSON endpoints need, from its search page: it appears as
 * vqd="…", vqd='…' or vqd=…&.
 */
export function extractVqd(html: string): string | undefined {
  const match = /vqd=["']([^"']+)["']/.exec(html) ?? /vqd=([\d-]+)&/.exec(html);
  return match?.[1];
}
