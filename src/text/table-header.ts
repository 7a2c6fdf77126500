/**
 * Whether a table's first row is its header (docs/extraction.md §6.9). GFM needs a header row
 * above every table; one that is not there is left empty rather than made of the first row of
 * data, so a reader never takes values for column names. The first row is a header when:
 * - its words are set in bold and the row under it is not (a spreadsheet's or a report's header);
 * - or none of its cells holds a number while, under it, some column holds numbers in at least
 *   half of the rows (names over figures: "Region · Revenue · Cost" over amounts).
 */
import type { Line } from "../core/records.js";
import { isBoldLine } from "./text-geometry.js";

/**
 * Digits with their signs, separators, currency and percent, and nothing else but a short unit: an
 * amount ("1,240", "(3.5)", "12 %", "€ 32,80"), a date or a time ("04/02", "2026-03-01", "06:00").
 */
const NUMBER_LIKE = /^[-−–+(]?[$€£¥]?\s?\d[\d.,:/'’\s-]*%?\)?(?:\s?[\p{L}%]{0,3})?$/u;
/** Share of a column's cells under the first row that must be numbers for it to count as a column of figures. */
const NUMERIC_COLUMN_SHARE = 0.5;

export function tableHasHeader(rows: readonly Line[]): boolean {
  if (rows.length < 2) return false;
  const [first, second] = rows as [Line, Line];
  if (isBoldLine(first) && !isBoldLine(second)) return true;
  const cells = rows.map((r) => r.text.split("\t").map((c) => c.trim()));
  const header = cells[0]!;
  if (header.filter(Boolean).length < 2 || header.some(isNumberLike)) return false;
  const body = cells.slice(1);
  const columns = Math.max(...cells.map((c) => c.length));
  for (let column = 0; column < columns; column++) {
    const filled = body.map((r) => r[column] ?? "").filter(Boolean);
    if (filled.length > 0 && filled.filter(isNumberLike).length >= NUMERIC_COLUMN_SHARE * body.length) return true;
  }
  return false;
}

function isNumberLike(text: string): boolean {
  return NUMBER_LIKE.test(text);
}
