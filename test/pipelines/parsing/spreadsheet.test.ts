import { describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { parseSpreadsheet } from "../../../src/pipelines/parsing/spreadsheet.js";
import { rejection, requestFor } from "./binary-request.js";
import { readZipEntries, writeZip } from "./zip-writer.js";

async function makeXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const people = workbook.addWorksheet("People");
  people.getCell("A1").value = "Name";
  people.getCell("B1").value = "Age";
  people.getCell("C1").value = "Score";
  people.getCell("D1").value = "Joined";
  people.getCell("A2").value = "Ann";
  people.getCell("B2").value = 30;
  people.getCell("C2").value = 9.5;
  people.getCell("D2").value = new Date(Date.UTC(2024, 0, 15));
  people.getCell("A3").value = "Bob";
  people.getCell("C3").value = 10;
  people.getCell("A5").value = "<Cy>";
  people.getCell("B5").value = 41;
  people.getCell("C5").value = 7.25;
  people.getCell("D5").value = true;
  const second = workbook.addWorksheet("Sheet2");
  second.addRow(["k", "v"]);
  second.addRow(["a", { formula: "1+0", result: 1 }]);
  second.addRow(["b", 0.00001]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const encode = (text: string) => new TextEncoder().encode(text);

describe("parseSpreadsheet XLSX", () => {
  it("writes the first sheet as an HTML table, rows padded, gaps kept as empty rows", async () => {
    const request = requestFor("people.xlsx", await makeXlsx(), { output_format: "html" });
    const result = await parseSpreadsheet(request);
    expect(result).toEqual({
      output_format: "html",
      html:
        "<table><caption>People</caption><tr><th>Name</th><th>Age</th><th>Score</th><th>Joined</th></tr>" +
        "<tr><td>Ann</td><td>30</td><td>9.5</td><td>2024-01-15 00:00:00</td></tr>" +
        "<tr><td>Bob</td><td></td><td>10</td><td></td></tr>" +
        "<tr><td></td><td></td><td></td><td></td></tr>" +
        "<tr><td>&lt;Cy&gt;</td><td>41</td><td>7.25</td><td>True</td></tr></table>\n",
    });
    // The Parser step notes "Start to work on …" once, for every file type: a parser does not repeat it.
    expect(request.notes.filter((note) => note.startsWith("Start to work on"))).toEqual([]);
  });

  it("keeps the whole HTML table within maxTextChars, its caption, header and end counted", async () => {
    const whole = (await parseSpreadsheet(requestFor("people.xlsx", await makeXlsx(), { output_format: "html" }))).html!;
    const request = requestFor("people.xlsx", await makeXlsx(), { output_format: "html" }, { limits: { maxTextChars: whole.length - 1 } });
    const result = await parseSpreadsheet(request);
    // The last row no longer fits (before, only the rows were counted and the table came out whole, over the limit).
    expect(result.html).toBe(whole.replace("<tr><td>&lt;Cy&gt;</td><td>41</td><td>7.25</td><td>True</td></tr>", ""));
    expect(request.warnings).toEqual([expect.stringMatching(/^people\.xlsx: the text stops after \d+ characters/)]);
  });

  it("writes json rows as header：value pairs, with the sheet suffix when the name lacks 'sheet'", async () => {
    const result = await parseSpreadsheet(requestFor("people.xlsx", await makeXlsx(), { output_format: "json" }));
    expect(result.json).toEqual([
      { text: "Name：Ann; Age：30; Score：9.5; Joined：2024-01-15 00:00:00 ——People", doc_type_kwd: "text" },
      { text: "Name：Bob; Score：10 ——People", doc_type_kwd: "text" },
      { text: "Name：<Cy>; Age：41; Score：7.25; Joined：True ——People", doc_type_kwd: "text" },
      { text: "k：a; v：1", doc_type_kwd: "text" },
      { text: "k：b; v：1e-05", doc_type_kwd: "text" },
    ]);
  });

  it("writes the first sheet as a pipe table as pandas/tabulate do", async () => {
    const result = await parseSpreadsheet(requestFor("people.xlsx", await makeXlsx(), { output_format: "markdown" }));
    expect(result.markdown).toBe(
      [
        "| Name   |   Age |   Score | Joined              |",
        "|:-------|------:|--------:|:--------------------|",
        "| Ann    |    30 |    9.5  | 2024-01-15 00:00:00 |",
        "| Bob    |       |   10    |                     |",
        "| <Cy>   |    41 |    7.25 | True                |",
      ].join("\n"),
    );
  });

  it("stops at maxRows with a warning", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Big");
    sheet.addRow(["n"]);
    for (let i = 1; i <= 50; i++) sheet.addRow([i]);
    const request = requestFor("big.xlsx", new Uint8Array(await workbook.xlsx.writeBuffer()), { output_format: "json" }, { limits: { maxRows: 10 } });
    const result = await parseSpreadsheet(request);
    expect(result.json).toHaveLength(10);
    expect(result.json![9].text).toBe("n：10 ——Big");
    expect(request.warnings).toEqual(["big.xlsx: only the first 10 rows are read (the config's pipelines.limits.maxRows); the rest are left out"]);
  });

  it("fails an XLSX whose sheet inflates past the limit (zip bomb)", async () => {
    const entries = await readZipEntries(await makeXlsx());
    const bombed = entries.map((entry) =>
      entry.name === "xl/worksheets/sheet1.xml" ? { ...entry, data: String(Buffer.from(entry.data as Uint8Array)).replace("<sheetData>", "<sheetData>" + " ".repeat(20 * 1024 * 1024)), declaredSize: 3000 } : entry,
    );
    const error = await rejection(parseSpreadsheet(requestFor("bomb.xlsx", writeZip(bombed), { output_format: "json" }, { limits: { maxInflatedBytes: 4 * 1024 * 1024 } })));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/bomb\.xlsx is refused as a possible zip bomb: xl\/worksheets\/sheet1\.xml inflates past the 3000 bytes/);
  });
});

describe("parseSpreadsheet CSV", () => {
  const csv = 'name,,name,score\nAnn,x,"Smith, A",9.5\n\nBob,,,10\ntoo,many,fields,here,!\n"multi\nline",y,z,1\n';

  it("names columns as pandas does, skips blank lines and over-long rows, and suffixes ——Data", async () => {
    const request = requestFor("t.csv", encode(csv), { output_format: "json" });
    const result = await parseSpreadsheet(request);
    expect(result.json).toEqual([
      { text: "name：Ann; Unnamed: 1：x; name.1：Smith, A; score：9.5 ——Data", doc_type_kwd: "text" },
      { text: "name：Bob; score：10 ——Data", doc_type_kwd: "text" },
      { text: "name：multi\nline; Unnamed: 1：y; name.1：z; score：1 ——Data", doc_type_kwd: "text" },
    ]);
    expect(request.warnings).toEqual(["t.csv: 1 CSV line(s) with more fields than the header has columns were skipped"]);
  });

  it("writes html and markdown", async () => {
    const html = await parseSpreadsheet(requestFor("t.csv", encode("a,b\n1,&\n"), { output_format: "html" }));
    expect(html.html).toBe("<table><caption>Data</caption><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>&amp;</td></tr></table>\n");
    const markdown = await parseSpreadsheet(requestFor("t.csv", encode("city,pop\n東京,13.96\nRome,2.8\n"), { output_format: "markdown" }));
    expect(markdown.markdown).toBe(["| city   |   pop |", "|:-------|------:|", "| 東京   | 13.96 |", "| Rome   |  2.8  |"].join("\n"));
  });

  it("writes a CSV's html with short rows padded, blank lines and over-long rows skipped", async () => {
    const request = requestFor("t.csv", encode(`${csv}short\n`), { output_format: "html" });
    const result = await parseSpreadsheet(request);
    expect(result.html).toBe(
      "<table><caption>Data</caption><tr><th>name</th><th>Unnamed: 1</th><th>name.1</th><th>score</th></tr>" +
        "<tr><td>Ann</td><td>x</td><td>Smith, A</td><td>9.5</td></tr><tr><td>Bob</td><td></td><td></td><td>10</td></tr>" +
        "<tr><td>multi\nline</td><td>y</td><td>z</td><td>1</td></tr><tr><td>short</td><td></td><td></td><td></td></tr></table>\n",
    );
    expect(request.warnings).toEqual(["t.csv: 1 CSV line(s) with more fields than the header has columns were skipped"]);
  });

  it("writes a CSV's html as its rows stream: reading stops at the text budget, not at maxRows", async () => {
    // Before, every row up to maxRows (200 000) was held before the table was written: a 50 MB CSV
    // peaked at 406 MB in the Parser alone (the pipeline-ingest benchmark).
    const total = 1_000_000;
    let produced = 0;
    async function* rows(): AsyncGenerator<Uint8Array> {
      yield encode("id,name,value\n");
      for (let start = 0; start < total; start += 1000) {
        let text = "";
        for (let i = start; i < start + 1000; i++) text += `${i},row ${i},${i * 3}\n`;
        produced = start + 1000;
        yield encode(text);
      }
    }
    const request = requestFor("million.csv", rows, { output_format: "html" }, { size: 30_000_000, limits: { maxTextChars: 100_000 } });
    const result = await parseSpreadsheet(request);
    expect(result.html!.startsWith("<table><caption>Data</caption><tr><th>id</th><th>name</th><th>value</th></tr><tr><td>0</td><td>row 0</td><td>0</td></tr>")).toBe(true);
    expect(result.html!.endsWith("</tr></table>\n")).toBe(true);
    // The whole table, caption, header and end included, stays within maxTextChars: the TitleChunker fails a document given more.
    expect(result.html!.length).toBeLessThanOrEqual(100_000);
    expect(result.html!.length).toBeGreaterThan(99_900);
    expect(request.warnings).toEqual([expect.stringMatching(/^million\.csv: the text stops after \d+ characters, the most a document may give \(the config's pipelines\.limits\.maxTextChars\)/)]);
    // About 2 000 rows fit; the source was read a little past them (csv-parse's and the stream's buffers), far from maxRows.
    expect(produced).toBeLessThan(50_000);
  });

  it("reads a CSV-named file that is really an XLSX, as RAGFlow does", async () => {
    const result = await parseSpreadsheet(requestFor("really.csv", await makeXlsx(), { output_format: "json" }));
    expect(result.json![0].text).toBe("Name：Ann; Age：30; Score：9.5; Joined：2024-01-15 00:00:00 ——People");
  });

  it("refuses .xls, text that is not UTF-8, tcadp parser and an unknown output format", async () => {
    const xls = await rejection(parseSpreadsheet(requestFor("old.xls", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), { output_format: "json" })));
    expect(xls.message).toMatch(/old\.xls is a legacy Excel \.xls workbook.*save it as \.xlsx/);
    const latin1 = await rejection(parseSpreadsheet(requestFor("l.csv", new Uint8Array([0x61, 0x0a, 0xe9, 0x0a]), { output_format: "json" })));
    expect(latin1.name).toBe("DocumentParseError");
    expect(latin1.message).toMatch(/l\.csv is not UTF-8 text/);
    const tcadp = await rejection(parseSpreadsheet(requestFor("t.csv", encode("a\n1\n"), { output_format: "json", parse_method: "TCADP Parser" })));
    expect(tcadp.message).toMatch(/Tencent Cloud/);
    const format = await rejection(parseSpreadsheet(requestFor("t.csv", encode("a\n1\n"), { output_format: "text" })));
    expect(format.message).toMatch(/Spreadsheet output format abnormal/);
  });

  it("reads an empty CSV as nothing, and a damaged XLSX as a clear error", async () => {
    expect(await parseSpreadsheet(requestFor("e.csv", encode("\n\n"), { output_format: "html" }))).toEqual({ output_format: "html", html: "" });
    const broken = writeZip([{ name: "xl/workbook.xml", data: "<workbook/>" }]).slice(0, 40);
    const error = await rejection(parseSpreadsheet(requestFor("b.xlsx", broken, { output_format: "json" })));
    expect(error.name).toBe("DocumentParseError");
    expect(error.message).toMatch(/b\.xlsx is not a readable XLSX file/);
  });

  it("streams a 1-million-row CSV and stops at maxRows without reading the rest", async () => {
    const total = 1_000_000;
    let produced = 0;
    async function* rows(): AsyncGenerator<Uint8Array> {
      yield encode("id,name,value\n");
      for (let start = 0; start < total; start += 1000) {
        let text = "";
        for (let i = start; i < start + 1000; i++) text += `${i},row ${i},${i * 3}\n`;
        produced = start + 1000;
        yield encode(text);
      }
    }
    const before = process.memoryUsage().rss;
    const request = requestFor("million.csv", rows, { output_format: "json" }, { size: 30_000_000 });
    const result = await parseSpreadsheet(request);
    expect(result.json).toHaveLength(200_000);
    expect(result.json![199_999].text).toBe("id：199999; name：row 199999; value：599997 ——Data");
    expect(request.warnings).toEqual(["million.csv: only the first 200000 rows are read (the config's pipelines.limits.maxRows); the rest are left out"]);
    // The source was read only a little past the limit (csv-parse's buffers), not to its end.
    expect(produced).toBeLessThan(300_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
  });

  it("counts all 1 million rows of a CSV in bounded memory when maxRows allows them", async () => {
    const total = 1_000_000;
    async function* rows(): AsyncGenerator<Uint8Array> {
      yield encode("v\n");
      for (let start = 0; start < total; start += 5000) yield encode("1\n".repeat(5000));
    }
    const before = process.memoryUsage().rss;
    const request = requestFor("ones.csv", rows, { output_format: "json" }, { size: 2_000_002, limits: { maxRows: 2_000_000 } });
    const result = await parseSpreadsheet(request);
    expect(result.json).toHaveLength(total);
    expect(result.json![total - 1]).toEqual({ text: "v：1 ——Data", doc_type_kwd: "text" });
    expect(request.warnings).toEqual([]);
    expect(process.memoryUsage().rss - before).toBeLessThan(600 * 1024 * 1024);
  }, 60_000);
});
