/**
 * The test cases of a JUnit XML report, as pytest's `--junitxml` writes it: one `<testcase>` per
 * case, holding a `<failure>`, `<error>` or `<skipped>` element when it did not pass. A regex
 * reader is enough for this fixed shape (no namespaces, no CDATA; text and attributes escaped).
 */

export type JunitOutcome = "passed" | "failed" | "error" | "skipped";

export interface JunitCase {
  classname: string;
  name: string;
  outcome: JunitOutcome;
  /** The failure's, error's or skip's message and text, for the report. */
  message?: string;
  details?: string;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_whole, entity: string) => {
    if (entity.startsWith("#x")) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith("#")) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ENTITIES[entity];
  });
}

function attributes(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:-]+)="([^"]*)"/g)) found[match[1]] = unescapeXml(match[2]);
  return found;
}

/** Worst first: a case with a failure and a teardown error is an error. */
const RANK: Record<JunitOutcome, number> = { error: 3, failed: 2, skipped: 1, passed: 0 };
const OUTCOME_OF: Record<string, JunitOutcome> = { failure: "failed", error: "error", skipped: "skipped" };

export function parseJunitXml(xml: string): JunitCase[] {
  const cases: JunitCase[] = [];
  for (const element of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = attributes(element[1]);
    if (attrs.name === undefined) throw new Error(`a <testcase> without a name in the JUnit report: ${element[0].slice(0, 200)}`);
    const found: JunitCase = { classname: attrs.classname ?? "", name: attrs.name, outcome: "passed" };
    const messages: string[] = [];
    const details: string[] = [];
    for (const child of (element[2] ?? "").matchAll(/<(failure|error|skipped)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
      const outcome = OUTCOME_OF[child[1]];
      if (RANK[outcome] > RANK[found.outcome]) found.outcome = outcome;
      const message = attributes(child[2]).message;
      if (message) messages.push(message);
      if (child[3]) details.push(unescapeXml(child[3]));
    }
    if (messages.length > 0) found.message = messages.join("\n");
    if (details.length > 0) found.details = details.join("\n\n");
    cases.push(found);
  }
  return cases;
}
