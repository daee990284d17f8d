/**
 * A CSV document streamed into rows with csv-parse, read as RAGFlow reads it (pandas `read_csv`
 * with `on_bad_lines="skip"`): the first row names the columns (an empty name becomes
 * "Unnamed: i", a repeated one "name.1"), blank lines are skipped, a row with more fields than
 * there are columns is skipped, control characters become spaces. The text must be UTF-8.
 */
import { Readable } from "node:stream";
import { DocumentParseError } from "../payload.js";
import type { SheetRow } from "./xlsx-reader.js";
import { importPackage } from "../../util/optional-package.js";

type CsvParse = typeof import("csv-parse");

/** openpyxl's illegal characters, which RAGFlow turns into spaces in CSV cells. */
const ILLEGAL = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

/** pandas' column names: empty ones "Unnamed: i", repeats "name.1", "name.2". */
export function pandasColumnNames(header: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, i) => {
    const name = raw === "" ? `Unnamed: ${i}` : raw;
    const count = seen.get(name) ?? 0;
    seen.set(name, count + 1);
    return count === 0 ? name : `${name}.${count}`;
  });
}

async function* utf8Text(document: string, pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let offset = 0;
  try {
    for await (const piece of pieces) {
      const text = decoder.decode(piece, { stream: true });
      offset += piece.byteLength;
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch (error) {
    if (error instanceof TypeError) {
      throw new DocumentParseError(document, `${document} is not UTF-8 text (an invalid byte sequence before byte ${offset}); save the CSV as UTF-8 and parse it again`);
    }
    throw error;
  }
}

export interface CsvRows {
  /** The column names (pandas' naming). */
  columns: string[];
  /** The data rows as sheet rows (row 1 is the header; data from row 2). */
  rows: AsyncGenerator<SheetRow>;
  /** Rows skipped so far for having more fields than there are columns. */
  skipped(): number;
}

/** Opens the CSV stream: reads the header, then yields data rows lazily. */
export async function readCsv(document: string, pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<CsvRows> {
  const { parse } = await importPackage<CsvParse>("csv-parse", "Parsing CSV documents");
  const source = Readable.from(utf8Text(document, pieces));
  const parser = parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
  source.on("error", (error) => parser.destroy(error));
  const records = source.pipe(parser)[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const next = async (): Promise<string[] | undefined> => {
    try {
      const { value, done } = await records.next();
      return done ? undefined : value;
    } catch (error) {
      if (error instanceof DocumentParseError) throw error;
      throw new DocumentParseError(document, `${document} is not a readable CSV file: ${(error as Error).message}`);
    }
  };
  const close = () => {
    source.destroy();
    parser.destroy();
  };
  const header = await next();
  if (!header) {
    close();
    return { columns: [], rows: (async function* () {})(), skipped: () => 0 };
  }
  const columns = pandasColumnNames(header);
  let skipped = 0;
  async function* rows(): AsyncGenerator<SheetRow> {
    let row = 1;
    try {
      for (let record = await next(); record; record = await next()) {
        if (record.length > columns.length) {
          skipped++;
          continue;
        }
        row++;
        const cells = new Map<number, { kind: "string"; text: string } | null>();
        for (let i = 0; i < columns.length; i++) {
          const text = (record[i] ?? "").replace(ILLEGAL, " ");
          cells.set(i + 1, text === "" ? null : { kind: "string", text });
        }
        yield { row, cells };
      }
    } finally {
      close();
    }
  }
  return { columns, rows: rows(), skipped: () => skipped };
}
