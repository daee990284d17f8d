/**
 * Python `re.match` patterns translated to JavaScript: the same matches for the syntax that
 * differs, and refusals (with the reason) for what cannot be translated or could backtrack
 * catastrophically.
 */
import { describe, expect, it } from "vitest";
import { PythonRegexError, translatePythonRegex } from "../../../src/pipelines/chunking/python-regex.js";

const matches = (pattern: string, text: string) => translatePythonRegex(pattern).test(text);

describe("translatePythonRegex", () => {
  it.each([
    // re.match anchors at the start only.
    ["Section [0-9]+", "Section 12 rest", true],
    ["Section [0-9]+", "See Section 12", false],
    // $ also matches before a final newline; \Z does not.
    ["a$", "a\n", true],
    ["a\\Z", "a\n", false],
    ["[0-9]{1,2}\\.[0-9]{1,2}($|[^a-zA-Z/%~.-])", "1.2", true],
    ["[0-9]{1,2}\\.[0-9]{1,2}($|[^a-zA-Z/%~.-])", "1.2a", false],
    // {,n} is {0,n}; a { that is no quantifier is a literal; {,} is *.
    ["[\\(（][0-9]{,2}[\\)）]", "()", true],
    ["[\\(（][0-9]{,2}[\\)）]", "(123)", false],
    ["a{", "a{", true],
    ["{x}", "{x}", true],
    ["a{,}b", "aaab", true],
    // Unicode classes, Python's whitespace, and . stopping only at \n.
    ["\\d", "٣", true],
    ["\\w", "é", true],
    ["\\s", "\x1c", true],
    ["\\s", "\ufeff", false],
    [".", "\n", false],
    [".", "\r", true],
    ["(?s).", "\n", true],
    ["(?s:.)x", "\nx", true],
    ["(?a)\\w", "é", false],
    ["(?i)chapter", "CHAPTER 1", true],
    ["(?m)a$\\nb", "a\nb", true],
    ["(?x) a b # comment", "ab", true],
    ["\\bword\\b", "word!", true],
    ["x\\B", "xy", true],
    // Python's set syntax.
    ["[]a]+", "]a]", true],
    ["[^]a]", "b", true],
    ["[\\S\\d]", " ", false],
    ["[^\\S]", " ", true],
    // Groups, references, escapes.
    ["(?P<n>ab)(?P=n)", "abab", true],
    ["(a)\\1", "aa", true],
    ["\\101\\x41\\u0041\\U00000041", "AAAA", true],
    ["a\\-b\\#", "a-b#", true],
    ["(?#note)x", "x", true],
    ["", "anything", true],
  ])("%j on %j: %s", (pattern, text, expected) => {
    expect(matches(pattern, text)).toBe(expected);
  });

  it.each([
    ["(a+)+$", /repeats a group that itself repeats/],
    ["(a|aa)*b", /itself alternates/],
    ["(x?)*y", /itself repeats/],
    [".*.*.*x", /wide atoms/],
    ["a".repeat(257), /257 characters long/],
    ["(?i:a)", /scoped case flag/],
    ["a(?i)", /global flags not at the start/],
    ["a*+", /possessive/],
    ["(?>a)", /atomic groups/],
    ["(?(1)a|b)", /conditional/],
    ["\\N{DIGIT ONE}", /named character/],
    ["\\q", /bad escape \\q/],
    ["\\p{L}", /bad escape \\p/],
    ["a**", /multiple repeat/],
    ["*a", /nothing to repeat/],
    ["\\2", /invalid group reference 2/],
    ["[z-a]", /bad character range/],
    ["[\\d-z]", /bad character range/],
    ["(ab", /missing \)/],
    ["ab)", /unbalanced parenthesis/],
    ["[ab", /unterminated character set/],
    ["a{3,1}", /min repeat greater than max repeat/],
    ["(?L)a", /locale/],
  ])("refuses %j", (pattern, reason) => {
    expect(() => translatePythonRegex(pattern)).toThrow(PythonRegexError);
    expect(() => translatePythonRegex(pattern)).toThrow(reason);
  });

  it("allows bounded and fixed repeats of groups, which cannot blow up", () => {
    expect(matches("(ab){2}c", "ababc")).toBe(true);
    expect(matches("(?:第[一二三]章)?\\s*(总则|附则)", "第一章 总则")).toBe(true);
    expect(matches("Chapter (I+V?|VI*|XI|IX|X)", "Chapter IV")).toBe(true);
  });

  it("matches a long line of a refused-shape's safe cousin quickly", () => {
    const started = performance.now();
    expect(matches("\\s*[0-9]+\\.\\s+.*$", " 12. " + "x".repeat(100_000) + "!")).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
