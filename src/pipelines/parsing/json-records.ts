/**
 * The records of a JSON or JSON Lines document, read as its text streams in, so that a large
 * array or log holds one record in memory at a time: each element of a top-level array, each
 * line of JSON Lines, or the one value of any other document. Each record is checked with
 * JSON.parse; a malformed one fails with where it is (record number and line).
 */

export interface JsonRecord {
  value: unknown;
  /** 1-based line where the record starts. */
  line: number;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

/** `where` names the record: "line 4", "element 2 of the top-level array (line 3)". */
function parseRecord(text: string, where: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new JsonSyntaxError(`${where} is not valid JSON: ${(error as Error).message}`, line);
  }
}

const isBlank = (text: string) => /^\s*$/.test(text);
const isJsonSpace = (char: string) => char === " " || char === "\n" || char === "\r" || char === "\t";

/** Each non-blank line is one JSON value. */
export async function* jsonLinesRecords(texts: AsyncIterable<string>): AsyncGenerator<JsonRecord> {
  let pending = "";
  let line = 1;
  for await (const text of texts) {
    pending += text;
    let start = 0;
    let newline: number;
    while ((newline = pending.indexOf("\n", start)) >= 0) {
      const row = pending.slice(start, newline);
      start = newline + 1;
      if (!isBlank(row)) yield { value: parseRecord(row, `line ${line}`, line), line };
      line++;
    }
    pending = pending.slice(start);
  }
  if (!isBlank(pending)) yield { value: parseRecord(pending, `line ${line}`, line), line };
}

/**
 * A `.json` document: a top-level array streams element by element; any other value is read
 * whole. Text that is no single JSON value but has two or more lines starting with `{` is read
 * as JSON Lines, as RAGFlow's Go parser does.
 */
export async function* jsonDocumentRecords(texts: AsyncIterable<string>): AsyncGenerator<JsonRecord> {
  const iterator = texts[Symbol.asyncIterator]();
  let buffered = "";
  // Find the first character that is not whitespace.
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
    buffered += next.value;
    if (!isBlank(buffered)) break;
  }
  const rest: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (buffered !== "") {
          const value = buffered;
          buffered = "";
          return { value, done: false };
        }
        return iterator.next();
      },
      return: async () => (await iterator.return?.()) ?? { value: undefined, done: true },
    }),
  };
  if (buffered.trimStart().startsWith("[")) {
    yield* arrayRecords(rest);
    return;
  }
  let whole = "";
  for await (const text of rest) whole += text;
  try {
    yield { value: JSON.parse(whole), line: 1 };
    return;
  } catch (error) {
    const objectLines = whole.split("\n").filter((row) => row.trimStart().startsWith("{")).length;
    if (objectLines < 2) throw new JsonSyntaxError(`the document is not valid JSON: ${(error as Error).message}`, 1);
  }
  yield* jsonLinesRecords(
    (async function* () {
      yield whole;
    })(),
  );
}

/** The elements of a top-level array, cut at the commas between them (outside strings and nesting). */
async function* arrayRecords(texts: AsyncIterable<string>): AsyncGenerator<JsonRecord> {
  let state: "before-open" | "elements" | "after-close" = "before-open";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = "";
  /** Whether the element has a character that is not whitespace yet. */
  let started = false;
  let elementLine = 1;
  let line = 1;
  let index = 0;
  let sawComma = false;

  const finish = (closing: boolean): JsonRecord | undefined => {
    const text = element;
    const empty = !started;
    element = "";
    started = false;
    if (empty) {
      // `[]` is an empty array; `[1,]`, `[,1]` and `[1,,2]` are not JSON.
      if (closing && !sawComma) return undefined;
      throw new JsonSyntaxError(`element ${index + 1} of the top-level array (line ${line}) is missing: a comma with no value beside it`, line);
    }
    index++;
    return { value: parseRecord(text, `element ${index} of the top-level array (line ${elementLine})`, elementLine), line: elementLine };
  };

  for await (const text of texts) {
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (char === "\n") line++;
      if (state === "before-open") {
        if (char === "[") state = "elements";
        continue;
      }
      if (state === "after-close") {
        if (!isJsonSpace(char)) throw new JsonSyntaxError(`unexpected ${JSON.stringify(char)} after the top-level array (line ${line})`, line);
        continue;
      }
      if (inString) {
        element += char;
        if (escaped) escaped = false;
        else if (char === "\\") escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (depth === 0 && (char === "," || char === "]")) {
        const record = finish(char === "]");
        if (record) yield record;
        if (char === "]") state = "after-close";
        else sawComma = true;
        continue;
      }
      if (!started && !isJsonSpace(char)) {
        started = true;
        elementLine = line;
      }
      element += char;
      if (char === '"') inString = true;
      else if (char === "[" || char === "{") depth++;
      else if (char === "]" || char === "}") depth--;
      if (depth < 0) throw new JsonSyntaxError(`unbalanced ${JSON.stringify(char)} in element ${index + 1} of the top-level array (line ${line})`, line);
    }
  }
  if (state !== "after-close") throw new JsonSyntaxError(`the top-level array is not closed: the document ends inside it (line ${line})`, line);
}
