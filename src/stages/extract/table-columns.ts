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
import { median } from "../../text/text-geometry.js";
import { ruleThroughLine } from "./ruled-lines.js";
import type { Rule } from "./rulings.js";

export interface ColumnOptions {
  /** A gap wider than this × font size separates cells whatever stands on either side. */
  gutterRatio: number;
  /** A gap wider than this × font size is a word space. */
  spaceRatio: number;
}

interface Interval {
  x0: number;
  x1: number;
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
export function columnBoundaries(rows: readonly (readonly TextRun[])[], options: ColumnOptions, rules: readonly Rule[] = []): Interval[] {
  const filled = rows.filter((r) => r.length > 0);
  if (filled.length === 0) return [];
  const all = filled.flat();
  const size = median(all.map((w) => w.fontSize)) || 10;
  let left = Infinity;
  let right = -Infinity;
  for (const w of all) {
    left = Math.min(left, w.x);
    right = Math.max(right, w.x + w.width);
  }
  const spans = filled.map(rowSpans);
  const free = freeStrips(spans, 0, left, right);
  let ends: number[] | undefined;
  const narrow = NUMBER_GAP_EMS * size;
  const wide = options.gutterRatio * size;
  const consistent = CONSISTENT_GAP_EMS * size;
  const phrases = filled.map((row) => phraseSpans(row, options.gutterRatio, right - left));
  /** A strip under a gutter that numbers stand on both sides of, or that every row shows as a gutter. */
  const narrowBoundary = (g: Interval) => g.x1 - g.x0 > narrow && (numbersOnBothSides(filled, g) || narrowestRowGap(filled, g) >= wide);
  /** A strip free in every row that is a word space inside some row's phrase (a header "Admissions 2024" over two columns of figures, its word space where their white is). */
  const wordSpace = (g: Interval) => phrases.some((row) => row.some((s) => s.x0 < g.x0 && s.x1 > g.x1));
  /** Wide enough to be a boundary of some kind. */
  const wideEnough = (g: Interval) => g.x1 - g.x0 >= wide || g.x1 - g.x0 > narrow;
  const freeBoundaries = free.filter((g) => g.x1 - g.x0 >= wide || (g.x1 - g.x0 >= consistent && rowsOnBothSides(filled, g) >= CONSISTENT_ROWS) || (narrowBoundary(g) && !wordSpace(g)));
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
  const spansWhole = (row: readonly Interval[], g: Interval) => row.every((s) => !overlaps(s, g) || (s.x0 <= g.x0 && s.x1 >= g.x1));
  const nearlyFree = freeStrips(phrases, Math.floor(SPANNING_ROWS_SHARE * filled.length), left, right)
    .flatMap((g) => outside(g, freeBoundaries))
    .filter(wideEnough)
    .map((g) => leastCovered(phrases, (ends ??= spanEnds(phrases)), g))
    .filter((g) => {
      const first = filled.findIndex((row) => hasWordsOnBothSides(row, g) && !row.some((w) => overlaps({ x0: w.x, x1: w.x + w.width }, g)));
      const body = first < 0 ? filled.length : first;
      return filled.every((_, r) => spansWhole(r < body || phrases[r]!.length === 1 ? phrases[r]! : spans[r]!, g));
    });
  const boundaries = [...freeBoundaries, ...nearlyFree.filter((g) => g.x1 - g.x0 >= wide || narrowBoundary(g))].sort((a, b) => a.x0 - b.x0);
  // A drawn rule between the words of the rows is a boundary however narrow the white beside it;
  // it stands for the white strip it runs in.
  const ruled = rules.length ? ruleBoundaries(filled, rules, size) : [];
  if (ruled.length === 0) return withoutLoneColumns(boundaries, filled, new Set());
  const slack = RULE_SLACK_EMS * size;
  // In a table boxed by rules, the rules are all its columns: white inside a cell is the cell's.
  const strips = isBoxed(filled, rules, left - slack, right + slack) ? [] : boundaries.filter((b) => !ruled.some((r) => r.x0 >= b.x0 - slack && r.x0 <= b.x1 + slack));
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
      if (row.some((w) => w.x + slack < rule.at && w.x + w.width - slack > rule.at)) through++;
      else if (row.some((w) => w.x + w.width - slack <= rule.at) && row.some((w) => w.x + slack >= rule.at)) between++;
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
function withoutLoneColumns(boundaries: Interval[], rows: readonly (readonly TextRun[])[], drawn: ReadonlySet<Interval>): Interval[] {
  const out = [...boundaries];
  if (rows.length < MIN_ROWS_FOR_LONE_COLUMNS) return out;
  // A drawn rule stays: a column of one row's words merges across a boundary of white only, and
  // a column between two rules is a column however few rows fill it.
  const removable = (k: number) => k >= 0 && k < out.length && !drawn.has(out[k]!);
  for (;;) {
    const support = Array.from({ length: out.length + 1 }, () => new Set<number>());
    rows.forEach((row, r) => row.forEach((w) => support[columnOf(out, w)]!.add(r)));
    const lone = support.findIndex((rowsIn, k) => rowsIn.size === 0 || (rowsIn.size === 1 && (removable(k - 1) || removable(k))));
    if (lone < 0 || out.length === 0) return out;
    if (support[lone]!.size === 0) {
      // Two boundaries with nothing between them (a spanning cell's edge, a rule drawn double) are one.
      const first = lone > 0 ? lone - 1 : 0;
      out.splice(!removable(first) && removable(lone) ? lone : first, 1);
      continue;
    }
    const [r] = support[lone]!;
    const words = rows[r!]!.filter((w) => columnOf(out, w) === lone);
    const x0 = Math.min(...words.map((w) => w.x));
    const x1 = Math.max(...words.map((w) => w.x + w.width));
    const before = rows[r!]!.filter((w) => w.x + w.width <= x0).reduce((m, w) => Math.max(m, w.x + w.width), -Infinity);
    const after = rows[r!]!.filter((w) => w.x >= x1).reduce((m, w) => Math.min(m, w.x), Infinity);
    // Merge towards the row's own nearer word; at an edge of the table or beside a rule, towards the only neighbour.
    const nearerLeft = lone === out.length || x0 - before <= after - x1;
    const left = removable(lone - 1) && (nearerLeft || !removable(lone));
    out.splice(left ? lone - 1 : lone, 1);
  }
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

/** The x-intervals a row's words cover, merged. */
function rowSpans(words: readonly TextRun[]): Interval[] {
  const sorted = [...words].sort((a, b) => a.x - b.x);
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
  for (const w of [...words].sort((a, b) => a.x - b.x)) {
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

/**
 * The x-intervals a row's phrases cover (phrasesOf). A phrase across more than
 * PHRASE_WIDTH_SHARE of the table is a line of text (prose between the items of a list), no
 * cell spanning columns: its words stay apart.
 */
function phraseSpans(words: readonly TextRun[], gutterRatio: number, tableWidth: number): Interval[] {
  return phrasesOf(words, gutterRatio).flatMap((phrase) => {
    const x0 = phrase[0]!.x;
    const x1 = Math.max(...phrase.map((w) => w.x + w.width));
    return x1 - x0 > PHRASE_WIDTH_SHARE * tableWidth ? rowSpans(phrase) : [{ x0, x1 }];
  });
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
export function rowCells(rows: readonly (readonly TextRun[])[], boundaries: readonly Interval[], gutterRatio: number): TableCells {
  const extents: Interval[] = Array.from({ length: boundaries.length + 1 }, () => ({ x0: Infinity, x1: -Infinity }));
  for (const row of rows) {
    for (const w of row) {
      const e = extents[columnOf(boundaries, w)]!;
      e.x0 = Math.min(e.x0, w.x);
      e.x1 = Math.max(e.x1, w.x + w.width);
    }
  }
  const out: TableCells = { cells: [], spans: [] };
  for (const row of rows) {
    const cells: TextRun[][] = Array.from({ length: boundaries.length + 1 }, () => []);
    const spans = cells.map(() => 1);
    for (const phrase of phrasesOf(row, gutterRatio)) {
      const spanning = phrase.length > 1 && phrase.some((w) => boundaries.some((b) => w.x < b.x1 && w.x + w.width > b.x0));
      if (!spanning) {
        for (const w of phrase) cells[columnOf(boundaries, w)]!.push(w);
        continue;
      }
      const span = { x0: phrase[0]!.x, x1: Math.max(...phrase.map((w) => w.x + w.width)) };
      const under = extents.flatMap((e, j) => (overlaps(e, span) ? [j] : []));
      const first = under[0] ?? columnOf(boundaries, phrase[0]!);
      cells[first]!.push(...phrase);
      spans[first] = Math.max(spans[first]!, (under[under.length - 1] ?? first) - first + 1);
    }
    out.cells.push(cells);
    out.spans.push(spans);
  }
  return out;
}

/** Share of a table's width from which a phrase is a line of text, not a cell: phraseSpans. */
const PHRASE_WIDTH_SHARE = 0.5;

/** Maximal intervals inside (left, right) covered by at most `allowed` rows. */
function freeStrips(spans: readonly Interval[][], allowed: number, left: number, right: number): Interval[] {
  const events: [number, number][] = [];
  for (const row of spans) for (const s of row) events.push([s.x0, 1], [s.x1, -1]);
  events.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Interval[] = [];
  let cover = 0;
  let openAt: number | undefined;
  for (const [x, d] of events) {
    const before = cover;
    cover += d;
    if (before > allowed && cover <= allowed) openAt = x;
    else if (before <= allowed && cover > allowed && openAt !== undefined) {
      if (x > openAt && openAt > left && x < right) out.push({ x0: openAt, x1: x });
      openAt = undefined;
    }
  }
  return out;
}

/** Every span's ends, sorted, without repeats: where leastCovered cuts a strip. */
function spanEnds(spans: readonly Interval[][]): number[] {
  return [...new Set(spans.flat().flatMap((s) => [s.x0, s.x1]))].sort((a, b) => a - b);
}

/**
 * The widest part of a strip that the fewest rows cover: between a column of numbers and the
 * next, right-aligned ones of varying widths leave the strip's right part to some rows, and only
 * the part no number reaches is the columns' boundary, under a year centred over both.
 */
function leastCovered(spans: readonly Interval[][], ends: readonly number[], g: Interval): Interval {
  // `ends` (spanEnds) strictly inside the strip cut it.
  const from = firstIndex(ends.length, (k) => ends[k]! > g.x0);
  const to = firstIndex(ends.length, (k) => ends[k]! >= g.x1);
  const cuts = [g.x0, ...ends.slice(from, to), g.x1];
  // How many rows cover each piece between two cuts. Every span end inside the strip is a cut,
  // so a piece lies inside a span or outside it, and a row's spans (disjoint) cover a piece at
  // most once: each span adds one to the pieces it covers, a range found by binary search.
  const pieces = cuts.length - 1;
  const diff = new Int32Array(pieces + 1);
  for (const row of spans) {
    for (const s of row) {
      const lo = firstIndex(pieces, (k) => cuts[k + 1]! > s.x0);
      const hi = firstIndex(pieces, (k) => cuts[k]! >= s.x1) - 1;
      if (lo <= hi) {
        diff[lo]!++;
        diff[hi + 1]!--;
      }
    }
  }
  let best: { x0: number; x1: number; cover: number } | undefined;
  let open: { x0: number; x1: number; cover: number } | undefined;
  let cover = 0;
  for (let k = 0; k < pieces; k++) {
    cover += diff[k]!;
    open = open && open.cover === cover ? { ...open, x1: cuts[k + 1]! } : { x0: cuts[k]!, x1: cuts[k + 1]!, cover };
    if (!best || cover < best.cover || (cover === best.cover && open.x1 - open.x0 > best.x1 - best.x0)) best = { ...open };
  }
  return best ? { x0: best.x0, x1: best.x1 } : g;
}

/** The first index in [0, n) for which `past` holds (it holds from some index on), or n. */
function firstIndex(n: number, past: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (past(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
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
function narrowestRowGap(rows: readonly (readonly TextRun[])[], g: Interval): number {
  let narrowest = Infinity;
  let counted = 0;
  for (const row of rows) {
    // A row whose cell spans the strip has no gap across it: a title or a header over the
    // table may, a row among those that show the gap may not (a label of the body set over
    // where another row's label breaks).
    if (row.some((w) => w.x < g.x1 - 0.01 && w.x + w.width > g.x0 + 0.01)) {
      if (counted > 0) return 0;
      continue;
    }
    const before = row.reduce((m, w) => (w.x + w.width <= g.x0 + 0.01 ? Math.max(m, w.x + w.width) : m), -Infinity);
    const after = row.reduce((m, w) => (w.x >= g.x1 - 0.01 ? Math.min(m, w.x) : m), Infinity);
    if (before === -Infinity || after === Infinity) continue;
    counted++;
    narrowest = Math.min(narrowest, after - before);
  }
  return counted >= GAP_ROWS ? narrowest : 0;
}

/** Rows with words on both sides of the strip. */
function rowsOnBothSides(rows: readonly (readonly TextRun[])[], g: Interval): number {
  return rows.filter((row) => hasWordsOnBothSides(row, g)).length;
}

function hasWordsOnBothSides(row: readonly TextRun[], g: Interval): boolean {
  return row.some((w) => w.x + w.width <= g.x0 + 0.01) && row.some((w) => w.x >= g.x1 - 0.01);
}

/** Most rows with words on both sides of the strip hold a number right beside it on each side. */
function numbersOnBothSides(rows: readonly (readonly TextRun[])[], g: Interval): boolean {
  let both = 0;
  let numeric = 0;
  for (const row of rows) {
    const before = row.filter((w) => w.x + w.width <= g.x0 + 0.01).sort((a, b) => b.x + b.width - (a.x + a.width))[0];
    const after = row.filter((w) => w.x >= g.x1 - 0.01).sort((a, b) => a.x - b.x)[0];
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
