/**
 * A tagged table's rows (docs/extraction.md §4.1): one line per TR, its TD/TH texts joined by
 * tabs, empty cells kept empty. The tags say which text is a row and which a cell; the page says
 * where each cell stands, and where the two disagree a reader goes by the page:
 * - a row's cells are in their left-to-right order on the page (right to left in a right-to-left
 *   table), whatever order the tree lists them in: a spreadsheet export tags a header's last
 *   column first, or a row's values in another order than it prints them;
 * - a range printed as one cell ("1.35 - 1.42") that the producer tagged as three cells, the
 *   dash a cell of its own a word space from each number, is one cell.
 */
import { runsExtent } from "../../text/page-boxes.js";
import { textLine, type Line, type TextRun } from "../../core/records.js";
import { groupLines } from "./line-grouping.js";
import type { LayoutOptions } from "./page-layout.js";
import { isRightToLeft } from "./reading-direction.js";
import type { StructureOrder } from "./structure-order.js";
import { isNumber } from "./table-columns.js";
import { normalizeLineText } from "./text-normalization.js";
import { joinCellLines } from "../../text/line-join.js";

/** A dash this close (ems) to the numbers on both sides of it joins them into a range: a word space is a quarter of an em. */
const RANGE_GAP_EMS = 0.5;

interface Cell {
  runs: TextRun[];
  /** Its printed lines, top first (as untagged tables keep them in `Line.cells`, for the dehyphenate stage). */
  lines: string[];
  text: string;
  /** Where the cell stands; an empty cell takes its place from the cell before it in the tree. */
  x: number;
}

export function taggedTableRows(runs: readonly TextRun[], order: StructureOrder, options: LayoutOptions): Line[] {
  const byCell = new Map<string, TextRun[]>();
  // Only the rows with text here are made: published pdf.js (the TypeScript source's tests before
  // a build) hands every page the whole table; pagestream's build, the rows with content on it.
  const rowsHere = new Set<number>();
  let table = -1;
  for (const run of runs) {
    const cell = order.places.get(run.mcid!)?.cell;
    if (!cell) continue;
    table = cell.table;
    rowsHere.add(cell.row);
    const key = `${cell.row}:${cell.column}`;
    const cellRuns = byCell.get(key) ?? [];
    cellRuns.push(run);
    byCell.set(key, cellRuns);
  }
  const shape = order.tables.get(table) ?? [];
  const rightToLeft = isRightToLeft(runs.map((r) => r.text).join(" "));
  const lines: Line[] = [];
  shape.forEach((columns, row) => {
    if (!rowsHere.has(row)) return;
    const cells: Cell[] = [];
    for (let column = 0; column < columns; column++) {
      const cellRuns = byCell.get(`${row}:${column}`) ?? [];
      const x = cellRuns.length ? Math.min(...cellRuns.map((r) => r.x)) : (cells[cells.length - 1]?.x ?? -Infinity);
      const lines = cellLines(cellRuns, options);
      cells.push({ runs: cellRuns, lines, text: joinCellLines(lines), x });
    }
    const rowRuns = cells.flatMap((c) => c.runs);
    if (rowRuns.length === 0) return;
    // A stable sort: cells the page does not tell apart (empty ones) keep the tree's order.
    const placed = cells.map((c, k) => ({ c, k })).sort((a, b) => (rightToLeft ? b.c.x - a.c.x : a.c.x - b.c.x) || a.k - b.k).map(({ c }) => c);
    const joined = joinRanges(placed);
    const [line] = groupLines(rowRuns, { ...options, lineTolerance: Infinity });
    lines.push(textLine({ ...line!, text: joined.map((c) => c.text).join("\t"), cells: joined.map((c) => c.lines.join("\n")), cellExtents: joined.map((c) => runsExtent(c.runs) ?? null), role: "TR" }));
  });
  return lines;
}

/** A cell's printed lines, each normalised (joined as untagged cells are, `joinCellLines`). */
function cellLines(runs: readonly TextRun[], options: LayoutOptions): string[] {
  return groupLines(runs, options)
    .map((l) => normalizeLineText(l.text, options).trim())
    .filter(Boolean);
}

/** Number, lone dash, number, each a word space or less from the next: one cell, "1.35 - 1.42". */
function joinRanges(cells: readonly Cell[]): Cell[] {
  const out: Cell[] = [];
  for (let k = 0; k < cells.length; k++) {
    const [from, dash, to] = [cells[k]!, cells[k + 1], cells[k + 2]];
    if (dash && to && isRange(from, dash, to)) {
      const text = `${from.text} ${dash.text} ${to.text}`;
      out.push({ runs: [...from.runs, ...dash.runs, ...to.runs], lines: [text], text, x: from.x });
      k += 2;
      continue;
    }
    out.push(from);
  }
  return out;
}

function isRange(from: Cell, dash: Cell, to: Cell): boolean {
  if (!/^[-–—]$/.test(dash.text) || !/\d/.test(from.text) || !/\d/.test(to.text) || !isNumber(from.text) || !isNumber(to.text)) return false;
  const size = Math.max(...dash.runs.map((r) => r.fontSize));
  const right = (c: Cell) => Math.max(...c.runs.map((r) => r.x + r.width));
  return dash.x - right(from) <= RANGE_GAP_EMS * size && to.x - right(dash) <= RANGE_GAP_EMS * size;
}
