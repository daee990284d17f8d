/**
 * A parser for Python and JSON literals: what RAGFlow's DataOperations gets from Python's
 * `ast.literal_eval`, without evaluating anything. It reads numbers, strings (with Python's
 * prefixes, escapes and implicit concatenation), True/False/None and true/false/null, lists,
 * tuples (as lists) and dicts. Anything else — names, calls, operators, sets, bytes, complex
 * numbers — is not a literal, and the text stays as it is.
 *
 * Parsing never throws: the result says whether the text was a literal.
 */
import { FORBIDDEN_PATH_KEYS } from "../refs/grammar.js";

export type LiteralValue = null | boolean | number | string | LiteralValue[] | { [key: string]: LiteralValue };

type LiteralParse =
  | { ok: true; value: LiteralValue }
  /** `forbiddenKey`: the text is a dict literal with a key that could reach a prototype. */
  | { ok: false; forbiddenKey?: string };

/** Nesting deeper than this is refused rather than risking the stack. */
const MAX_DEPTH = 256;

class NotALiteral {
  constructor(readonly forbiddenKey?: string) {}
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_]/u;
// Python's number spellings; "_" may separate digits. Sticky: matched at the parser's position.
const DIGITS = String.raw`[0-9](?:_?[0-9])*`;
const PREFIXED_INTEGER = /0(?:[xX](?:_?[0-9a-fA-F])+|[oO](?:_?[0-7])+|[bB](?:_?[01])+)/y;
const FLOAT = new RegExp(String.raw`(?:(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.)(?:[eE][+-]?${DIGITS})?|${DIGITS}[eE][+-]?${DIGITS}`, "y");
/** No leading zeros, except for zero itself: "00" is 0, "007" is an error. */
const DECIMAL_INTEGER = /[1-9](?:_?[0-9])*|0(?:_?0)*/y;
const KEYWORDS: Readonly<Record<string, LiteralValue>> = { True: true, False: false, None: null, true: true, false: false, null: null };
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  // Not a Python escape (Python keeps the backslash), but JSON's; JSON text is the common case.
  "/": "/",
};

interface NumberToken {
  value: number;
  /** Written as a float (with "." or an exponent): Python shows such dict keys as "1.0". */
  isFloat: boolean;
}

/** Parse a whole text as one literal. */
export function parseLiteral(text: string): LiteralParse {
  if (typeof text !== "string") return { ok: false };
  try {
    const parser = new LiteralParser(text.trim());
    return { ok: true, value: parser.parseDocument() };
  } catch (error) {
    if (error instanceof NotALiteral) return error.forbiddenKey === undefined ? { ok: false } : { ok: false, forbiddenKey: error.forbiddenKey };
    // A RangeError (stack) or anything unexpected still means "not a literal".
    return { ok: false };
  }
}

/**
 * RAGFlow only tries texts that look like literals: they start with a bracket or a quote, are a
 * keyword, or are digits and dots. A leading "-" is accepted too (RAGFlow leaves "-5" as text).
 * Hex, exponent and underscore spellings are only read inside brackets, as in RAGFlow.
 */
export function looksLikeLiteral(text: string): boolean {
  const s = text.trim();
  if (s.length === 0) return false;
  if ("{[('\"".includes(s[0])) return true;
  if (Object.hasOwn(KEYWORDS, s)) return true;
  // Two simple tests rather than one backtracking pattern (long digit runs stay linear).
  return /^-?[0-9.]+$/.test(s) && /[0-9]/.test(s);
}

class LiteralParser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  /** The first dict key that could reach a prototype; reported only if the whole text parses. */
  private forbiddenKey: string | undefined;

  parseDocument(): LiteralValue {
    const value = this.parseValue();
    this.skipSpace();
    if (this.pos !== this.src.length) this.fail();
    if (this.forbiddenKey !== undefined) this.fail(this.forbiddenKey);
    return value;
  }

  private fail(forbiddenKey?: string): never {
    throw new NotALiteral(forbiddenKey);
  }

  private peek(offset = 0): string {
    return this.src[this.pos + offset] ?? "";
  }

  /** Whitespace and comments. Outside brackets a line break ends the expression, as in Python. */
  private skipSpace(): void {
    const inside = this.depth > 0;
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t" || c === "\f") this.pos++;
      else if (inside && (c === "\n" || c === "\r")) this.pos++;
      else if (c === "\\" && (this.peek(1) === "\n" || this.peek(1) === "\r")) this.pos += this.peek(1) === "\r" && this.peek(2) === "\n" ? 3 : 2;
      else if (c === "#") {
        while (this.pos < this.src.length && this.peek() !== "\n" && this.peek() !== "\r") this.pos++;
      } else return;
    }
  }

  private expect(char: string): void {
    this.skipSpace();
    if (this.peek() !== char) this.fail();
    this.pos++;
  }

  private parseValue(): LiteralValue {
    this.skipSpace();
    const c = this.peek();
    if (c === "[") return this.nested(() => this.parseList());
    if (c === "(") return this.nested(() => this.parseParenthesized());
    if (c === "{") return this.nested(() => this.parseDict());
    if (c === "+" || c === "-" || c === "." || (c >= "0" && c <= "9")) return this.parseSignedNumber().value;
    if (this.startsString()) return this.parseStrings();
    return this.parseKeyword();
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail();
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** Items up to `close`, separated by commas, a trailing comma allowed. `first` is already read. */
  private parseItems(close: string, first?: LiteralValue): LiteralValue[] {
    const items: LiteralValue[] = first === undefined ? [] : [first];
    let needComma = first !== undefined;
    for (;;) {
      this.skipSpace();
      if (this.peek() === close) {
        this.pos++;
        return items;
      }
      if (needComma) {
        if (this.peek() !== ",") this.fail();
        this.pos++;
        needComma = false;
        continue;
      }
      items.push(this.parseValue());
      needComma = true;
    }
  }

  private parseList(): LiteralValue[] {
    this.pos++; // [
    return this.parseItems("]");
  }

  /** `()` and `(a, b)` are tuples (lists here); `(a)` is just `a`. */
  private parseParenthesized(): LiteralValue {
    this.pos++; // (
    this.skipSpace();
    if (this.peek() === ")") {
      this.pos++;
      return [];
    }
    const first = this.parseValue();
    this.skipSpace();
    if (this.peek() === ")") {
      this.pos++;
      return first;
    }
    if (this.peek() !== ",") this.fail();
    this.pos++;
    return [first, ...this.parseItems(")")];
  }

  private parseDict(): { [key: string]: LiteralValue } {
    this.pos++; // {
    const out: { [key: string]: LiteralValue } = {};
    let needComma = false;
    for (;;) {
      this.skipSpace();
      if (this.peek() === "}") {
        this.pos++;
        return out;
      }
      if (needComma) {
        if (this.peek() !== ",") this.fail();
        this.pos++;
        needComma = false;
        continue;
      }
      const key = this.parseKey();
      this.expect(":");
      const value = this.parseValue();
      if (FORBIDDEN_PATH_KEYS.has(key)) this.forbiddenKey ??= key;
      else out[key] = value;
      needComma = true;
    }
  }

  /**
   * Dict keys become JSON keys the way Python's json.dumps writes them: strings as they are,
   * numbers as text, True/False/None as "true"/"false"/"null". Lists and tuples are refused.
   */
  private parseKey(): string {
    this.skipSpace();
    const c = this.peek();
    if (this.startsString()) return this.parseStrings();
    if (c === "+" || c === "-" || c === "." || (c >= "0" && c <= "9")) {
      const { value, isFloat } = this.parseSignedNumber();
      return isFloat && Number.isInteger(value) ? `${value}.0` : String(value);
    }
    if (c === "[" || c === "{" || c === "(") this.fail();
    const keyword = this.parseKeyword();
    return keyword === null ? "null" : String(keyword);
  }

  private parseKeyword(): LiteralValue {
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos, this.pos + 32));
    if (!match || !Object.hasOwn(KEYWORDS, match[0])) this.fail();
    const next = this.src[this.pos + match[0].length] ?? "";
    if (IDENTIFIER_CHAR.test(next)) this.fail();
    this.pos += match[0].length;
    return KEYWORDS[match[0]];
  }

  // ---- numbers ----

  /** One optional sign (Python's literal_eval allows exactly one unary +/-), then a number. */
  private parseSignedNumber(): NumberToken {
    let sign = 1;
    const c = this.peek();
    if (c === "+" || c === "-") {
      sign = c === "-" ? -1 : 1;
      this.pos++;
      this.skipSpace();
    }
    const token = this.parseUnsignedNumber();
    const value = sign * token.value;
    // -0 has no JSON spelling of its own; it is 0.
    return { value: value === 0 ? 0 : value, isFloat: token.isFloat };
  }

  /** Match a sticky pattern at the current position (no copy of the rest of the text). */
  private matchHere(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    return pattern.exec(this.src)?.[0];
  }

  private parseUnsignedNumber(): NumberToken {
    let token: NumberToken;
    let text = this.matchHere(PREFIXED_INTEGER);
    if (text !== undefined) {
      const radix = /[xX]/.test(text[1]) ? 16 : /[oO]/.test(text[1]) ? 8 : 2;
      token = { value: parseInt(text.slice(2).replace(/_/g, ""), radix), isFloat: false };
      if (!Number.isSafeInteger(token.value)) this.fail();
    } else if ((text = this.matchHere(FLOAT)) !== undefined) {
      token = { value: Number(text.replace(/_/g, "")), isFloat: true };
      if (!Number.isFinite(token.value)) this.fail();
    } else if ((text = this.matchHere(DECIMAL_INTEGER)) !== undefined) {
      token = { value: Number(text.replace(/_/g, "")), isFloat: false };
      if (!Number.isSafeInteger(token.value)) this.fail();
    } else {
      this.fail();
    }
    const next = this.src[this.pos + text.length] ?? "";
    // "1j" (complex), "1abc", "007", "1.2.3": not a literal we can represent.
    if (IDENTIFIER_CHAR.test(next) || next === ".") this.fail();
    this.pos += text.length;
    return token;
  }

  // ---- strings ----

  private stringPrefixLength(): number {
    const m = /^([rRuU]?)(['"])/.exec(this.src.slice(this.pos, this.pos + 2));
    return m ? m[1].length : -1;
  }

  private startsString(): boolean {
    return this.stringPrefixLength() >= 0;
  }

  /** One or more adjacent string literals, concatenated as Python does. */
  private parseStrings(): string {
    let out = this.parseString();
    for (;;) {
      const save = this.pos;
      this.skipSpace();
      if (!this.startsString()) {
        this.pos = save;
        return out;
      }
      out += this.parseString();
    }
  }

  private parseString(): string {
    const prefixLength = this.stringPrefixLength();
    if (prefixLength < 0) this.fail();
    const raw = prefixLength === 1 && /[rR]/.test(this.peek());
    this.pos += prefixLength;
    const quote = this.peek();
    const triple = this.peek(1) === quote && this.peek(2) === quote;
    const delimiter = triple ? quote.repeat(3) : quote;
    this.pos += delimiter.length;
    let out = "";
    for (;;) {
      if (this.pos >= this.src.length) this.fail();
      if (this.src.startsWith(delimiter, this.pos)) {
        this.pos += delimiter.length;
        return out;
      }
      const c = this.peek();
      if (!triple && (c === "\n" || c === "\r")) this.fail();
      if (c !== "\\") {
        out += c;
        this.pos++;
        continue;
      }
      const next = this.peek(1);
      if (next === "") this.fail();
      if (raw) {
        // In a raw string a backslash keeps the next character (even a quote) and itself.
        out += c + next;
        this.pos += 2;
        continue;
      }
      this.pos += 2;
      out += this.escape(next);
    }
  }

  /** The text of an escape sequence whose backslash and first character were just read. */
  private escape(c: string): string {
    if (Object.hasOwn(SIMPLE_ESCAPES, c)) return SIMPLE_ESCAPES[c];
    if (c === "\n") return "";
    if (c === "\r") {
      if (this.peek() === "\n") this.pos++;
      return "";
    }
    if (c >= "0" && c <= "7") {
      let digits = c;
      while (digits.length < 3 && this.peek() >= "0" && this.peek() <= "7") digits += this.src[this.pos++];
      return String.fromCodePoint(parseInt(digits, 8));
    }
    const width = c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
    if (width > 0) {
      const hex = this.src.slice(this.pos, this.pos + width);
      if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) this.fail();
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) this.fail();
      this.pos += width;
      return String.fromCodePoint(code);
    }
    // \N{NAME} needs Unicode's name table; not supported, so the text stays as it is.
    if (c === "N") this.fail();
    // Python keeps unknown escapes as written.
    return "\\" + c;
  }
}
