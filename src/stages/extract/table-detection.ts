/**
 * Tables on untagged pages (docs/extraction.md §4.4). A PDF table is text at coordinates; what survives is
 * alignment. Consecutive lines that break into two or more fragments at wide gaps are a
 * candidate; its columns are the white strips that run down its rows (table-columns.ts), so a
 * year centred over two sub-columns, a column most rows leave empty and dense numbers set a word
 * space apart all come out in their own cells. Each row becomes one line whose cells are
 * separated by a tab, an empty cell kept empty (values never shift left); a line under a row
 * that goes on with a word a cell broke, or that sits closer under it than rows stand to each
 * other, is that row's cells wrapping, joined to them.
 */
import { textLine, type Line, type TextRun } from "../../core/records.js";
import { runsExtent } from "../../text/page-boxes.js";
import { leftToRight, maxOf, median, minOf, sortedIfNeeded } from "../../text/text-geometry.js";
import { fragmentsOf, readsAsText } from "./column-layout.js";
import { buildLine } from "./line-grouping.js";
import { isListMarker } from "../../text/list-markers.js";
import { runWords } from "./run-words.js";
import { columnsAmongRules, isNumber, rowCells, whiteColumns, type RowCache, type WhiteColumns } from "./table-columns.js";
import type { Interval } from "./row-extents.js";
import { breaksWordBefore } from "../../text/word-breaks.js";
import { joinRuns, type SpacingOptions } from "./word-spacing.js";
import { hasRightToLeft, isRightToLeft } from "./reading-direction.js";
import { joinCellLines } from "../../text/line-join.js";
import { NO_TABLE_RULINGS, type RuledRegion, type Rule, type TableRulings } from "./rulings.js";
import { cutAtRules, lineCuts, regionOfLine, ruleBetweenLines } from "./ruled-lines.js";

export interface TableOptions extends SpacingOptions {
  /** The gap (× font size) that separates cells; the same that separates columns. */
  gutterRatio: number;
}

export interface TableRange {
  /** The table's rows, one line each, replacing lines[start..end). */
  readonly rows: Line[];
  /** Some row passes the test: the rows are made in order until one does, the rest not at all. */
  someRow(test: (row: Line) => boolean): boolean;
  start: number;
  end: number;
}

/** A table whose rows are made when first asked for (a page read without rules only asks whether it has a table). */
function tableRange(start: number, end: number, count: number, row: (k: number) => Line): TableRange {
  const made: Line[] = [];
  const at = (k: number) => (made[k] ??= row(k));
  return {
    start,
    end,
    get rows() {
      return Array.from({ length: count }, (_, k) => at(k));
    },
    someRow(test) {
      for (let k = 0; k < count; k++) if (test(at(k))) return true;
      return false;
    },
  };
}

/**
 * A piece of a first line across this share of the table's width or more, and across
 * TITLE_HIDES_COLUMNS of the table's column boundaries (found with the line or under it,
 * whichever shows more: a title on two lines hides them from the rows under its first), is a
 * title's, when no row under it has a piece as wide. A long first cell stays in its column.
 */
const TITLE_PIECE_SHARE = 0.5;

function isTitleLine(first: ReturnType<typeof fragmentsOf>, below: readonly ReturnType<typeof fragmentsOf>[], boundaries: readonly { x0: number; x1: number }[]): boolean {
  const pieces = below.flat();
  if (pieces.length === 0) return false;
  const width = maxOf(pieces, (p) => p.x1) - minOf(pieces, (p) => p.x0);
  const widestBelow = maxOf(pieces, (p) => p.x1 - p.x0);
  const across = (p: (typeof first)[number]) => boundaries.filter((b) => p.x0 < b.x0 && p.x1 > b.x1).length;
  return first.some((p) => p.x1 - p.x0 >= TITLE_PIECE_SHARE * width && p.x1 - p.x0 > widestBelow && across(p) >= TITLE_HIDES_COLUMNS);
}

/** A table must have more rows than this under a first line for that line to be weighed as a title. */
const MIN_ROWS_AFTER_TITLE = 3;
/** Columns a first line must hide to be a title over the table rather than its first row. */
const TITLE_HIDES_COLUMNS = 2;
/**
 * Lines in a row that may read as titles over a table under the rules beside them: a table's
 * title runs over a few lines (a number, a caption of two lines, a header's group labels). When
 * more do, each hiding columns that the white under it shows, the rules that box the run are not
 * all its columns (a box ruled into groups, each set in columns of its own: an election
 * bulletin's contests, a statement's labels beside its years): the run is read again from the
 * first of those lines with the white's columns beside the rules, and as lines no grid holds (a
 * note set inside the box under the rows, ending in a column's white, stays out of the table).
 * Tried from each of its lines, such a run cost the square of its length.
 */
const MAX_TITLE_LINES = 3;

/** Lines of one fragment a table's run lets through between two of its rows (a label on three lines). */
const MAX_SINGLE_LINES = 3;

/**
 * A line this much closer under the row above than rows stand to each other is more of that
 * row (a cell set on two lines, a header on two lines). Rows of one table keep one pitch to a
 * few percent; a wrapped cell's lines stand at the font's leading, well inside the row pitch.
 */
const WRAPPED_LINE_PITCH = 0.8;

/** Lines a grid must hold to be a table of its own. */
const MIN_REGION_LINES = 2;

/**
 * The tables among the lines, top to bottom, each found only when the one before has been taken:
 * whether a page holds a table at all is known from its first (page-layout.ts PageReading).
 * `blockStarts`: lines that begin a block of their own (a column, a band of the page): no table
 * runs over one. `rulings`: what the rules the page draws say of its tables (rulings.ts).
 */
export function* tablesOf(lines: readonly Line[], options: TableOptions, blockStarts: ReadonlySet<number> = new Set(), rulings: TableRulings = NO_TABLE_RULINGS): Generator<TableRange, void, undefined> {
  const { regions } = rulings;
  // A ruled table is a block of its own: no table runs into it or out of it.
  const inRegion = lines.map((l) => (regions.length ? regionOfLine(l, regions) : -1));
  // A grid that holds one line is a row of the table it stands in (a total set white on a dark
  // band, its cells parted by white lines), not a table of its own.
  const held = new Map<number, number>();
  for (const r of inRegion) held.set(r, (held.get(r) ?? 0) + 1);
  const regionOf = inRegion.map((r) => (r >= 0 && held.get(r)! >= MIN_REGION_LINES ? r : -1));
  const gridRules = (k: number) => regions[regionOf[k]!]?.vertical;
  if (regions.length) blockStarts = new Set([...blockStarts, ...regionOf.flatMap((r, k) => (k > 0 && r !== regionOf[k - 1] ? [k] : []))]);
  // Lines that drawn rules run through, between their words: a ruled table's rows.
  const ruled = new Set<number>();
  const frags = lines.map((l, k) => {
    if (l.runs.every((r) => r.monospace)) return [];
    // A grid's rules cut its lines into cells; a lone rule only parts columns the white already shows.
    const rules = gridRules(k);
    const cuts = rules ? lineCuts(l, rules) : [];
    if (cuts.length) {
      // A rule may run inside a run of pdf.js's between two of its words: the run is cut there.
      const f = fragmentsOf(l.runs.flatMap((r) => cutAtRules(r, cuts)), options.gutterRatio, cuts);
      if (f.length >= 2) ruled.add(k);
      return f;
    }
    const f = fragmentsOf(l.runs, options.gutterRatio);
    // A line of prose that a stretched word space cuts in two is one piece, not two cells.
    return f.length >= 2 && isStretchedProse(f) ? [] : f;
  });
  const { words, known, white } = tableWork(lines, options);
  // The columns of lines first..first+count: their white is looked at once, whatever rules are
  // then weighed (a table tried from a line finds the white of the lines under its first, which
  // is the white it finds when tried from the next line, with the rules beside it).
  const columns = (first: number, count: number, rules: readonly Rule[], boxed: boolean): Interval[] => {
    const key = `${first}:${count}`;
    let found = white.get(key);
    if (found === undefined && !white.has(key)) white.set(key, (found = whiteColumns(Array.from({ length: count }, (_, k) => words(first + k)), options, known)));
    return found ? columnsAmongRules(found, rules, boxed) : [];
  };
  // Lines read one after another as titles over the run under them (its end, the first of them,
  // how many) and their lone rows, kept back: past MAX_TITLE_LINES, the run is read again from
  // the first of them as lines its rules do not box (`unboxed`: those lines, from..to).
  let titles = { end: -1, from: 0, count: 0 };
  let titled: TableRange[] = [];
  let unboxed = { from: -1, to: -1 };
  let i = 0;
  while (i < lines.length) {
    if (frags[i]!.length < 2) {
      i++;
      continue;
    }
    // Grow a run of multi-cell rows, letting a few single-fragment lines through (wrapped cells,
    // a label on lines of its own) when a multi-cell row follows them.
    let end = i + 1;
    const more = (k: number) => k < lines.length && !blockStarts.has(k);
    for (;;) {
      let next = end;
      while (next - end < MAX_SINGLE_LINES && more(next) && frags[next]!.length === 1) next++;
      if (!more(next) || frags[next]!.length < 2) break;
      end = next + 1;
    }
    // A ruled table holds every line its rules enclose, a cell's lone line too.
    const boxed = i < unboxed.from || i >= unboxed.to;
    const region = boxed ? regions[regionOf[i] ?? -1] : undefined;
    if (region) while (more(end) && regionOf[end] === regionOf[i]) end++;
    const vertical = gridRules(i) ?? rulings.lone;
    const table = buildTable(lines.slice(i, end), frags.slice(i, end), (k) => words(i + k), (first, count, rules) => columns(i + first, count, rules, boxed), known, (k) => ruled.has(i + k), options, vertical, rulings.horizontal, region);
    // A title under the boxing rules goes on a streak of the same run; anything else ends it.
    const title = table === TITLE && vertical.length > 0 && boxed;
    if (!title || end !== titles.end) {
      yield* titled;
      titled = [];
      titles = { end, from: i, count: 0 };
    }
    if (title && ++titles.count > MAX_TITLE_LINES) {
      titled = [];
      unboxed = { from: titles.from, to: end };
      i = titles.from;
      continue;
    }
    if (table === PROSE) {
      // Every later start in the run is as much prose: the run is passed whole.
      i = end;
      continue;
    }
    if (table && table !== TITLE) {
      yield tableRange(i, i + table.consumed, table.rows, table.row);
      i += table.consumed;
      continue;
    }
    const row = loneRow(lines[i]!, frags[i]!, options);
    if (row) {
      const range = tableRange(i, i + 1, 1, () => row);
      if (titles.count > 0) titled.push(range);
      else yield range;
    }
    i++;
  }
  yield* titled;
}

/**
 * What finding tables makes of a page's lines whatever rules it weighs: each line's words (split
 * once: a run that is no table is tried again from each of its lines), what column finding
 * makes of each line, and the white columns of each stretch of lines. A page with a table is
 * read twice from the same lines, without the rules it draws (up to its first table) and with
 * them (page-layout.ts PageReading): the second reading takes up the first's. The lines must not change while
 * they are kept here (they do not: a reading makes new lines).
 */
interface TableWork {
  options: TableOptions;
  words: (k: number) => TextRun[];
  known: RowCache;
  white: Map<string, WhiteColumns | undefined>;
}

const workOf = new WeakMap<readonly Line[], TableWork>();

function tableWork(lines: readonly Line[], options: TableOptions): TableWork {
  let work = workOf.get(lines);
  if (work?.options !== options) {
    const wordsOf: TextRun[][] = [];
    work = { options, words: (k) => (wordsOf[k] ??= lines[k]!.runs.flatMap(runWords)), known: new WeakMap(), white: new Map() };
    workOf.set(lines, work);
  }
  return work;
}

/**
 * Parts of a line this many ems apart or more are cells, even on a line of their own: a
 * masthead's name, district and date (5.4 em apart), an invoice's item line between its
 * description lines, a form's field labels on one row. Word spaces, even stretched in
 * justified text, stay under an em; a column gutter is not inside one line.
 */
const LONE_ROW_GAP_EMS = 2.5;

/**
 * Parts a line standing alone needs to be a row: two parts far apart are as often an equation
 * and its number, or a running header and its date.
 */
const LONE_ROW_CELLS = 3;

/** A line standing alone whose parts all stand far apart: a table of one row. */
function loneRow(line: Line, frags: ReturnType<typeof fragmentsOf>, options: TableOptions): Line | undefined {
  if (frags.length < LONE_ROW_CELLS) return undefined;
  for (let k = 1; k < frags.length; k++) {
    if (frags[k]!.x0 - frags[k - 1]!.x1 < LONE_ROW_GAP_EMS * Math.max(frags[k]!.fontSize, frags[k - 1]!.fontSize)) return undefined;
  }
  const cells = frags.map((f) => cellText(f.runs, options).text);
  if (isRightToLeft(cells.join(" "))) cells.reverse();
  return textLine({ ...line, text: cells.join("\t"), cells, role: "TR" });
}

/** A piece of a line with at least this many words is a stretch of prose, not a cell… */
const PROSE_PIECE_WORDS = 4;

/** …and a line made of such pieces a little apart is a justified line of prose. */
function isStretchedProse(pieces: ReturnType<typeof fragmentsOf>): boolean {
  for (let k = 1; k < pieces.length; k++) {
    if (pieces[k]!.x0 - pieces[k - 1]!.x1 > PROSE_MAX_GAP_EMS * pieces[k]!.fontSize) return false;
  }
  return pieces.every((p) => p.runs.map((r) => r.text).join(" ").trim().split(/\s+/u).length >= PROSE_PIECE_WORDS);
}

/** Share of a candidate's rows that read as prose for it to be no table. */
const PROSE_ROWS_SHARE = 0.5;
/** A row of prose breaks into this many pieces or more… */
const PROSE_MIN_PIECES = 3;
/** …none of them further apart than this many ems (a table's cells stand further apart, or hold numbers)… */
const PROSE_MAX_GAP_EMS = 2;
/** …and at most this share of them numbers. */
const PROSE_MAX_NUMBERS = 0.3;

function readsAsProse(pieces: ReturnType<typeof fragmentsOf>): boolean {
  if (pieces.length < PROSE_MIN_PIECES) return false;
  for (let k = 1; k < pieces.length; k++) {
    if (pieces[k]!.x0 - pieces[k - 1]!.x1 > PROSE_MAX_GAP_EMS * pieces[k]!.fontSize) return false;
  }
  const numbers = pieces.filter((p) => isNumber(p.runs.map((r) => r.text).join(" "))).length;
  return numbers <= PROSE_MAX_NUMBERS * pieces.length;
}

interface Row {
  cells: TextRun[][];
  /** How many columns each cell spans (rowCells). */
  spans: number[];
  runs: TextRun[];
  /** Baseline of the row's first line. */
  y: number;
  /** Baseline of its last line (a wrapped cell's). */
  bottom: number;
}

/** Share of a candidate's rows opening with a list marker that makes it a list (the rest its prose). */
const LIST_ROWS_SHARE = 0.6;

/** What buildTable says of a run of justified prose. */
const PROSE = Symbol("prose");
/** What buildTable says of a run whose first line is a title over the table under it. */
const TITLE = Symbol("title");

/**
 * `wordsOf(k)`: the words of lines[k] (runWords), for the caller to split once per line;
 * `columnsOf(first, count, rules)`: the columns of the words of lines[first..first+count),
 * for the caller to keep; `known`: what column finding made of each line's words.
 */
function buildTable(
  lines: readonly Line[],
  frags: ReturnType<typeof fragmentsOf>[],
  wordsOf: (k: number) => TextRun[],
  columnsOf: (first: number, count: number, rules: readonly Rule[]) => Interval[],
  known: RowCache,
  cutByRules: (k: number) => boolean,
  options: TableOptions,
  /** The vertical rules that may part the lines' cells, and every horizontal rule of the page. */
  vertical: readonly Rule[],
  horizontal: readonly Rule[],
  /** The grid of rules the lines stand in, if any. */
  region?: RuledRegion,
): { rows: number; row: (k: number) => Line; consumed: number } | typeof PROSE | typeof TITLE | undefined {
  // Trailing single-fragment lines are not part of the run, unless rules enclose them.
  let count = lines.length;
  if (!region) while (count > 0 && frags[count - 1]!.length < 2) count--;
  // Justified prose whose word spaces pass for cell gaps (an OCR layer drawn word by word, a
  // narrow column set loose): its lines break into words a little apart, hardly ever numbers.
  // Pieces that rules part are cells, not the words of a loose line.
  const pieced = frags.slice(0, count).filter((f) => f.length >= 2);
  if (pieced.length < 2) return undefined;
  const prose = frags.slice(0, count).filter((f, k) => f.length >= 2 && !cutByRules(k) && readsAsProse(f)).length;
  if (prose >= PROSE_ROWS_SHARE * pieced.length) return PROSE;
  const words = Array.from({ length: count }, (_, k) => wordsOf(k));
  const rules = vertical.filter((r) => r.to >= lines[count - 1]!.y && r.from <= lines[0]!.y + lines[0]!.fontSize);
  const boundaries = columnsOf(0, count, rules);
  if (boundaries.length === 0) return undefined;
  // A first line whose parts line up with no column (a title with the unit at its right) hides
  // the table's columns: the table starts under it.
  if (count > MIN_ROWS_AFTER_TITLE) {
    const under = columnsOf(1, count - 1, []);
    if (under.length >= boundaries.length + TITLE_HIDES_COLUMNS) return TITLE;
    // So does a first line with a piece across most of the table and its columns, wider than
    // any piece under it ("Table 2." beside "Actual and projected numbers for enrollment…").
    if (isTitleLine(frags[0]!, frags.slice(1, count), boundaries.length > under.length ? boundaries : under)) return TITLE;
  }
  const columns = boundaries.length + 1;
  const { cells: split, spans } = rowCells(words, boundaries, options.gutterRatio, known);
  const filled = (cells: TextRun[][]) => cells.filter((c) => c.length > 0).length;
  const multi = split.filter((cells) => filled(cells) >= 2);
  if (multi.length < 3 && !(multi.length >= 2 && columns >= 3)) return undefined;
  // A column of bullets or numbers beside text is a list, not a table: when most rows open with
  // one, the others are the lines of justified prose around the list whose word spaces happen
  // to line up with the list's gap ("1) New transactions…" … "6) …", then "Nodes always consider…").
  const marked = multi.filter((cells) => cells.findIndex((c) => c.length > 0) === 0 && isListMarker(cellText(cells[0]!, options).text));
  if (marked.length >= LIST_ROWS_SHARE * multi.length) return undefined;
  // Two columns of running text side by side are columns the layout step could not confirm.
  if (columns === 2) {
    const side = (k: number) => split.filter((cells) => cells[k]!.length > 0).map((cells) => fragmentsOf(cells[k]!, options.gutterRatio));
    if (readsAsText(side(0)) && readsAsText(side(1))) return undefined;
  }

  const pitch = median(
    lines
      .slice(1, count)
      .map((l, k) => (filled(split[k]!) >= 2 && filled(split[k + 1]!) >= 2 ? lines[k]!.y - l.y : NaN))
      .filter((g) => g > 0),
  );
  // Lines apart by a rule are two rows; in a grid whose rules part its rows, lines no rule parts are one.
  const apart = horizontal.length ? rowsApart(lines.slice(0, count), horizontal) : [];
  const ruledPairs = apart.filter(Boolean).length;
  const rowRuled = region !== undefined && ruledPairs >= ROW_RULED_SHARE * apart.length && ruledPairs >= 2;
  const rows: Row[] = [];
  for (let k = 0; k < count; k++) {
    const cells = split[k]!;
    const prev = rows[rows.length - 1];
    if (prev && !apart[k - 1] && ((rowRuled && !numbersInOneColumn(split[k - 1]!, cells, options)) || continuesRow(prev, cells, lines[k]!.y, pitch, options))) {
      cells.forEach((c, j) => prev.cells[j]!.push(...c));
      spans[k]!.forEach((n, j) => (prev.spans[j] = Math.max(prev.spans[j]!, n)));
      prev.runs.push(...lines[k]!.runs);
      prev.bottom = lines[k]!.y;
      continue;
    }
    rows.push({ cells: cells.map((c) => [...c]), spans: [...spans[k]!], runs: [...lines[k]!.runs], y: lines[k]!.y, bottom: lines[k]!.y });
  }
  // In a grid whose rules part its rows, a cell no rule closes under spans the rows down to the next rule.
  const { rows: spanned, spans: rowSpans } = rowRuled ? spanRowsDown(rows, horizontal, pitch) : { rows, spans: rows.map((row) => row.cells.map(() => 1)) };
  // A table reads right to left when its text does (a Hebrew table's first column is its
  // rightmost): every row, the header of years too, puts its cells in that order.
  const rightToLeft = spanned.some((row) => row.cells.some((cell) => cell.some((r) => hasRightToLeft(r.text)))) && isRightToLeft(spanned.flatMap((row) => row.cells.flat().map((r) => r.text)).join(" "));
  // Each row's line, made when asked for.
  const rowLine = (k: number): Line => {
    const row = spanned[k]!;
    const line = buildLine(row.runs, options);
    let cells = row.cells.map((cell, j) => {
      const { text, lines } = cellText(cell, options);
      return { text, lines, down: rowSpans[k]![j]!, extent: runsExtent(cell) ?? null };
    });
    let spans = cellSpans(cells.map((t) => t.text), row.spans);
    if (rightToLeft) [cells, spans] = rightToLeftCells(cells, spans);
    line.cells = cells.map((t) => t.lines.join("\n"));
    line.text = cells.map((t) => t.text).join("\t");
    if (spans.some((n) => n > 1)) line.cellSpans = spans;
    if (cells.some((c) => c.down > 1)) line.cellRowSpans = cells.map((c) => c.down);
    line.cellExtents = cells.map((c) => c.extent);
    line.y = row.y;
    line.role = "TR";
    return line;
  };
  return { rows: spanned.length, row: rowLine, consumed: count };
}

/**
 * A line is more of the row above it when:
 * - it fills one column only and sits closer under it than rows stand to each other (a cell
 *   set on two lines), or the row above is a lone label that close above it;
 * - it goes on with a word one of the row's cells broke ("Filetes y demás car-" over "nes de
 *   pescado", the numbers of the row set on the label's last line);
 * - its first cell goes on in lower case under a cell of the row ("Cumulative effects of" over
 *   "changes in accounting" and its values, over "policies"), and its other cells fill columns
 *   the row left empty;
 * - the row above is a label alone and this line fills none but other columns: the label's
 *   values, set centred on a label of two lines ("Adjusted balance at" / values / "beginning of
 *   year").
 * A line filling several columns close under a row is otherwise a row of its own: a reference
 * block's rows set in groups stand at the font's leading inside a group.
 */
function continuesRow(prev: Row, cells: readonly TextRun[][], y: number, pitch: number, options: SpacingOptions): boolean {
  const filled = filledColumns(cells);
  const prevFilled = filledColumns(prev.cells);
  const close = pitch > 0 && prev.bottom - y < WRAPPED_LINE_PITCH * pitch;
  // A cell goes on in its own type: an item's description set under it in another font is a
  // line of its own.
  const sameType = filled.length === 1 && sameFont(prev.cells[filled[0]!]!, cells[filled[0]!]!);
  if (close && (sameType || prevFilled.length === 1)) return true;
  const text = (c: readonly TextRun[]) => cellText(c, options).text;
  if (filled.some((j) => prevFilled.includes(j) && breaksWordBefore(text(prev.cells[j]!), text(cells[j]!)))) return true;
  const first = filled[0];
  if (first === undefined) return false;
  const othersFree = filled.slice(1).every((j) => !prevFilled.includes(j));
  if (prevFilled.includes(first) && othersFree && /^\p{Ll}/u.test(text(cells[first]!))) return true;
  return prevFilled.length === 1 && prevFilled[0] === 0 && !filled.includes(0);
}

/** The columns of a row's cells that hold runs. */
function filledColumns(cells: readonly (readonly TextRun[])[]): number[] {
  const out: number[] = [];
  for (let j = 0; j < cells.length; j++) if (cells[j]!.length > 0) out.push(j);
  return out;
}

/**
 * Rows a cell spans down, per row and cell (1 for a cell of one row, and for the cells a spanning
 * cell covers, which are left empty). Between two rows of a grid, a rule closes the cells of the
 * columns it runs under; a cell the rule leaves open (a stub column's "North" over its quarters,
 * the rule broken under it) goes on in the row below, and the text the row below holds in that
 * column moves up into it (a label set centred on the cell's rows, a label's second line:
 * continuesCell). A column the rules seldom close is one they leave open: its cells are each
 * row's own.
 */
function spanRowsDown(rows: readonly Row[], horizontal: readonly Rule[], pitch: number): { rows: Row[]; spans: number[][] } {
  const columns = rows[0]?.cells.length ?? 0;
  // Each column's middle, over the runs its cells hold in every row.
  const middles = Array.from({ length: columns }, (_, j) => {
    const runs = rows.flatMap((row) => row.cells[j]!);
    return runs.length ? (Math.min(...runs.map((r) => r.x)) + Math.max(...runs.map((r) => r.x + r.width))) / 2 : undefined;
  });
  // Per pair of rows, the columns a rule between them closes.
  const closed = rows.slice(1).map((below, k) => {
    const above = rows[k]!;
    const size = Math.max(...below.runs.map((r) => r.fontSize));
    // Under the middle of the upper row's last line's letters, above the lower row's baseline.
    const between = horizontal.filter((r) => r.at < above.bottom + RULE_BAND_TOP_EMS * size && r.at > below.y);
    return middles.map((x) => x !== undefined && between.some((r) => r.from <= x && r.to >= x));
  });
  // A column the rules close between a quarter of the rows they part, and two, is ruled row by
  // row; one they close under its header or over its total only is left open.
  const parted = closed.filter((gap) => gap.some(Boolean));
  const ruled = middles.map((_, j) => {
    const n = parted.filter((gap) => gap[j]).length;
    return n >= 2 && n >= ROW_RULED_SHARE * parted.length;
  });
  // Each row's cells as copies (runs move between them), and per row and column the row whose cell it is part of.
  const out = rows.map((row) => ({ ...row, cells: row.cells.map((c) => [...c]), runs: [...row.runs] }));
  const owner = rows.map((_, k) => Array<number>(columns).fill(k));
  const receiver: (number | undefined)[] = [];
  closed.forEach((gap, g) => {
    const k = g + 1;
    gap.forEach((shut, j) => {
      // A gap no rule runs through at all parts no cell (rows a grid's rules group).
      if (shut || !ruled[j] || !gap.some(Boolean)) return;
      const top = owner[k - 1]![j]!;
      const below = out[k]!;
      if (!continuesCell(out[top]!.cells[j]!, below.cells[j]!, pitch)) return;
      if (below.cells[j]!.length > 0) receiver[k] = top;
      out[top]!.cells[j]!.push(...below.cells[j]!);
      below.cells[j] = [];
      owner[k]![j] = top;
    });
  });
  // A row whose text all went up into the cells above it is no row of its own (a label's second
  // line set between two rows of the grid): its runs go with the row that took its text.
  const kept = out.flatMap((row, k) => (row.cells.some((c) => c.length > 0) ? [k] : []));
  out.forEach((row, k) => {
    const to = receiver[k];
    if (to !== undefined && !row.cells.some((c) => c.length > 0)) out[to]!.runs.push(...row.runs);
  });
  // A cell spans the kept rows it owns; a covered cell counts 1.
  const owned = rows.map(() => Array<number>(columns).fill(0));
  for (const m of kept) owner[m]!.forEach((o, j) => owned[o]![j]!++);
  const spans = kept.map((k) => owner[k]!.map((o, j) => (o === k ? owned[k]![j]! : 1)));
  return { rows: kept.map((k) => out[k]!), spans };
}

/**
 * The text of a cell below goes on in the open cell above: the one holds no text, or the text
 * below stands closer under it than rows stand to each other (a label's second line). Two texts
 * a row apart are two cells (fields of a form boxed one under the other, their rule stopping short).
 */
function continuesCell(above: readonly TextRun[], below: readonly TextRun[], pitch: number): boolean {
  if (above.length === 0 || below.length === 0) return true;
  const gap = Math.min(...above.map((r) => r.y)) - Math.max(...below.map((r) => r.y));
  return pitch > 0 && gap < WRAPPED_LINE_PITCH * pitch;
}

/** The middle of a line's letters (ems above its baseline): a rule under a row runs below it. */
const RULE_BAND_TOP_EMS = 0.3;

/** Each cell's span, cut short at the next cell with text: a spanning cell covers empty cells only. */
function cellSpans(texts: readonly string[], spans: readonly number[]): number[] {
  return spans.map((n, j) => {
    let k = 1;
    while (k < n && j + k < texts.length && texts[j + k] === "") k++;
    return texts[j] === "" ? 1 : k;
  });
}

/**
 * A right-to-left table's cells in reading order, rightmost first: a cell spanning columns
 * stands in the first of them in reading order, the rightmost it covers.
 */
function rightToLeftCells<T>(cells: readonly T[], spans: readonly number[]): [T[], number[]] {
  const moved = [...cells];
  const out = spans.map(() => 1);
  spans.forEach((n, j) => {
    if (n <= 1) return;
    [moved[j], moved[j + n - 1]] = [moved[j + n - 1]!, moved[j]!];
    out[j + n - 1] = n;
  });
  return [moved.reverse(), out.reverse()];
}

/**
 * Two lines with a number each in one column are two rows, whatever rules they stand between: a
 * cell wraps its words, never an amount onto the line of another (the last rows of a grid ruled
 * only under its totals).
 */
function numbersInOneColumn(above: readonly TextRun[][], below: readonly TextRun[][], options: SpacingOptions): boolean {
  return below.some((cell, j) => cell.length > 0 && above[j]!.length > 0 && isNumber(cellText(cell, options).text) && isNumber(cellText(above[j]!, options).text));
}

/**
 * Share of a grid's line pairs that rules part for its rows to be ruled: every row then between
 * two rules, a cell's lines too. A grid that rules only its header parts one pair in many.
 */
const ROW_RULED_SHARE = 0.25;

/** For each line after the first, whether a rule across the table runs between it and the line above. */
function rowsApart(lines: readonly Line[], horizontal: readonly Rule[]): boolean[] {
  const x0 = minOf(lines, (l) => l.x);
  const x1 = maxOf(lines, (l) => l.x + l.width);
  return lines.slice(1).map((l, k) => ruleBetweenLines(horizontal, lines[k]!.y, l.y, l.fontSize, x0, x1, l.runs));
}

/** The last run above and the first run below are set in one font at one size (an empty cell above takes any). */
function sameFont(above: readonly TextRun[], below: readonly TextRun[]): boolean {
  const last = [...above].sort((a, b) => a.y - b.y || b.x - a.x)[0];
  const first = below[0];
  return !last || !first || (last.fontName === first.fontName && Math.abs(last.fontSize - first.fontSize) < 0.5);
}

/**
 * A cell's text: its words by printed line (top first), each line joined by the word-space rule;
 * the lines joined by a space, but never after a hyphen that breaks a word: whether it stays is
 * for the dehyphenate stage to judge, a space after it is wrong either way (docs/extraction.md §6.2).
 */
function cellText(runs: readonly TextRun[], options: SpacingOptions): { text: string; lines: string[] } {
  // Most cells hold one run or none: their one line needs no sorting.
  if (runs.length <= 1) {
    const line = runs.length ? joinRuns(runs, options).trim() : "";
    const lines = line ? [line] : [];
    return { text: joinCellLines(lines), lines };
  }
  const byLine: TextRun[][] = [];
  for (const run of sortedIfNeeded(runs, topDownLeftToRight)) {
    const last = byLine[byLine.length - 1];
    if (last && Math.abs(last[0]!.y - run.y) <= 0.5 * run.fontSize) last.push(run);
    else byLine.push([run]);
  }
  const lines = byLine.map((l) => joinRuns(sortedIfNeeded(l, leftToRight), options).trim()).filter(Boolean);
  return { text: joinCellLines(lines), lines };
}

/** Top line first (the higher baseline), each line left to right. */
const topDownLeftToRight = (a: TextRun, b: TextRun) => b.y - a.y || a.x - b.x;
