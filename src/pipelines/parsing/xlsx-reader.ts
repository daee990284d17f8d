/**
 * Reading an XLSX workbook as openpyxl does with `data_only=True`: the sheets in workbook order,
 * each sheet's rows streamed from its XML through zip.ts (a sheet is never held as text or as a
 * tree), cells as values (shared and inline strings, numbers, booleans, errors, and numbers in a
 * date format as dates; a formula gives its cached value).
 */
import { DocumentParseError } from "../payload.js";
import { attr, prefixedAttr, childrenNamed, elements, findAll, local, parseRelationships, parseXml, relsPathOf, xmlStream, type XmlElement } from "./xml.js";
import { resolvePartPath, type ZipArchive } from "./zip.js";
import { excelDate, isDateFormat, numberValue, type CellValue } from "./sheet-values.js";

export interface SheetRef {
  name: string;
  part: string;
}

export interface Workbook {
  sheets: SheetRef[];
  sharedStrings: string[];
  /** Per cell style index (the `s` attribute): whether its number format is a date. */
  dateStyles: boolean[];
  date1904: boolean;
}

/** A row: its 1-based number and its cells by 1-based column. */
export interface SheetRow {
  row: number;
  cells: Map<number, CellValue | null>;
}

/** A string item's text: its `t` and its runs' `t`, phonetic guides left out (openpyxl's plain text). */
function stringItemText(si: XmlElement): string {
  let text = "";
  for (const e of elements(si)) {
    const name = local(e.name);
    if (name === "t") text += e.children.filter((c): c is string => typeof c === "string").join("");
    else if (name === "r") for (const t of childrenNamed(e, "t")) text += t.children.filter((c): c is string => typeof c === "string").join("");
  }
  return text;
}

const WORKBOOK_REL = /\/officeDocument$/;

export async function readWorkbook(zip: ZipArchive): Promise<Workbook> {
  const name = zip.document;
  const packageRels = zip.has("_rels/.rels") ? parseRelationships(await zip.readText("_rels/.rels")) : new Map();
  const main = [...packageRels.values()].find((rel) => WORKBOOK_REL.test(rel.type));
  const workbookPart = main ? resolvePartPath("", main.target) : "xl/workbook.xml";
  if (!zip.has(workbookPart)) throw new DocumentParseError(name, `${name} is not an XLSX workbook: its ZIP container has no ${workbookPart}`);
  const rels = zip.has(relsPathOf(workbookPart)) ? parseRelationships(await zip.readText(relsPathOf(workbookPart))) : new Map();
  const workbook = parseXml(await zip.readText(workbookPart));
  const workbookPr = findAll(workbook, "workbookPr")[0];
  const date1904 = workbookPr ? ["1", "true"].includes(attr(workbookPr, "date1904") ?? "") : false;
  const sheets: SheetRef[] = [];
  for (const sheet of findAll(workbook, "sheet")) {
    const rel = rels.get(prefixedAttr(sheet, "id") ?? "");
    if (!rel) continue;
    sheets.push({ name: attr(sheet, "name") ?? "", part: resolvePartPath(workbookPart, rel.target) });
  }
  const relOfType = (type: string) => [...rels.values()].find((rel) => rel.type.endsWith(type));
  const stringsRel = relOfType("/sharedStrings");
  const stringsPart = stringsRel ? resolvePartPath(workbookPart, stringsRel.target) : undefined;
  const sharedStrings = stringsPart && zip.has(stringsPart) ? findAll(parseXml(await zip.readText(stringsPart)), "si").map(stringItemText) : [];
  const stylesRel = relOfType("/styles");
  const stylesPart = stylesRel ? resolvePartPath(workbookPart, stylesRel.target) : undefined;
  const dateStyles = stylesPart && zip.has(stylesPart) ? readDateStyles(parseXml(await zip.readText(stylesPart))) : [];
  return { sheets, sharedStrings, dateStyles, date1904 };
}

function readDateStyles(styles: XmlElement): boolean[] {
  const codes = new Map<number, string>();
  for (const fmt of findAll(styles, "numFmt")) codes.set(Number(attr(fmt, "numFmtId")), attr(fmt, "formatCode") ?? "");
  const cellXfs = findAll(styles, "cellXfs")[0];
  if (!cellXfs) return [];
  return childrenNamed(cellXfs, "xf").map((xf) => {
    const id = Number(attr(xf, "numFmtId") ?? 0);
    return isDateFormat(id, codes.get(id));
  });
}

/** "BC12" → column 55. */
export function columnOf(reference: string): number {
  let column = 0;
  for (const ch of reference) {
    const code = ch.toUpperCase().charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column;
}

function rowOf(reference: string): number {
  const digits = /\d+/.exec(reference);
  return digits ? Number(digits[0]) : 0;
}

/** The rows of a sheet as they stream out of its XML (rows without cells are not yielded). */
export async function* sheetRows(zip: ZipArchive, workbook: Workbook, sheet: SheetRef): AsyncGenerator<SheetRow> {
  const ready: SheetRow[] = [];
  let row: SheetRow | undefined;
  let rowNumber = 0;
  let column = 0;
  // The cell being read.
  let type = "";
  let style = 0;
  let value: string | undefined;
  let inlineText: string | undefined;
  let capture: "v" | "t" | undefined;
  let inPhonetic = false;

  const finishCell = () => {
    if (!row) return;
    row.cells.set(column, cellValue(type, style, value, inlineText, workbook));
  };
  const parser = xmlStream({
    open(name, attrs) {
      switch (local(name)) {
        case "row":
          rowNumber = attrs.r ? Number(attrs.r) : rowNumber + 1;
          row = { row: rowNumber, cells: new Map() };
          column = 0;
          break;
        case "c":
          column = attrs.r ? columnOf(attrs.r) : column + 1;
          if (attrs.r && !row) row = { row: rowOf(attrs.r), cells: new Map() };
          type = attrs.t ?? "n";
          style = attrs.s ? Number(attrs.s) : 0;
          value = undefined;
          inlineText = undefined;
          break;
        case "v":
          capture = "v";
          value = "";
          break;
        case "t":
          if (!inPhonetic && type === "inlineStr") {
            capture = "t";
            inlineText ??= "";
          }
          break;
        case "rPh":
          inPhonetic = true;
          break;
      }
    },
    text(text) {
      if (capture === "v") value += text;
      else if (capture === "t") inlineText += text;
    },
    close(name) {
      switch (local(name)) {
        case "v":
        case "t":
          capture = undefined;
          break;
        case "rPh":
          inPhonetic = false;
          break;
        case "c":
          finishCell();
          break;
        case "row":
          if (row && row.cells.size > 0) ready.push(row);
          row = undefined;
          break;
      }
    },
  });
  const decoder = new TextDecoder("utf-8");
  for await (const piece of zip.stream(sheet.part)) {
    parser.write(decoder.decode(piece, { stream: true }));
    while (ready.length > 0) yield ready.shift()!;
  }
  parser.write(decoder.decode());
  parser.end();
  while (ready.length > 0) yield ready.shift()!;
}

/** A cell's value as openpyxl reads it with data_only (null for a cell without one). */
function cellValue(type: string, style: number, value: string | undefined, inlineText: string | undefined, workbook: Workbook): CellValue | null {
  switch (type) {
    case "s": {
      const text = value === undefined ? undefined : workbook.sharedStrings[Number(value)];
      return text === undefined ? null : { kind: "string", text };
    }
    case "inlineStr":
      return inlineText === undefined ? null : { kind: "string", text: inlineText };
    case "str":
    case "e":
      return value === undefined ? null : { kind: "string", text: value };
    case "b":
      return value === undefined ? null : { kind: "bool", value: value.trim() === "1" || value.trim().toLowerCase() === "true" };
    case "d":
      return value === undefined ? null : { kind: "date", text: value.replace("T", " ").replace(/Z$/, "") };
    default: {
      if (value === undefined) return null;
      const number = numberValue(value);
      if (!number) return null;
      if (workbook.dateStyles[style] && number.kind !== "string") {
        const serial = number.kind === "float" ? number.value : Number(number.text);
        return excelDate(serial, workbook.date1904);
      }
      return number;
    }
  }
}

/** The XML part of a sheet must exist; a workbook naming a missing sheet part is damaged. */
export function checkSheetPart(zip: ZipArchive, sheet: SheetRef): void {
  if (!zip.has(sheet.part)) throw new DocumentParseError(zip.document, `${zip.document} is damaged: its sheet ${JSON.stringify(sheet.name)} names ${sheet.part}, which its ZIP container lacks`);
}
