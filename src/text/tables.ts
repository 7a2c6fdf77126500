/**
 * The tables of a document as data: each table paragraph's rows, cell by cell, the cells exactly
 * as the text and Markdown views print them (a row's tab-separated text, after dehyphenation
 * decided a wrapped cell's broken words). What `extract --format csv`, `extract --tables DIR`
 * and the JSON view's `tables` give; tabula and camelot users expect one CSV per table.
 */
import { displayBox, type PageBox } from "./page-boxes.js";
import type { PageRecord } from "../core/records.js";

export interface DocumentTable {
  /** The page the table starts on. */
  page: number;
  /** Every page it is printed on: more than one for a table continued over a page break. */
  pages: number[];
  /** 1 for the document's first table, in reading order. */
  index: number;
  /** The rows, top first; each row's cells left to right (right to left in a right-to-left table), empty cells kept. */
  rows: string[][];
  /** Per row and cell (as `rows`), where it stands and what it spans. */
  cells: CellPlace[][];
}

export interface CellPlace {
  /** Columns it spans: 1, or more for a header over several (the cells it covers empty). */
  colSpan: number;
  /** Rows it spans down: 1, or more for a label over several rows of a grid (the cells it covers empty). */
  rowSpan: number;
  /** The box its words stand in on the displayed page; null for an empty cell (or a page that gives no frame). */
  box: PageBox | null;
}

/**
 * Every table paragraph of the pages, in reading order. A table that ends its page and goes on
 * as the next page's first table, with as many columns, is one table: its header printed again
 * on the new page is dropped, and a title line saying so ("Table 2 (continued)") may stand
 * before it (docs/extraction.md §6.10).
 */
export function documentTables(pages: readonly PageRecord[]): DocumentTable[] {
  const tables: DocumentTable[] = [];
  // The table that ends the page before, when nothing follows it there.
  let open: DocumentTable | undefined;
  for (const page of pages) {
    const carried = open?.pages[open.pages.length - 1] === page.number - 1 ? open : undefined;
    open = undefined;
    page.paragraphs.forEach((paragraph, k) => {
      if (paragraph.kind !== "table") return;
      const lines = page.lines.slice(paragraph.start, paragraph.end);
      const rows = widened(lines.map((line) => line.text.split("\t")));
      const cells = rows.map((texts, k) => {
        const line = lines[k]!;
        return texts.map((_, j): CellPlace => {
          const extent = line.cellExtents?.[j];
          return { colSpan: line.cellSpans?.[j] ?? 1, rowSpan: line.cellRowSpans?.[j] ?? 1, box: extent && page.toDisplay ? displayBox(page.number, page.toDisplay, extent) : null };
        });
      });
      const before = () => page.paragraphs.slice(0, k).map((p) => page.lines.slice(p.start, p.end).map((l) => l.text).join(" "));
      const continued = carried && tables[tables.length - 1] === carried && carries(carried, rows, before());
      if (continued) {
        const from = sameRow(rows[0], carried.rows[0]) ? 1 : 0;
        carried.rows.push(...rows.slice(from));
        carried.cells.push(...cells.slice(from));
        carried.pages.push(page.number);
      } else {
        tables.push({ page: page.number, pages: [page.number], index: tables.length + 1, rows, cells });
      }
      if (k === page.paragraphs.length - 1) open = tables[tables.length - 1];
    });
  }
  return tables;
}

/** A title line before a table on its new page that says the table goes on. */
const CONTINUED = /\bcontinued\b|\(cont(?:'d|d)?\.{0,3}\)|\bcont(?:'d|d)\b|\bfortsetzung\b|\(suite\)/iu;

/** The next page's first table goes on with `table`: as many columns, and before it nothing, or only a title saying so. */
function carries(table: DocumentTable, rows: readonly string[][], before: readonly string[]): boolean {
  if ((rows[0]?.length ?? 0) !== (table.rows[0]?.length ?? -1)) return false;
  return before.length === 0 || (before.length === 1 && CONTINUED.test(before[0]!));
}

function sameRow(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((cell, j) => cell.trim() === b[j]!.trim());
}

/** Every row as wide as the widest: a CSV reader expects one width. */
function widened(rows: string[][]): string[][] {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  return rows.map((r) => [...r, ...Array<string>(columns - r.length).fill("")]);
}

/**
 * A table as CSV (RFC 4180, lines ended by "\n"): a cell holding a comma, a quote or a line
 * break is quoted, its quotes doubled.
 */
export function tableCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvField).join(",") + "\n").join("");
}

function csvField(text: string): string {
  return /[",\r\n]/u.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A table's cells as records: row and column from 0, how many rows and columns the cell spans,
 * the text as printed, and the box its words stand in (null for an empty cell). The cells a
 * spanning cell covers stay in the list, empty, so every row has a record per column (a spanning
 * cell's `row_span` and `col_span` say which to skip).
 */
export function tableCells(table: DocumentTable): { row: number; col: number; row_span: number; col_span: number; text: string; box: PageBox | null }[] {
  return table.rows.flatMap((cells, row) =>
    cells.map((text, col) => {
      const place = table.cells[row]?.[col];
      return { row, col, row_span: place?.rowSpan ?? 1, col_span: place?.colSpan ?? 1, text, box: place?.box ?? null };
    }),
  );
}
