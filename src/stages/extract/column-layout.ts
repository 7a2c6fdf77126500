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
 * must read as running text (fragments as wide as a column of prose, not cells; a side may
 * itself be columns, as the two right-hand columns of a three-column page are), and the run
 * must be several rows tall. Blocks set on baselines of their own are read block by block even
 * when they are not prose (a CV's sidebar of short lines, a box under a column, an address
 * beside a letter's reference block); the run of a gutter ends at a band of white across the
 * page beyond which one side has nothing more. A strip with running text on one side only whose
 * rows pair with the other's on some baselines (a label column, a list beside prose) is not
 * split, and the page says `columns: "uncertain"` instead of guessing silently.
 */
import type { Line, TextRun } from "../../core/records.js";
import { leftToRight, maxOf, median, minOf, sortedIfNeeded } from "../../text/text-geometry.js";
import { buildLine, mainRun } from "./line-grouping.js";
import { isListMarker } from "../../text/list-markers.js";
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
  /** Indices of lines that start a new block: a column, or a band of the page (no table runs over one). */
  blockStarts: Set<number>;
  /** Most columns side by side anywhere on the page, or "uncertain". */
  columns: number | "uncertain";
  /** The gutters the page was cut at, each down the baselines of its rows (top, bottom). */
  gutters: Box[];
}

/** A rectangle in the text's frame: x left to right, y up (baselines). */
export interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** What orderRows learns and is told while it cuts a page. */
interface CutState {
  uncertain: boolean;
  /** Ruled grids (tables the page draws): no gutter runs through one. */
  grids: readonly Box[];
  gutters: Box[];
  /** What holdsColumns found for each side it was asked about (sideKey), for the whole page. */
  sides: SideAnswers;
}

/**
 * holdsColumns's answers, by the side's rows and the depth asked at: nearby candidate gutters of
 * a page leave the same side, and each question is a search of its own (about half of a dense
 * page's are asked again).
 */
interface SideAnswers {
  answers: Map<string, boolean>;
  /** A number per fragment of the page, for sideKey. */
  ids: Map<Fragment, number>;
}

export interface Fragment {
  runs: TextRun[];
  x0: number;
  x1: number;
  fontSize: number;
  /**
   * Its own word gaps (wordGapsInside), worked out the first time a candidate gutter asks: a
   * fragment is in many candidates' rows, and a field is read far quicker than a WeakMap.
   */
  wordGaps?: readonly WordGap[] | undefined;
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

/** The page as displayed, in points: a landscape page may be two pages printed side by side. */
export interface PageFrame {
  width: number;
  height: number;
}

export function orderByColumns(lines: readonly Line[], options: ColumnOptions, frame?: PageFrame, grids: readonly Box[] = []): ColumnOrder {
  const rows = lines.map((line) => ({ fragments: fragmentsOf(line.runs, options.gutterRatio), y: line.y }));
  const state: CutState = { uncertain: false, grids, gutters: [], sides: { answers: new Map(), ids: new Map() } };
  const halves = frame && frame.width > frame.height ? twoUpHalves(rows) : undefined;
  const parts = halves
    ? halves.flatMap((half, k) => orderRows(half, options, state).map((p, i) => (k === 1 && i === 0 ? { ...p, flowBreak: true } : p)))
    : orderRows(rows, options, state);
  const out: Line[] = [];
  const flowBreaks = new Set<number>();
  const blockStarts = new Set<number>();
  let columns = 1;
  for (const part of parts) {
    columns = Math.max(columns, part.columns);
    if (part.flowBreak && out.length > 0) flowBreaks.add(out.length);
    if (out.length > 0) blockStarts.add(out.length);
    for (const row of part.rows) out.push(buildLine(row.fragments.flatMap((f) => f.runs), options));
  }
  return { lines: out, flowBreaks, blockStarts, columns: state.uncertain && columns === 1 ? "uncertain" : columns, gutters: state.gutters };
}

/** A 2-up sheet's halves are this far from the middle of its text at most (a share of the text's width). */
const TWO_UP_MIDDLE_SHARE = 0.1;
/** The white strip between two pages printed side by side is at least this many ems wide. */
const TWO_UP_GAP_EMS = 2;

/**
 * The halves of a landscape sheet that holds two pages side by side (a report's spread, a
 * booklet's 2-up print): a strip that no row crosses, top to bottom, in the middle of the text.
 * Each half is a page of its own, read whole before the other, whatever its layout: two
 * statements facing each other share baselines and would be read across as one table.
 */
function twoUpHalves(rows: readonly Row[]): [Row[], Row[]] | undefined {
  const fragments = rows.flatMap((r) => r.fragments);
  if (fragments.length === 0) return undefined;
  const left = minOf(fragments, (f) => f.x0);
  const right = maxOf(fragments, (f) => f.x1);
  const middle = (left + right) / 2;
  const slack = TWO_UP_MIDDLE_SHARE * (right - left);
  const size = median(fragments.map((f) => f.fontSize));
  let best: { x0: number; x1: number } | undefined;
  let reach = -Infinity;
  for (const f of [...fragments].sort((a, b) => a.x0 - b.x0)) {
    if (reach > -Infinity && f.x0 - reach >= TWO_UP_GAP_EMS * size && reach <= middle + slack && f.x0 >= middle - slack) {
      if (!best || f.x0 - reach > best.x1 - best.x0) best = { x0: reach, x1: f.x0 };
    }
    reach = Math.max(reach, f.x1);
  }
  if (!best) return undefined;
  const side = (keep: (f: Fragment) => boolean) => rows.map((r) => ({ fragments: r.fragments.filter(keep), y: r.y })).filter((r) => r.fragments.length > 0);
  const halves: [Row[], Row[]] = [side((f) => f.x1 <= best!.x0), side((f) => f.x0 >= best!.x1)];
  return halves.every((h) => h.length >= MIN_ROWS_PER_SIDE) ? halves : undefined;
}

/**
 * Cuts a row's runs (left to right) wherever the gap is wider than `ratio` × font size, and
 * wherever a drawn rule runs between two runs (`cuts`: the x of the vertical rules through the
 * row, rulings.ts), however narrow the gap.
 */
export function fragmentsOf(runs: readonly TextRun[], ratio: number, cuts: readonly number[] = []): Fragment[] {
  const sorted = sortedIfNeeded(runs, leftToRight);
  const out: Fragment[] = [];
  for (const run of sorted) {
    const last = out[out.length - 1];
    const size = Math.max(run.fontSize, last?.fontSize ?? 0);
    if (last && run.x - last.x1 <= ratio * size && !ruledBetween(cuts, last.x1, run.x, size)) {
      last.runs.push(run);
      last.x1 = Math.max(last.x1, run.x + run.width);
      last.fontSize = Math.max(last.fontSize, run.fontSize);
    } else {
      out.push({ runs: [run], x0: run.x, x1: run.x + run.width, fontSize: run.fontSize, wordGaps: undefined });
    }
  }
  return out;
}

/** A glyph's box may overhang its advance a little: a rule this close (ems) inside a run's end still stands between it and the next. */
const RULE_OVERHANG_EMS = 0.15;

function ruledBetween(cuts: readonly number[], x0: number, x1: number, size: number): boolean {
  const slack = RULE_OVERHANG_EMS * size;
  return cuts.some((x) => x >= x0 - slack && x <= x1 + slack);
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

/**
 * Every gutter is made here, so all have one shape. A candidate's ends are read in the inner
 * loops of every test it is put to; gutters of several shapes (spread copies, literals of other
 * places) made those reads megamorphic, and each such read of a number boxes it anew: 3 MB of
 * garbage a read of a page of statistics in 25 columns, from sparseSide alone.
 */
function gutterOf(x0: number, x1: number, start: number, end: number): Gutter {
  return { x0, x1, start, end };
}

function orderRows(rows: Row[], options: ColumnOptions, state: CutState): Part[] {
  const nonEmpty = rows.filter((r) => r.fragments.length > 0);
  if (nonEmpty.length === 0) return [];
  const found = findGutter(nonEmpty, options, state);
  // Columns of running text are read down whatever their floats leave white across the page
  // (an abstract and a figure beside it ending at one height); anything else is first cut into
  // the bands the page leaves white across its width.
  if (found?.verdict !== "columns") {
    const bands = cutIntoBands(nonEmpty);
    if (bands.length > 1) return bands.flatMap((band) => orderRows(band, options, state));
  }
  const gutter = found;
  if (!gutter) return [{ rows: nonEmpty, flowBreak: false, columns: 1 }];
  state.gutters.push(gutterBox(nonEmpty, gutter));
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
 * The rows cut where a band of white runs across the whole width: an invoice's header, its
 * addresses and terms, its item table and its totals are regions of their own, read one after
 * the other, each with its own columns; a gutter found over all of them would read the item
 * descriptions under the addresses, and the amounts under the terms. Columns of running text
 * leave no such band between their lines (a paragraph gap in one column faces a line of the
 * other).
 */
function cutIntoBands(rows: readonly Row[]): Row[][] {
  if (rows.length < MIN_ROWS_PER_SIDE) return [rows.slice()];
  const gaps = rows.slice(1).map((row, i) => rows[i]!.y - row.y);
  const sorted = gaps.filter((g) => g > 0).sort((a, b) => a - b);
  // The smaller half's median: rows of two columns on baselines of their own stand half a pitch apart.
  const pitch = median(sorted.slice(0, Math.ceil(sorted.length / 2)));
  if (!(pitch > 0)) return [rows.slice()];
  const size = (row: Row) => Math.max(...row.fragments.map((f) => f.fontSize));
  const bands: Row[][] = [[rows[0]!]];
  gaps.forEach((gap, i) => {
    // Three columns on baselines of their own stand a third of a pitch apart: the band must
    // also be wider than a heading's space above it, in ems of the text around it.
    if (gap >= BAND_PITCHES * pitch && gap >= BAND_EMS * Math.max(size(rows[i]!), size(rows[i + 1]!))) bands.push([]);
    bands[bands.length - 1]!.push(rows[i + 1]!);
  });
  return bands;
}

/** A band of white across the page is at least this many ems of the text on either side of it. */
const BAND_EMS = 3;

/**
 * The gutter with the tallest run of rows that passes the tests, if any. Candidates are the wide
 * gaps between the fragments of each row and of each pair of neighbouring rows, so columns whose
 * baselines do not line up (every row holding one side only) are found too.
 */
function findGutter(
  rows: Row[],
  options: ColumnOptions,
  state: CutState,
  depth = 0,
  /** Any gutter that passes will do (a side asking whether it holds columns), not the tallest. */
  any = false,
): (Gutter & { verdict: "columns" | "blocks" }) | undefined {
  let best: (Gutter & { verdict: "columns" | "blocks" }) | undefined;
  const tried = new Set<string>();
  // A strip inside a table the page draws parts its cells, not columns: the run stops at it.
  const candidateOf = (strip: Gutter) => (state.grids.length ? beside(rows, strip, state.grids) : strip);
  const keyOf = (candidate: Gutter) => `${candidate.start}:${candidate.end}:${Math.round(candidate.x0)}`;
  // Strips left untrimmed (sparseSide), in the order they were grown: each would have been tried, with no verdict.
  let untried: Gutter[] = [];
  // Inside a side only columns of text pass, and each reads as text only that wide (readsAsText,
  // holdsColumns): a strip leaving less room on a side is "none" without a judge, which would build both sides.
  const room = depth > 0 ? roomForTextColumns(rows) : () => true;
  const consider = (strip: Gutter) => {
    const candidate = candidateOf(strip);
    if (!candidate) return;
    const key = keyOf(candidate);
    const x0 = Math.round(candidate.x0);
    if (untried.some((u) => Math.round(u.x0) === x0)) {
      untried = untried.filter((u) => {
        if (Math.round(u.x0) !== x0) return true;
        const tiedTo = candidateOf(trimRunEnds(rows, u));
        if (tiedTo) tried.add(keyOf(tiedTo));
        return false;
      });
    }
    if (tried.has(key)) return;
    tried.add(key);
    const verdict = !room(candidate) ? "none" : judge(rows, candidate, options, depth, state.grids, state.sides);
    if (verdict === "uncertain") state.uncertain = true;
    // Columns of text before blocks; the tallest run of either.
    const better = !best || (verdict === "columns" && best.verdict === "blocks") || (verdict === best.verdict && candidate.end - candidate.start > best.end - best.start);
    if ((verdict === "columns" || verdict === "blocks") && better) best = { ...candidate, verdict };
  };
  // Every row of a tall gutter grows the same strip: it is trimmed and judged once.
  const grown = new Map<number, Map<number, Set<number>>>();
  const isNew = (strip: Gutter) => {
    const run = strip.start * (rows.length + 1) + strip.end;
    let byX0 = grown.get(run);
    if (!byX0) grown.set(run, (byX0 = new Map()));
    let x1s = byX0.get(strip.x0);
    if (!x1s) byX0.set(strip.x0, (x1s = new Set()));
    return x1s.size < x1s.add(strip.x1).size;
  };
  const minWidths = rows.map((row) => options.gutterRatio * 0.5 * Math.max(...row.fragments.map((f) => f.fontSize)));
  const grow = stripGrower(rows, minWidths);
  for (let r = 0; r < rows.length && !(any && best); r++) {
    const window = mergedByX0(rows[r]!.fragments, rows[r + 1]?.fragments ?? []);
    let reach = -Infinity;
    let size = 0;
    for (const f of window) {
      if (any && best) break;
      if (reach > -Infinity && f.x0 - reach > options.gutterRatio * Math.max(size, f.fontSize)) {
        const strip = grow(r, reach, f.x0);
        if (isNew(strip)) {
          // A strip with too few rows on a side is judged "none" however its run is trimmed: it
          // is trimmed only when a candidate at its x0 must know whether it was tried first.
          if (sparseSide(rows, strip)) untried.push(strip);
          else consider(trimRunEnds(rows, strip));
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

/**
 * Whether a strip leaves room on both sides for a column of text, from the rows' leftmost start
 * and to their rightmost end (textExtent).
 */
function roomForTextColumns(rows: readonly Row[]): (g: { x0: number; x1: number }) => boolean {
  const { x0, x1, size } = textExtent(rows);
  const least = leastTextWidth(1, size);
  // Written to let a strip through when a size is not a number: the judge decides those.
  return (g) => !(g.x0 - x0 < least) && !(x1 - g.x1 < least);
}

/** The rows' leftmost start, rightmost end and smallest type: what bounds the columns of text they may hold. */
function textExtent(rows: readonly Row[]): { x0: number; x1: number; size: number } {
  let x0 = Infinity;
  let x1 = -Infinity;
  let size = Infinity;
  for (const row of rows) {
    for (const f of row.fragments) {
      x0 = Math.min(x0, f.x0);
      x1 = Math.max(x1, f.x1);
      size = Math.min(size, f.fontSize);
    }
  }
  return { x0, x1, size };
}

/**
 * The least width of `columns` columns of text in type of `size`: each reads as text only
 * MIN_TEXT_WIDTH_EMS of its type wide (readsAsText). Taken a hair short, so rounding never turns
 * away rows that could pass.
 */
function leastTextWidth(columns: number, size: number): number {
  return 0.999 * columns * MIN_TEXT_WIDTH_EMS * size;
}

/**
 * Two rows' fragments in one list by x0: what a stable sort of the first row's then the second's
 * gives. Each row's fragments stand in x0 order (fragmentsOf; a side keeps a row's in order), so
 * the two are merged, every row of a page, instead of sorted; rows out of order, or an x0 that is
 * NaN (which a sort places its own way), are sorted as before.
 */
function mergedByX0(a: readonly Fragment[], b: readonly Fragment[]): Fragment[] {
  const out: Fragment[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && !(b[j]!.x0 < a[i]!.x0)) ? a[i++]! : b[j++]!;
    const last = out[out.length - 1];
    if (next.x0 !== next.x0 || (last && !(last.x0 <= next.x0))) return [...a, ...b].sort((p, q) => p.x0 - q.x0);
    out.push(next);
  }
  return out;
}

/**
 * Fewer than MIN_ROWS_PER_SIDE of the strip's rows hold text left of it, or right of it: judge's
 * first test, which no shorter run of the same strip passes either.
 */
function sparseSide(rows: readonly Row[], g: Gutter): boolean {
  let left = 0;
  let right = 0;
  // Loops, not closures: every candidate of a page asks this (judge's first test too).
  for (let i = g.start; i < g.end; i++) {
    const fragments = rows[i]!.fragments;
    let holdsLeft = false;
    let holdsRight = false;
    for (let k = 0; k < fragments.length; k++) {
      const f = fragments[k]!;
      if (f.x1 <= g.x0) holdsLeft = true;
      if (f.x0 >= g.x1) holdsRight = true;
    }
    if (holdsLeft) left++;
    if (holdsRight) right++;
  }
  return left < MIN_ROWS_PER_SIDE || right < MIN_ROWS_PER_SIDE;
}

/**
 * The longer part of a gutter's run above or below the ruled grids it runs through (a table
 * drawn across the page under two columns of text), or undefined when none is left.
 */
function beside(rows: readonly Row[], g: Gutter, grids: readonly Box[]): Gutter | undefined {
  let run: Gutter = g;
  for (;;) {
    const box = gutterBox(rows, run);
    const grid = grids.find((b) => crossesGrid(box, b));
    if (!grid) return run;
    let above = run.start;
    while (above < run.end && rows[above]!.y > grid.y1) above++;
    let below = run.end;
    while (below > run.start && rows[below - 1]!.y < grid.y0) below--;
    const next: Gutter = above - run.start >= run.end - below ? gutterOf(run.x0, run.x1, run.start, above) : gutterOf(run.x0, run.x1, below, run.end);
    if (next.end <= next.start) return undefined;
    run = next;
  }
}

/** A gutter's strip down the baselines of its rows. */
function gutterBox(rows: readonly Row[], g: Gutter): Box {
  return { x0: g.x0, x1: g.x1, y0: rows[g.end - 1]!.y, y1: rows[g.start]!.y };
}

/** The strip runs inside the grid's width, down some of its height. */
export function crossesGrid(strip: Box, grid: Box): boolean {
  return strip.x0 > grid.x0 && strip.x1 < grid.x1 && strip.y0 < grid.y1 && strip.y1 > grid.y0;
}

/**
 * Text level with the grid and outside it, on a line of its own or of the grid's rows: the page
 * was read without the grid's border, and is read again with it.
 */
export function textBeside(lines: readonly Line[], grid: Box): boolean {
  return lines.some((line) => line.y >= grid.y0 && line.y <= grid.y1 && line.runs.some((r) => r.x >= grid.x1 + GRID_EDGE_SLACK || r.x + r.width <= grid.x0 - GRID_EDGE_SLACK));
}

/** A grid's side rule may stand this far (points) into the strip's text: the white beside it starts at the rule. */
const GRID_EDGE_SLACK = 2;

/** The strip runs down beside the grid, along its left or right border, level with some of its height. */
function bordersGrid(strip: Box, grid: Box): boolean {
  const along = (x: number) => x >= strip.x0 - GRID_EDGE_SLACK && x <= strip.x1 + GRID_EDGE_SLACK;
  return (along(grid.x0) || along(grid.x1)) && strip.y0 < grid.y1 && strip.y1 > grid.y0;
}

/**
 * Extends a free strip up and down from row r while it stays wide enough to be a gutter:
 * `minWidths[i]` for row i (half a gutter in its largest type). Down first, then up with the
 * strip as the rows below left it.
 *
 * Every row of a tall gutter grows it again, and after a few rows the walks meet in the same
 * strip at the same row: where a walk goes on from there is remembered, per row and strip
 * (`below`, `above`), so a page's walks cost about its rows, not rows × rows. Every strip is
 * remembered: a dense table has a gutter between each two of its twenty columns, and a walk
 * that finds its strip forgotten goes on to the end of the table (issue 33).
 */
function stripGrower(rows: readonly Row[], minWidths: readonly number[]): (r: number, x0: number, x1: number) => Gutter {
  type Walked = { to: number; x0: number; x1: number };
  /**
   * Per row, by the strip's x0, where a walk from that row with that strip ends: a chain by x1,
   * almost always of one (a Map per x0 cost most of the walks' time and garbage).
   */
  type Seen = Map<number, SeenStrip<Walked>>;
  // Made for a row when a walk first passes it: most of a page's searches (a side, a band) walk few rows.
  const below: (Seen | undefined)[] = [];
  const above: (Seen | undefined)[] = [];
  // The rows a walk passed and the strip at each, three numbers a row (one walk at a time): its
  // first `passed` numbers. Never emptied by setting its length, which gives up its storage.
  const path: number[] = [];
  let passed = 0;
  const walk = (memo: (Seen | undefined)[], from: number, step: 1 | -1, x0: number, x1: number): Walked => {
    passed = 0;
    // Narrowed in place, row by row: a walk makes one strip, not one a row.
    const strip = { x0, x1 };
    let i = from;
    let found: Walked | undefined;
    for (; i >= 0 && i < rows.length; i += step) {
      found = seenAt(memo[i], strip.x0, strip.x1);
      if (found) break;
      path[passed++] = i;
      path[passed++] = strip.x0;
      path[passed++] = strip.x1;
      if (!narrowed(strip, rows[i]!, minWidths[i]!)) break;
    }
    // `to` is the first row the strip did not pass (past the end: the page's edge).
    const walked = found ?? { to: i, x0: strip.x0, x1: strip.x1 };
    for (let k = 0; k < passed; k += 3) {
      const byX0 = (memo[path[k]!] ??= new Map());
      const x0 = path[k + 1]!;
      const x1 = path[k + 2]!;
      // The walk looked each strip up before passing it; the first answer for a strip stays all the same.
      if (seenAt(byX0, x0, x1) === undefined) byX0.set(x0, { x1, value: walked, next: byX0.get(x0) });
    }
    return walked;
  };
  return (r, x0, x1) => {
    const down = walk(below, r + 1, 1, x0, x1);
    const up = walk(above, r - 1, -1, down.x0, down.x1);
    return gutterOf(up.x0, up.x1, up.to + 1, down.to);
  };
}

/** A remembered strip's x1 and what it leads to, and the strip remembered before it at the same x0. */
interface SeenStrip<T> {
  x1: number;
  value: T;
  next: SeenStrip<T> | undefined;
}

/** What is remembered for the strip (x0, x1), its ends compared as a Map compares keys (SameValueZero). */
function seenAt<T>(byX0: Map<number, SeenStrip<T>> | undefined, x0: number, x1: number): T | undefined {
  for (let e = byX0?.get(x0); e; e = e.next) if (e.x1 === x1 || (e.x1 !== e.x1 && x1 !== x1)) return e.value;
  return undefined;
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
  // The fragments right of the strip, in one pass over the run (every new strip of a page is
  // trimmed): their sizes, each row's start and end there, and the rightmost end of all.
  const sizes: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let margin = -Infinity;
  for (let i = g.start; i < g.end; i++) {
    let x0 = Infinity;
    let x1 = -Infinity;
    let held = false;
    for (const f of rows[i]!.fragments) {
      if (!(f.x0 >= g.x1)) continue;
      held = true;
      sizes.push(f.fontSize);
      x0 = Math.min(x0, f.x0);
      x1 = Math.max(x1, f.x1);
      margin = Math.max(margin, f.x1);
    }
    if (held) {
      starts.push(x0);
      ends.push(x1);
    }
  }
  if (sizes.length === 0) return g;
  const size = median(sizes);
  const edge = leftEdge(starts, size);
  // Asked for only when a row at an end of the run might go (most runs keep both ends).
  const pitch = once(() => {
    const run = rows.slice(g.start, g.end);
    return median(run.slice(1).map((row, i) => run[i]!.y - row.y).filter((d) => d > 0));
  });
  // A block set flush right ends every row at the margin: none of them is a running header.
  const flush = once(() => setFlushRight(ends, starts, size, edge));
  const spans = (i: number) => {
    const right = rows[i]!.fragments.filter((f) => f.x0 >= g.x1);
    if (right.length === 0) return false;
    const x0 = Math.min(...right.map((f) => f.x0));
    const x1 = Math.max(...right.map((f) => f.x1));
    return x0 > edge + INDENT_EMS * size && margin - x1 <= size && !flush();
  };
  const standsApart = (row: Row, neighbour: Row | undefined) =>
    neighbour !== undefined &&
    row.fragments.every((f) => f.x1 - f.x0 < MARK_EMS * f.fontSize) &&
    Math.abs(row.y - neighbour.y) > APART_PITCHES * pitch();
  let { start, end } = g;
  while (start < end && (spans(start) || standsApart(rows[start]!, rows[start + 1]))) start++;
  while (end > start && (spans(end - 1) || standsApart(rows[end - 1]!, rows[end - 2]))) end--;
  return cutAtBand(rows, gutterOf(g.x0, g.x1, start, end));
}

/** A value worked out the first time it is asked for. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * A band of white this many times the larger of the two sides' line pitches, across the whole
 * width, where one side has ended (or not yet begun): what lies beyond it is below (or above)
 * both blocks, not more of one column. A column's paragraph gaps and the space before its
 * headings stay under it; the gap between a letter's address and reference blocks and its body
 * (4.4 pitches) does not.
 */
const BAND_PITCHES = 3;

/**
 * Ends the run at such a band: the reference block beside a letter's address ends well above
 * the letter's body, which goes on below the address on the left; read inside the columns, the
 * reference block would come after the whole letter.
 */
function cutAtBand(rows: readonly Row[], g: Gutter): Gutter {
  const holds = (row: Row, side: number) => row.fragments.some((f) => (side === 0 ? f.x1 <= g.x0 : f.x0 >= g.x1));
  const pitchOf = (side: number) => {
    const ys = rows.slice(g.start, g.end).filter((row) => holds(row, side)).map((row) => row.y);
    // The smaller half's median: a letter's one-line paragraphs leave as many paragraph gaps as line gaps.
    const gaps = ys.slice(1).map((y, i) => ys[i]! - y).filter((d) => d > 0).sort((a, b) => a - b);
    return median(gaps.slice(0, Math.ceil(gaps.length / 2)));
  };
  // Measured only when a row holding one side only is looked past (most runs hold both sides at their ends).
  const band = once(() => BAND_PITCHES * Math.max(pitchOf(0), pitchOf(1)));
  let { start, end } = g;
  for (const side of [0, 1]) {
    // After the last row holding this side, the first band across the page ends the run…
    let last = end - 1;
    while (last > start && !holds(rows[last]!, side)) last--;
    for (let i = last + 1; i < end; i++) {
      if (!(band() > 0)) return g;
      if (rows[i - 1]!.y - rows[i]!.y >= band()) {
        end = i;
        break;
      }
    }
    // …and before the first one, the last band starts it.
    let first = start;
    while (first < end - 1 && !holds(rows[first]!, side)) first++;
    for (let i = first; i > start; i--) {
      if (!(band() > 0)) return g;
      if (rows[i - 1]!.y - rows[i]!.y >= band()) {
        start = i;
        break;
      }
    }
  }
  return gutterOf(g.x0, g.x1, start, end);
}

/** A row this many times the run's usual distance between rows away from the next stands apart… */
const APART_PITCHES = 2;
/** …and is a mark, not a line of a column, when each of its pieces is narrower than this many ems. */
const MARK_EMS = 3;

/**
 * Narrows the strip to what the row leaves of it: a fragment reaching in from one side narrows
 * it; one standing inside it (a page number centred on the gutter, a caption across it) ends the
 * run, and so does a strip left narrower than `minWidth`. False, the strip as it was, when the
 * run ends at the row.
 */
function narrowed(strip: { x0: number; x1: number }, row: Row, minWidth: number): boolean {
  let { x0, x1 } = strip;
  for (const f of row.fragments) {
    if (f.x1 <= x0 || f.x0 >= x1) continue;
    if (f.x0 <= x0 && f.x1 < x1) x0 = f.x1;
    else if (f.x1 >= x1 && f.x0 > x0) x1 = f.x0;
    else return false;
  }
  if (!(x1 > x0) || x1 - x0 < minWidth) return false;
  strip.x0 = x0;
  strip.x1 = x1;
  return true;
}

/**
 * `columns`: running text on both sides; `blocks`: blocks on both sides, each to be read whole
 * (a sidebar, an address beside a reference block, labelled blocks, a table beside a paragraph).
 */
type Verdict = "columns" | "blocks" | "uncertain" | "none";

function judge(rows: Row[], g: Gutter, options: ColumnOptions, depth: number, grids: readonly Box[], sides: SideAnswers): Verdict {
  if (sparseSide(rows, g)) return "none";
  const section = rows.slice(g.start, g.end);
  // A gutter is wider than the gaps between words around it; a river of spaces down a page
  // whose words are drawn one by one (an OCR layer) is not.
  // A table the page draws ends at its border, whatever white its cells leave between words.
  const strip = gutterBox(rows, g);
  const besideGrid = grids.some((grid) => bordersGrid(strip, grid));
  if (!besideGrid && narrowerThanWordGaps(section, g, GUTTER_OVER_WORD_GAP)) return "none";
  // The sides are made only for a candidate past those two tests (most are not).
  const sideRows = (keep: (f: Fragment) => boolean) => section.map((r) => ({ fragments: r.fragments.filter(keep), y: r.y })).filter((r) => r.fragments.length > 0);
  const leftRows = sideRows((f) => f.x1 <= g.x0);
  const rightRows = sideRows((f) => f.x0 >= g.x1);
  const left = leftRows.map((r) => r.fragments);
  const right = rightRows.map((r) => r.fragments);
  // A side that holds columns of its own (the two right columns of a three-column page, each
  // row holding one of them or both) reads as text when its columns do.
  const holdsOwnColumns = (side: Row[]) => depth < MAX_NESTED_COLUMNS && holdsColumns(side, options, depth + 1, sides);
  // Rows that hold both sides on one baseline, against the side with fewer rows: a table's
  // cells, a label beside its paragraph and a list's markers pair with the other side nearly
  // always; a sidebar, a box or a column set on its own leading seldom does.
  const both = rowsOnOneBaseline(section, g);
  const independent = both < INDEPENDENT_ROWS_SHARE * Math.min(left.length, right.length);
  // What stands beside a drawn table is a block of its own (a chart's labels, a note), however
  // it is aligned, unless it pairs with most of the table's rows (a label column the rules
  // leave open); a chart's labels fall level with a few rows by chance.
  if (besideGrid && both < INDEPENDENT_ROWS_SHARE * Math.max(left.length, right.length)) return "blocks";
  // A column has a left margin: most rows right of a gutter start at one x. A river of spaces
  // down justified text (or between the words of an OCR layer) has text starting anywhere. A
  // block of label/value rows on baselines of its own may be set flush right (an invoice's
  // dates and terms beside its addresses).
  if (!sharesLeftEdge(right) && !(independent && isTableBlock(right))) return "none";
  // Blocks side by side on shared baselines, each under a label of its own ("Bill To:" beside
  // "Ship To:") are read block by block.
  if (depth === 0 && !independent && labelledBlocks(section, g)) return "blocks";
  // A column of text runs up to its gutter (justified, or ragged by a word at most); a table's
  // first column of cells ends wherever each cell's text does. A sidebar on its own baselines
  // may be ragged (a list of courses beside a column of experience).
  if (!independent && !reachesGutter(left, g.x0)) return "none";
  // Whether each side reads as text: the quick way first, and a side's own columns (a search of
  // their own, most of a dense page's time) looked for only when the verdict turns on them.
  const leftReads = readsAsText(left);
  const rightReads = readsAsText(right);
  const leftText = once(() => leftReads || holdsOwnColumns(leftRows));
  const rightText = once(() => rightReads || holdsOwnColumns(rightRows));
  if (leftText() && rightText()) return "columns";
  // Inside a side, only columns of text make it text: blocks and tables do not.
  if (depth > 0) return "none";
  // Bullets or numbers beside text are a list.
  if (left.flat().every((f) => isListMarker(f.runs.map((r) => r.text).join("")))) return "none";
  // Blocks on baselines of their own (an address beside a reference block, a sidebar or a box
  // beside a column, a table beside a paragraph) are each read whole.
  // A side set flush right is labels that go with the rows beside it, unless it reads as text
  // (justified, its references hanging) or is a table of its own (amounts right-aligned).
  const ownBlock = (rows: readonly (readonly Fragment[])[], text: () => boolean) => !flushRight(rows) || isTableBlock(rows) || text();
  if (independent && sharesLeftEdge(left) && ownBlock(left, leftText) && ownBlock(right, rightText)) return "blocks";
  // Rows that nearly all hold both sides on one baseline are a table's or a list's rows (tables
  // and lists are found later); a narrow column beside prose flows on its own baselines.
  if (both >= ROW_STRUCTURED_SHARE * section.length) return "none";
  return leftText() || rightText() ? "uncertain" : "none";
}

/**
 * Parts of a row typeset on one line share a baseline, or stand as far apart as in every other
 * row, to this × font size: a table's values set 0.4 pt under their label at 10 pt, or all its
 * numbers 2.8 pt above their labels. Lines of two blocks grouped into one row because their
 * baselines fall within the line tolerance stand apart by anything up to it: a table's 8.5 pt
 * rows beside a column's 12 pt lines meet within 1.4 pt one time in three.
 */
const SHARED_BASELINE_EMS = 0.15;

/** Rows holding text on both sides of the gutter whose two parts beside it stand as such parts do in most rows. */
function rowsOnOneBaseline(section: readonly Row[], g: Gutter): number {
  const steps: { step: number; size: number }[] = [];
  for (const row of section) {
    let left: Fragment | undefined;
    let right: Fragment | undefined;
    for (const f of row.fragments) {
      if (f.x1 <= g.x0 && (!left || f.x1 > left.x1)) left = f;
      if (f.x0 >= g.x1 && (!right || f.x0 < right.x0)) right = f;
    }
    if (left && right) steps.push({ step: mainRun(left.runs).y - mainRun(right.runs).y, size: Math.max(left.fontSize, right.fontSize) });
  }
  const usual = median(steps.map((s) => s.step));
  return steps.filter((s) => Math.abs(s.step - usual) <= SHARED_BASELINE_EMS * s.size).length;
}


/**
 * Under this share of the sparser side's rows on a baseline of the other side, the two sides
 * are set independently. Two columns of one text share every baseline or none; a table's or a
 * label column's rows pair with the other side's nearly always; a CV's sidebar of short lines
 * beside its main column shares 1 baseline in 8.
 */
const INDEPENDENT_ROWS_SHARE = 0.5;

/** Columns inside a side of a gutter that are looked for, at most (three levels: up to eight columns). */
const MAX_NESTED_COLUMNS = 2;

/**
 * A side of a gutter holds columns of text of its own (judged at `depth`, where only columns
 * pass). Each such column reads as text, so is MIN_TEXT_WIDTH_EMS of its type wide at least: a
 * side narrower than two of them in its smallest type holds none, and is not searched.
 */
function holdsColumns(side: Row[], options: ColumnOptions, depth: number, sides: SideAnswers): boolean {
  const { x0, x1, size } = textExtent(side);
  if (x1 - x0 < leastTextWidth(2, size)) return false;
  const key = sideKey(side, depth, sides.ids);
  let answer = sides.answers.get(key);
  if (answer === undefined) {
    // Nothing outside this search reads its state but the answers: a throwaway one, and the first gutter found will do.
    answer = findGutter(side, options, { uncertain: false, grids: [], gutters: [], sides }, depth, true) !== undefined;
    sides.answers.set(key, answer);
  }
  return answer;
}

/** A side by what decides holdsColumns's answer: the depth, and each row's baseline and fragments. */
function sideKey(side: readonly Row[], depth: number, ids: Map<Fragment, number>): string {
  let key = `${depth}`;
  for (const row of side) {
    key += `|${row.y}`;
    for (const f of row.fragments) {
      let id = ids.get(f);
      if (id === undefined) ids.set(f, (id = ids.size));
      key += `,${id}`;
    }
  }
  return key;
}

/** How many times the typical gap between words a gutter must be: a loose justified line stretches its gaps about this far. */
const GUTTER_OVER_WORD_GAP = 1.5;

/**
 * Whether the strip is narrower than `ratio` × the typical gap between words in its rows (their
 * median by count): a space inside a run counts as a gap of about a third of an em (0.6 × the
 * run's average character width), a gap between runs as itself. Every candidate strip asks it of
 * its rows, so the gaps are counted in one pass, not sorted: sorted, the gaps the strip is not
 * narrower than `ratio` times come first, and the median is past them when they count half or less.
 */
export function narrowerThanWordGaps(rows: readonly { fragments: readonly Fragment[] }[], g: { x0: number; x1: number }, ratio: number): boolean {
  const width = g.x1 - g.x0;
  // Each gap counts as many times as it stands (a run's spaces are one gap repeated).
  let count = 0;
  let passed = 0;
  // Indexed loops: every candidate strip that gets this far asks it of all its rows.
  for (let r = 0; r < rows.length; r++) {
    const fragments = rows[r]!.fragments;
    // A row's fragments hold its runs left to right (fragmentsOf), and so do the pieces of them a side keeps.
    let prev: TextRun | undefined;
    for (let k = 0; k < fragments.length; k++) {
      const f = fragments[k]!;
      const gaps = wordGapsInside(f);
      for (let j = 0; j < gaps.length; j++) {
        const { gap, count: n } = gaps[j]!;
        count += n;
        if (!(width < ratio * gap)) passed += n;
      }
      const run = f.runs[0]!;
      if (prev) {
        const from = prev.x + prev.width;
        if (run.x > from && (run.x <= g.x0 || from >= g.x1)) {
          count++;
          if (!(width < ratio * (run.x - from))) passed++;
        }
      }
      prev = f.runs[f.runs.length - 1];
    }
  }
  return count > 0 && passed <= count >> 1;
}

/** A gap between words, and how many times it counts. */
interface WordGap {
  gap: number;
  count: number;
}

/**
 * The word gaps inside a fragment: its runs' spaces, and the gaps between its runs. A gutter's
 * rows hold every fragment wholly on one side of it, so these count for any gutter.
 */
function wordGapsInside(f: Fragment): readonly WordGap[] {
  if (f.wordGaps) return f.wordGaps;
  // A loop, not a closure: V8 makes a function's context for its closures on every call, before
  // any early return, and this is called for each fragment of each row every candidate asks
  // about (a page of statistics in 25 columns: about 116,000 calls a read, nearly all answered
  // by the line above).
  const found: WordGap[] = [];
  const { runs } = f;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    const spaces = run.text.trim().split(/\s+/).length - 1;
    if (spaces > 0) found.push({ gap: (0.6 * run.width) / run.text.length, count: spaces });
    if (i === 0) continue;
    const from = runs[i - 1]!.x + runs[i - 1]!.width;
    if (run.x > from) found.push({ gap: run.x - from, count: 1 });
  }
  return (f.wordGaps = found);
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

/** Share of a side's rows holding two fragments or more (a label and its value) for it to be a table. */
const TABLE_BLOCK_SHARE = 0.6;

/** A side whose rows mostly hold cells: a table or a block of label/value rows. */
function isTableBlock(rows: readonly (readonly Fragment[])[]): boolean {
  return rows.filter((fs) => fs.length >= 2).length >= TABLE_BLOCK_SHARE * rows.length;
}

const LABEL_END = /:\s*$/u;

/**
 * The first row holding both sides is a label on each ("Bill To:", "Ship To:"), and no other
 * row of either side ends with a colon: a block under each label, not a table whose rows pair
 * a label with its value.
 */
function labelledBlocks(section: readonly Row[], g: Gutter): boolean {
  const text = (fs: readonly Fragment[]) => fs.map((f) => f.runs.map((r) => r.text).join(" ")).join(" ");
  const sides = (row: Row) => [row.fragments.filter((f) => f.x1 <= g.x0), row.fragments.filter((f) => f.x0 >= g.x1)];
  const first = section.findIndex((row) => sides(row).every((fs) => fs.length > 0));
  if (first < 0) return false;
  if (!sides(section[first]!).every((fs) => LABEL_END.test(text(fs)))) return false;
  return section.every((row, i) => i === first || sides(row).every((fs) => fs.length === 0 || !LABEL_END.test(text(fs))));
}

/** Share of a side's rows that must end at its right edge for it to be set flush right. */
const FLUSH_RIGHT_SHARE = 0.8;

/**
 * A side set flush right, its rows starting wherever their text makes them (a party's role at
 * the right margin of a judgment's heading, amounts right-aligned in a column): labels that go
 * with the rows beside them, not a block of its own to read after them.
 */
function flushRight(rows: readonly (readonly Fragment[])[]): boolean {
  const starts = rows.map((fs) => Math.min(...fs.map((f) => f.x0)));
  const size = median(rows.flat().map((f) => f.fontSize));
  return setFlushRight(rows.map((fs) => Math.max(...fs.map((f) => f.x1))), starts, size, leftEdge(starts, size));
}

/** flushRight from its rows' ends and starts, their median font size and the starts' leftEdge. */
function setFlushRight(ends: readonly number[], starts: readonly number[], size: number, edge: number): boolean {
  const right = maxOf(ends);
  const atRight = ends.filter((x) => right - x <= 0.5 * size).length;
  const atLeft = starts.filter((x) => Math.abs(x - edge) <= 0.5 * size).length;
  // Justified text is flush on both sides: it is a column, set flush left.
  return atRight >= FLUSH_RIGHT_SHARE * ends.length && atLeft < MIN_LEFT_EDGE_SHARE * ends.length;
}

/** Where the most of these starts lie within half an em of one another (the leftmost such place on a tie). */
function leftEdge(starts: readonly number[], size: number): number {
  const tolerance = 0.5 * size;
  const xs = [...starts].sort((a, b) => a - b);
  let bestX = starts[0]!;
  let bestN = -1;
  // The starts within the tolerance of xs[i] are xs[lo..hi), a window that only moves right.
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    while (x - xs[lo]! > tolerance) lo++;
    while (hi < xs.length && xs[hi]! - x <= tolerance) hi++;
    if (hi - lo > bestN) {
      bestX = x;
      bestN = hi - lo;
    }
  }
  return bestX;
}

/** Share of a row's extent its widest fragment must hold for the row to count as one line of text. */
const MAIN_FRAGMENT_SHARE = 0.5;

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
  // A row of cells ("Justificatif PDF" … "1") is no line of prose however far its cells reach:
  // a row counts its whole extent only when one fragment holds most of it. (Every side of every
  // candidate gutter is asked this: loops, where maps and spreads made most of a dense page's garbage.)
  const extents: number[] = [];
  const sizes: number[] = [];
  let left = Infinity;
  let right = -Infinity;
  for (const fs of rows) {
    let x0 = Infinity;
    let x1 = -Infinity;
    let widest = -Infinity;
    for (const f of fs) {
      x0 = Math.min(x0, f.x0);
      x1 = Math.max(x1, f.x1);
      widest = Math.max(widest, f.x1 - f.x0);
      sizes.push(f.fontSize);
    }
    const extent = x1 - x0;
    extents.push(widest >= MAIN_FRAGMENT_SHARE * extent ? extent : widest);
    left = Math.min(left, x0);
    right = Math.max(right, x1);
  }
  extents.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  const span = right - left;
  const width = extents[Math.floor(extents.length / 2)]!;
  const size = sizes[Math.floor(sizes.length / 2)]!;
  return width >= MIN_TEXT_WIDTH_EMS * size && width >= MIN_TEXT_FILL * span;
}
