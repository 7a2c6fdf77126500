/**
 * Reading order for untagged pages: find the columns (docs/extraction.md §4.3).
 *
 * Lines grouped by baseline run straight across a two-column page. Each of those rows is cut
 * into fragments where a gap is wider than `gutter_ratio` × font size; a column gutter is an
 * x-interval that stays free of fragments down a run of consecutive rows while text stands on
 * both sides of it (a whitespace strip, as in XY-cut). The rows are then read as: the rows
 * above the gutter's run (a full-width title, an abstract), the left side of the run top to
 * bottom, the right side top to bottom, then the rows below (full-width text, footnotes),
 * recursively, so three columns and alternating one- and two-column sections work too.
 *
 * Tables, centred author lists and indented code must not become false columns: both sides
 * must read as running text (fragments as wide as a column of prose, not cells), and the run
 * must be several rows tall. A strip that has text on both sides but running text on only one
 * (a narrow sidebar of short lines, a list beside prose) is not split, and the page says
 * `columns: "uncertain"` instead of guessing silently.
 */
import type { Line, TextRun } from "../../core/records.js";
import { median } from "../../text/text-geometry.js";
import { buildLine } from "./line-grouping.js";
import { isListMarker } from "./list-markers.js";
import type { SpacingOptions } from "./word-spacing.js";

export interface ColumnOptions extends SpacingOptions {
  /** A gap wider than this × font size inside a row may be a column gutter (or a table's cell gap). */
  gutterRatio: number;
}

export interface ColumnOrder {
  /** The lines in reading order. */
  lines: Line[];
  /** Indices of lines that start a new column of a section: the text flows on from the column before. */
  flowBreaks: Set<number>;
  /** Most columns side by side anywhere on the page, or "uncertain". */
  columns: number | "uncertain";
}

export interface Fragment {
  runs: TextRun[];
  x0: number;
  x1: number;
  fontSize: number;
}

interface Row {
  fragments: Fragment[];
  /** Baseline of the line the row came from. */
  y: number;
}

/** Rows needed on each side of a gutter: two rows side by side are as likely a label and its value. */
const MIN_ROWS_PER_SIDE = 3;
/** A side reads as running text when its typical fragment is at least this many ems wide (table cells are narrower)… */
const MIN_TEXT_WIDTH_EMS = 10;
/** …and fills at least this share of the side. */
const MIN_TEXT_FILL = 0.55;

export function orderByColumns(lines: readonly Line[], options: ColumnOptions): ColumnOrder {
  const rows = lines.map((line) => ({ fragments: fragmentsOf(line.runs, options.gutterRatio), y: line.y }));
  const state = { uncertain: false };
  const parts = orderRows(rows, options, state);
  const out: Line[] = [];
  const flowBreaks = new Set<number>();
  let columns = 1;
  for (const part of parts) {
    columns = Math.max(columns, part.columns);
    if (part.flowBreak && out.length > 0) flowBreaks.add(out.length);
    for (const row of part.rows) out.push(buildLine(row.fragments.flatMap((f) => f.runs), options));
  }
  return { lines: out, flowBreaks, columns: state.uncertain && columns === 1 ? "uncertain" : columns };
}

/** Cuts a row's runs (left to right) wherever the gap is wider than `ratio` × font size. */
export function fragmentsOf(runs: readonly TextRun[], ratio: number): Fragment[] {
  const sorted = [...runs].sort((a, b) => a.x - b.x);
  const out: Fragment[] = [];
  for (const run of sorted) {
    const last = out[out.length - 1];
    const size = Math.max(run.fontSize, last?.fontSize ?? 0);
    if (last && run.x - last.x1 <= ratio * size) {
      last.runs.push(run);
      last.x1 = Math.max(last.x1, run.x + run.width);
      last.fontSize = Math.max(last.fontSize, run.fontSize);
    } else {
      out.push({ runs: [run], x0: run.x, x1: run.x + run.width, fontSize: run.fontSize });
    }
  }
  return out;
}

interface Part {
  rows: Row[];
  /** The first row continues the flow of the part before (a column to the right of it). */
  flowBreak: boolean;
  columns: number;
}

interface Gutter {
  x0: number;
  x1: number;
  start: number;
  /** Exclusive. */
  end: number;
}

function orderRows(rows: Row[], options: ColumnOptions, state: { uncertain: boolean }): Part[] {
  const nonEmpty = rows.filter((r) => r.fragments.length > 0);
  if (nonEmpty.length === 0) return [];
  const gutter = findGutter(nonEmpty, options, state);
  if (!gutter) return [{ rows: nonEmpty, flowBreak: false, columns: 1 }];
  const before = nonEmpty.slice(0, gutter.start);
  const section = nonEmpty.slice(gutter.start, gutter.end);
  const after = nonEmpty.slice(gutter.end);
  const side = (keep: (f: Fragment) => boolean) => section.map((r) => ({ fragments: r.fragments.filter(keep), y: r.y }));
  const left = orderRows(side((f) => f.x1 <= gutter.x0), options, state);
  const right = orderRows(side((f) => f.x0 >= gutter.x1), options, state);
  const width = Math.max(1, ...left.map((p) => p.columns)) + Math.max(1, ...right.map((p) => p.columns));
  if (right[0]) right[0] = { ...right[0], flowBreak: true };
  return [
    ...orderRows(before, options, state),
    ...left.map((p) => ({ ...p, columns: width })),
    ...right.map((p) => ({ ...p, columns: width })),
    ...orderRows(after, options, state),
  ];
}

/**
 * The gutter with the tallest run of rows that passes the tests, if any. Candidates are the wide
 * gaps between the fragments of each row and of each pair of neighbouring rows, so columns whose
 * baselines do not line up (every row holding one side only) are found too.
 */
function findGutter(rows: Row[], options: ColumnOptions, state: { uncertain: boolean }): Gutter | undefined {
  let best: Gutter | undefined;
  const tried = new Set<string>();
  for (let r = 0; r < rows.length; r++) {
    const window = [...rows[r]!.fragments, ...(rows[r + 1]?.fragments ?? [])].sort((a, b) => a.x0 - b.x0);
    let reach = -Infinity;
    let size = 0;
    for (const f of window) {
      if (reach > -Infinity && f.x0 - reach > options.gutterRatio * Math.max(size, f.fontSize)) {
        const candidate = trimRunEnds(rows, growGutter(rows, r, reach, f.x0, options));
        const key = `${candidate.start}:${candidate.end}:${Math.round(candidate.x0)}`;
        if (!tried.has(key)) {
          tried.add(key);
          const verdict = judge(rows, candidate);
          if (verdict === "uncertain") state.uncertain = true;
          if (verdict === "columns" && (!best || candidate.end - candidate.start > best.end - best.start)) best = candidate;
        }
      }
      if (f.x1 > reach) {
        reach = f.x1;
        size = f.fontSize;
      }
    }
  }
  return best;
}

/** Extends a free strip up and down from row r while it stays wide enough to be a gutter. */
function growGutter(rows: Row[], r: number, x0: number, x1: number, options: ColumnOptions): Gutter {
  let strip = { x0, x1 };
  const minWidth = (row: Row) => options.gutterRatio * 0.5 * Math.max(...row.fragments.map((f) => f.fontSize));
  let start = r;
  let end = r + 1;
  for (let i = r + 1; i < rows.length; i++) {
    const next = narrow(strip, rows[i]!);
    if (!next || next.x1 - next.x0 < minWidth(rows[i]!)) break;
    strip = next;
    end = i + 1;
  }
  for (let i = r - 1; i >= 0; i--) {
    const next = narrow(strip, rows[i]!);
    if (!next || next.x1 - next.x0 < minWidth(rows[i]!)) break;
    strip = next;
    start = i;
  }
  return { ...strip, start, end };
}

/** How far right of a column's left edge (in ems) a row of that column may start: an indent, a list item's body. */
const INDENT_EMS = 3;

/**
 * Takes off the ends of a run the rows that are not part of its columns:
 * - a running header or footer spanning the gutter ("Example PDF … 2025-01-11", "Author … 7"),
 *   whose right part is set against the page's right margin, well right of the right column's
 *   left edge: read inside the columns it would be cut in two, and neither half would be
 *   recognised as the header it is (a heading centred over the right column ends short of the
 *   margin and stays);
 * - a page number or a short mark standing apart above or below the columns, which would
 *   otherwise end the left column's text in mid-sentence.
 */
function trimRunEnds(rows: readonly Row[], g: Gutter): Gutter {
  const run = rows.slice(g.start, g.end);
  const rightOf = (row: Row) => row.fragments.filter((f) => f.x0 >= g.x1);
  const fragments = run.flatMap(rightOf);
  if (fragments.length === 0) return g;
  const size = median(fragments.map((f) => f.fontSize));
  const edge = leftEdge(run.flatMap((row) => {
    const right = rightOf(row);
    return right.length ? [Math.min(...right.map((f) => f.x0))] : [];
  }), size);
  const margin = Math.max(...fragments.map((f) => f.x1));
  const pitch = median(run.slice(1).map((row, i) => run[i]!.y - row.y).filter((d) => d > 0));
  const spans = (row: Row) => {
    const right = rightOf(row);
    if (right.length === 0) return false;
    const x0 = Math.min(...right.map((f) => f.x0));
    const x1 = Math.max(...right.map((f) => f.x1));
    return x0 > edge + INDENT_EMS * size && margin - x1 <= size;
  };
  const standsApart = (row: Row, neighbour: Row | undefined) =>
    neighbour !== undefined &&
    Math.abs(row.y - neighbour.y) > APART_PITCHES * pitch &&
    row.fragments.every((f) => f.x1 - f.x0 < MARK_EMS * f.fontSize);
  let { start, end } = g;
  while (start < end && (spans(rows[start]!) || standsApart(rows[start]!, rows[start + 1]))) start++;
  while (end > start && (spans(rows[end - 1]!) || standsApart(rows[end - 1]!, rows[end - 2]))) end--;
  return { ...g, start, end };
}

/** A row this many times the run's usual distance between rows away from the next stands apart… */
const APART_PITCHES = 2;
/** …and is a mark, not a line of a column, when each of its pieces is narrower than this many ems. */
const MARK_EMS = 3;

/**
 * The strip as the row leaves it: a fragment reaching in from one side narrows it; one standing
 * inside it (a page number centred on the gutter, a caption across it) ends the run.
 */
function narrow(strip: { x0: number; x1: number }, row: Row): { x0: number; x1: number } | undefined {
  let { x0, x1 } = strip;
  for (const f of row.fragments) {
    if (f.x1 <= x0 || f.x0 >= x1) continue;
    if (f.x0 <= x0 && f.x1 < x1) x0 = f.x1;
    else if (f.x1 >= x1 && f.x0 > x0) x1 = f.x0;
    else return undefined;
  }
  return x1 > x0 ? { x0, x1 } : undefined;
}

function judge(rows: Row[], g: Gutter): "columns" | "uncertain" | "none" {
  const section = rows.slice(g.start, g.end);
  const left = section.map((r) => r.fragments.filter((f) => f.x1 <= g.x0)).filter((fs) => fs.length > 0);
  const right = section.map((r) => r.fragments.filter((f) => f.x0 >= g.x1)).filter((fs) => fs.length > 0);
  if (left.length < MIN_ROWS_PER_SIDE || right.length < MIN_ROWS_PER_SIDE) return "none";
  // A column of text runs up to its gutter (justified, or ragged by a word at most); a table's
  // first column of cells ends wherever each cell's text does.
  if (!reachesGutter(left, g.x0)) return "none";
  // A gutter is wider than the gaps between words around it; a river of spaces down a page
  // whose words are drawn one by one (an OCR layer) is not.
  if (g.x1 - g.x0 < GUTTER_OVER_WORD_GAP * medianWordGap(section, g)) return "none";
  // A column has a left margin: most rows right of a gutter start at one x. A river of spaces
  // down justified text (or between the words of an OCR layer) has text starting anywhere.
  if (!sharesLeftEdge(right)) return "none";
  const leftText = readsAsText(left);
  const rightText = readsAsText(right);
  if (leftText && rightText) return "columns";
  if (!leftText && !rightText) return "none";
  // Bullets or numbers beside text are a list.
  if (left.flat().every((f) => isListMarker(f.runs.map((r) => r.text).join("")))) return "none";
  // Rows that nearly all hold both sides on one baseline are a table's or a list's rows (tables
  // and lists are found later); a narrow column beside prose flows on its own baselines.
  const both = section.filter((r) => r.fragments.some((f) => f.x1 <= g.x0) && r.fragments.some((f) => f.x0 >= g.x1)).length;
  return both >= ROW_STRUCTURED_SHARE * section.length ? "none" : "uncertain";
}

/** How many times the typical gap between words a gutter must be: a loose justified line stretches its gaps about this far. */
const GUTTER_OVER_WORD_GAP = 1.5;

/**
 * The typical gap between words in the rows: a space inside a run counts as a gap of about a
 * third of an em (0.6 × the run's average character width), a gap between runs as itself.
 */
function medianWordGap(rows: readonly Row[], g: Gutter): number {
  const gaps: number[] = [];
  for (const row of rows) {
    const runs = row.fragments.flatMap((f) => f.runs).sort((a, b) => a.x - b.x);
    runs.forEach((run, i) => {
      const spaces = run.text.trim().split(/\s+/).length - 1;
      if (spaces > 0) gaps.push(...Array<number>(spaces).fill((0.6 * run.width) / run.text.length));
      if (i === 0) return;
      const from = runs[i - 1]!.x + runs[i - 1]!.width;
      if (run.x > from && (run.x <= g.x0 || from >= g.x1)) gaps.push(run.x - from);
    });
  }
  gaps.sort((a, b) => a - b);
  return gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 0;
}

/** How far short of the gutter (in ems) a line of a text column may end: about a long word. */
const RAGGED_EMS = 4;

function reachesGutter(rows: readonly (readonly Fragment[])[], gutter: number): boolean {
  const near = rows.filter((fs) => {
    const last = fs.reduce((a, b) => (b.x1 > a.x1 ? b : a));
    return gutter - last.x1 <= RAGGED_EMS * last.fontSize;
  });
  return near.length >= MIN_LEFT_EDGE_SHARE * rows.length;
}

/** Share of a section's rows holding text on both sides that makes it rows of a table or list. */
const ROW_STRUCTURED_SHARE = 0.8;

/** Share of a side's rows that must start at its common left edge (indented first lines are the others). */
const MIN_LEFT_EDGE_SHARE = 0.5;
/** Share of a side's rows that must start at its edge or at an indent from it (paragraph indents, list items)… */
const MIN_INDENTED_SHARE = 0.7;
/** …with at least this share at the edge itself. */
const MIN_MARGIN_SHARE = 0.25;

/**
 * A column has a left margin: half its rows start at one x, or most of them at one x or at an
 * indent of a few ems from it (a column of list items with hanging indents starts its rows at
 * three x positions). A river of spaces has the words right of it start anywhere.
 */
function sharesLeftEdge(rows: readonly (readonly Fragment[])[]): boolean {
  const starts = rows.map((fs) => Math.min(...fs.map((f) => f.x0)));
  const size = median(rows.flat().map((f) => f.fontSize));
  const tolerance = 0.5 * size;
  const at = (x: number) => starts.filter((y) => Math.abs(y - x) <= tolerance).length;
  const edge = leftEdge(starts, size);
  if (at(edge) >= MIN_LEFT_EDGE_SHARE * rows.length) return true;
  // Or at an indent from it that several rows share (an indent of one row is a river's chance).
  const indented = starts.filter((x) => Math.abs(x - edge) <= tolerance || (x > edge && x <= edge + INDENT_EMS * size && at(x) >= 2)).length;
  return at(edge) >= MIN_MARGIN_SHARE * rows.length && indented >= MIN_INDENTED_SHARE * rows.length;
}

/** Where the most of these starts lie within half an em of one another (the leftmost such place on a tie). */
function leftEdge(starts: readonly number[], size: number): number {
  const tolerance = 0.5 * size;
  let best = { x: starts[0]!, n: -1 };
  for (const x of [...starts].sort((a, b) => a - b)) {
    const n = starts.filter((y) => Math.abs(y - x) <= tolerance).length;
    if (n > best.n) best = { x, n };
  }
  return best.x;
}

/**
 * A side of a gutter reads as running text when its rows are as wide as a column of prose:
 * measured per row, from its first fragment to its last, so a reference list ("[Kar15] text")
 * or a hanging label still counts as the line of text it is.
 */
export function readsAsText(rows: readonly (readonly Fragment[])[]): boolean {
  if (rows.length === 0) return false;
  // Monospaced lines are a listing, a diagram or a plain-text document (an RFC): their columns
  // of characters are alignment, never columns of prose to read one after the other.
  if (rows.every((fs) => fs.every((f) => f.runs.every((r) => r.monospace)))) return false;
  const extents = rows.map((fs) => Math.max(...fs.map((f) => f.x1)) - Math.min(...fs.map((f) => f.x0))).sort((a, b) => a - b);
  const span = Math.max(...rows.flat().map((f) => f.x1)) - Math.min(...rows.flat().map((f) => f.x0));
  const sizes = rows.flat().map((f) => f.fontSize).sort((a, b) => a - b);
  const width = extents[Math.floor(extents.length / 2)]!;
  const size = sizes[Math.floor(sizes.length / 2)]!;
  return width >= MIN_TEXT_WIDTH_EMS * size && width >= MIN_TEXT_FILL * span;
}
