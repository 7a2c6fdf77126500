/**
 * Tables on untagged pages (docs/extraction.md §4.4). A PDF table is text at coordinates; what survives is
 * alignment. Consecutive lines that each break into two or more fragments at wide gaps, whose
 * fragments fall into the same column slots down the rows, are a table: each row becomes one
 * line with its cells separated by a tab, an empty slot an empty cell (so values never shift
 * left), and a line that fills a single slot just under a row is that cell wrapping, joined to
 * it with a space.
 */
import type { Line, TextRun } from "../../core/records.js";
import { median } from "../../text/text-geometry.js";
import { fragmentsOf, readsAsText } from "./column-layout.js";
import { buildLine } from "./line-grouping.js";
import { isListMarker } from "./list-markers.js";
import { breaksWordBefore } from "./word-breaks.js";
import { joinRuns, type SpacingOptions } from "./word-spacing.js";

export interface TableOptions extends SpacingOptions {
  /** The gap (× font size) that separates cells; the same that separates columns. */
  gutterRatio: number;
}

export interface TableRange {
  /** The table's rows, one line each, replacing lines[start..end). */
  rows: Line[];
  start: number;
  end: number;
}

interface Slot {
  x0: number;
  x1: number;
}

/**
 * Slots whose fragments come closer than this × font size are one column: cells a little apart
 * still fall in one slot, and the slack stays well under the cell gap (column_gap_ratio).
 */
const SLOT_MERGE_EMS = 0.5;

export function detectTables(lines: readonly Line[], options: TableOptions): TableRange[] {
  const frags = lines.map((l) => (l.runs.every((r) => r.monospace) ? [] : fragmentsOf(l.runs, options.gutterRatio)));
  const tables: TableRange[] = [];
  let i = 0;
  while (i < lines.length) {
    if (frags[i]!.length < 2) {
      i++;
      continue;
    }
    // Grow a run of multi-cell rows, letting single-slot lines through as wrapped cells.
    let end = i + 1;
    while (end < lines.length && (frags[end]!.length >= 2 || (frags[end]!.length === 1 && end + 1 < lines.length && frags[end + 1]!.length >= 2))) end++;
    const table = buildTable(lines.slice(i, end), frags.slice(i, end), options);
    if (table) {
      tables.push({ ...table, start: i, end: i + table.consumed });
      i += table.consumed;
    } else {
      i++;
    }
  }
  return tables;
}

function buildTable(lines: readonly Line[], frags: ReturnType<typeof fragmentsOf>[], options: TableOptions): { rows: Line[]; consumed: number } | undefined {
  // Trailing single-slot lines are not part of the run.
  let count = lines.length;
  while (count > 0 && frags[count - 1]!.length < 2) count--;
  const size = median(lines.slice(0, count).map((l) => l.fontSize)) || 10;
  const slots = mergeSlots(frags.slice(0, count).flat(), SLOT_MERGE_EMS * size);
  const multi = frags.slice(0, count).filter((f) => f.length >= 2);
  if (slots.length < 2) return undefined;
  if (multi.length < 3 && !(multi.length >= 2 && slots.length >= 3)) return undefined;
  // Every multi-cell row must use at least two slots: otherwise it is prose with a wide gap.
  if (multi.some((f) => new Set(f.map((x) => slotOf(slots, x))).size < 2)) return undefined;
  // A column of bullets or numbers beside text is a list, not a table.
  if (frags.slice(0, count).every((f) => f.length < 2 || isListMarker(f[0]!.runs.map((r) => r.text).join("")))) return undefined;
  // Two slots of running text side by side are columns the layout step could not confirm, not a table.
  if (slots.length === 2) {
    const side = (k: number) => multi.map((f) => f.filter((x) => slotOf(slots, x) === k)).filter((fs) => fs.length > 0);
    if (readsAsText(side(0)) && readsAsText(side(1))) return undefined;
  }

  const pitch = median(
    lines
      .slice(1, count)
      .map((l, k) => (frags[k]!.length >= 2 && frags[k + 1]!.length >= 2 ? lines[k]!.y - l.y : NaN))
      .filter((g) => g > 0),
  );
  const rows: { cells: TextRun[][]; runs: TextRun[]; y: number }[] = [];
  for (let k = 0; k < count; k++) {
    const line = lines[k]!;
    const cells: TextRun[][] = slots.map(() => []);
    for (const f of frags[k]!) cells[slotOf(slots, f)]!.push(...f.runs);
    const prev = rows[rows.length - 1];
    const slot = frags[k]!.length === 1 ? slotOf(slots, frags[k]![0]!) : -1;
    // A cell that wraps: its next line sits in one slot, closer under the row than rows are
    // to each other, or goes on with a word the cell above broke. Further down, it is a row of
    // its own with the other cells empty.
    if (prev && slot >= 0 && (prev.y - line.y < 0.9 * pitch || breaksWordBefore(cellText(prev.cells[slot]!, options), cellText(cells[slot]!, options)))) {
      prev.cells[slot]!.push(...cells[slot]!);
      prev.runs.push(...line.runs);
      continue;
    }
    rows.push({ cells, runs: [...line.runs], y: line.y });
  }
  const out = rows.map((row) => {
    const line = buildLine(row.runs, options);
    line.text = row.cells.map((cell) => cellText(cell, options)).join("\t");
    line.y = row.y;
    line.role = "TR";
    return line;
  });
  return { rows: out, consumed: count };
}

/** A cell's text: its runs by line (top first), each line joined by the word-space rule. */
function cellText(runs: TextRun[], options: SpacingOptions): string {
  const byLine: TextRun[][] = [];
  for (const run of [...runs].sort((a, b) => b.y - a.y || a.x - b.x)) {
    const last = byLine[byLine.length - 1];
    if (last && Math.abs(last[0]!.y - run.y) <= 0.5 * run.fontSize) last.push(run);
    else byLine.push([run]);
  }
  // Lines of a cell are joined by a space, but never after a hyphen that breaks a word: whether
  // it stays is for the reader to judge, a space after it is wrong either way (docs/extraction.md §6.2).
  let text = "";
  for (const line of byLine.map((l) => joinRuns(l.sort((a, b) => a.x - b.x), options).trim())) {
    text = !text ? line : breaksWordBefore(text, line) ? text + line : `${text} ${line}`;
  }
  return text;
}

function mergeSlots(fragments: readonly { x0: number; x1: number }[], slack: number): Slot[] {
  const sorted = [...fragments].sort((a, b) => a.x0 - b.x0);
  const slots: Slot[] = [];
  for (const f of sorted) {
    const last = slots[slots.length - 1];
    if (last && f.x0 <= last.x1 + slack) last.x1 = Math.max(last.x1, f.x1);
    else slots.push({ x0: f.x0, x1: f.x1 });
  }
  return slots;
}

function slotOf(slots: readonly Slot[], f: { x0: number; x1: number }): number {
  const mid = (f.x0 + f.x1) / 2;
  const i = slots.findIndex((s) => mid >= s.x0 && mid <= s.x1);
  return i >= 0 ? i : 0;
}

