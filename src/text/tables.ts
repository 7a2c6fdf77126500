/**
 * The tables of a document as data: each table paragraph's rows, cell by cell, the cells exactly
 * as the text and Markdown views print them (a row's tab-separated text, after dehyphenation
 * decided a wrapped cell's broken words). What `extract --format csv`, `extract --tables DIR`
 * and the JSON view's `tables` give; tabula and camelot users expect one CSV per table.
 */
import type { PageRecord } from "../core/records.js";

export interface DocumentTable {
  /** The page the table is printed on. */
  page: number;
  /** 1 for the document's first table, in reading order. */
  index: number;
  /** The rows, top first; each row's cells left to right (right to left in a right-to-left table), empty cells kept. */
  rows: string[][];
}

/** Every table paragraph of the pages, in reading order. */
export function documentTables(pages: readonly PageRecord[]): DocumentTable[] {
  const tables: DocumentTable[] = [];
  for (const page of pages) {
    for (const paragraph of page.paragraphs) {
      if (paragraph.kind !== "table") continue;
      const rows = page.lines.slice(paragraph.start, paragraph.end).map((line) => line.text.split("\t"));
      // Every row as wide as the widest: a CSV reader expects one width.
      const columns = Math.max(0, ...rows.map((r) => r.length));
      tables.push({ page: page.number, index: tables.length + 1, rows: rows.map((r) => [...r, ...Array<string>(columns - r.length).fill("")]) });
    }
  }
  return tables;
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

/** A table's cells as records: row and column from 0, the text as printed. */
export function tableCells(table: DocumentTable): { row: number; col: number; text: string }[] {
  return table.rows.flatMap((cells, row) => cells.map((text, col) => ({ row, col, text })));
}
