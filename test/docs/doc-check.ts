/**
 * Checks of the Markdown documentation, pure functions over text: relative links and their
 * #anchors (GitHub's heading slugs), and the `canvasflow …` / `npx canvasflow …` / `npm run …`
 * commands shown, each checked against the CLI's own flag table (CLI_COMMANDS) and package.json's
 * scripts. Every function returns the problems it found; an empty list means clean.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { CliCommandSpec } from "../../src/cli/main.js";

/** A Markdown file split into prose lines (code fences blanked) and its fenced blocks. */
export interface MarkdownParts {
  /** The file's lines, with fenced code replaced by empty lines (line numbers kept). */
  readonly prose: string[];
  readonly blocks: { readonly lang: string; readonly line: number; readonly lines: string[] }[];
}

export function splitMarkdown(text: string): MarkdownParts {
  const prose: string[] = [];
  const blocks: MarkdownParts["blocks"] = [];
  let fence: { marker: string; block: MarkdownParts["blocks"][number] } | undefined;
  text.split("\n").forEach((line, index) => {
    const opening = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      prose.push("");
      if (new RegExp(`^ {0,3}${fence.marker[0]}{${fence.marker.length},}\\s*$`).test(line)) fence = undefined;
      else fence.block.lines.push(line);
      return;
    }
    if (opening) {
      const block = { lang: opening[2].toLowerCase(), line: index + 1, lines: [] as string[] };
      blocks.push(block);
      fence = { marker: opening[1], block };
      prose.push("");
      return;
    }
    prose.push(line);
  });
  return { prose, blocks };
}

/** GitHub's anchor of a heading (github-slugger): lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors of a Markdown file's headings, duplicates numbered as GitHub does (`x`, `x-1`, …). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const line of splitMarkdown(text).prose) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = githubSlug(heading[1]);
    const seen = counts.get(base) ?? 0;
    counts.set(base, seen + 1);
    anchors.add(seen === 0 ? base : `${base}-${seen}`);
  }
  return anchors;
}

/** Inline code spans blanked, so a link shown as code is not a link. */
function withoutInlineCode(line: string): string {
  return line.replace(/(`+)(.+?)\1/g, (m) => " ".repeat(m.length));
}

export interface DocLink {
  readonly line: number;
  readonly target: string;
}

/** The links and images of a Markdown file whose targets are relative (no scheme), outside code. */
export function relativeLinks(text: string): DocLink[] {
  const out: DocLink[] = [];
  splitMarkdown(text).prose.forEach((raw, index) => {
    const line = withoutInlineCode(raw);
    const patterns = [/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g, /<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"/g];
    for (const pattern of patterns) {
      for (const match of line.matchAll(pattern)) {
        const target = match[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
        out.push({ line: index + 1, target });
      }
    }
  });
  return out;
}

/**
 * Problems with the relative links of `file` (a path under `root`): a target that does not exist,
 * or an #anchor that no heading of the target Markdown file gives.
 */
export function linkProblems(file: string, root: string, read: (path: string) => string = (p) => readFileSync(p, "utf8")): string[] {
  const problems: string[] = [];
  const text = read(file);
  const where = relative(root, file);
  for (const { line, target } of relativeLinks(text)) {
    const hash = target.indexOf("#");
    const pathPart = decodeURIComponent(hash >= 0 ? target.slice(0, hash) : target);
    const anchor = hash >= 0 ? decodeURIComponent(target.slice(hash + 1)) : undefined;
    const resolved = pathPart === "" ? file : pathPart.startsWith("/") ? join(root, pathPart) : resolve(dirname(file), pathPart);
    if (!resolved.startsWith(root)) {
      problems.push(`${where}:${line}: ${target} points outside the project`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where}:${line}: ${target}: ${relative(root, resolved)} does not exist`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (!resolved.endsWith(".md") || statSync(resolved).isDirectory()) {
      problems.push(`${where}:${line}: ${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!headingAnchors(read(resolved)).has(anchor)) problems.push(`${where}:${line}: ${target}: ${relative(root, resolved)} has no heading with the anchor #${anchor}`);
  }
  return problems;
}

export interface ShownCommand {
  readonly line: number;
  /** The words after the program: `run fixtures/x.json --events pretty` → ["run", "fixtures/x.json", "--events", "pretty"]. */
  readonly words: string[];
  readonly program: "canvasflow" | "npm run";
  readonly text: string;
}

/** Languages whose code blocks hold shell commands or their transcripts. */
const SHELL_BLOCKS = new Set(["", "sh", "bash", "shell", "console", "text", "zsh"]);

/**
 * The command of a line, if it shows one: `canvasflow …`, `npx canvasflow …` or `npm run …`,
 * optionally after a `$ ` prompt, environment assignments or `&&`-joined commands before it.
 */
function commandsOf(text: string, line: number): ShownCommand[] {
  const out: ShownCommand[] = [];
  const segments = splitShell(text.replace(/^\s*\$\s+/, ""));
  for (const segment of segments) {
    let words = segment;
    while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words = words.slice(1);
    if (words[0] === "npx" && words[1] === "canvasflow") out.push({ line, words: words.slice(2), program: "canvasflow", text });
    else if (words[0] === "canvasflow") out.push({ line, words: words.slice(1), program: "canvasflow", text });
    else if (words[0] === "npm" && words[1] === "run") out.push({ line, words: words.slice(2), program: "npm run", text });
  }
  return out;
}

/**
 * Shell-ish words of a command line, as a list of commands (split at `&&`, `||`, `;`, `|`), each
 * cut at a redirection or comment. Inside a usage synopsis's brackets (`[--a X | --b Y]`) a `|`
 * separates alternatives, not commands. Quotes are honoured; brackets and ellipses are dropped.
 */
export function splitShell(text: string): string[][] {
  const commands: string[][] = [[]];
  let word = "";
  let quote: string | undefined;
  let depth = 0;
  let cut = false;
  const push = () => {
    const cleaned = word.replace(/\.\.\.|…/g, "");
    if (cleaned !== "" && !cut) commands[commands.length - 1].push(cleaned);
    word = "";
  };
  const next = () => {
    push();
    commands.push([]);
    cut = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      continue;
    }
    if (ch === "[") {
      depth++;
      continue;
    }
    if (ch === "]") {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (/\s/.test(ch)) {
      push();
      continue;
    }
    if (ch === "#" && word === "") {
      push();
      cut = true;
      continue;
    }
    if (depth === 0 && (ch === "&" || ch === ";" || ch === "|")) {
      if (text[i + 1] === ch) i++;
      next();
      continue;
    }
    if (depth === 0 && (ch === ">" || ch === "<")) {
      // A redirection's target is no argument: the rest of this command is dropped.
      if (word === "2" || word === "1") word = "";
      push();
      cut = true;
      // `2>&1`, `>>`: the operator's own characters are not a command separator.
      while (i + 1 < text.length && (text[i + 1] === ">" || text[i + 1] === "&")) i++;
      continue;
    }
    word += ch;
  }
  push();
  return commands.filter((c) => c.length > 0);
}

/** Every command shown in a Markdown file: in shell code blocks (one per line, synopsis continuations joined) and in inline code. */
export function shownCommands(text: string): ShownCommand[] {
  const parts = splitMarkdown(text);
  const out: ShownCommand[] = [];
  for (const block of parts.blocks) {
    if (!SHELL_BLOCKS.has(block.lang)) continue;
    for (let i = 0; i < block.lines.length; i++) {
      let line = block.lines[i];
      // A usage synopsis continues on indented lines of bracketed flags; a shell line after a backslash.
      while (i + 1 < block.lines.length && (/\\\s*$/.test(line) || /^\s+\[/.test(block.lines[i + 1]))) {
        line = `${line.replace(/\\\s*$/, "")} ${block.lines[++i].trim()}`;
      }
      out.push(...commandsOf(line, block.line + 1 + i));
    }
  }
  parts.prose.forEach((line, index) => {
    for (const match of line.matchAll(/(`+)(.+?)\1/g)) {
      const code = match[2].trim();
      if (/^(?:\$\s+)?(?:npx canvasflow|canvasflow|npm run)(?:\s|$)/.test(code)) out.push(...commandsOf(code, index + 1));
    }
  });
  return out;
}

/** The flags of a command spec, long and short, each with whether it takes a value. */
function flagTable(spec: CliCommandSpec): Map<string, boolean> {
  const flags = new Map<string, boolean>([["--help", false], ["-h", false]]);
  for (const [name, option] of Object.entries(spec.options)) {
    flags.set(`--${name}`, option.type === "string");
    if (option.short) flags.set(`-${option.short}`, option.type === "string");
  }
  return flags;
}

/**
 * What is wrong with a shown command, or undefined: an unknown command, subcommand, flag or npm
 * script. Words that are placeholders in a synopsis (`FILE`, `ID=DIR`) are values, not checked.
 */
export function commandProblem(command: ShownCommand, commands: Readonly<Record<string, CliCommandSpec>>, scripts: ReadonlySet<string>): string | undefined {
  const [first, ...rest] = command.words;
  if (command.program === "npm run") {
    if (first === undefined) return undefined;
    return scripts.has(first) ? undefined : `npm run ${first}: package.json has no script "${first}"`;
  }
  if (first === undefined || ["--help", "-h", "help", "--version", "-v"].includes(first)) {
    return rest.every((w) => ["--help", "-h", "--version", "-v"].includes(w)) ? undefined : `canvasflow ${command.words.join(" ")}: --help and --version take nothing else`;
  }
  const spec = commands[first];
  if (!spec) return `canvasflow ${first}: no such command (the commands are ${Object.keys(commands).join(", ")})`;
  const flags = flagTable(spec);
  let subcommandSeen = false;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if (/^-[A-Za-z-]/.test(word) && word !== "-") {
      const name = word.startsWith("--") ? word.split("=")[0] : word;
      if (!flags.has(name)) return `canvasflow ${first}: unknown flag ${name} (${first} takes ${[...flags.keys()].filter((f) => f.startsWith("--")).join(", ")})`;
      // A string flag's value is the next word, unless written --flag=value.
      if (flags.get(name) && !word.includes("=")) i++;
      continue;
    }
    if (spec.subcommands && !subcommandSeen) {
      subcommandSeen = true;
      if (!spec.subcommands.includes(word)) return `canvasflow ${first} ${word}: no such subcommand (${first} has ${spec.subcommands.join(", ")})`;
    }
  }
  return undefined;
}

/** A printed line's shape: durations stand for any duration. */
export function outputShape(line: string): string {
  return line.replace(/\d+(?:\.\d+)? m?s\b/g, "<ms>").trimEnd();
}

/**
 * The lines a document shows that the real output lacks, comparing shapes in order: each shown
 * line must come after the one before it in the output (the document may trim lines with `…`).
 */
export function missingInOrder(shownLines: readonly string[], printed: readonly string[]): string[] {
  const actual = printed.map(outputShape).filter((l) => l !== "");
  const missing: string[] = [];
  let at = 0;
  for (const line of shownLines.filter((l) => l.trim() !== "…" && l.trim() !== "").map(outputShape)) {
    const found = actual.indexOf(line, at);
    if (found < 0) missing.push(line);
    else at = found + 1;
  }
  return missing;
}
