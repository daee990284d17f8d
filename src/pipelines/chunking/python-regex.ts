/**
 * Python `re` patterns, as users write them in a TitleChunker's `levels`, turned into JavaScript
 * regexes that match what `re.match(pattern, text)` matches (research §4.4):
 *
 * - `\d`, `\w`, `\s`, `\b` are Unicode-aware in Python; `.` stops only at `\n`; `$` also matches
 *   before a final `\n`; `\Z`, `\A`, `(?P<name>…)`, `(?P=name)`, `{,n}`, a `{` that is no
 *   quantifier, `[]…]`, octal and `\U` escapes, global inline flags `(?aimsux)` at the start and
 *   scoped ones `(?s:…)` are rewritten; `(?i:…)` is refused when it differs from the global case
 *   mode (JavaScript 20 cannot scope it).
 * - A pattern longer than 256 characters, or one that can backtrack catastrophically (a repeat
 *   of something that itself repeats or alternates; more than two unbounded repeats of wide
 *   atoms such as `.*`), is refused: a heading regex runs on every line of a document.
 *
 * The result is anchored at the start, as `re.match` is.
 */
import { PY_WHITESPACE_CLASS } from "./python-str.js";

export const MAX_PATTERN_LENGTH = 256;
/** A repeat with at most this many iterations is bounded enough to nest. */
const SMALL_REPEAT = 16;
/** Unbounded repeats of wide atoms (`.*`, `[^x]+`, `\S*`) a pattern may hold: more can take time of high polynomial degree. */
const MAX_WIDE_REPEATS = 2;

/** Why a pattern cannot be used. */
export class PythonRegexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PythonRegexError";
  }
}

interface Flags {
  ascii: boolean;
  dotAll: boolean;
  multiline: boolean;
  verbose: boolean;
}

/** What a parsed piece of pattern is, for the backtracking checks. */
interface Node {
  source: string;
  /** Holds a quantifier that repeats (more than once). */
  repeats: boolean;
  /** Holds an alternation. */
  alternates: boolean;
  /** A single character class wider than a few characters (`.`, a negated class, `\S`, `\W`, `\D`). */
  wide: boolean;
  /** Can be repeated by a quantifier (not an anchor or lookaround-free assertion). */
  quantifiable: boolean;
}

const WORD = "\\p{L}\\p{N}_";
const ASCII_WORD = "A-Za-z0-9_";
const ASCII_SPACE = " \\t\\n\\r\\f\\v";

function hex(code: number): string {
  return `\\u{${code.toString(16)}}`;
}

/** A code point written so that it means itself inside or outside a class under the `u` flag. */
function literal(code: number, inClass: boolean): string {
  const ch = String.fromCodePoint(code);
  if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff) || code === 0x2028 || code === 0x2029) return hex(code);
  if (inClass ? "\\]^-[".includes(ch) : "\\^$.*+?()[]{}|/".includes(ch)) return `\\${ch}`;
  return ch;
}

class Translator {
  private pos = 0;
  private readonly chars: number[];
  private groupCount = 0;
  private readonly groupNames = new Set<string>();
  private wideRepeats = 0;
  private ignoreCase = false;

  constructor(private readonly pattern: string) {
    this.chars = Array.from(pattern, (ch) => ch.codePointAt(0)!);
  }

  translate(): RegExp {
    const flags: Flags = { ascii: false, dotAll: false, multiline: false, verbose: false };
    this.globalFlags(flags);
    const body = this.alternation(flags, 0);
    if (this.pos < this.chars.length) throw this.error(this.peek() === 0x29 ? "unbalanced parenthesis" : "unexpected character");
    if (this.wideRepeats > MAX_WIDE_REPEATS) {
      throw new PythonRegexError(`it repeats wide atoms such as .* ${this.wideRepeats} times without bound (at most ${MAX_WIDE_REPEATS}): matching could take very long`);
    }
    try {
      return new RegExp(`^(?:${body.source})`, this.ignoreCase ? "iu" : "u");
    } catch (error) {
      throw new PythonRegexError(`it does not compile: ${(error as Error).message}`);
    }
  }

  private error(message: string): PythonRegexError {
    return new PythonRegexError(`${message} at position ${this.pos}`);
  }

  private peek(offset = 0): number | undefined {
    return this.chars[this.pos + offset];
  }

  private at(text: string): boolean {
    const codes = Array.from(text, (ch) => ch.codePointAt(0)!);
    return codes.every((code, i) => this.chars[this.pos + i] === code);
  }

  /** Global inline flags, which Python accepts only at the start: `(?i)`, `(?sx)`… */
  private globalFlags(flags: Flags): void {
    while (this.at("(?") && /^[aiLmsux]+\)/.test(this.rest(2))) {
      this.pos += 2;
      while (this.peek() !== 0x29) this.applyFlag(String.fromCodePoint(this.chars[this.pos++]), flags, true);
      this.pos++;
    }
  }

  private rest(skip: number): string {
    return String.fromCodePoint(...this.chars.slice(this.pos + skip, this.pos + skip + 12));
  }

  private applyFlag(flag: string, flags: Flags, on: boolean): void {
    switch (flag) {
      case "a":
        flags.ascii = on;
        return;
      case "i":
        this.ignoreCase = on;
        return;
      case "m":
        flags.multiline = on;
        return;
      case "s":
        flags.dotAll = on;
        return;
      case "x":
        flags.verbose = on;
        return;
      case "u":
        return;
      case "L":
        throw this.error("the flag L (locale) cannot be used with a text pattern");
      default:
        throw this.error(`unknown flag ${flag}`);
    }
  }

  private alternation(flags: Flags, depth: number): Node {
    const branches: Node[] = [this.sequence(flags, depth)];
    while (this.peek() === 0x7c) {
      this.pos++;
      branches.push(this.sequence(flags, depth));
    }
    return {
      source: branches.map((b) => b.source).join("|"),
      repeats: branches.some((b) => b.repeats),
      alternates: branches.length > 1 || branches.some((b) => b.alternates),
      wide: false,
      quantifiable: true,
    };
  }

  private sequence(flags: Flags, depth: number): Node {
    let source = "";
    let repeats = false;
    let alternates = false;
    let only: Node | undefined;
    let count = 0;
    for (;;) {
      const code = this.peek();
      if (code === undefined || code === 0x7c || (code === 0x29 && depth > 0)) break;
      if (code === 0x29) throw this.error("unbalanced parenthesis");
      if (flags.verbose && this.skipVerbose()) continue;
      const atom = this.atom(flags, depth);
      if (atom === undefined) continue; // a comment or an empty item
      const node = this.quantified(atom, flags);
      source += node.source;
      repeats ||= node.repeats;
      alternates ||= node.alternates;
      only = node;
      count++;
    }
    return { source, repeats, alternates, wide: count === 1 && !!only?.wide, quantifiable: true };
  }

  /** In verbose mode, whitespace (ASCII, as Python's) and `#` comments outside classes are not part of the pattern. */
  private skipVerbose(): boolean {
    const code = this.peek()!;
    if (" \t\n\r\v\f".includes(String.fromCodePoint(code))) {
      this.pos++;
      return true;
    }
    if (code === 0x23) {
      while (this.peek() !== undefined && this.peek() !== 0x0a) this.pos++;
      return true;
    }
    return false;
  }

  private skipVerboseRun(): void {
    while (this.peek() !== undefined && this.skipVerbose());
  }

  /** A quantifier at this position: its bounds and how many characters it takes, or undefined. */
  private quantifierHere(): { min: number; max: number; length: number } | undefined {
    const code = this.peek();
    if (code === 0x2a) return { min: 0, max: Infinity, length: 1 };
    if (code === 0x2b) return { min: 1, max: Infinity, length: 1 };
    if (code === 0x3f) return { min: 0, max: 1, length: 1 };
    if (code !== 0x7b) return undefined;
    const match = /^\{(\d*)(?:(,)(\d*))?\}/.exec(String.fromCodePoint(...this.chars.slice(this.pos, this.pos + 24)));
    // Python reads `{` as a literal unless it starts `{m}`, `{m,}`, `{,n}`, `{m,n}` or `{,}`; `{}` is literal.
    if (!match || (match[1] === "" && match[2] === undefined)) return undefined;
    const min = match[1] === "" ? 0 : Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
    return { min, max, length: match[0].length };
  }

  private quantified(atom: Node, flags: Flags): Node {
    if (flags.verbose) this.skipVerboseRun();
    const quantifier = this.quantifierHere();
    if (!quantifier) return atom;
    if (!atom.quantifiable) throw this.error("nothing to repeat");
    const { min, max, length } = quantifier;
    if (max < min) throw this.error("min repeat greater than max repeat");
    this.pos += length;
    let lazy = "";
    if (this.peek() === 0x3f) {
      lazy = "?";
      this.pos++;
    } else if (this.peek() === 0x2b) {
      throw this.error("possessive quantifiers (*+, ++, ?+) are not supported");
    }
    if (flags.verbose) this.skipVerboseRun();
    if (this.quantifierHere()) throw this.error("multiple repeat");
    const unbounded = max === Infinity || max > SMALL_REPEAT;
    if (unbounded && (atom.repeats || atom.alternates)) {
      throw this.error(`it repeats a group that itself ${atom.repeats ? "repeats a variable number of times" : "alternates"}: matching could take exponential time`);
    }
    if (max === Infinity && atom.wide) this.wideRepeats++;
    const text = max === min ? `{${min}}` : max === Infinity ? (min === 0 ? "*" : min === 1 ? "+" : `{${min},}`) : min === 0 && max === 1 ? "?" : `{${min},${max}}`;
    // A repeat of variable count can match one text in many ways; `{2}` cannot.
    return { source: `${atom.source}${text}${lazy}`, repeats: atom.repeats || max !== min, alternates: atom.alternates, wide: false, quantifiable: false };
  }

  private atom(flags: Flags, depth: number): Node | undefined {
    const code = this.chars[this.pos];
    const plain = (source: string, wide = false): Node => ({ source, repeats: false, alternates: false, wide, quantifiable: true });
    const anchor = (source: string): Node => ({ source, repeats: false, alternates: false, wide: false, quantifiable: false });
    switch (code) {
      case 0x28: // (
        return this.group(flags, depth);
      case 0x5b: // [
        return this.characterClass(flags);
      case 0x2e: // .
        this.pos++;
        return plain(flags.dotAll ? "[\\s\\S]" : "[^\\n]", true);
      case 0x5e: // ^
        this.pos++;
        return anchor(flags.multiline ? "(?<![^\\n])" : "(?<![\\s\\S])");
      case 0x24: // $
        this.pos++;
        return anchor(flags.multiline ? "(?=\\n|(?![\\s\\S]))" : "(?=\\n?(?![\\s\\S]))");
      case 0x5c: // backslash
        return this.escape(flags);
      case 0x2a:
      case 0x2b:
      case 0x3f:
        throw this.error("nothing to repeat");
      case 0x7b: // {
        if (this.quantifierHere()) throw this.error("nothing to repeat");
        this.pos++;
        return plain("\\{");
      default:
        this.pos++;
        return plain(literal(code, false));
    }
  }

  private group(flags: Flags, depth: number): Node | undefined {
    this.pos++; // (
    let open = "(";
    let inner = flags;
    let quantifiable = true;
    if (this.peek() === 0x3f) {
      this.pos++;
      const kind = this.peek();
      if (kind === 0x3a) {
        this.pos++;
        open = "(?:";
      } else if (kind === 0x50 && this.peek(1) === 0x3c) {
        this.pos += 2;
        open = `(?<${this.groupName()}>`;
        this.groupCount++;
      } else if (kind === 0x50 && this.peek(1) === 0x3d) {
        this.pos += 2;
        const name = this.readUntil(0x29, "missing ), unterminated name");
        if (!this.groupNames.has(name)) throw this.error(`unknown group name ${name}`);
        return { source: `\\k<${name}>`, repeats: false, alternates: false, wide: false, quantifiable: true };
      } else if (kind === 0x3d || kind === 0x21) {
        this.pos++;
        open = kind === 0x3d ? "(?=" : "(?!";
        quantifiable = false;
      } else if (kind === 0x3c && (this.peek(1) === 0x3d || this.peek(1) === 0x21)) {
        open = this.peek(1) === 0x3d ? "(?<=" : "(?<!";
        this.pos += 2;
        quantifiable = false;
      } else if (kind === 0x23) {
        this.readUntil(0x29, "missing ), unterminated comment");
        return undefined;
      } else if (kind === 0x3e) {
        throw this.error("atomic groups (?>…) are not supported");
      } else if (kind === 0x28) {
        throw this.error("conditional groups (?(…)…) are not supported");
      } else if (kind !== undefined && /[aiLmsux-]/.test(String.fromCodePoint(kind))) {
        inner = this.scopedFlags(flags);
        open = "(?:";
      } else {
        throw this.error("unknown extension ?" + (kind === undefined ? "" : String.fromCodePoint(kind)));
      }
    } else {
      this.groupCount++;
    }
    const body = this.alternation(inner, depth + 1);
    if (this.peek() !== 0x29) throw this.error("missing ), unterminated subpattern");
    this.pos++;
    return { source: `${open}${body.source})`, repeats: body.repeats, alternates: body.alternates, wide: false, quantifiable };
  }

  /** `(?s-m:…)`: flags for this group only. The case mode cannot be scoped in JavaScript 20. */
  private scopedFlags(flags: Flags): Flags {
    const spec = /^([aiLmsux]*)(?:-([imsx]*))?([:)])/.exec(this.rest(0));
    if (!spec) throw this.error("missing -, : or ), or an unknown flag");
    if (spec[3] === ")") throw this.error("global flags not at the start of the expression");
    this.pos += spec[0].length;
    const inner = { ...flags };
    const caseOn = this.ignoreCase;
    for (const [letters, on] of [
      [spec[1], true],
      [spec[2] ?? "", false],
    ] as const) {
      for (const flag of letters) {
        if (flag === "i") {
          if (on !== caseOn) throw this.error("a scoped case flag (?i:…) or (?-i:…) is not supported; put (?i) at the start of the pattern");
          continue;
        }
        this.applyFlag(flag, inner, on);
      }
    }
    return inner;
  }

  private groupName(): string {
    const name = this.readUntil(0x3e, "missing >, unterminated name");
    if (!/^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(name)) throw this.error(`bad character in group name ${JSON.stringify(name)}`);
    if (this.groupNames.has(name)) throw this.error(`redefinition of group name ${name}`);
    this.groupNames.add(name);
    return name;
  }

  private readUntil(end: number, missing: string): string {
    const start = this.pos;
    while (this.peek() !== undefined && this.peek() !== end) this.pos++;
    if (this.peek() === undefined) throw this.error(missing);
    const text = String.fromCodePoint(...this.chars.slice(start, this.pos));
    this.pos++;
    return text;
  }

  /** A class escape's members: `\d`, `\w`, `\s` and, negated, `\D`, `\W`, `\S`. */
  private classEscape(letter: string, flags: Flags): { members: string; negated: boolean } | undefined {
    const members = { d: flags.ascii ? "0-9" : "\\p{Nd}", w: flags.ascii ? ASCII_WORD : WORD, s: flags.ascii ? ASCII_SPACE : PY_WHITESPACE_CLASS }[letter.toLowerCase()];
    if (members === undefined) return undefined;
    return { members, negated: letter !== letter.toLowerCase() };
  }

  /** A character escape's code point, for both inside and outside a class, or undefined when it is no character escape. */
  private characterEscape(inClass: boolean): number | undefined {
    const code = this.peek()!;
    const ch = String.fromCodePoint(code);
    const simple: Record<string, number> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b, a: 0x07 };
    if (ch in simple) {
      this.pos++;
      return simple[ch];
    }
    if (inClass && ch === "b") {
      this.pos++;
      return 0x08;
    }
    const hexDigits = (count: number, name: string) => {
      const digits = String.fromCodePoint(...this.chars.slice(this.pos + 1, this.pos + 1 + count));
      if (!new RegExp(`^[0-9a-fA-F]{${count}}$`).test(digits)) throw this.error(`incomplete escape \\${name}${digits}`);
      this.pos += 1 + count;
      const value = parseInt(digits, 16);
      if (value > 0x10ffff) throw this.error(`bad escape \\${name}${digits}`);
      return value;
    };
    if (ch === "x") return hexDigits(2, "x");
    if (ch === "u") return hexDigits(4, "u");
    if (ch === "U") return hexDigits(8, "U");
    if (ch === "N") throw this.error("named character escapes \\N{…} are not supported");
    if (ch === "0" || (inClass && /[1-7]/.test(ch))) {
      // Octal: \0, \0nn; in a class any 1-3 octal digits.
      const digits = /^[0-7]{1,3}/.exec(String.fromCodePoint(...this.chars.slice(this.pos, this.pos + 3)))![0];
      this.pos += digits.length;
      const value = parseInt(digits, 8);
      if (value > 0o377) throw this.error(`octal escape value \\${digits} outside of range 0-0o377`);
      return value;
    }
    if (!inClass && /[1-7]/.test(ch) && /^[0-7]{3}$/.test(String.fromCodePoint(...this.chars.slice(this.pos, this.pos + 3)))) {
      const digits = String.fromCodePoint(...this.chars.slice(this.pos, this.pos + 3));
      this.pos += 3;
      const value = parseInt(digits, 8);
      if (value > 0o377) throw this.error(`octal escape value \\${digits} outside of range 0-0o377`);
      return value;
    }
    if (/[A-Za-z0-9]/.test(ch)) return undefined;
    this.pos++;
    return code; // any other escaped character means itself
  }

  private escape(flags: Flags): Node {
    this.pos++; // backslash
    const code = this.peek();
    if (code === undefined) throw this.error("bad escape (end of pattern)");
    const ch = String.fromCodePoint(code);
    const node = (source: string, wide = false, quantifiable = true): Node => ({ source, repeats: false, alternates: false, wide, quantifiable });
    const classOf = this.classEscape(ch, flags);
    if (classOf) {
      this.pos++;
      return node(classOf.negated ? `[^${classOf.members}]` : `[${classOf.members}]`, classOf.negated);
    }
    const word = flags.ascii ? ASCII_WORD : WORD;
    switch (ch) {
      case "b":
        this.pos++;
        return node(`(?:(?<=[${word}])(?![${word}])|(?<![${word}])(?=[${word}]))`, false, false);
      case "B":
        this.pos++;
        return node(`(?:(?<=[${word}])(?=[${word}])|(?<![${word}])(?![${word}]))`, false, false);
      case "A":
        this.pos++;
        return node("(?<![\\s\\S])", false, false);
      case "Z":
        this.pos++;
        return node("(?![\\s\\S])", false, false);
    }
    if (/[1-9]/.test(ch)) {
      const octal = this.characterEscape(false);
      if (octal !== undefined) return node(literal(octal, false));
      const digits = /^[0-9]{1,2}/.exec(String.fromCodePoint(...this.chars.slice(this.pos, this.pos + 2)))![0];
      const group = Number(digits);
      if (group > this.groupCount) throw this.error(`invalid group reference ${group}`);
      this.pos += digits.length;
      return node(`\\${group}(?:)`);
    }
    const value = this.characterEscape(false);
    if (value === undefined) throw this.error(`bad escape \\${ch}`);
    return node(literal(value, false));
  }

  /**
   * `[…]` with Python's reading: a `]` first is a literal. Negated escapes (`\S`, `\W`) cannot be
   * members of a JavaScript class without the `v` flag, so a class holding one becomes an
   * alternation of classes.
   */
  private characterClass(flags: Flags): Node {
    this.pos++; // [
    let negated = false;
    if (this.peek() === 0x5e) {
      negated = true;
      this.pos++;
    }
    let members = "";
    const negatedMembers: string[] = [];
    let first = true;
    for (;;) {
      const code = this.peek();
      if (code === undefined) throw this.error("unterminated character set");
      if (code === 0x5d && !first) {
        this.pos++;
        break;
      }
      first = false;
      let low: number;
      if (code === 0x5c) {
        this.pos++;
        const next = this.peek();
        if (next === undefined) throw this.error("bad escape (end of pattern)");
        const classOf = this.classEscape(String.fromCodePoint(next), flags);
        if (classOf) {
          this.pos++;
          if (classOf.negated) negatedMembers.push(classOf.members);
          else members += classOf.members;
          if (this.peek() === 0x2d && this.peek(1) !== undefined && this.peek(1) !== 0x5d) throw this.error("bad character range");
          continue;
        }
        const value = this.characterEscape(true);
        if (value === undefined) throw this.error(`bad escape \\${String.fromCodePoint(next)}`);
        low = value;
      } else {
        this.pos++;
        low = code;
      }
      // A range low-high, unless the `-` is the last character of the class.
      if (this.peek() === 0x2d && this.peek(1) !== undefined && this.peek(1) !== 0x5d) {
        this.pos++;
        let high: number;
        if (this.peek() === 0x5c) {
          this.pos++;
          const next = this.peek();
          if (next === undefined) throw this.error("bad escape (end of pattern)");
          if (this.classEscape(String.fromCodePoint(next), flags)) throw this.error("bad character range");
          const value = this.characterEscape(true);
          if (value === undefined) throw this.error(`bad escape \\${String.fromCodePoint(next)}`);
          high = value;
        } else {
          high = this.chars[this.pos++];
        }
        if (high < low) throw this.error("bad character range");
        members += `${literal(low, true)}-${literal(high, true)}`;
      } else {
        members += literal(low, true);
      }
    }
    const wide = negated || negatedMembers.length > 0;
    if (negatedMembers.length === 0) {
      return { source: members === "" ? (negated ? "[\\s\\S]" : "[]") : `[${negated ? "^" : ""}${members}]`, repeats: false, alternates: false, wide, quantifiable: true };
    }
    const parts = [...(members === "" ? [] : [`[${members}]`]), ...negatedMembers.map((m) => `[^${m}]`)];
    const any = parts.join("|");
    // Not alternating for the backtracking check: the parts are one class, tried once per character.
    return { source: negated ? `(?:(?!${any})[\\s\\S])` : `(?:${any})`, repeats: false, alternates: false, wide, quantifiable: true };
  }
}

/**
 * The JavaScript regex that `re.match(pattern, text)` is: anchored at the start. Throws a
 * PythonRegexError saying why when the pattern is longer than 256 characters, invalid in Python,
 * uses syntax this translator does not support, or could backtrack catastrophically.
 */
export function translatePythonRegex(pattern: string): RegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new PythonRegexError(`it is ${pattern.length} characters long (at most ${MAX_PATTERN_LENGTH})`);
  return new Translator(pattern).translate();
}
