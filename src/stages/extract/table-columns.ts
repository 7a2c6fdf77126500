/**
 * The columns of a table from the places of its words (docs/extraction.md §4.4): a column boundary is an
 * x-interval no word of the table's rows stands in, as the white strips between the columns
 * of a printed table are.
 *
 * Two kinds of row get in the way, and each is allowed for:
 * - a cell that spans columns (a year over its two sub-columns, a total centred over them)
 *   covers the strip in its row: a strip free in all but a few rows is still a boundary, unless
 *   a strip free in every row already stands there;
 * - a column that only a few rows fill (a discount column, empty but in one row) leaves strips
 *   on both sides of it that every row keeps free: those are boundaries of their own.
 * A strip wide enough to be no word space is a boundary; a narrow one only between numbers
 * (dense statistics set with a word space between columns), never inside a phrase whose words
 * happen to line up ("18 March" over "25 March").
 */
import type { TextRun } from "../../core/records.js";
import { leftToRight, median, sortedIfNeeded } from "../../text/text-geometry.js";
import { ruleThroughLine } from "./ruled-lines.js";
import { firstIndex, RowSpans, RowWords, type Interval } from "./row-extents.js";
import type { Rule } from "./rulings.js";

export interface ColumnOptions {
  /** A gap wider than this × font size separates cells whatever stands on either side. */
  gutterRatio: number;
  /** A gap wider than this × font size is a word space. */
  spaceRatio: number;
}

/**
 * A strip between numbers is a boundary from this width (ems): dense statistics leave under a
 * word space (0.25 em) between a column and the next where their widest numbers meet, and a
 * number never holds a space.
 */
const NUMBER_GAP_EMS = 0.2;

/**
 * A strip at least this wide (ems), free in every row, with words on both sides of it in this
 * many rows or more, is a boundary whatever stands beside it: word spaces are a quarter of an em,
 * and the words of many different cells do not line up their spaces by chance (a column of
 * codes, "1603.00.00" the widest, 0.64 em before the descriptions).
 */
const CONSISTENT_GAP_EMS = 0.5;
const CONSISTENT_ROWS = 6;

/**
 * Share of a table's rows that may cover a boundary, each with a cell that spans it whole:
 * headers and totals centred over two columns (a year and a total over each pair of 8 rows).
 */
const SPANNING_ROWS_SHARE = 0.34;
/**
 * Share of the rows beside a narrow strip that must hold numbers on both sides of it for the
 * strip to be a boundary (a row's label may sit in the first column beside a number).
 */
const NUMERIC_SIDES_SHARE = 0.6;

/**
 * A number as tables print them: signs and brackets (negative amounts in brackets, the Japanese
 * △ for minus), currency, digits with their separators, a percent sign; a dash or bar alone,
 * which tables print for nil; or a currency sign alone, set in a column of its own before the
 * amounts (¥ at the left of a right-aligned column). A number never ends with its separator:
 * "4," in "Mar 4, 2026" is a date's day and its comma.
 */
const NUMBER = /^(?:[(\-−–+△▲]?[$€£¥]?\d(?:[\d.,'’]*\d)?%?\)?|[―—–-]|[$€£¥])$/u;

const CURRENCY = /^[$€£¥]$/u;

/** A currency sign closer than this (ems) to the amount after it is that amount's sign, not a column: a word space is a quarter of an em. */
const OWN_SIGN_GAP_EMS = 0.4;

export function isNumber(text: string): boolean {
  return NUMBER.test(text.trim());
}

/**
 * The x-intervals between the columns of the rows (each a list of word runs), left to right.
 * Every word then belongs to the column its middle stands in.
 */
export function columnBoundaries(rows: readonly (readonly TextRun[])[], options: ColumnOptions, rules: readonly Rule[] = [], known: RowCache = new WeakMap()): Interval[] {
  const white = whiteColumns(rows, options, known);
  return white ? columnsAmongRules(white, rules) : [];
}

/**
 * What the white of some rows says of their columns, before any rule is weighed: the costly
 * part of columnBoundaries, the same whatever rules run beside the rows. A run of lines that is
 * no table is tried from each of its lines (table-detection.ts), with the rules and without:
 * kept, each stretch of rows is looked at once.
 */
export interface WhiteColumns {
  /** The rows that hold words. */
  readonly rows: readonly (readonly TextRun[])[];
  /** The strips of white between columns, left to right. */
  readonly strips: readonly Interval[];
  /** The rows' median font size, and the left and right ends of their words. */
  readonly size: number;
  readonly left: number;
  readonly right: number;
  /** The columns when no rule parts them, once asked for. */
  plain?: Interval[];
}

/** The white columns of the rows, or undefined when no row holds a word. */
export function whiteColumns(rows: readonly (readonly TextRun[])[], options: ColumnOptions, known: RowCache = new WeakMap()): WhiteColumns | undefined {
  const filled = rows.filter((r) => r.length > 0);
  if (filled.length === 0) return undefined;
  // The rows' words in order, as filled.flat() gives them, read in loops (every try of a run asks this).
  const sizes: number[] = [];
  let left = Infinity;
  let right = -Infinity;
  for (const row of filled) {
    for (let i = 0; i < row.length; i++) {
      const w = row[i]!;
      sizes.push(w.fontSize);
      left = Math.min(left, w.x);
      right = Math.max(right, w.x + w.width);
    }
  }
  const size = median(sizes) || 10;
  const facts = filled.map((row) => rowFacts(row, options.gutterRatio, known));
  const spans = facts.map((f) => f.spans);
  const free = freeStrips(spans, 0, left, right);
  const narrow = NUMBER_GAP_EMS * size;
  const wide = options.gutterRatio * size;
  const consistent = CONSISTENT_GAP_EMS * size;
  const phrases = facts.map((f) => f.phraseSpans(right - left));
  // Every strip asks each row where its words, spans and phrases stand beside it: each row is
  // sorted once (row-extents.ts), when a strip first asks.
  let indexed: { words: RowWords[]; spans: RowSpans[]; phrases: RowSpans[] } | undefined;
  const rowsOf = () => (indexed ??= { words: facts.map((f) => f.words), spans: facts.map((f) => f.spanIndex), phrases: facts.map((f) => f.phraseIndex(right - left)) });
  let coverage: Coverage | undefined;
  /** A strip under a gutter that numbers stand on both sides of, or that every row shows as a gutter. */
  const narrowBoundary = (g: Interval) => g.x1 - g.x0 > narrow && (numbersOnBothSides(rowsOf().words, g) || narrowestRowGap(rowsOf().words, g) >= wide);
  /** A strip free in every row that is a word space inside some row's phrase (a header "Admissions 2024" over two columns of figures, its word space where their white is). */
  const wordSpace = (g: Interval) => rowsOf().phrases.some((row) => row.holds(g));
  /** Wide enough to be a boundary of some kind. */
  const wideEnough = (g: Interval) => g.x1 - g.x0 >= wide || g.x1 - g.x0 > narrow;
  const freeBoundaries = free.filter((g) => g.x1 - g.x0 >= wide || (g.x1 - g.x0 >= consistent && rowsOnBothSides(rowsOf().words, g) >= CONSISTENT_ROWS) || (narrowBoundary(g) && !wordSpace(g)));
  // A strip that a few rows cover counts only when each of them covers it whole, with a cell
  // that spans it; a word ending or starting inside it is a cell of its own there. Over the
  // table, a header's cell is a phrase: its words over the strip ("Coronary heart disease" over
  // a rate and its interval) span it together, the word spaces between them no strip of the
  // table; so is a row of one phrase, a caption over the rows under it ("Projected enrollment,
  // in thousands"). Under the first row with a gap across the strip, a row of several phrases
  // spans it in one word (a total centred over two columns): phrases there are the fields of a
  // form set close.
  // One too narrow to be a boundary stays so however it is cut (leastCovered only narrows a
  // strip): the spaces between the words of the rows, most of these strips, are passed over at once.
  const nearlyFree = freeStrips(phrases, Math.floor(SPANNING_ROWS_SHARE * filled.length), left, right)
    .flatMap((g) => outside(g, freeBoundaries))
    .filter(wideEnough)
    .map((g) => (coverage ??= new Coverage(phrases)).leastCovered(g))
    .filter((g) => {
      const rows = rowsOf();
      const first = rows.words.findIndex((row) => hasWordsOnBothSides(row, g) && !row.crosses(g.x0, g.x1));
      const body = first < 0 ? filled.length : first;
      return filled.every((_, r) => (r < body || phrases[r]!.length === 1 ? rows.phrases[r]! : rows.spans[r]!).coversWholeOrMisses(g));
    });
  const strips = [...freeBoundaries, ...nearlyFree.filter((g) => g.x1 - g.x0 >= wide || narrowBoundary(g))].sort((a, b) => a.x0 - b.x0);
  return { rows: filled, strips, size, left, right };
}

/**
 * The columns of rows whose white is known, with the vertical rules that run beside them.
 * `boxed`: rules boxing the rows are all their columns (table-detection.ts reads a run whose
 * rules keep hiding its white's columns without that).
 */
export function columnsAmongRules(white: WhiteColumns, rules: readonly Rule[], boxed = true): Interval[] {
  const { rows: filled, strips: boundaries, size, left, right } = white;
  // A drawn rule between the words of the rows is a boundary however narrow the white beside it;
  // it stands for the white strip it runs in.
  const ruled = rules.length ? ruleBoundaries(filled, rules, size) : [];
  if (ruled.length === 0) return (white.plain ??= withoutLoneColumns(boundaries, filled, new Set()));
  const slack = RULE_SLACK_EMS * size;
  // In a table boxed by rules, the rules are all its columns: white inside a cell is the cell's.
  const strips = boxed && isBoxed(filled, rules, left - slack, right + slack) ? [] : boundaries.filter((b) => !ruled.some((r) => r.x0 >= b.x0 - slack && r.x0 <= b.x1 + slack));
  return withoutLoneColumns([...ruled, ...strips].sort((a, b) => a.x0 - b.x0), filled, new Set(ruled));
}

/** A word's box may reach this far (ems) past a rule beside it: its advance is not its ink. */
const RULE_SLACK_EMS = 0.15;
/** Rows a rule must run between the words of, with none through a word, to stand between columns. */
const MIN_RULED_ROWS = 2;

/** Rules run down both sides of the rows' words, through most of the rows. */
function isBoxed(rows: readonly (readonly TextRun[])[], rules: readonly Rule[], left: number, right: number): boolean {
  const through = (rule: Rule) => rows.filter((row) => crosses(rule, row[0]!)).length >= rows.length / 2;
  return rules.some((r) => r.at <= left && through(r)) && rules.some((r) => r.at >= right && through(r));
}

function crosses(rule: Rule, word: TextRun): boolean {
  return ruleThroughLine(rule, word.y, word.fontSize);
}

/**
 * The vertical rules that stand between columns: each runs through rows with words on both
 * sides of it, at least twice as many as it would cut a word in (the place of a word inside a
 * run is an estimate: run-words.ts). A rule stopping above a row leaves that row's cell
 * spanning it.
 */
function ruleBoundaries(rows: readonly (readonly TextRun[])[], rules: readonly Rule[], size: number): Interval[] {
  const slack = RULE_SLACK_EMS * size;
  const out: Interval[] = [];
  for (const rule of rules) {
    let between = 0;
    let through = 0;
    for (const row of rows) {
      if (!crosses(rule, row[0]!)) continue;
      // Whether a word runs through the rule, ends before it, starts after it: the row read once.
      let across = false;
      let before = false;
      let after = false;
      for (let i = 0; i < row.length; i++) {
        const w = row[i]!;
        if (w.x + slack < rule.at && w.x + w.width - slack > rule.at) across = true;
        if (w.x + w.width - slack <= rule.at) before = true;
        if (w.x + slack >= rule.at) after = true;
      }
      if (across) through++;
      else if (before && after) between++;
    }
    if (between >= MIN_RULED_ROWS && between >= 2 * through && !out.some((b) => Math.abs(b.x0 - rule.at) < slack)) out.push({ x0: rule.at, x1: rule.at });
  }
  return out;
}

/**
 * A column that the words of one row alone stand in is no column: it is that row's cell set
 * wider than the others, with spaces between its words that no other row's words fill ("上升
 * 5.72 个百分点" over right-aligned percentages). It is merged with the neighbour its words are
 * closer to, until every column holds words of two rows or more; a column of no words at all
 * (between two strips a spanning cell's edge cuts apart) is dropped.
 */
function withoutLoneColumns(boundaries: readonly Interval[], rows: readonly (readonly TextRun[])[], drawn: ReadonlySet<Interval>): Interval[] {
  const out = [...boundaries];
  if (rows.length < MIN_ROWS_FOR_LONE_COLUMNS) return out;
  // A drawn rule stays: a column of one row's words merges across a boundary of white only, and
  // a column between two rules is a column however few rows fill it.
  const removable = (k: number) => k >= 0 && k < out.length && !drawn.has(out[k]!);
  // The boundaries are apart and in order (white strips and rules, none inside another), so
  // their middles are too, and taking boundary k out makes columns k and k+1 one
  // (columnFinder counts the middles left of a word): what the two held is added up, not
  // counted again from every word.
  const { support, firstRow } = rowsPerColumn(out, rows);
  for (;;) {
    const lone = support.findIndex((n, k) => n === 0 || (n === 1 && (removable(k - 1) || removable(k))));
    if (lone < 0 || out.length === 0) return out;
    let taken: number;
    if (support[lone] === 0) {
      // Two boundaries with nothing between them (a spanning cell's edge, a rule drawn double) are one.
      const first = lone > 0 ? lone - 1 : 0;
      taken = !removable(first) && removable(lone) ? lone : first;
    } else {
      const r = firstRow[lone]!;
      const columnOfWord = columnFinder(out);
      const words = rows[r]!.filter((w) => columnOfWord(w) === lone);
      const x0 = Math.min(...words.map((w) => w.x));
      const x1 = Math.max(...words.map((w) => w.x + w.width));
      const before = rows[r]!.filter((w) => w.x + w.width <= x0).reduce((m, w) => Math.max(m, w.x + w.width), -Infinity);
      const after = rows[r]!.filter((w) => w.x >= x1).reduce((m, w) => Math.min(m, w.x), Infinity);
      // Merge towards the row's own nearer word; at an edge of the table or beside a rule, towards the only neighbour.
      const nearerLeft = lone === out.length || x0 - before <= after - x1;
      taken = removable(lone - 1) && (nearerLeft || !removable(lone)) ? lone - 1 : lone;
    }
    // `taken` is never the last column's index: a lone last column merges to its left.
    out.splice(taken, 1);
    // Columns taken and taken+1 are one: words of two rows, or of one row, or none.
    const [n, m] = [support[taken]!, support[taken + 1]!];
    const [a, b] = [firstRow[taken]!, firstRow[taken + 1]!];
    support.splice(taken, 2, n === 0 ? m : m === 0 ? n : n === 2 || m === 2 || a !== b ? 2 : 1);
    firstRow.splice(taken, 2, a < 0 ? b : b < 0 ? a : Math.min(a, b));
  }
}

/** Per column, how many rows have words in it (0, 1, or 2 for more) and the first of them (-1 for none). */
function rowsPerColumn(boundaries: readonly Interval[], rows: readonly (readonly TextRun[])[]): { support: number[]; firstRow: number[] } {
  const columnOfWord = columnFinder(boundaries);
  const support = new Array<number>(boundaries.length + 1).fill(0);
  const firstRow = new Array<number>(boundaries.length + 1).fill(-1);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let i = 0; i < row.length; i++) {
      const k = columnOfWord(row[i]!);
      if (firstRow[k] === -1) {
        firstRow[k] = r;
        support[k] = 1;
      } else if (firstRow[k] !== r) support[k] = 2;
    }
  }
  return { support, firstRow };
}

/** Tables of fewer rows than this keep every column (a two-row table has columns of one word each). */
const MIN_ROWS_FOR_LONE_COLUMNS = 3;

/** The index of the column a word belongs to, given the boundaries. */
export function columnOf(boundaries: readonly Interval[], word: TextRun): number {
  const mid = word.x + word.width / 2;
  let column = 0;
  for (const b of boundaries) if (mid >= (b.x0 + b.x1) / 2) column++;
  return column;
}

/** columnOf for many words: the boundaries' middles sorted once, each word's column a binary search (the count of middles at or before its own). */
function columnFinder(boundaries: readonly Interval[]): (word: TextRun) => number {
  const middles = Float64Array.from(boundaries, (b) => (b.x0 + b.x1) / 2).sort();
  return (word) => {
    const mid = word.x + word.width / 2;
    return firstIndex(middles.length, (k) => !(middles[k]! <= mid));
  };
}

/**
 * What column finding works out of a row by itself, kept per row array: a run of lines that is
 * no table is tried again from each of its lines (table-detection.ts), the same rows each time.
 * A row array is read as it is when first seen: it must not change while the cache holds it.
 */
export type RowCache = WeakMap<readonly TextRun[], RowFacts>;

function rowFacts(row: readonly TextRun[], gutterRatio: number, known: RowCache): RowFacts {
  let facts = known.get(row);
  if (!facts || facts.gutterRatio !== gutterRatio) known.set(row, (facts = new RowFacts(row, gutterRatio)));
  return facts;
}

class RowFacts {
  readonly spans: Interval[];
  readonly phrases: TextRun[][];
  /** Each phrase's extent, and the spans of its words (phraseSpans splits a phrase as wide as half the table). */
  private readonly extents: Interval[];
  private readonly split: (Interval[] | undefined)[] = [];
  private readonly byWidth = new Map<number, { spans: Interval[]; index?: RowSpans }>();
  private index?: { words: RowWords; spans: RowSpans };

  constructor(
    readonly row: readonly TextRun[],
    readonly gutterRatio: number,
  ) {
    this.spans = rowSpans(row);
    this.phrases = phrasesOf(row, gutterRatio);
    this.extents = this.phrases.map((phrase) => ({ x0: phrase[0]!.x, x1: Math.max(...phrase.map((w) => w.x + w.width)) }));
  }

  get words(): RowWords {
    return (this.index ??= { words: new RowWords(this.row), spans: new RowSpans(this.spans) }).words;
  }

  get spanIndex(): RowSpans {
    return (this.index ??= { words: new RowWords(this.row), spans: new RowSpans(this.spans) }).spans;
  }

  /** The x-intervals the row's phrases cover in a table this wide (a phrase as wide as PHRASE_WIDTH_SHARE of it by its words). */
  phraseSpans(tableWidth: number): Interval[] {
    return this.atWidth(tableWidth).spans;
  }

  phraseIndex(tableWidth: number): RowSpans {
    const at = this.atWidth(tableWidth);
    return (at.index ??= new RowSpans(at.spans));
  }

  private atWidth(tableWidth: number): { spans: Interval[]; index?: RowSpans } {
    let at = this.byWidth.get(tableWidth);
    if (!at) {
      const spans = this.extents.flatMap((e, k) => (e.x1 - e.x0 > PHRASE_WIDTH_SHARE * tableWidth ? (this.split[k] ??= rowSpans(this.phrases[k]!)) : [e]));
      this.byWidth.set(tableWidth, (at = { spans }));
    }
    return at;
  }
}

/** The x-intervals a row's words cover, merged. */
function rowSpans(words: readonly TextRun[]): Interval[] {
  const sorted = sortedIfNeeded(words, leftToRight);
  const out: Interval[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w.x <= last.x1) last.x1 = Math.max(last.x1, w.x + w.width);
    else out.push({ x0: w.x, x1: w.x + w.width });
  }
  return out;
}

/**
 * A row's words in phrases: merged across gaps narrower than a gutter (`gutterRatio` ems),
 * except beside a number (dense statistics set their columns a word space apart).
 */
function phrasesOf(words: readonly TextRun[], gutterRatio: number): TextRun[][] {
  const out: TextRun[][] = [];
  let reach = -Infinity;
  let previous: TextRun | undefined;
  for (const w of sortedIfNeeded(words, leftToRight)) {
    const close = (p: TextRun) => w.x - reach < gutterRatio * Math.max(w.fontSize, p.fontSize) && !isNumber(p.text) && !isNumber(w.text);
    if (previous && (w.x <= reach || close(previous))) {
      out[out.length - 1]!.push(w);
      reach = Math.max(reach, w.x + w.width);
    } else {
      out.push([w]);
      reach = w.x + w.width;
    }
    previous = w;
  }
  return out;
}

/** A table's rows cut into cells: each row's cells, and how many columns each spans. */
export interface TableCells {
  cells: TextRun[][][];
  /** Per row and column: 1, or more for a cell spanning the columns after it. */
  spans: number[][];
}

/**
 * The rows' words in the columns between `boundaries`, each by where its middle stands. A phrase
 * with a word across a boundary is a cell spanning the columns it stands over, and goes whole
 * into the first of them ("Coronary heart disease" over a rate and its interval), as CSV and GFM
 * tables write a spanning cell: the first column whose words, in the other rows, it stands over.
 */
export function rowCells(rows: readonly (readonly TextRun[])[], boundaries: readonly Interval[], gutterRatio: number, known: RowCache = new WeakMap()): TableCells {
  const columnOfWord = columnFinder(boundaries);
  const extents: Interval[] = Array.from({ length: boundaries.length + 1 }, () => ({ x0: Infinity, x1: -Infinity }));
  for (const row of rows) {
    for (const w of row) {
      const e = extents[columnOfWord(w)]!;
      e.x0 = Math.min(e.x0, w.x);
      e.x1 = Math.max(e.x1, w.x + w.width);
    }
  }
  const out: TableCells = { cells: [], spans: [] };
  for (const row of rows) {
    const cells: TextRun[][] = Array.from({ length: boundaries.length + 1 }, () => []);
    const spans = cells.map(() => 1);
    for (const phrase of rowFacts(row, gutterRatio, known).phrases) {
      const spanning = phrase.length > 1 && phrase.some((w) => boundaries.some((b) => w.x < b.x1 && w.x + w.width > b.x0));
      if (!spanning) {
        for (const w of phrase) cells[columnOfWord(w)]!.push(w);
        continue;
      }
      const span = { x0: phrase[0]!.x, x1: Math.max(...phrase.map((w) => w.x + w.width)) };
      const under = extents.flatMap((e, j) => (overlaps(e, span) ? [j] : []));
      const first = under[0] ?? columnOfWord(phrase[0]!);
      cells[first]!.push(...phrase);
      spans[first] = Math.max(spans[first]!, (under[under.length - 1] ?? first) - first + 1);
    }
    out.cells.push(cells);
    out.spans.push(spans);
  }
  return out;
}

/**
 * Share of a table's width from which a phrase is a line of text (prose between the items of a
 * list), no cell spanning columns: in the x-intervals a row's phrases cover (RowFacts.phraseSpans),
 * its words stay apart.
 */
const PHRASE_WIDTH_SHARE = 0.5;

/** Maximal intervals inside (left, right) covered by at most `allowed` rows. */
function freeStrips(spans: readonly Interval[][], allowed: number, left: number, right: number): Interval[] {
  // The spans' starts and ends, each sorted, swept in one pass: where a start and an end meet, the start first.
  let n = 0;
  for (const row of spans) n += row.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  let at = 0;
  for (const row of spans) {
    for (const s of row) {
      starts[at] = s.x0;
      ends[at++] = s.x1;
    }
  }
  starts.sort();
  ends.sort();
  const out: Interval[] = [];
  let cover = 0;
  let openAt: number | undefined;
  for (let i = 0, j = 0; i < n || j < n; ) {
    const opens = i < n && (j >= n || starts[i]! <= ends[j]!);
    const x = opens ? starts[i++]! : ends[j++]!;
    const before = cover;
    cover += opens ? 1 : -1;
    if (before > allowed && cover <= allowed) openAt = x;
    else if (before <= allowed && cover > allowed && openAt !== undefined) {
      if (x > openAt && openAt > left && x < right) out.push({ x0: openAt, x1: x });
      openAt = undefined;
    }
  }
  return out;
}

/**
 * How many spans (the phrases of every row) cover each stretch between two consecutive span
 * ends, counted once per table, so that each strip reads its own stretches only.
 */
class Coverage {
  /** Every span's ends, sorted, without repeats. */
  private readonly ends: number[];
  /** cover[k]: the spans over the stretch from ends[k - 1] to ends[k]; none before the first end or after the last. */
  private readonly cover: Int32Array;

  constructor(spans: readonly Interval[][]) {
    let n = 0;
    for (const row of spans) n += 2 * row.length;
    const all = new Float64Array(n);
    n = 0;
    for (const row of spans) {
      for (const s of row) {
        all[n++] = s.x0;
        all[n++] = s.x1;
      }
    }
    all.sort();
    const ends: number[] = [];
    for (const x of all) if (ends.length === 0 || x !== ends[ends.length - 1]) ends.push(x);
    this.ends = ends;
    const index = (x: number) => firstIndex(ends.length, (k) => ends[k]! >= x);
    const diff = new Int32Array(ends.length + 2);
    for (const row of spans) {
      for (const s of row) {
        const a = index(s.x0);
        const b = index(s.x1);
        if (a < b) {
          diff[a + 1]!++;
          diff[b + 1]!--;
        }
      }
    }
    this.cover = new Int32Array(this.ends.length + 1);
    for (let k = 0, sum = 0; k <= this.ends.length; k++) this.cover[k] = sum += diff[k]!;
  }

  /**
   * The widest part of a strip that the fewest rows cover: between a column of numbers and the
   * next, right-aligned ones of varying widths leave the strip's right part to some rows, and
   * only the part no number reaches is the columns' boundary, under a year centred over both.
   */
  leastCovered(g: Interval): Interval {
    if (!(g.x0 < g.x1)) return { x0: g.x0, x1: g.x1 };
    const ends = this.ends;
    // The span ends strictly inside the strip cut it into pieces; no span starts or ends inside
    // a piece, so each piece lies inside the stretch between two ends and has its cover.
    const from = firstIndex(ends.length, (k) => ends[k]! > g.x0);
    const to = firstIndex(ends.length, (k) => ends[k]! >= g.x1);
    const pieces = to - from + 1;
    let best: { x0: number; x1: number; cover: number } | undefined;
    let open: { x0: number; x1: number; cover: number } | undefined;
    for (let k = 0; k < pieces; k++) {
      const cover = this.cover[from + k]!;
      const x0 = k === 0 ? g.x0 : ends[from + k - 1]!;
      const x1 = k === pieces - 1 ? g.x1 : ends[from + k]!;
      if (open && open.cover === cover) open.x1 = x1;
      else open = { x0, x1, cover };
      if (!best || cover < best.cover || (cover === best.cover && open.x1 - open.x0 > best.x1 - best.x0)) best = { ...open };
    }
    return { x0: best!.x0, x1: best!.x1 };
  }
}

/**
 * The parts of a strip outside the boundaries already found: beside a strip free in every row,
 * a column that few rows fill (a currency sign in the balance rows only) leaves another strip
 * that a header spans, the sign's strip before its amounts.
 */
function outside(g: Interval, found: readonly Interval[]): Interval[] {
  let parts = [g];
  for (const f of found) {
    if (!overlaps(f, g)) continue;
    parts = parts.flatMap((p) => (overlaps(f, p) ? [{ x0: p.x0, x1: f.x0 }, { x0: f.x1, x1: p.x1 }].filter((q) => q.x1 > q.x0) : [p]));
  }
  return parts;
}

function overlaps(a: Interval, b: Interval): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1;
}

/**
 * Rows with words on both sides of a strip free in every row, needed for their gaps to speak for it.
 */
const GAP_ROWS = 3;

/**
 * The narrowest gap that rows with words on both sides of the strip leave across it (0 when
 * fewer than GAP_ROWS do, or a row among them spans it). Left-aligned labels beside right-aligned numbers leave a strip free in
 * every row no wider than the longest label's end to the widest number's start ("District of
 * Columbia" over "2,753,438": 3 points), yet every row sees a gutter between its label and its
 * number: the strip is a boundary when each row's own gap is as wide as one, and the strip
 * itself wider than NUMBER_GAP_EMS: a title's word ending a point before a column starts hides
 * that column (and a header's word so close to it, the same way). Rows above the first that
 * shows a gap may span the strip whole (a title, a header centred over columns).
 */
function narrowestRowGap(rows: readonly RowWords[], g: Interval): number {
  let narrowest = Infinity;
  let counted = 0;
  for (const row of rows) {
    // A row whose cell spans the strip has no gap across it: a title or a header over the
    // table may, a row among those that show the gap may not (a label of the body set over
    // where another row's label breaks).
    if (row.crosses(g.x0 + 0.01, g.x1 - 0.01)) {
      if (counted > 0) return 0;
      continue;
    }
    const last = row.lastEndingBy(g.x0 + 0.01);
    const next = row.firstStartingFrom(g.x1 - 0.01);
    if (!last || !next) continue;
    const before = last.x + last.width;
    const after = next.x;
    counted++;
    narrowest = Math.min(narrowest, after - before);
  }
  return counted >= GAP_ROWS ? narrowest : 0;
}

/** Rows with words on both sides of the strip. */
function rowsOnBothSides(rows: readonly RowWords[], g: Interval): number {
  return rows.filter((row) => hasWordsOnBothSides(row, g)).length;
}

function hasWordsOnBothSides(row: RowWords, g: Interval): boolean {
  return row.endsBy(g.x0 + 0.01) && row.startsFrom(g.x1 - 0.01);
}

/** Most rows with words on both sides of the strip hold a number right beside it on each side. */
function numbersOnBothSides(rows: readonly RowWords[], g: Interval): boolean {
  let both = 0;
  let numeric = 0;
  for (const row of rows) {
    const before = row.lastEndingBy(g.x0 + 0.01);
    const after = row.firstStartingFrom(g.x1 - 0.01);
    if (!before || !after) continue;
    both++;
    // A currency sign stands before its amount: a column of its own left of the amounts (¥),
    // never after one ("0 €" is one cell); a word space before the amount, it is the amount's
    // own sign ("€ 32,80").
    const ownSign = CURRENCY.test(before.text.trim()) && after.x - (before.x + before.width) < OWN_SIGN_GAP_EMS * before.fontSize;
    if (isNumber(before.text) && isNumber(after.text) && !CURRENCY.test(after.text.trim()) && !ownSign) numeric++;
  }
  return both > 0 && numeric >= NUMERIC_SIDES_SHARE * both;
}
