/**
 * RAGFlow's `remove_contents_table` (research/ragflow-pipelines.md §5.5), the `remove_toc`
 * option of the text formats: a line that is exactly a table-of-contents heading ("contents",
 * "目录", "目次", "致谢", "acknowledge"; case-sensitive, spaces and U+3000 ignored) is dropped with
 * the entry lines after it, up to the first line that starts like the first entry (the body's
 * heading of that entry) within the next 128 lines.
 */

const TOC_HEADING = /^(contents|目录|目次|table of contents|致谢|acknowledge)$/;
const ENGLISH_LINE = /^[`a-zA-Z0-9\s.,':;/"?<>!()-]+$/;
/** RAGFlow samples up to 200 lines (at random) to decide whether a document is English. */
const ENGLISH_SAMPLE = 200;
/** How far after the entries the body's first heading is looked for. */
const LOOKAHEAD_LINES = 128;

/** RAGFlow's `is_english`: more than 80% of the non-blank lines are plain ASCII prose. */
export function isEnglish(texts: readonly string[]): boolean {
  const lines = texts.map((text) => text.trim()).filter((text) => text !== "");
  if (lines.length === 0) return false;
  // An even sample instead of RAGFlow's random one, so a document always parses the same way.
  const step = Math.max(1, lines.length / ENGLISH_SAMPLE);
  const sample: string[] = [];
  for (let i = 0; i < lines.length && sample.length < ENGLISH_SAMPLE; i += step) sample.push(lines[Math.floor(i)]);
  return sample.filter((line) => ENGLISH_LINE.test(line)).length / sample.length > 0.8;
}

/** The start of an entry line that the body's heading will repeat: two words in English, else three characters. */
function entryPrefix(line: string, english: boolean): string {
  return english ? line.split(/\s+/).filter(Boolean).slice(0, 2).join(" ") : Array.from(line).slice(0, 3).join("");
}

/** RAGFlow matches the prefix as a regular expression; one that is not a valid one is matched literally. */
function startsLike(prefix: string): (line: string) => boolean {
  try {
    const pattern = new RegExp(`^(?:${prefix})`);
    return (line) => pattern.test(line);
  } catch {
    return (line) => line.startsWith(prefix);
  }
}

/** The indexes of the texts to keep once the table of contents is removed. */
export function removeContentsTable(texts: readonly string[], english: boolean): number[] {
  const kept = texts.map((_, index) => index);
  const full = (i: number) => texts[kept[i]].trim();
  // A PDF line may carry a position tag after "@@".
  const line = (i: number) => full(i).split("@@")[0];
  let i = 0;
  while (i < kept.length) {
    if (!TOC_HEADING.test(line(i).replace(/[ \u3000]+/g, ""))) {
      i++;
      continue;
    }
    kept.splice(i, 1);
    let prefix = "";
    while (i < kept.length && !(prefix = entryPrefix(full(i), english))) kept.splice(i, 1);
    if (i >= kept.length) break;
    // The first entry goes; the entries after it go up to the body's line that starts like it.
    kept.splice(i, 1);
    const matches = startsLike(prefix);
    const end = Math.min(i + LOOKAHEAD_LINES, kept.length);
    for (let j = i; j < end; j++) {
      if (!matches(full(j))) continue;
      kept.splice(i, j - i);
      break;
    }
  }
  return kept;
}

/** RAGFlow's `remove_toc` on a list of texts: English or not is decided from the texts themselves. */
export function removeToc(texts: readonly string[]): string[] {
  return removeContentsTable(texts, isEnglish(texts)).map((index) => texts[index]);
}
