/**
 * Lines → paragraphs. A line starts a new paragraph when any of the cues real typesetting uses
 * says so (docs/extraction.md §5, in the order startsParagraph tries them):
 * - a vertical gap wider than `paragraphRatio` × the page's line gap (1.45; see typicalLineGap),
 *   the cue of word processors and web-to-PDF output;
 * - a change of font size (a heading, a footnote) or between monospaced and proportional text;
 * - a short bold line over a line that is not bold (a heading run on into its text, §5.11), and a
 *   division's label over its title ("NOTE A" over "Significant Accounting Policies");
 * - a list item's marker (§5.7); a bullet drawn on a line of its own stays with its text;
 * - a first-line indent of more than `indentRatio` × the font size, when the line after it
 *   returns to the margin (LaTeX sets paragraphs with no extra gap, only this indent);
 * - the line before it ended short: its first word would have fitted there, so the break was
 *   deliberate. This works for justified and ragged-right text alike.
 * Monospaced runs of lines (code listings) become `verbatim` paragraphs that keep their line
 * breaks and indentation even when the page is reflowed; in a document set in a typewriter face
 * throughout, and for list items in typewriter type, monospaced prose is read as prose (§5.9).
 */
import type { Line, Paragraph } from "../../core/records.js";
import { blankCodeLines, isBoldLine, isCapitals, median, sameFontSize } from "../../text/text-geometry.js";
import { followsMarker, isListMarker, letterMarker, startsWithBullet, startsWithListMarker } from "../../text/list-markers.js";
import { paragraphGaps, type GapEvidence, type LineKind } from "./paragraph-gaps.js";
import { breaksWordBefore } from "../../text/word-breaks.js";
import { HEADING_SIZE_RATIO } from "../../text/heading-detection.js";

export interface ParagraphOptions {
  /** A gap between baselines wider than this × the page's median gap starts a paragraph. */
  paragraphRatio: number;
  /** A first line indented by more than this × font size starts a paragraph. */
  indentRatio: number;
  /** Used to estimate the width of a word space when testing for a short last line. */
  spaceRatio: number;
  /** Monospaced lines are typewriter prose here, not code (set for a block that reads as prose; see readsAsProse). */
  typewriter?: boolean;
  /**
   * The document is set in a typewriter face throughout (most of its characters are monospaced:
   * an RFC, a transcript): monospaced text is prose unless a stanza of it looks like code.
   */
  typewriterDocument?: boolean;
}

/** Left edges closer than this × font size are aligned (OCR layers jitter by a point or so). */
const ALIGNED_RATIO = 0.4;

function centredOn(line: Line, other: Line): boolean {
  return aligned(line.x + line.width / 2, other.x + other.width / 2, line.fontSize);
}

function aligned(x1: number, x2: number, fontSize: number): boolean {
  return Math.abs(x1 - x2) <= ALIGNED_RATIO * fontSize;
}

/** What a page's gaps say: its line gap, and where the gaps of each kind of line start paragraphs. */
export interface PageGaps {
  lineGap: number;
  byGaps: GapEvidence;
}

/**
 * Measures the gaps of a page's flows together (a letter's address block and its body, cut
 * apart by the reference block beside the address, are still one page set one way). `fallbackGap`
 * is the document's line gap (see typicalLineGap), used on a page with too few lines to measure
 * its own: a title page, a cover letter's last page.
 */
export function measurePageGaps(flows: readonly { lines: readonly Line[]; flowBreaks?: ReadonlySet<number> }[], options: ParagraphOptions, fallbackGap = 0): PageGaps {
  const gaps = flows.flatMap((f) => lineGaps(f.lines, f.flowBreaks));
  const lineGap = gaps.length >= MIN_GAPS_FOR_PAGE_MEASURE || fallbackGap <= 0 ? typicalLineGap(gaps) : fallbackGap;
  const byGaps = paragraphGaps(
    flows.flatMap((f) => sizedGaps(f.lines, f.flowBreaks ?? new Set()).flatMap(({ gap, kind }) => (kind ? [{ gap, kind }] : []))),
    options.paragraphRatio,
    typicalLineGap,
  );
  return { lineGap, byGaps };
}

/**
 * Splits lines into paragraphs, by the gaps of the page they are on (measurePageGaps; by
 * default, of these lines alone). `flowBreaks` are the lines where the text moves on to the top
 * of the next column: a paragraph continues there unless the column's first line or the last
 * line before says it does not.
 */
export function segmentParagraphs(
  lines: readonly Line[],
  options: ParagraphOptions,
  fallbackGap = 0,
  flowBreaks: ReadonlySet<number> = new Set(),
  page: PageGaps = measurePageGaps([{ lines, flowBreaks }], options, fallbackGap),
): Paragraph[] {
  if (lines.length === 0) return [];
  const { lineGap, byGaps } = page;
  const paragraphs: Paragraph[] = [];
  let start = 0;
  const columns = columnsOf(lines, flowBreaks);
  // Whether each paragraph is the next item of a tight list after the one before it.
  const tight: boolean[] = [];
  let nextTight = false;
  for (let i = 1; i < lines.length; i++) {
    const item = startsWithListMarker(lines[start]!.text) || isListMarker(lines[start]!.text) ? lines[start]! : undefined;
    const column = columns.find((c) => i < c.from + c.lines.length)!;
    const breaks = flowBreaks.has(i) ? !continuesAcrossColumns(lines, i, options) : startsParagraph(column, i - column.from, lineGap, byGaps, options, item);
    if (breaks) {
      paragraphs.push(makeParagraph(lines, start, i, options));
      tight.push(nextTight);
      nextTight = !flowBreaks.has(i) && nextItemOfTightList(lines, i, lineGap, item, options);
      start = i;
    }
  }
  paragraphs.push(makeParagraph(lines, start, lines.length, options));
  tight.push(nextTight);
  // An item of more than a few lines is a paragraph of its own, list or not: the numbered
  // clauses of a contract or a licence, set without space between them, are paragraphs.
  const short = (p: Paragraph) => p.end - p.start <= MAX_BLOCK_ITEM_LINES;
  const marked = paragraphs.map((p, k) => (tight[k] && short(p) && short(paragraphs[k - 1]!) ? { ...p, sameBlock: true as const } : p));
  if (options.typewriter) return marked;
  // In a document set in a typewriter face throughout (an RFC, a transcript), monospaced text is
  // typewriter prose: each stanza between blank lines is judged on its own, and only what looks
  // like code or a diagram stays verbatim; the rest is split into paragraphs, list items and
  // headings as any other text. Elsewhere a monospaced block is code or a sample to be copied as
  // it is (a licence's notice template), unless it is a list item that reads as prose (a
  // contract's conditions set in typewriter type).
  return marked.flatMap((p) => {
    if (p.kind !== "verbatim") return [p];
    const parts = options.typewriterDocument
      ? stanzas(lines, p.start, p.end).map(([from, to]) => ({ from, to, prose: !looksLikeCode(lines.slice(from, to)) }))
      : [{ from: p.start, to: p.end, prose: startsWithBullet(lines[p.start]!.text) || (startsWithListMarker(lines[p.start]!.text) && readsAsProse(lines.slice(p.start, p.end))) }];
    const out: Paragraph[] = [];
    for (const part of parts) {
      const last = out[out.length - 1];
      if (!part.prose) {
        if (last?.kind === "verbatim" && last.end === part.from) last.end = part.to;
        else out.push({ start: part.from, end: part.to, kind: "verbatim" });
        continue;
      }
      const breaks = new Set([...flowBreaks].filter((b) => b > part.from && b < part.to).map((b) => b - part.from));
      const prose = segmentParagraphs(lines.slice(part.from, part.to), { ...options, typewriter: true }, fallbackGap, breaks, page);
      out.push(...prose.map((q) => ({ ...q, start: q.start + part.from, end: q.end + part.from })));
    }
    if (p.sameBlock && out[0]) out[0] = { ...out[0], sameBlock: true };
    return out;
  });
}

/**
 * A listing's stanzas: runs of lines with no blank line between them (a gap of more than 1.5 of
 * the listing's smallest line step), as [from, to) indices.
 */
function stanzas(lines: readonly Line[], start: number, end: number): [number, number][] {
  let pitch = Infinity;
  for (let i = start + 1; i < end; i++) {
    const step = lines[i - 1]!.y - lines[i]!.y;
    if (step > 0) pitch = Math.min(pitch, step);
  }
  const out: [number, number][] = [];
  let from = start;
  for (let i = start + 1; i < end; i++) {
    const step = lines[i - 1]!.y - lines[i]!.y;
    if (step <= 0 || step > 1.5 * pitch) {
      out.push([from, i]);
      from = i;
    }
  }
  out.push([from, end]);
  return out;
}

/**
 * A stanza of typewriter text that is code or a drawing rather than prose: code's symbols in
 * more than two characters in a hundred (prose names a <CRLF> now and then), few letters
 * besides a leading section number, or three lines and more of a few tokens each (a table, a
 * list of commands, a diagram's labels).
 */
function looksLikeCode(lines: readonly Line[]): boolean {
  const text = lines
    .map((l) => l.text)
    .join(" ")
    .replace(/^\s*\d{1,3}(?:\.\d{1,3})*\.?\s/u, "")
    .replace(CITATION, "");
  const { inked, letters, symbols, words } = inkOf(text);
  if (inked === 0) return true;
  return symbols > 0.02 * inked || letters < 0.6 * inked || (lines.length >= 3 && words < 3.5 * lines.length);
}

/** Lines a list item may have to share a block with the items around it (a point, not a clause). */
const MAX_BLOCK_ITEM_LINES = 4;

/**
 * Line i opens the next item of a list set tight: the paragraph before it is a list item too,
 * and no more space comes between the two items than between the lines of one (LaTeX's
 * \tightlist, a word processor's list without spacing). Such a list is one block, an item on
 * each line; a list with space between its items (LaTeX's default itemize: 1.3–1.5 line gaps)
 * is a paragraph per item.
 */
function nextItemOfTightList(lines: readonly Line[], i: number, lineGap: number, item: Line | undefined, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  if (!item || lineGap <= 0 || !opensListItem(prev, line, item)) return false;
  if (!sameFontSize(line.fontSize, prev.fontSize) || isCode(line, o) || isCode(prev, o)) return false;
  return (prev.y - line.y) / line.fontSize <= TIGHT_ITEM_GAP * lineGap;
}

/**
 * Items this close (× the page's line gap) follow each other with no space between: position
 * rounding and a taller glyph move a baseline by a few per cent, a list's spacing by 30 % or more.
 */
const TIGHT_ITEM_GAP = 1.15;

/**
 * A gap inside a listing that is a whole number of its own pitch (the smallest step between the
 * monospaced lines just before) is blank lines of the program, not the end of the listing.
 */
function blankLinesInListing(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const line = lines[i]!;
  let pitch = Infinity;
  for (let j = i - 1; j >= Math.max(1, i - LISTING_LOOKBACK) && isCode(lines[j - 1]!, o) && isCode(lines[j]!, o); j--) {
    const step = lines[j - 1]!.y - lines[j]!.y;
    if (step > 0 && sameFontSize(lines[j]!.fontSize, line.fontSize)) pitch = Math.min(pitch, step);
  }
  return pitch < Infinity && blankCodeLines(lines[i - 1]!.y - line.y, pitch) > 0;
}

/** Lines of a listing looked back on to find its pitch: enough to reach it past a blank line, bounded so a long page costs little. */
const LISTING_LOOKBACK = 8;

function makeParagraph(lines: readonly Line[], start: number, end: number, o: ParagraphOptions): Paragraph {
  const verbatim = lines.slice(start, end).every((l) => isCode(l, o));
  return { start, end, kind: verbatim ? "verbatim" : "text" };
}

/**
 * A page with fewer gaps between same-size lines than this uses the document's line gap: with
 * fewer, one paragraph gap moves the median of the smaller half (docs/extraction.md §5.1).
 */
const MIN_GAPS_FOR_PAGE_MEASURE = 6;

/** The gaps between consecutive lines of one size, in units of their font size. */
export function lineGaps(lines: readonly Line[], flowBreaks: ReadonlySet<number> = new Set()): number[] {
  return sizedGaps(lines, flowBreaks).map((g) => g.gap);
}

/** The same gaps, each with the kind of line on both sides of it, or none when the two differ (see paragraph-gaps.ts). */
function sizedGaps(lines: readonly Line[], flowBreaks: ReadonlySet<number>): { gap: number; kind?: LineKind }[] {
  const gaps: { gap: number; kind?: LineKind }[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (flowBreaks.has(i)) continue;
    const prev = lines[i - 1]!;
    const line = lines[i]!;
    const gap = prev.y - line.y;
    // A bullet on a line of its own stands a point or two off its text's baseline: no line gap.
    if (gap <= 0 || !sameFontSize(prev.fontSize, line.fontSize) || isListMarker(prev.text)) continue;
    const sameKind = Math.round(prev.fontSize * 10) === Math.round(line.fontSize * 10) && isMonospace(prev) === isMonospace(line);
    gaps.push({ gap: gap / line.fontSize, ...(sameKind ? { kind: kindOf(line) } : {}) });
  }
  return gaps;
}

function kindOf(line: Line): LineKind {
  return { fontSize: line.fontSize, monospace: isMonospace(line) };
}

/**
 * The line gap, in units of font size so that 9 pt footnotes and 11 pt body text share one
 * measure: the median of the smaller half of the gaps. On a full page that is the median gap;
 * on a short page with as many paragraph gaps as line gaps (a notice of two paragraphs) it is
 * still the line gap, where the plain median would fall between the two and see no paragraph.
 */
export function typicalLineGap(gaps: readonly number[]): number {
  const sorted = [...gaps].sort((a, b) => a - b);
  return median(sorted.slice(0, Math.ceil(sorted.length / 2)));
}

/** The lines between flow breaks (one column of a section each), with where each begins. */
function columnsOf(lines: readonly Line[], flowBreaks: ReadonlySet<number>): { from: number; lines: readonly Line[] }[] {
  const starts = [0, ...[...flowBreaks].filter((b) => b > 0 && b < lines.length).sort((a, b) => a - b)];
  return starts.map((from, k) => ({ from, lines: lines.slice(from, starts[k + 1] ?? lines.length) }));
}

/**
 * Whether line i of its column starts a paragraph; `item` is the first line of the current
 * paragraph when it opens a list item. Only the column is looked at: the lines of the next
 * column say nothing about where this one's margin is.
 */
function startsParagraph(column: { lines: readonly Line[] }, i: number, lineGap: number, byGaps: GapEvidence, o: ParagraphOptions, item?: Line): boolean {
  const { lines } = column;
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  const gap = prev.y - line.y;
  // A bullet drawn on a line of its own (set a little higher or lower than its text) opens the
  // item whose text stands right of it: one paragraph.
  if (isListMarker(prev.text) && line.x > prev.x && Math.abs(gap) < line.fontSize) return false;
  // A line above the previous one: the text went back up (a new column, a float).
  if (gap <= 0) return true;
  if (!sameFontSize(line.fontSize, prev.fontSize)) return true;
  if (isCode(line, o) && isCode(prev, o) && blankLinesInListing(lines, i, o)) return false;
  // A line that ends inside a word ("Drei-" + "ecke") never ends a paragraph, whatever gap a
  // figure or a float leaves before the rest of the word.
  if (breaksWordBefore(prev.text, line.text)) return false;
  const gapped = byGaps.thresholdFor(kindOf(line));
  if (lineGap > 0 && gap / line.fontSize > (gapped ?? o.paragraphRatio * lineGap)) return true;
  if (isCode(line, o) !== isCode(prev, o)) return true;
  // Code keeps its own indentation and short lines: only gaps and font changes split it.
  if (isCode(line, o)) return false;
  // Typewriter prose is wrapped ragged by hand and marks its paragraphs with blank lines (the
  // stanzas it was cut into): within one, only a list item starts a paragraph.
  if (o.typewriter) return opensListItem(prev, line, item, () => ranToMargin(lines, i, o));
  // A short line set in bold over a line that is not: a heading run on into its text with no
  // space between ("CALENDAR OF EVENTS" over "Oct. 24 – Staff…"); a bold phrase that wraps runs
  // to the margin first.
  // Not a run-in head that its paragraph goes on from: a label ending in a colon ("Input:"), a
  // theorem's or a definition's head ("Definition 1", "Bemerkung 2 (…)").
  if (isBoldLine(prev) && !isBoldLine(line) && endsShortOfColumn(lines, i, o) && !RUN_IN_HEAD.test(prev.text.trim())) return true;
  // A line that is only a division's label ("NOTE A", "TÍTULO I", "CHAPTER 3") stands over its
  // title, which is a paragraph of its own when it is set otherwise (not in capitals like the label).
  if (LABEL_LINE.test(prev.text.trim()) && !isCapitals(line.text)) return true;
  // Each list item is a paragraph; its wrapped lines hang under its text, right of the marker.
  if (opensListItem(prev, line, item, () => ranToMargin(lines, i, o))) return true;
  if (item && line.x > item.x + 0.5 * line.fontSize) return false;
  // A line that starts outside the previous one's horizontal extent is not its continuation.
  if (line.x > prev.x + prev.width || prev.x > line.x + line.width) return true;
  if (isIndentedFirstLine(lines, i, o)) return true;
  // Centred and right-aligned lines (titles, letterheads, addresses) break where the author
  // chose; without a gap they stay one paragraph.
  if (!aligned(line.x, prev.x, line.fontSize)) return false;
  return gapped === undefined && followsShortLine(lines, i, o);
}

/**
 * The line opens a list item. Not "COVID-" + "19. In the plan…" (a word broken at its hyphen),
 * nor "… were received from" + "A. Novak.": after a line that stops on a word or a comma, a
 * letter marker is a name's initial, unless it is the next letter of the list the line is in
 * ("a) … and" + "b) …"). Nor a dash and a word in lower case after a line that ran to the
 * margin (`prevFull`, asked only then) and stopped on a word or a comma: the line broke because
 * it was full, and the dash is the sentence's own ("Recurrent neural networks — LSTM networks,
 * to be exact" + "— are used in…"); a list opens after a line that ends where its author chose.
 */
function opensListItem(prev: Line, line: Line, item: Line | undefined, prevFull: () => boolean = () => false): boolean {
  if (!startsWithListMarker(line.text) || /[\p{L}\p{N}][-\u2010\u2011\u00AD]$/u.test(prev.text)) return false;
  const midSentence = MID_SENTENCE_END.test(prev.text.trimEnd());
  if (midSentence && !item && DASH_THEN_LOWER_CASE.test(line.text) && prevFull()) return false;
  const letter = letterMarker(line.text);
  if (letter === undefined || !midSentence) return true;
  const itemLetter = item ? letterMarker(item.text) : undefined;
  return itemLetter !== undefined && followsMarker(itemLetter, letter);
}

/**
 * At the top of a new column: the paragraph goes on when the last line of the column before ran
 * to its margin and this line is neither indented against the line under it nor of another size.
 */
function continuesAcrossColumns(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  if (!sameFontSize(prev.fontSize, line.fontSize) || isCode(prev, o) !== isCode(line, o)) return false;
  if (breaksWordBefore(prev.text, line.text)) return true;
  const next = lines[i + 1];
  if (next && line.x - next.x > o.indentRatio * line.fontSize) return false;
  let right = prev.x + prev.width;
  for (let j = Math.max(0, i - 4); j < i; j++) right = Math.max(right, lines[j]!.x + lines[j]!.width);
  return right - (prev.x + prev.width) <= firstWordWidth(line) + 2 * o.spaceRatio * line.fontSize;
}

/** Lines this many before and after a line show how its block is set. */
const SETTING_WINDOW = 2;

/**
 * Line i stands among lines set flush right (a chart's labels, an address at the right margin):
 * they all end at one x, and the others start wherever their text makes them, so line i's start
 * right of the line before is no indent. Justified text ends at one x too, but starts at one.
 */
function flushRightAround(lines: readonly Line[], i: number): boolean {
  const line = lines[i]!;
  const around = lines.slice(Math.max(0, i - SETTING_WINDOW), i + SETTING_WINDOW + 1).filter((l) => sameFontSize(l.fontSize, line.fontSize));
  if (around.length < 3) return false;
  const ends = around.map((l) => l.x + l.width);
  const starts = around.filter((l) => l !== line).map((l) => l.x);
  return aligned(Math.max(...ends), Math.min(...ends), line.fontSize) && !aligned(Math.max(...starts), Math.min(...starts), line.fontSize);
}

/** The first line of a paragraph set with an indent and no gap: the text returns to the margin after it. */
function isIndentedFirstLine(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  if (line.x - prev.x <= o.indentRatio * line.fontSize) return false;
  if (centredOn(line, prev) || flushRightAround(lines, i)) return false;
  const next = lines[i + 1];
  // A hanging indent (a list item's continuation) or a centred block does not return.
  if (!next) return true;
  return sameFontSize(next.fontSize, line.fontSize) && aligned(next.x, prev.x, line.fontSize);
}

/**
 * The line before ended short of the margin although this line's first word would have fitted
 * there: the break was deliberate. It ends a paragraph when it also ended a sentence or clause,
 * when this line runs on to the margin (a heading above its text), or when it is set in larger
 * type than this line (a 12 pt heading over 11 pt text of one short line: the sizes are too
 * close to count as a change of size, which is what makes them a heading and its text). A short line followed by
 * another short one (an address, a list of names) is a block set line by line, and stays one.
 */
function followsShortLine(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  if (ranToMargin(lines, i, o)) return false;
  const right = rightMargin(lines, i);
  const reachesMargin = right - (line.x + line.width) <= FULL_LINE_SLACK * (right - line.x);
  return CLAUSE_END.test(prev.text) || reachesMargin || prev.fontSize >= HEADING_SIZE_RATIO * line.fontSize;
}

/** The line before line i left no room at the margin for line i's first word: it broke because it was full. */
function ranToMargin(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  const line = lines[i]!;
  return rightMargin(lines, i) - (prev.x + prev.width) <= firstWordWidth(line) + 2 * o.spaceRatio * line.fontSize;
}

/**
 * The line before line i ends short of its column's right edge (the furthest any of the column's
 * lines reaches, whatever its size) by more than line i's first word: it did not break because it
 * was full. Unlike ranToMargin, which measures against the lines of its own size around it, this
 * holds for a short heading among lines of its own kind (a two-line title block).
 */
function endsShortOfColumn(lines: readonly Line[], i: number, o: ParagraphOptions): boolean {
  const prev = lines[i - 1]!;
  let right = -Infinity;
  for (const l of lines) right = Math.max(right, l.x + l.width);
  return right - (prev.x + prev.width) > firstWordWidth(lines[i]!) + 2 * o.spaceRatio * lines[i]!.fontSize;
}

/**
 * The head a paragraph runs on from: a label that ends in a colon, or the name of a theorem-like
 * block (LaTeX's theorem environments, in English, German, Spanish and French) with its number.
 */
const RUN_IN_HEAD = /:$|^(?:definition|theorem|lemma|corollary|proposition|remark|example|proof|claim|conjecture|axiom|exercise|problem|solution|notation|observation|assumption|hypothesis|satz|korollar|bemerkung|beispiel|beweis|aufgabe|folgerung|definición|teorema|lema|corolario|ejemplo|demostración|observación|définition|théorème|lemme|corollaire|remarque|exemple|preuve|démonstration)\b/iu;

/** A word in capitals and a number, a letter or a roman numeral, and nothing else: a division's label. */
const LABEL_LINE = /^\p{Lu}{2,}\s+(?:\d{1,3}|[A-Z]|[IVXLC]{1,7})[.:]?$/u;

/** A line stopping on a word in lower case or on a comma stops mid-sentence. */
const MID_SENTENCE_END = /[\p{Ll},]$/u;

/** A dash, a space, and a word in lower case: "— are used in…". */
const DASH_THEN_LOWER_CASE = /^[–—-]\s+\p{Ll}/u;

/** A line that ends within this share of the column's width from the margin is a full line (ragged right falls short by up to a long word). */
const FULL_LINE_SLACK = 0.1;

/** Punctuation that ends a sentence or a clause, with any closing quotes or brackets after it. */
const CLAUSE_END = /[.!?:;,]["”’»)\]]*$/u;

/** The right edge of the text around line i: the furthest right end among its neighbours of the same size. */
function rightMargin(lines: readonly Line[], i: number): number {
  const size = lines[i]!.fontSize;
  let right = -Infinity;
  for (let j = Math.max(0, i - 3); j <= Math.min(lines.length - 1, i + 2); j++) {
    const l = lines[j]!;
    if (sameFontSize(l.fontSize, size)) right = Math.max(right, l.x + l.width);
  }
  return right;
}

function firstWordWidth(line: Line): number {
  const run = line.runs[0];
  if (!run || run.text.length === 0) return 0;
  const word = run.text.trimStart().split(/\s/)[0] ?? "";
  return (run.width * word.length) / run.text.length;
}

function isMonospace(line: Line): boolean {
  return line.runs.every((r) => r.monospace);
}

/** A line set as code: monospaced, except in a block of typewriter prose (`typewriter`). */
function isCode(line: Line, o: ParagraphOptions): boolean {
  return !o.typewriter && isMonospace(line);
}

/** A reference in square brackets, as prose cites ("[2]", "[1, 4]"): not code's brackets. */
const CITATION = /\[\d{1,3}(?:,\s*\d{1,3})*\]/gu;

/** Characters that code and diagrams are made of and prose seldom holds. */
const CODE_SYMBOLS = /[{}[\]<>=#$\\|&*_@%~^`+]/gu;
/** Prose lines hold words: a line of code holds a few tokens, a wrapped sentence six words or more. */
const PROSE_WORDS_PER_LINE = 5;

/**
 * A block of monospaced lines that reads as prose, not code: typewriter text (an RFC, a
 * transcript, a licence's conditions set in Courier). Its lines hold words (five or more a line
 * on average), mostly letters, and next to none of code's symbols (under one character in a
 * hundred: brackets, operators, `#`, `$`, `|`, `_`…). docs/extraction.md §5.9.
 */
export function readsAsProse(lines: readonly Line[]): boolean {
  const { inked, letters, symbols, words } = inkOf(lines.map((l) => l.text).join(" "));
  if (inked === 0) return false;
  return letters >= 0.75 * inked && symbols <= 0.01 * inked && words >= PROSE_WORDS_PER_LINE * lines.length;
}

/** What prose and code are told apart by: characters that are not space, letters among them, code's symbols, and words of two letters or more. */
function inkOf(text: string): { inked: number; letters: number; symbols: number; words: number } {
  return {
    inked: text.replace(/\s/gu, "").length,
    letters: (text.match(/\p{L}/gu) ?? []).length,
    symbols: (text.match(CODE_SYMBOLS) ?? []).length,
    words: text.split(/\s+/u).filter((w) => /\p{L}{2,}/u.test(w)).length,
  };
}

