/** Reading XML answers (PubMed's E-utilities, arXiv's Atom feed) with htmlparser2 in XML mode. */
import { domUtils, htmlparser2, type DomElement } from "./dom.js";

export type XmlElement = DomElement;

export function parseXml(text: string): XmlElement[] {
  return htmlparser2().parseDocument(text, { xmlMode: true }).children.filter((node): node is XmlElement => node.type === "tag");
}

/** Every element named `name` below `roots` (any depth). */
export function xmlAll(roots: readonly XmlElement[] | XmlElement, name: string): XmlElement[] {
  return domUtils().findAll((el) => el.name === name, Array.isArray(roots) ? roots : [roots as XmlElement]);
}

/** The first element at a path of child names ("MedlineCitation/Article/ArticleTitle"). */
export function xmlPath(root: XmlElement | undefined, path: string): XmlElement | undefined {
  let node: XmlElement | undefined = root;
  for (const name of path.split("/")) {
    if (!node) return undefined;
    node = node.children.find((child): child is XmlElement => child.type === "tag" && (child as XmlElement).name === name);
  }
  return node;
}

/** An element's text (its descendants' text joined), trimmed; "" for none. */
export function xmlText(element: XmlElement | undefined): string {
  return element ? domUtils().textContent(element).trim() : "";
}
