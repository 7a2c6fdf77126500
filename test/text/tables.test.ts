import { describe, expect, it } from "vitest";
import { documentTables, tableCells, tableCsv } from "../../src/text/tables.js";
import { pageRecord } from "../helpers/page-record.js";

/** A cell of one row and one column on a page that gives no frame. */
const PLAIN = { colSpan: 1, rowSpan: 1, box: null };

describe("tables as data", () => {
  it("quotes a cell holding a comma, a quote or a line break, and doubles its quotes", () => {
    expect(tableCsv([["Item", "Note"], ["Fender, cylindrical", 'said "soon"'], ["two\nlines", ""]])).toBe('Item,Note\n"Fender, cylindrical","said ""soon"""\n"two\nlines",\n');
  });

  it("takes each table paragraph's rows from its tab-separated lines, every row as wide as the widest", () => {
    const lines = ["Spare parts", "Item\tQty\tPrice", "Pump\t2", "Total\t\t90.00"].map((text, k) => ({ text, x: 72, y: 700 - 14 * k, width: 200, fontSize: 10, runs: [] }));
    const page = pageRecord(lines, [
      { start: 0, end: 1, kind: "text" },
      { start: 1, end: 4, kind: "table" },
    ]);
    const tables = documentTables([page]);
    expect(tables).toEqual([{ page: 1, pages: [1], index: 1, rows: [["Item", "Qty", "Price"], ["Pump", "2", ""], ["Total", "", "90.00"]], cells: Array.from({ length: 3 }, () => Array.from({ length: 3 }, () => PLAIN)) }]);
    expect(tableCells(tables[0]!).slice(3, 6)).toEqual([
      { row: 1, col: 0, row_span: 1, col_span: 1, text: "Pump", box: null },
      { row: 1, col: 1, row_span: 1, col_span: 1, text: "2", box: null },
      { row: 1, col: 2, row_span: 1, col_span: 1, text: "", box: null },
    ]);
  });

  it("says how many columns a header spans, the cells it covers left empty", () => {
    const texts = ["\tEmergency admissions\t", "Region\tno.\tRate", "North\t1,204\t97.4"];
    const lines = texts.map((text, k) => ({ text, x: 72, y: 700 - 14 * k, width: 200, fontSize: 10, runs: [], ...(k === 0 ? { cellSpans: [1, 2, 1] } : {}) }));
    const [table] = documentTables([pageRecord(lines, [{ start: 0, end: 3, kind: "table" }])]);
    expect(tableCells(table!).slice(0, 3)).toEqual([
      { row: 0, col: 0, row_span: 1, col_span: 1, text: "", box: null },
      { row: 0, col: 1, row_span: 1, col_span: 2, text: "Emergency admissions", box: null },
      { row: 0, col: 2, row_span: 1, col_span: 1, text: "", box: null },
    ]);
  });
  it("says how many rows a cell spans down, the cells it covers left empty", () => {
    const texts = ["Region\tQuarter\tUnits", "North\tQ1\t120", "\tQ2\t135", "South\tQ1\t98"];
    const lines = texts.map((text, k) => ({ text, x: 72, y: 700 - 14 * k, width: 200, fontSize: 10, runs: [], ...(k === 1 ? { cellRowSpans: [2, 1, 1] } : {}) }));
    const [table] = documentTables([pageRecord(lines, [{ start: 0, end: 4, kind: "table" }])]);
    expect(tableCells(table!).filter((c) => c.col === 0)).toEqual([
      { row: 0, col: 0, row_span: 1, col_span: 1, text: "Region", box: null },
      { row: 1, col: 0, row_span: 2, col_span: 1, text: "North", box: null },
      { row: 2, col: 0, row_span: 1, col_span: 1, text: "", box: null },
      { row: 3, col: 0, row_span: 1, col_span: 1, text: "South", box: null },
    ]);
  });
});

describe("cell boxes", () => {
  it("gives each cell with words the box they stand in on the displayed page, null for an empty cell", () => {
    // A page read at 0 degrees, 792 pt high: its text frame's y runs up, the displayed page's down.
    const line = { text: "Pump\t\t2", x: 72, y: 700, width: 200, fontSize: 10, runs: [], cells: ["Pump", "", "2"], cellExtents: [[72, 698, 96, 708], null, [190, 698, 196, 708]] as ([number, number, number, number] | null)[] };
    const page = { ...pageRecord([line], [{ start: 0, end: 1, kind: "table" }]), toDisplay: [1, 0, 0, -1, 0, 792] as [number, number, number, number, number, number] };
    const [table] = documentTables([page]);
    expect(tableCells(table!).map((c) => c.box)).toEqual([{ page: 1, x0: 72, y0: 84, x1: 96, y1: 94 }, null, { page: 1, x0: 190, y0: 84, x1: 196, y1: 94 }]);
  });
});

describe("tables over a page break", () => {
  const lines = (texts: string[]) => texts.map((text, k) => ({ text, x: 72, y: 700 - 14 * k, width: 200, fontSize: 10, runs: [] }));
  /** A page of paragraphs: each a [kind, lines] pair. */
  const page = (number: number, paragraphs: ["text" | "table", string[]][]) => {
    const all: string[] = [];
    const spans = paragraphs.map(([kind, texts]) => {
      const start = all.length;
      all.push(...texts);
      return { start, end: all.length, kind };
    });
    return pageRecord(lines(all), spans, { number });
  };

  it("joins a table that ends its page with the next page's first table, its header printed again dropped", () => {
    const tables = documentTables([
      page(1, [["text", ["Landings by quay"]], ["table", ["Quay\tTonnes", "North\t1,204"]]]),
      page(2, [["table", ["Quay\tTonnes", "South\t802"]], ["text", ["Figures are provisional."]]]),
    ]);
    expect(tables).toEqual([{ page: 1, pages: [1, 2], index: 1, rows: [["Quay", "Tonnes"], ["North", "1,204"], ["South", "802"]], cells: Array.from({ length: 3 }, () => [PLAIN, PLAIN]) }]);
  });

  it("lets a title saying the table goes on stand before it, and keeps tables apart when text comes between or the columns differ", () => {
    const continued = documentTables([page(1, [["table", ["Quay\tTonnes", "North\t1,204"]]]), page(2, [["text", ["Table 2 (continued)"]], ["table", ["South\t802"]]])]);
    expect(continued.map((t) => [t.pages, t.rows.length])).toEqual([[[1, 2], 3]]);
    const apart = documentTables([page(1, [["table", ["Quay\tTonnes", "North\t1,204"]], ["text", ["Source: harbour office."]]]), page(2, [["table", ["South\t802"]]])]);
    expect(apart.map((t) => t.pages)).toEqual([[1], [2]]);
    const otherColumns = documentTables([page(1, [["table", ["Quay\tTonnes", "North\t1,204"]]]), page(2, [["table", ["South\t802\t2026"]]])]);
    expect(otherColumns.map((t) => [t.index, t.pages])).toEqual([
      [1, [1]],
      [2, [2]],
    ]);
  });
});
