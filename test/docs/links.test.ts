/**
 * The documentation can be followed: every relative link and #anchor in README.md and docs/*.md
 * exists, every `canvasflow …` / `npx canvasflow …` / `npm run …` command they show is one the
 * CLI's parser (CLI_COMMANDS) and package.json accept, and the README's quick-start command runs
 * and prints what the README shows, line for line in shape.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CLI_COMMANDS } from "../../src/cli/main.js";
import { cli } from "../helpers/cli.js";
import { scratchDir } from "../helpers/scratch.js";
import { sharedFolder } from "../helpers/shared.js";
import { commandProblem, githubSlug, headingAnchors, linkProblems, missingInOrder, outputShape, shownCommands, splitMarkdown, splitShell, type ShownCommand } from "./doc-check.js";

const root = resolve(".");
const pages = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const scripts = new Set(Object.keys((JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts));
const { dir } = scratchDir("canvasflow-docs-");
const run = promisify(execFile);

const shown = (text: string) => shownCommands(text).map((c) => commandProblem(c, CLI_COMMANDS, scripts) ?? "ok");

describe("the checker", () => {
  it("makes GitHub's anchors: lower case, punctuation dropped, code and links kept as text, duplicates numbered", () => {
    expect(githubSlug("Run an example canvas")).toBe("run-an-example-canvas");
    expect(githubSlug("`canvasflow run … --trace FILE.html`")).toBe("canvasflow-run----trace-filehtml");
    expect(githubSlug("Where we deliberately differ from RAGFlow")).toBe("where-we-deliberately-differ-from-ragflow");
    expect(githubSlug("The CLI: a conversation with a session")).toBe("the-cli-a-conversation-with-a-session");
    expect(githubSlug("[Links](x.md) & *more* (v2)")).toBe("links--more-v2");
    expect(githubSlug("Dify 运营一条龙")).toBe("dify-运营一条龙");
    expect([...headingAnchors("# A\n## A\n```\n# not a heading\n```\n### A b\n")]).toEqual(["a", "a-1", "a-b"]);
  });

  it("finds a missing file, a missing anchor and an anchor into a non-Markdown file; ignores code and external links", () => {
    const base = join(dir, "links");
    mkdirSync(join(base, "docs"), { recursive: true });
    writeFileSync(join(base, "docs", "a.md"), "# Page A\n\n## Some part\n\ntext\n");
    writeFileSync(join(base, "img.png"), "");
    writeFileSync(
      join(base, "README.md"),
      [
        "# Home",
        "[ok](docs/a.md) [ok anchor](docs/a.md#some-part) [self](#home) ![pic](img.png) [web](https://example.com/x.md)",
        "[missing file](docs/b.md) [missing anchor](docs/a.md#no-such-part) [self missing](#nowhere) [png anchor](img.png#x)",
        "`[in code](docs/nope.md)`",
        "```",
        "[in a block](docs/nope.md)",
        "```",
        "[ref]: docs/gone.md",
      ].join("\n"),
    );
    const problems = linkProblems(join(base, "README.md"), base);
    expect(problems).toEqual([
      "README.md:3: docs/b.md: docs/b.md does not exist",
      "README.md:3: docs/a.md#no-such-part: docs/a.md has no heading with the anchor #no-such-part",
      "README.md:3: #nowhere: README.md has no heading with the anchor #nowhere",
      "README.md:3: img.png#x: an anchor into a file that is not Markdown",
      "README.md:8: docs/gone.md: docs/gone.md does not exist",
    ]);
  });

  it("splits shell lines into commands, honouring quotes, synopsis brackets, redirections and comments", () => {
    expect(splitShell(`npm ci && npx canvasflow run x.json -q "a b" > out.txt 2>&1 # note`)).toEqual([["npm", "ci"], ["npx", "canvasflow", "run", "x.json", "-q", "a b"]]);
    expect(splitShell("canvasflow graph FILE [--format mermaid|svg|html] [-o OUT]")).toEqual([["canvasflow", "graph", "FILE", "--format", "mermaid|svg|html", "-o", "OUT"]]);
    expect(splitShell("canvasflow --version | --help")).toEqual([["canvasflow", "--version"], ["--help"]]);
  });

  it("refuses an unknown command, subcommand, flag or npm script, and accepts real ones", () => {
    const doc = [
      "```sh",
      "$ npx canvasflow run fixtures/switch.json --events pretty --trace t.html -q hi",
      "canvasflow graph FILE [--format mermaid|svg|html] [-o OUT]",
      "canvasflow keys create --tenant me --name laptop",
      "canvasflow run FILE [--query TEXT]",
      "                    [--no-such-flag]",
      "canvasflow draw x.json",
      "canvasflow keys rotate ID",
      "canvasflow validate x.json --strict",
      "npm run bench -- --only cold-start",
      "npm run deploy",
      "```",
      "Prose with `canvasflow migrate IN --dry-run` and `canvasflow run x.json -z` and `npm test`.",
    ].join("\n");
    expect(shown(doc)).toEqual([
      "ok",
      "ok",
      "ok",
      expect.stringContaining("canvasflow run: unknown flag --no-such-flag"),
      expect.stringContaining("canvasflow draw: no such command"),
      expect.stringContaining("canvasflow keys rotate: no such subcommand"),
      expect.stringContaining("canvasflow validate: unknown flag --strict"),
      "ok",
      'npm run deploy: package.json has no script "deploy"',
      "ok",
      expect.stringContaining("canvasflow run: unknown flag -z"),
    ]);
  });
});

describe("README.md and docs/", () => {
  it("covers the README and every page of docs/", () => {
    expect(pages).toContain("README.md");
    expect(pages).toContain("docs/cli.md");
    expect(pages.length).toBeGreaterThan(10);
  });

  it("every relative link and #anchor exists", () => {
    const problems = pages.flatMap((page) => linkProblems(join(root, page), root));
    expect(problems).toEqual([]);
  });

  it("every command shown is a real command with real flags", () => {
    const commands: Array<ShownCommand & { page: string }> = pages.flatMap((page) => shownCommands(readFileSync(page, "utf8")).map((c) => ({ ...c, page })));
    // The README shows the main commands: an empty scan would pass vacuously.
    expect(commands.filter((c) => c.page === "README.md").length).toBeGreaterThan(10);
    const problems = commands.flatMap((c) => {
      const problem = commandProblem(c, CLI_COMMANDS, scripts);
      return problem ? [`${c.page}:${c.line}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("every page of docs/ opens with what it covers: a title, then a paragraph of prose", () => {
    const problems: string[] = [];
    for (const page of pages.filter((p) => p.startsWith("docs/"))) {
      const lines = splitMarkdown(readFileSync(page, "utf8")).prose;
      const firstText = lines.findIndex((l, i) => i > 0 && l.trim() !== "");
      if (!/^# \S/.test(lines[0] ?? "")) problems.push(`${page}: does not start with a # title`);
      else if (firstText < 0 || /^(#|\||```|-|\*|\d+\.|!\[|<)/.test(lines[firstText].trim())) problems.push(`${page}: the title is not followed by a sentence on what the page covers`);
    }
    expect(problems).toEqual([]);
  });
});

describe("the README's diagrams", () => {
  it("each mermaid block after a `canvasflow graph FILE` command is what that command prints", async () => {
    const { blocks } = splitMarkdown(readFileSync("README.md", "utf8"));
    const pairs = blocks.flatMap((block, i) => {
      const command = shownCommands(["```sh", ...block.lines, "```"].join("\n")).find((c) => c.words[0] === "graph");
      const next = blocks[i + 1];
      return command && next?.lang === "mermaid" ? [{ words: command.words, mermaid: next.lines.join("\n") }] : [];
    });
    // The RAGFlow example and the Dify one.
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    for (const { words, mermaid } of pairs) {
      // The README's ../shared/… paths, wherever this clone's shared folder is.
      const shared = sharedFolder("dsl-corpus");
      const printed = await cli(shared ? words.map((word) => word.replace(/^\.\.\/shared\//, `${shared}/`)) : words);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout.trimEnd()).toBe(mermaid);
    }
  });
});

describe("the README's quick start", () => {
  /** The section's shell block and the output block after it. */
  function quickStart(): { command: ShownCommand; output: string[] } {
    const readme = readFileSync("README.md", "utf8");
    const start = readme.indexOf("\n## Run an example canvas");
    expect(start).toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    const { blocks } = splitMarkdown(section);
    const command = shownCommands(section).find((c) => c.program === "canvasflow")!;
    expect(command).toBeDefined();
    const output = blocks.find((b) => b.lang === "" && b.lines.some((l) => l.startsWith("✓ ")))!;
    expect(output).toBeDefined();
    return { command, output: output.lines };
  }

  it("runs the command it shows and prints what it shows, in order (durations aside; `…` marks trimmed lines)", async () => {
    const { command, output } = quickStart();
    expect(command.words[0]).toBe("run");
    const result = await run(process.execPath, ["dist/src/cli/bin.js", ...command.words], { cwd: root, env: { ...process.env, NO_COLOR: "1" }, timeout: 120_000 });
    expect(output.filter((l) => l.startsWith("✓ ")).length).toBeGreaterThan(10);
    expect(missingInOrder(output, result.stdout.split("\n"))).toEqual([]);
    expect(outputShape(result.stdout.trimEnd().split("\n").at(-1)!)).toBe("finished in <ms>");
  }, 150_000);

  it("the comparison can fail: a renamed line, a line out of order and a missing line are reported", () => {
    const printed = ["✓ a \"A\" (T) 1.5 ms", "hello", "✓ b \"B\" (T) 0.2 ms", "finished in 3 ms"];
    expect(missingInOrder(["✓ a \"A\" (T) 9 ms", "…", "finished in 1.0 ms"], printed)).toEqual([]);
    expect(missingInOrder(["✓ a \"Z\" (T) 1 ms"], printed)).toEqual(['✓ a "Z" (T) <ms>']);
    expect(missingInOrder(["✓ b \"B\" (T) 1 ms", "hello"], printed)).toEqual(["hello"]);
    expect(missingInOrder(["bye"], printed)).toEqual(["bye"]);
  });
});
