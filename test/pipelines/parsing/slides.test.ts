import { describe, expect, it } from "vitest";
import { parseSlides } from "../../../src/pipelines/parsing/slides.js";
import { rejection, requestFor } from "./binary-request.js";
import { writeZip } from "./zip-writer.js";

const NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

const rels = (items: [string, string, string][]) =>
  `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join("")}</Relationships>`;

const off = (x: number, y: number) => `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="100" cy="100"/></a:xfrm>`;
const ph = (type?: string, idx?: number) => `<p:nvPr><p:ph${type ? ` type="${type}"` : ""}${idx !== undefined ? ` idx="${idx}"` : ""}/></p:nvPr>`;

function sp(name: string, paragraphs: string, options: { at?: [number, number]; placeholder?: string } = {}): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="1" name="${name}"/><p:cNvSpPr/>${options.placeholder ?? "<p:nvPr/>"}</p:nvSpPr><p:spPr>${options.at ? off(...options.at) : ""}</p:spPr><p:txBody><a:bodyPr/>${paragraphs}</p:txBody></p:sp>`;
}

const para = (text: string, pPr = "") => `<a:p>${pPr}<a:r><a:t>${text}</a:t></a:r></a:p>`;

function table(at: [number, number], rows: string[][]): string {
  const grid = rows[0].map(() => '<a:gridCol w="100"/>').join("");
  const trs = rows.map((row) => `<a:tr h="10">${row.map((cell) => `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>${cell}</a:t></a:r></a:p></a:txBody></a:tc>`).join("")}</a:tr>`).join("");
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="T"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${at[0]}" y="${at[1]}"/><a:ext cx="1" cy="1"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid>${grid}</a:tblGrid>${trs}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

const slide = (shapes: string) => `<?xml version="1.0"?><p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld></p:sld>`;

function makePptx(slides: string[]): Uint8Array {
  const layout = `<?xml version="1.0"?><p:sldLayout ${NS}><p:cSld><p:spTree>${sp("Title", "", { placeholder: ph("title"), at: [500, 100] })}${sp("Body", "", { placeholder: ph("body", 1) })}</p:spTree></p:cSld></p:sldLayout>`;
  const master = `<?xml version="1.0"?><p:sldMaster ${NS}><p:cSld><p:spTree>${sp("Body", "", { placeholder: ph("body", 1), at: [500, 5000] })}</p:spTree></p:cSld></p:sldMaster>`;
  return writeZip([
    { name: "_rels/.rels", data: rels([["rId1", "officeDocument", "ppt/presentation.xml"]]) },
    {
      name: "ppt/presentation.xml",
      // The slide list order is the reading order, not the part names.
      data: `<?xml version="1.0"?><p:presentation ${NS}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + slides.length - i}"/>`).join("")}</p:sldIdLst></p:presentation>`,
    },
    { name: "ppt/_rels/presentation.xml.rels", data: rels(slides.map((_, i) => [`rId${10 + slides.length - i}`, "slide", `slides/slide${i + 1}.xml`])) },
    ...slides.flatMap((xml, i) => [
      { name: `ppt/slides/slide${i + 1}.xml`, data: xml },
      { name: `ppt/slides/_rels/slide${i + 1}.xml.rels`, data: rels([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"]]) },
    ]),
    { name: "ppt/slideLayouts/slideLayout1.xml", data: layout },
    { name: "ppt/slideLayouts/_rels/slideLayout1.xml.rels", data: rels([["rId1", "slideMaster", "../slideMasters/slideMaster1.xml"]]) },
    { name: "ppt/slideMasters/slideMaster1.xml", data: master },
  ]);
}

describe("parseSlides", () => {
  it("reads slides in presentation order, shapes by (top // 10, left), bullets and tables", async () => {
    const bytes = makePptx([
      slide(
        // Written out of order: the body placeholder inherits its position from the master (top 5000).
        sp("Body", para("First point", '<a:pPr><a:buChar char="•"/></a:pPr>') + para("Sub point", '<a:pPr lvl="1"><a:buAutoNum type="arabicPeriod"/></a:pPr>') + para("   ") + para("Plain"), { placeholder: ph(undefined, 1) }) +
          sp("Title", para("Quarterly review"), { placeholder: ph("title") }) +
          sp("Right", para("right"), { at: [900, 109] }) +
          sp("Left", para("left"), { at: [100, 101] }),
      ),
      slide(sp("Empty", para(" "), { at: [0, 0] })),
      slide(table([0, 0], [["Name", "Age"], ["Ann", "30"], ["Bob", ""]]) + `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="G"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr>${off(0, 9000)}</p:grpSpPr>${sp("b", para("in group B"), { at: [50, 20] })}${sp("a", para("in group A"), { at: [10, 20] })}</p:grpSp>`),
    ]);
    const request = requestFor("deck.pptx", bytes, { output_format: "json" });
    const result = await parseSlides(request);
    expect(result.json).toEqual([
      // "left" (top 101 → 10) comes before "right" (109 → 10) by left; the title (100 → 10) is at left 500.
      { text: "left\nQuarterly review\nright\n.First point\n  .Sub point\nPlain", doc_type_kwd: "text" },
      { text: "Name: Ann; Age: 30\nName: Bob; Age: \nin group A\nin group B", doc_type_kwd: "text" },
    ]);
    // The Parser step notes "Start to work on …" once, for every file type: a parser does not repeat it.
    expect(request.notes.filter((note) => note.startsWith("Start to work on"))).toEqual([]);
  });

  it("refuses .ppt, a non-json output format and tcadp parser; fails a file that is not a PPTX", async () => {
    const ppt = await rejection(parseSlides(requestFor("old.ppt", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]), { output_format: "json" })));
    expect(ppt.message).toMatch(/old\.ppt is a legacy PowerPoint \.ppt file.*\.pptx/);
    const format = await rejection(parseSlides(requestFor("a.pptx", makePptx([]), { output_format: "markdown" })));
    expect(format.message).toMatch(/Slides output format abnormal/);
    const tcadp = await rejection(parseSlides(requestFor("a.pptx", makePptx([]), { output_format: "json", parse_method: "tcadp parser" })));
    expect(tcadp.message).toMatch(/Tencent Cloud/);
    const notZip = await rejection(parseSlides(requestFor("n.pptx", new TextEncoder().encode("nope"), { output_format: "json" })));
    expect(notZip.message).toMatch(/n\.pptx is not a readable PPTX file/);
    const noPresentation = await rejection(parseSlides(requestFor("e.pptx", writeZip([{ name: "x.txt", data: "x" }]), { output_format: "json" })));
    expect(noPresentation.message).toMatch(/e\.pptx is not a PPTX presentation: its ZIP container has no ppt\/presentation\.xml/);
  });

  it("fails a PPTX whose slide inflates past the limit (zip bomb)", async () => {
    const big = slide(sp("x", para("a".repeat(6 * 1024 * 1024)), { at: [0, 0] }));
    const error = await rejection(parseSlides(requestFor("bomb.pptx", makePptx([big]), { output_format: "json" }, { limits: { maxInflatedBytes: 2 * 1024 * 1024 } })));
    expect(error.message).toMatch(/bomb\.pptx is refused as a possible zip bomb/);
  });
});
