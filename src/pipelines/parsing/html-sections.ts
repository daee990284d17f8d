/**
 * RAGFlow's HtmlParser (research/ragflow-pipelines.md §4.2 "HTML"; also what an EPUB's chapters
 * go through): scripts, styles, comments and inline `style` attributes are dropped (nothing is
 * ever executed); the text of `body` (or of the whole document without one) is walked in order,
 * a block tag starting a block, `<br>` a hard line break, h1–h6 text prefixed with "#"…"######";
 * whitespace is folded as CSS folds it except inside `pre`/`textarea`; blocks are packed up to
 * `chunk_token_num` tokens and joined with "\n", a block over the budget is cut at spaces (CJK
 * text between characters). Tables are kept as HTML and come after all the text, as in RAGFlow.
 *
 * RAGFlow counts these tokens with its full-text tokenizer (rag_tokenizer); here they are
 * cl100k_base tokens, the unit of every other chunk size, so a block near the budget may be
 * packed differently.
 */
import type * as Htmlparser2 from "htmlparser2";
import { cl100kCounter, type TokenCounter } from "../chunking/tokens.js";

/** What sizing sections needs of a token counter (tests give their own). */
type SectionTokens = Pick<TokenCounter, "count" | "truncate">;
import { lazyPackage } from "../../util/optional-package.js";

const htmlparser2 = lazyPackage<typeof Htmlparser2>("htmlparser2", "Parsing HTML documents");

type DomDocument = ReturnType<typeof Htmlparser2.parseDocument>;
type DomNode = DomDocument["children"][number];
type DomElement = ReturnType<typeof Htmlparser2.DomUtils.findAll>[number];

export interface HtmlSectionOptions {
  /** Token budget of a section (RAGFlow's `chunk_token_num`, 512 by default). */
  chunkTokenNum?: number;
  /** Drop `<header>`, `<footer>` and elements with role banner or contentinfo first (`remove_header_footer`). */
  removeHeaderFooter?: boolean;
  /** The cl100k counter, when the caller has it loaded already. */
  tokens?: SectionTokens;
}

export const HTML_DEFAULT_CHUNK_TOKENS = 512;

const BLOCK_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "article", "section", "aside", "ul", "ol", "li", "table", "pre", "code", "blockquote", "figure", "figcaption"]);
const TITLE_MARKS: Record<string, string> = { h1: "#", h2: "##", h3: "###", h4: "####", h5: "#####", h6: "######" };
const PRESERVED_WHITESPACE = new Set(["pre", "textarea"]);
/** Stands for a `<br>` while whitespace is folded, then becomes "\n" (RAGFlow uses the same character). */
const HARD_BREAK = "\x0b";

/** One run of text found by the walk, or a table. */
interface Fragment {
  content: string;
  /** The tag the text is directly inside, or `table`. */
  tagName: string;
  /** The nearest enclosing block tag's id; a table has none. */
  blockId?: number;
  /** `<br>`s since the previous text of the same walk. */
  breaksBefore: number;
}

function isElement(node: DomNode): node is DomElement {
  return node.type === "tag" || node.type === "script" || node.type === "style";
}

/** Removes what never reaches the text: scripts, styles, comments, inline styles (and header/footer when asked). */
function clean(document: DomDocument, removeHeaderFooter: boolean): void {
  const { DomUtils } = htmlparser2();
  const doomed: DomNode[] = [];
  // An explicit stack: a page nested thousands deep must not overflow the call stack.
  const stack: DomNode[][] = [document.children];
  const visit = (nodes: DomNode[]) => {
    for (const node of nodes) {
      if (node.type === "comment" || node.type === "directive" || node.type === "script" || node.type === "style") {
        doomed.push(node);
        continue;
      }
      if (!isElement(node)) continue;
      const role = node.attribs.role;
      if (removeHeaderFooter && (node.name === "header" || node.name === "footer" || role === "banner" || role === "contentinfo")) {
        doomed.push(node);
        continue;
      }
      delete node.attribs.style;
      stack.push(node.children);
    }
  };
  while (stack.length > 0) visit(stack.pop()!);
  for (const node of doomed) DomUtils.removeElement(node);
}

/** The first `<body>` in document order (depth first, with an explicit stack). */
function findBody(document: DomDocument): DomElement | undefined {
  const stack: DomNode[] = [...document.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.name === "body") return node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return undefined;
}

/** The walk of RAGFlow's `read_text_recursively`, with an explicit stack. */
function fragmentsOf(root: DomNode[], rootName: string): Fragment[] {
  const { DomUtils } = htmlparser2();
  const fragments: Fragment[] = [];
  let nextBlockId = 1;
  interface Frame {
    nodes: DomNode[];
    index: number;
    tagName: string;
    blockId?: number;
    /** `<br>`s not yet followed by text. */
    breaks: number;
    /** fragments.length when the child being walked started, or -1. */
    childStart: number;
  }
  const stack: Frame[] = [{ nodes: root, index: 0, tagName: rootName, breaks: 0, childStart: -1 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.childStart >= 0) {
      // A child that produced text uses up the pending breaks.
      if (fragments.length > frame.childStart) frame.breaks = 0;
      frame.childStart = -1;
    }
    if (frame.index >= frame.nodes.length) {
      stack.pop();
      continue;
    }
    const node = frame.nodes[frame.index++];
    if (node.type === "text") {
      if (node.data.trim() === "") continue;
      fragments.push({ content: node.data, tagName: frame.tagName, blockId: frame.blockId, breaksBefore: frame.breaks });
      frame.breaks = 0;
      continue;
    }
    if (!isElement(node)) continue;
    const name = node.name.toLowerCase();
    if (name === "br") {
      frame.breaks++;
      continue;
    }
    if (name === "table") {
      fragments.push({ content: DomUtils.getOuterHTML(node, { encodeEntities: false }), tagName: "table", breaksBefore: 0 });
      frame.breaks = 0;
      continue;
    }
    frame.childStart = fragments.length;
    stack.push({ nodes: node.children, index: 0, tagName: name, blockId: BLOCK_TAGS.has(name) ? nextBlockId++ : frame.blockId, breaks: frame.breaks, childStart: -1 });
  }
  return fragments;
}

/** CSS folding of one block: whitespace runs become one space and each line is trimmed; `pre` keeps it. */
function foldBlock(raw: string, preserve: boolean): string {
  if (preserve) return raw.replaceAll(HARD_BREAK, "\n");
  return raw
    .split(HARD_BREAK)
    .map((line) => line.replace(/[ \t\r\n\f]+/g, " ").trim())
    .join("\n");
}

/** RAGFlow's `merge_block_text`: the fragments of one block joined, and the tables apart. */
function mergeBlocks(fragments: Fragment[]): { blocks: string[]; tables: string[] } {
  const blocks: string[] = [];
  const tables: string[] = [];
  let current = "";
  let currentIsPre = false;
  let lastBlockId: number | undefined;
  for (const fragment of fragments) {
    let content = fragment.content;
    if (fragment.blockId !== undefined) {
      const mark = TITLE_MARKS[fragment.tagName];
      if (mark) content = `${mark} ${content}`;
      if (fragment.blockId !== lastBlockId) {
        if (current) blocks.push(foldBlock(current, currentIsPre));
        current = content;
        currentIsPre = PRESERVED_WHITESPACE.has(fragment.tagName);
        lastBlockId = fragment.blockId;
      } else {
        current += HARD_BREAK.repeat(fragment.breaksBefore) + content;
      }
    } else if (fragment.tagName === "table") {
      tables.push(fragment.content);
    } else {
      current += HARD_BREAK.repeat(fragment.breaksBefore) + content;
    }
  }
  if (current) blocks.push(foldBlock(current, currentIsPre));
  return { blocks, tables };
}

/** Scripts written without spaces between words (kana, CJK, Hangul) are cut between characters. */
const SPACELESS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
const ATOMS = new RegExp(`[${SPACELESS}]|[^\\s${SPACELESS}]+|\\s+`, "g");

/** RAGFlow's `_split_oversized_block`: pieces of at most `budget` tokens, cut between atoms; an atom over the budget is cut every `budget` characters. */
function splitOversized(block: string, budget: number, tokens: SectionTokens): string[] {
  const pieces: string[] = [];
  const cache = new Map<string, number>();
  const count = (atom: string) => {
    if (/^\s+$/.test(atom)) return 0;
    let n = cache.get(atom);
    if (n === undefined) cache.set(atom, (n = tokens.count(atom)));
    return n;
  };
  let current = "";
  let currentTokens = 0;
  for (const [atom] of block.matchAll(ATOMS)) {
    const n = count(atom);
    if (current && currentTokens + n > budget) {
      pieces.push(current);
      current = "";
      currentTokens = 0;
    }
    if (n > budget) {
      const chars = Array.from(atom);
      for (let i = 0; i < chars.length; i += budget) pieces.push(chars.slice(i, i + budget).join(""));
      continue;
    }
    current += atom;
    currentTokens += n;
  }
  if (current) pieces.push(current);
  return pieces;
}

/** RAGFlow's `chunk_block`: blocks packed greedily up to the budget and joined with "\n". */
function packBlocks(blocks: string[], budget: number, tokens: SectionTokens): string[] {
  const chunks: string[] = [];
  let current = "";
  let currentTokens = 0;
  for (const block of blocks) {
    const n = tokens.count(block);
    if (n > budget) {
      if (current) chunks.push(current);
      current = "";
      currentTokens = 0;
      chunks.push(...splitOversized(block, budget, tokens));
    } else if (currentTokens + n <= budget) {
      current += (current ? "\n" : "") + block;
      currentTokens += n;
    } else {
      chunks.push(current);
      current = block;
      currentTokens = n;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * The sections of an HTML document as RAGFlow's HtmlParser gives them: packed text blocks, then
 * each table's HTML. Empty sections may occur (as in RAGFlow); callers drop them.
 */
export async function htmlToSections(html: string, options: HtmlSectionOptions = {}): Promise<string[]> {
  const tokens = options.tokens ?? (await cl100kCounter());
  const budget = options.chunkTokenNum ?? HTML_DEFAULT_CHUNK_TOKENS;
  const document = htmlparser2().parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  clean(document, options.removeHeaderFooter ?? false);
  const body = findBody(document);
  const fragments = body ? fragmentsOf(body.children, "body") : fragmentsOf(document.children, "[document]");
  const { blocks, tables } = mergeBlocks(fragments);
  return [...packBlocks(blocks, budget, tokens), ...tables];
}
