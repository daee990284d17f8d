/**
 * The XML of document containers (OOXML parts, EPUB's OPF), read with htmlparser2 in XML mode:
 * a small element tree for parts read whole, and a streaming reader for parts too large to hold
 * as a tree (a spreadsheet's sheet). Tag names keep their prefix (`w:p`, `a:t`): OOXML writers
 * use the standard prefixes, and matching by local name (`local()`) covers the others.
 */
import type * as Htmlparser2 from "htmlparser2";
import { lazyPackage } from "../../util/optional-package.js";

const htmlparser2 = lazyPackage<typeof Htmlparser2>("htmlparser2", "Reading document XML (DOCX, XLSX, PPTX, EPUB)");

export interface XmlElement {
  /** The qualified name as written (`w:p`). */
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

/** The name without its namespace prefix. */
export function local(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

/** The element tree of an XML text (entities decoded; comments and processing instructions dropped). */
export function parseXml(text: string): XmlElement {
  const root: XmlElement = { name: "#document", attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  const parser = new (htmlparser2().Parser)(
    {
      onopentag(name, attrs) {
        const element: XmlElement = { name, attrs, children: [] };
        stack[stack.length - 1].children.push(element);
        stack.push(element);
      },
      ontext(text) {
        const children = stack[stack.length - 1].children;
        const last = children[children.length - 1];
        if (typeof last === "string") children[children.length - 1] = last + text;
        else children.push(text);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(text);
  parser.end();
  return root;
}

export function elements(node: XmlElement): XmlElement[] {
  return node.children.filter((child): child is XmlElement => typeof child !== "string");
}

/** Child elements with this local name. */
export function childrenNamed(node: XmlElement, localName: string): XmlElement[] {
  return elements(node).filter((child) => local(child.name) === localName);
}

export function child(node: XmlElement, localName: string): XmlElement | undefined {
  return elements(node).find((c) => local(c.name) === localName);
}

/** Descendants with this local name, in document order (not below a match). */
export function findAll(node: XmlElement, localName: string, into: XmlElement[] = []): XmlElement[] {
  for (const c of elements(node)) {
    if (local(c.name) === localName) into.push(c);
    else findAll(c, localName, into);
  }
  return into;
}

/** Descendants with this local name, in document order, matches included and searched inside. */
export function findAllDeep(node: XmlElement, localName: string, into: XmlElement[] = []): XmlElement[] {
  for (const c of elements(node)) {
    if (local(c.name) === localName) into.push(c);
    findAllDeep(c, localName, into);
  }
  return into;
}

export function findFirst(node: XmlElement, localName: string): XmlElement | undefined {
  for (const c of elements(node)) {
    if (local(c.name) === localName) return c;
    const found = findFirst(c, localName);
    if (found) return found;
  }
  return undefined;
}

/** An attribute by local name (`r:embed` and `embed` both match "embed"). */
export function attr(node: XmlElement, localName: string): string | undefined {
  if (localName in node.attrs) return node.attrs[localName];
  for (const [key, value] of Object.entries(node.attrs)) if (local(key) === localName) return value;
  return undefined;
}

/** A prefixed attribute by local name (`r:id`), which a plain attribute of the same local name (`id`) does not shadow. */
export function prefixedAttr(node: XmlElement, localName: string): string | undefined {
  for (const [key, value] of Object.entries(node.attrs)) if (key.includes(":") && local(key) === localName) return value;
  return undefined;
}

/** All text below a node, concatenated. */
export function textOf(node: XmlNode): string {
  if (typeof node === "string") return node;
  let text = "";
  for (const c of node.children) text += textOf(c);
  return text;
}

/** An OOXML relationships part (`_rels/….rels`): id → { target, type, external }. */
export interface Relationship {
  target: string;
  type: string;
  external: boolean;
}

export function parseRelationships(text: string): Map<string, Relationship> {
  const rels = new Map<string, Relationship>();
  for (const rel of findAll(parseXml(text), "Relationship")) {
    const id = attr(rel, "Id");
    const target = attr(rel, "Target");
    if (id && target !== undefined) rels.set(id, { target, type: attr(rel, "Type") ?? "", external: attr(rel, "TargetMode") === "External" });
  }
  return rels;
}

/** The `_rels` part that holds a part's relationships (`word/document.xml` → `word/_rels/document.xml.rels`). */
export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf("/");
  return slash < 0 ? `_rels/${part}.rels` : `${part.slice(0, slash)}/_rels/${part.slice(slash + 1)}.rels`;
}

/** Streaming XML events, for parts read piece by piece. */
export interface XmlStreamHandler {
  open(name: string, attrs: Record<string, string>): void;
  text(text: string): void;
  close(name: string): void;
}

/** A push parser: write the part's text in pieces, then end. */
export function xmlStream(handler: XmlStreamHandler): { write(text: string): void; end(): void } {
  const parser = new (htmlparser2().Parser)(
    { onopentag: (name, attrs) => handler.open(name, attrs), ontext: (text) => handler.text(text), onclosetag: (name) => handler.close(name) },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  return { write: (text) => parser.write(text), end: () => parser.end() };
}
