/**
 * What PyYAML's reader, scanner and parser refuse (or read differently) that the `yaml` package
 * accepts, found on the `yaml` package's own tokens:
 * - characters outside reader.py's printable set;
 * - a tab anywhere but inside quoted text, a comment or a block scalar's content: scanner.py skips
 *   only spaces between tokens and ends a plain scalar at a tab, so `key: a<TAB>b` and
 *   `key:<TAB>a` fail ("found character '\t' that cannot start any token");
 * - a `:` with no key, no `?` and no tag or anchor before it (`: 1`, `{: 1}`);
 * - an anchor or alias name with characters other than letters, digits, `-` and `_`;
 * - inside [...] or {...}, a plain scalar starting with `:` or holding a `?`: PyYAML's scanner
 *   reads that character as an indicator there (`[?a]` is [{a: null}], `[a?b]` and `[a, :b]`
 *   are errors).
 * Where PyYAML reads such a file with a structure of its own (`[?a]`, `&a: v`, `[-]`), canvasflow
 * refuses it rather than rebuild that structure (docs/differences.md).
 */
import { CST, Lexer, Parser } from "yaml";

/** reader.py's NON_PRINTABLE, negated. */
const NOT_PRINTABLE = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** The lexer's own markers (document mode, scalar, flow error end): they are not in the text. */
const MARKERS = new Set(["\u0002", "\u001f", "\u0018"]);

interface SyntaxProblem {
  offset: number;
  message: string;
}

export function pyyamlSyntaxProblem(text: string): SyntaxProblem | undefined {
  const unprintable = NOT_PRINTABLE.exec(text);
  if (unprintable) {
    const code = unprintable[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    return { offset: unprintable.index, message: `unacceptable character #x${code}: special characters are not allowed` };
  }
  const problems = [tokenProblem(text), keylessValueProblem(text)].filter((problem): problem is SyntaxProblem => problem !== undefined);
  return problems.sort((a, b) => a.offset - b.offset)[0];
}

function tokenProblem(text: string): SyntaxProblem | undefined {
  let offset = 0;
  let blockHeaderSeen = false;
  let scalarNext = false;
  let flowDepth = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    const start = offset;
    if (!MARKERS.has(token)) offset += token.length;
    if (type === "scalar") {
      // The marker before a scalar's source: the source is the next token.
      scalarNext = true;
      continue;
    }
    if (type === "flow-map-start" || type === "flow-seq-start") flowDepth++;
    if ((type === "flow-map-end" || type === "flow-seq-end") && flowDepth > 0) flowDepth--;
    const isScalarSource = scalarNext;
    scalarNext = false;
    if (isScalarSource && blockHeaderSeen) {
      blockHeaderSeen = false;
      continue;
    }
    // A block scalar's content follows its header, past spaces, a comment and the line break.
    if (type === "block-scalar-header") blockHeaderSeen = true;
    else if (type !== "space" && type !== "newline" && type !== "comment") blockHeaderSeen = false;
    if (isScalarSource && flowDepth > 0 && (token.startsWith(":") || token.includes("?"))) {
      const at = token.startsWith(":") ? 0 : token.indexOf("?");
      return {
        offset: start + at,
        message: `inside [...] or {...} PyYAML reads a plain \`${token[at]}\` as ${token[at] === ":" ? "a value" : "a key"} indicator, not as part of the text ${JSON.stringify(token)}; quote it`,
      };
    }
    if (flowDepth > 0 && type === "seq-item-ind") {
      return { offset: start, message: "a lone `-` inside [...] or {...} (PyYAML reads it as the text \"-\"; the parser canvasflow uses cannot); quote it" };
    }
    if (type === "anchor" || type === "alias") {
      const name = token.slice(1);
      if (!/^[0-9A-Za-z_-]+$/.test(name)) {
        const what = type === "anchor" ? `the anchor ${token}` : `the alias ${token}`;
        return {
          offset: start,
          message: /^[0-9A-Za-z_-]+:$/.test(name)
            ? `${what}: PyYAML ends the name before the \`:\`; put a space between them`
            : `${what} has a name PyYAML refuses (letters, digits, - and _ only)`,
        };
      }
    }
    const tab = token.indexOf("\t");
    if (tab < 0 || type === "comment" || type === "single-quoted-scalar" || type === "double-quoted-scalar") continue;
    return {
      offset: start + tab,
      message: "found a tab that cannot start any token: PyYAML (which Dify reads YAML with) allows tabs only inside quoted text, comments and block scalars; use spaces",
    };
  }
  return undefined;
}

/** parser.py wants a node before a `:` unless `?` (or a tag or anchor, an empty node) stands there. */
function keylessValueProblem(text: string): SyntaxProblem | undefined {
  let found: SyntaxProblem | undefined;
  for (const document of new Parser().parse(text)) {
    if (document.type !== "document") continue;
    CST.visit(document, (item) => {
      if (found || item.key || !("sep" in item) || !item.sep) return;
      const indicator = item.sep.find((token) => token.type === "map-value-ind");
      if (!indicator) return;
      if (item.start.some((token) => token.type === "explicit-key-ind" || token.type === "anchor" || token.type === "tag")) return;
      found = { offset: indicator.offset, message: "expected a key before `:` (PyYAML, which Dify reads YAML with, wants a key, a `?` or a tag)" };
      return CST.visit.BREAK;
    });
    if (found) return found;
  }
  return undefined;
}
