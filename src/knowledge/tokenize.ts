/**
 * How local knowledge bases cut text into search terms. The index and the query use the same
 * functions, so a query term matches exactly the terms indexed from the same word.
 *
 * Words are runs of letters and digits. Chinese, Japanese and Korean text has no spaces between
 * words, so runs of those scripts become overlapping character pairs ("知识库" → "知识", "识库"),
 * as Lucene's CJK analyzer does. Terms are lower-cased with accents removed; common English
 * function words are dropped so that "how do I reset my password" is about "reset" and "password".
 */

const WORD = /[\p{L}\p{N}]+/gu;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be but by can could did do does for from had has have how i if in into is it its " +
    "me my no not of on or our so than that the their them then there these they this to too was we were " +
    "what when where which who whom why will with would you your"
  ).split(" "),
);

function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/** Raw tokens of a text: words, and character pairs for CJK runs. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    let last = 0;
    for (const match of word.matchAll(CJK_RUN)) {
      if (match.index > last) tokens.push(word.slice(last, match.index));
      tokens.push(...cjkBigrams(match[0]));
      last = match.index + match[0].length;
    }
    if (last < word.length) tokens.push(word.slice(last));
  }
  return tokens;
}

/** A token as a search term, or null for a word too common to search for. */
export function processTerm(token: string): string | null {
  const term = token.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  return term === "" || STOP_WORDS.has(term) ? null : term;
}

/** The search terms of a text, in order, repeats kept. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term !== null) terms.push(term);
  }
  return terms;
}

/** The distinct search terms of a query, in order. */
export function queryTerms(query: string): string[] {
  return [...new Set(termsOf(query))];
}
