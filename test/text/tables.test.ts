import { describe, expect, it } from "vitest";
import { documentTables, tableCells, tableCsv } from "../../src/text/tables.js";
import { pageRecord } from "../helpers/page-record.js";

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
    expect(tables).toEqual([{ page: 1, index: 1, rows: [["Item", "Qty", "Price"], ["Pump", "2", ""], ["Total", "", "90.00"]] }]);
    expect(tableCells(tables[0]!).slice(3, 6)).toEqual([
      { row: 1, col: 0, text: "Pump" },
      { row: 1, col: 1, text: "2" },
      { row: 1, col: 2, text: "" },
    ]);
  });
});
