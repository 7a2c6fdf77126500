import { describe, expect, it } from "vitest";
import type { Line, Paragraph } from "../../src/core/records.js";
import { withBlockRoles } from "../../src/text/block-roles.js";
import { guardHeading, isByline } from "../../src/text/heading-guards.js";
import { outlineKey } from "../../src/text/outline.js";
import { sectionNumber } from "../../src/text/section-numbers.js";

interface LineSpec {
  size?: number;
  bold?: boolean;
  x?: number;
  tag?: string;
  font?: string;
  /** Centred on the body's lines (BODY at x 72). */
  centred?: boolean;
}

const line = (text: string, { size = 10, bold = false, x: left = 72, font = "f1", centred = false }: LineSpec = {}): Line => {
  const width = text.length * size * 0.5;
  const x = centred ? 72 + (BODY.length * 5 - width) / 2 : left;
  return { text, x, y: 700, width, fontSize: size, runs: [{ text, x, y: 700, width, fontSize: size, fontName: font, ...(bold ? { bold: true } : {}) }] };
};

interface ParaSpec extends LineSpec {
  lines: string[];
  kind?: Paragraph["kind"];
}

/** A page of paragraphs; lines go down the page 14 pt apart. */
function page(number: number, ...paragraphs: (ParaSpec | string)[]) {
  const lines: Line[] = [];
  const paras: Paragraph[] = [];
  for (const p of paragraphs) {
    const spec: ParaSpec = typeof p === "string" ? { lines: [p] } : p;
    const start = lines.length;
    for (const t of spec.lines) lines.push({ ...line(t, spec), y: 760 - lines.length * 14 });
    paras.push({ start, end: lines.length, kind: spec.kind ?? "text", ...(spec.tag ? { tag: spec.tag } : {}) });
  }
  return { number, lines, paragraphs: paras };
}

const BODY = "The harbour board met on Tuesday to agree the dues for the coming season, and heard the master's report.";
const body = (n = 3): ParaSpec => ({ lines: Array.from({ length: n }, () => BODY) });
const roles = (pages: ReturnType<typeof page>[], outline?: Parameters<typeof withBlockRoles>[1]) =>
  withBlockRoles(pages, outline).map((p) => p.paragraphs.map((q) => (q.role === "LI" ? `LI${q.depth}` : (q.role ?? "-"))));

describe("headings: which paragraphs, and at what level", () => {
  it("ranks headings by size over the whole document: the largest is H1", () => {
    const pages = [
      page(1, { lines: ["Annual Report"], size: 20 }, { lines: ["1. Traffic"], size: 16 }, body()),
      page(2, { lines: ["1.1 Ferries"], size: 13 }, body(), { lines: ["2. Finance"], size: 16 }, body()),
    ];
    expect(roles(pages)).toEqual([
      ["H1", "H2", "-"],
      ["H3", "-", "H2", "-"],
    ]);
  });

  it("takes a short bold line in the body's size over its text for a heading, and nests numbered ones by their numbers", () => {
    const pages = [page(1, { lines: ["3 Implementation"], bold: true }, body(), { lines: ["3.1 Web Crawling"], bold: true }, body(), { lines: ["3.2 Parsing"], bold: true }, body())];
    expect(roles(pages)).toEqual([["H1", "-", "H2", "-", "H2", "-"]]);
  });

  it("reads a typewritten document's headings from capitals and numbers alone, nested by the numbers", () => {
    const pages = [page(1, { lines: ["2. OVERVIEW"] }, body(2), { lines: ["2.1. HISTORY"] }, body(2), { lines: ["3.1.1.1. ASCII TYPE"] }, body(2))];
    expect(roles(pages)).toEqual([["H1", "-", "H2", "-", "H3", "-"]]);
  });

  it("ranks bold capitals above larger bold type: 11 pt TITLE I over 13 pt and 12 pt bold sections", () => {
    const pages = [page(1, { lines: ["TITLE I: TREATY IMPLEMENTATION"], size: 11, bold: true, x: 72 }, body(), { lines: ["Technical Amendments"], size: 13, bold: true }, body(), { lines: ["National Eligibility"], size: 12, bold: true }, body())];
    expect(roles(pages.map((p) => ({ ...p, lines: p.lines.map((l) => (l.fontSize === 10 ? { ...l, fontSize: 12, runs: l.runs.map((r) => ({ ...r, fontSize: 12 })) } : l)) })))).toEqual([["H1", "-", "H2", "-", "H3", "-"]]);
  });

  it("ranks a centred title above flush-left sections set like it: the document's title, then its sections", () => {
    const heading = (text: string, centred = false): ParaSpec => ({ lines: [text], size: 14, bold: true, centred });
    const pages = [page(1, heading("Estuary Water Quality Report", true), body(), heading("Summary"), body()), page(2, heading("Sampling sites"), body())];
    expect(roles(pages)).toEqual([["H1", "-", "H2", "-"], ["H2", "-"]]);
  });

  it("takes no heading in a middle column for centred: its text starts where it does", () => {
    // Three columns; the middle one's heading sits in the middle of the page's text.
    const column = (x: number, text = "Growth in the second half"): ParaSpec[] => [{ lines: [text], bold: true, x }, { lines: [...Array(3).fill("words of a column of text"), "and its end"], x }];
    const middle = 72 + (BODY.length * 5) / 2 - 62.5;
    const pages = [page(1, ...column(72, "A successful year overall"), ...column(middle), ...column(72 + BODY.length * 5 - 125, "Upside in valuation"))];
    expect(roles(pages)).toEqual([["H1", "-", "H1", "-", "H1", "-"]]);
  });

  it("ranks headings of one size and weight in another typeface by the order the document first uses each: sections, then subsections", () => {
    const pages = [
      page(1, { lines: ["Airworthiness Directives"], bold: true, size: 12, font: "f2" }, body(), { lines: ["Examining the AD Docket"], bold: true, size: 12 }, body()),
      page(2, { lines: ["Background"], bold: true, size: 12 }, body(), { lines: ["Costs of Compliance"], bold: true, size: 12 }, body()),
    ];
    expect(roles(pages)).toEqual([["H1", "-", "H2", "-"], ["H2", "-", "H2", "-"]]);
  });

  it("puts a heading numbered under another one level below it, whatever its looks ('4.2.1 Reply Codes' under '4.2 FTP REPLIES')", () => {
    const pages = [
      page(1, { lines: ["4. FILE TRANSFER FUNCTIONS"], bold: true }, body(), { lines: ["4.1. FTP COMMANDS"], bold: true }, body(), { lines: ["4.1.1. ACCESS CONTROL"], bold: true }, body()),
      page(2, { lines: ["4.2. FTP REPLIES"], bold: true }, body(), { lines: ["4.2.1 Reply Codes by Function Groups"], bold: true }, body(), { lines: ["5. DECLARATIVE SPECIFICATIONS"], bold: true }, body()),
    ];
    expect(roles(pages)).toEqual([["H1", "-", "H2", "-", "H3", "-"], ["H2", "-", "H3", "-", "H1", "-"]]);
  });

  it("nests numbers only with numbers written the same way: an appendix stands with the sections of its looks, not under them", () => {
    const pages = [page(1, { lines: ["1. INTRODUCTION"], bold: true }, body(), { lines: ["1.1. HISTORY"], bold: true }, body(), { lines: ["APPENDIX I - PAGE STRUCTURE"], bold: true }, body())];
    expect(roles(pages)).toEqual([["H1", "-", "H2", "-", "H1", "-"]]);
  });

  it("keeps a tagged document's heading levels, and takes no tagged paragraph for a heading however large, unless it is larger than every tagged heading", () => {
    const pages = [
      page(1, { lines: ["A Tagged Report"], size: 24, tag: "P" }, { lines: ["Overview"], size: 14, tag: "H1" }, { lines: ["A pull quote"], size: 14, tag: "P" }, { ...body(), tag: "P" }, { lines: ["Details"], size: 11, tag: "H2" }, { ...body(), tag: "P" }),
    ];
    expect(roles(pages)).toEqual([["H1", "H2", "-", "-", "H3", "-"]]);
  });

  it("ranks the headings of a document that tags 150,000 of them (spreading every tagged size into Math.max overflowed the stack)", () => {
    const pages = Array.from({ length: 2500 }, (_, p) =>
      page(p + 1, { lines: [`${p + 1}. Part ${p + 1}`], size: 14, tag: "H1" }, ...Array.from({ length: 59 }, (_, s) => ({ lines: [`${p + 1}.${s + 1} Section ${s + 1}`], size: 12, tag: "H2" })), { ...body(), tag: "P" }),
    );
    const found = roles(pages);
    expect(found.flat().filter((r) => r === "H1" || r === "H2")).toHaveLength(150_000);
    expect(found[2499]!.slice(0, 3)).toEqual(["H1", "H2", "H2"]);
    expect(found[2499]![60]).toBe("-");
  });

  it("judges the paragraphs of container tags (Div) by their looks, in a document that tags some headings", () => {
    const pages = [page(1, { lines: ["PDF.js"], size: 25, bold: true, tag: "H1" }, { ...body(), tag: "Div" }, { lines: ["History and application"], size: 18, bold: true, tag: "Div" }, { ...body(), tag: "Div" })];
    expect(roles(pages)).toEqual([["H1", "-", "H2", "-"]]);
  });

  it("nests headings numbered by keywords by their ranks where they stand: an article under a title without chapters, or under a chapter", () => {
    const bold = (t: string, x = 280): ParaSpec => ({ lines: [t], bold: true, x, size: 11.5 });
    const pages = [page(1, bold("TÍTULO I"), bold("Artículo 1. Objeto.", 85), body(), bold("TÍTULO II"), bold("CAPÍTULO I"), bold("Artículo 8. Formas de gestión.", 85), body(), bold("CAPÍTULO II"), bold("Artículo 14. Solicitud.", 85), body())];
    expect(roles(pages)).toEqual([["H1", "H2", "-", "H1", "H2", "H3", "-", "H2", "H3", "-"]]);
  });

  it("takes a title the document repeats with '—Continued' over a table's next page for a table's title, first and repeat", () => {
    const pages = [page(1, body(), { lines: ["ESTIMATED COSTS"], size: 12 }, { lines: ["Action Labor cost Parts cost"] }, body()), page(2, { lines: ["ESTIMATED COSTS—Continued"], size: 12 }, body())];
    expect(roles(pages)).toEqual([
      ["-", "-", "-", "-"],
      ["-", "-"],
    ]);
  });

  it("takes the next number of a list for an item, not a section", () => {
    const pages = [page(1, body(), "1. Frangitur gaudia mihi eo", "2. Recens diffudit ille tantum", body())];
    expect(roles(pages)).toEqual([["-", "LI1", "LI1", "-"]]);
  });

  it("takes no author line under the title for a heading, set like the sections or not", () => {
    const pages = [page(1, { lines: ["Preemptive Information Extraction"], size: 14, bold: true }, { lines: ["Yusuke Shinyama Satoshi Sekine"], size: 12, bold: true }, body(), { lines: ["1 Background"], size: 12, bold: true }, body())];
    expect(roles(pages)).toEqual([["H1", "-", "-", "H2", "-"]]);
  });

  it("takes no line for a heading that goes on with a sentence the paragraph before left open", () => {
    // The top of a page in the federal register: "…Airport in Jakarta," then "Indonesia, resulting in 189 fatalities."
    const pages = [page(1, { lines: ["Hatta International Airport in Jakarta,"] }, { lines: ["Indonesia, resulting in 189 fatalities."], size: 12 }, body())];
    expect(roles(pages)).toEqual([["-", "-", "-"]]);
  });

  it("compares a page's larger type with its own body as well as the document's: a page of small print makes no heading of text in the body's size", () => {
    const smallPrint = { lines: Array.from({ length: 8 }, () => BODY), size: 7 };
    const pages = [page(1, body(8)), page(2, { lines: ["Investigation of the accident has been completed."] }, smallPrint)];
    expect(roles(pages)).toEqual([["-"], ["-", "-"]]);
  });

  it("follows the outline: an entry's title on its page is a heading at the entry's depth, whatever its looks", () => {
    const pages = [page(1, { lines: ["Creativity in Machine Learning"], size: 14, bold: true }, body(), { lines: ["I. INTRODUCTION"], size: 8 }, body()), page(2, "A. Shakespeare", body())];
    const outline = [
      { title: "I Introduction", depth: 1, page: 1 },
      { title: "A-A Shakespeare", depth: 2, page: 2 },
    ];
    expect(roles(pages, { outline })).toEqual([
      ["H1", "-", "H2", "-"],
      ["H3", "-"],
    ]);
  });
});

describe("heading guards", () => {
  const looks = (text: string, extra: Partial<Parameters<typeof guardHeading>[0]> = {}) => ({ text, lines: 1, size: 14, bold: true, caps: false, font: "f1", centred: false, words: text.split(/\s+/).length, ...extra });
  it.each([
    ["∑ k=0", "no words"],
    ["(0.21) – 3.99 ab", "mostly figures or symbols"],
    ["q / p if p ≤ q", "a formula"],
    ["\uE09Eq / p\uE09F if p\uE085q", "a formula"],
    ["q / p if p q", "a formula"],
    ["and the proof-of-work chain", "starts in lower case: a sentence going on"],
    ["Nodes always consider the longest chain to be the", "ends where a sentence goes on"],
    ["Between:", "a label leading into what follows"],
    ["Mail deedy@fb.com", "a contact line"],
    ["20 décembre 2022", "a date"],
    ["Figure 3: Sample discovered relation", "a caption"],
    ["Carpaccio de Lomito 10$", "an item with its price"],
    ["所有董事均已出席了审议本次季报的董事会会议。", "a sentence"],
  ])("%s is no heading: %s", (text, why) => {
    expect(guardHeading(looks(text), "size")).toBe(why);
  });

  it("lets a heading in capitals end with a colon, and a name end with a capitalised article", () => {
    expect(guardHeading(looks("EXPONE:", { caps: true }), "style")).toBeUndefined();
    expect(guardHeading(looks("Debarghya Das"), "size")).toBeUndefined();
  });

  it("knows a byline from a section title", () => {
    expect(isByline("Satoshi Nakamoto")).toBe(true);
    expect(isByline("A. Novak and J. van Dijk")).toBe(true);
    expect(isByline("Executive Summary")).toBe(false);
    expect(isByline("1 Background")).toBe(false);
  });
});

describe("section numbers and outline titles", () => {
  it.each([
    ["3.1.2 Results", { depth: 3, scheme: "decimal" }],
    ["3.1.1.5.2. TELNET FORMAT CONTROLS", { depth: 5, scheme: "decimal" }],
    ["Artículo 4. Principios generales.", { depth: 7, scheme: "keyword" }],
    ["TITLE I: WIPO TREATY IMPLEMENTATION", { depth: 3, scheme: "keyword" }],
    ["第二节 公司基本情况", { depth: 3, scheme: "cjk" }],
    ["IV. TEXT DATA", { depth: 1, scheme: "roman" }],
  ])("%s is numbered as a section", (text, want) => {
    expect(sectionNumber(text)).toMatchObject(want);
  });

  it("takes a count or a reference in a sentence for no section number", () => {
    expect(sectionNumber("3 of the members voted")).toBeUndefined();
    expect(sectionNumber("Article 18 of the WPPT contains nearly identical language.")).toBeUndefined();
  });

  it("compares outline titles without their numbers, case or punctuation", () => {
    expect(outlineKey("A-A Shakespeare")).toBe(outlineKey("A. Shakespeare"));
    expect(outlineKey("2.1.  HISTORY")).toBe(outlineKey("History"));
  });
});

describe("list items, captions, footnotes", () => {
  it("gives each list item its depth from how far right its marker stands", () => {
    const pages = [
      page(1, body(1), { lines: ["• Moor bow to the east."], x: 84 }, { lines: ["– with two lines fore and aft"], x: 100 }, { lines: ["– and fenders on the quay side"], x: 100 }, { lines: ["• Keep the walkway clear."], x: 84 }, body(1)),
    ];
    expect(roles(pages)).toEqual([["-", "LI1", "LI2", "LI2", "LI1", "-"]]);
  });

  it("takes a tagged list item's label and body for an item, and a caption for a caption", () => {
    const pages = [page(1, body(1), { lines: ["They may be unordered bullet lists"], tag: "LI" }, { lines: ["Table 4: Description of obtained tables."] }, body(1))];
    expect(roles(pages)).toEqual([["-", "LI1", "Caption", "-"]]);
  });

  it("takes small print under the page's last body line that opens with a mark for a footnote", () => {
    const pages = [page(1, body(6), { lines: ["1 Pub. L. No. 105-304, 112 Stat. 2860 (Oct. 28, 1998)."], size: 8 })];
    expect(roles(pages)).toEqual([["-", "Footnote"]]);
  });

  it("gives tables and code their roles", () => {
    const pages = [page(1, body(1), { lines: ["Region\tRevenue", "North\t1,240"], kind: "table" }, { lines: ["make install"], kind: "verbatim" })];
    expect(roles(pages)).toEqual([["-", "Table", "Code"]]);
  });
});
