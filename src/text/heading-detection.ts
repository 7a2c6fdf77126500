/**
 * Which paragraphs are headings, and at what level, from every signal a PDF offers, weighed
 * together over the whole document (docs/extraction.md §6.5–6.7):
 * - a tagged page's structure: H1…H6 at that level, a Title above them, H ranked by its looks;
 *   a paragraph, list item, caption or cell is no heading, when the document tags headings at
 *   all (a document that tags every block a P says nothing by it);
 * - the document outline: a paragraph that prints an entry's title on the entry's page is a
 *   heading, its depth in the outline says its level;
 * - its looks against the body text's: set larger, or in bold, or in capitals, where the body is
 *   not; a section number ("2.1", "Article 4", "第二节") backs those looks and says how
 *   headings that look alike nest;
 * - what stands around it: a heading is followed by what it heads (text, a list, a table, or a
 *   heading under it), and does not carry on a sentence the paragraph before left open;
 * - and guards against what looks like a heading but is not (heading-guards.ts).
 * Levels: headings are grouped by their looks (size, bold, capitals, typeface, centred), the
 * groups ranked from the most prominent down (as prominent: in the order the document first uses
 * them), and within a group numbered headings nest by the depth of their numbers; a decimal
 * number under one found before nests under it whatever its looks; outline depths and tag
 * levels, where there are any, go before.
 */
import type { Line, Paragraph } from "../core/records.js";
import { continuedTitle, guardHeading, headingWords, isAddressLine, isByline, isContactLine, LEFT_OPEN, type HeadingLooks, type HeadingSource } from "./heading-guards.js";
import { romanValue, startsWithListMarker } from "./list-markers.js";
import { OutlineIndex, type OutlineEntry } from "./outline.js";
import { reflowLines } from "./page-text.js";
import { sectionNumber, type SectionNumber } from "./section-numbers.js";
import { bodyFontSize, isBoldLine, isCapitals, maxOf, minOf } from "./text-geometry.js";

/** What headings are decided on: a page's lines and the paragraphs over them, and its number when known. */
export interface LaidOutText {
  number?: number;
  lines: readonly Line[];
  paragraphs: readonly Paragraph[];
}

/** What the document says of its headings beside its pages. */
export interface HeadingEvidence {
  outline?: readonly OutlineEntry[];
}

/** A paragraph found to be a heading: where it is, and its level. */
export interface FoundHeading {
  page: number;
  paragraph: number;
  level: number;
}

/**
 * 12 pt headings over 11 pt body text (×1.09) are common in office documents, so the ratio sits
 * just under it; an OCR layer's jitter (half a point at 11 pt, ×1.05) stays below it.
 */
export const HEADING_SIZE_RATIO = 1.08;
/** Titles wrap to two or three lines; a longer block of large type is a pull quote or a cover. */
export const MAX_HEADING_LINES = 3;
export const MAX_HEADING_CHARS = 200;
/**
 * A heading told by weight, capitals or its number alone (set in the body's size) is short: a
 * bold sentence or a line of capitals in a form is not one.
 */
const MAX_STYLE_WORDS = 12;
/**
 * A heading in bold capitals may be set a little smaller than the body (11 pt over 12 pt); small
 * type that is not both is a footnote, a label or a caption.
 */
const SMALL_CAPS_HEADING_RATIO = 0.85;
/** Characters a page needs for its own body size to count (a cover or a title page has fewer). */
const MIN_PAGE_BODY_CHARS = 300;
/** A centred line stands this many ems clear of both edges of the page's text: a line that fills the measure is centred by any count. */
const CENTRED_MARGIN_EMS = 0.5;
/** Heading sizes within 2 % of each other are one size (producers round sizes differently). */
const SAME_SIZE_RATIO = 1.02;
/**
 * How much bold and capitals add to a heading's prominence against its size, for ranking
 * levels: 11 pt bold capitals ("TITLE I: WIPO TREATY") outrank 13 pt bold ("Technical
 * Amendments"), which outranks 12 pt bold.
 */
const BOLD_WEIGHT = 1.1;
const CAPS_WEIGHT = 1.2;

const TAGGED_LEVEL = /^H([1-6])$/;
/** Tags that say what a block is, and that it is no heading (ISO 32000-1 §14.8.4). */
const NOT_HEADING_TAGS = new Set(["P", "LI", "Lbl", "LBody", "Caption", "TOC", "TOCI", "Note", "FENote", "BibEntry", "Quote", "BlockQuote", "Code", "Formula", "Figure", "Form", "Table", "TR", "TD", "TH", "Artifact"]);

interface Candidate {
  page: number;
  paragraph: number;
  looks: HeadingLooks;
  number?: SectionNumber;
  /** Level fixed by the structure tree or the outline, before the looks are ranked. */
  fixed?: { by: "tag" | "outline"; level: number };
}

/**
 * A paragraph of the document, in reading order, with what heading detection reads of it. Its
 * looks (its text joined, its words, capitals…) are worked out the first time they are asked
 * for: most paragraphs are ruled out by their length alone.
 */
class Block {
  private seen: HeadingLooks | undefined;

  constructor(
    readonly page: number,
    readonly paragraph: number,
    readonly kind: Paragraph["kind"],
    readonly tag: string | undefined,
    readonly lines: readonly Line[],
    private readonly frame: TextFrame,
  ) {}

  get looks(): HeadingLooks {
    return (this.seen ??= looksOf(this.lines, this.frame));
  }

  /** The smallest font size of its lines. */
  get size(): number {
    return this.seen?.size ?? Math.min(...this.lines.map((l) => l.fontSize));
  }

  get firstLine(): string {
    return this.lines[0]!.text;
  }

  get lastLine(): string {
    return this.lines[this.lines.length - 1]!.text.trimEnd();
  }

  /** Too long to be a heading: more lines or characters than a heading has. */
  get long(): boolean {
    if (this.lines.length > MAX_HEADING_LINES) return true;
    let chars = 0;
    for (const l of this.lines) chars += l.text.length;
    return chars > MAX_HEADING_CHARS;
  }
}

export function findHeadings(pages: readonly LaidOutText[], evidence: HeadingEvidence = {}): FoundHeading[] {
  const blocks = documentBlocks(pages);
  const body = bodyStyle(pages);
  const pageBodies = pages.map((page) => pageBodySize(page, body.size));
  const outline = evidence.outline?.length ? new OutlineIndex(evidence.outline) : undefined;
  const tagsHeadings = blocks.some((b) => isTaggedHeading(b.tag));
  const largestTagged = Math.max(0, maxOf(blocks, (b) => (isTaggedHeading(b.tag) ? b.size : -Infinity)));
  // Titles that the document repeats with "—Continued" over a table's next page are the titles of
  // tables, not of sections: neither the first nor the repeat is a heading.
  const tableTitles = new Set(blocks.flatMap((b) => (b.kind === "text" && !b.long && continuedTitle(b.firstLine) !== undefined ? [continuedTitle(b.looks.text)!] : [])));
  const candidates: Candidate[] = [];
  blocks.forEach((block, k) => {
    if (block.kind !== "text") return;
    const { tag } = block;
    if (block.long && !isTaggedHeading(tag)) return;
    const { looks } = block;
    const at = { page: block.page, paragraph: block.paragraph, looks };
    const tagged = TAGGED_LEVEL.exec(tag ?? "");
    // A document that tags its headings is believed: H1…H6 at their level, a Title above them,
    // H by its looks, and no paragraph, list item, caption or cell — except a paragraph set
    // larger than every tagged heading (a title the tagging missed). Containers (Div, Sect) say
    // nothing of what they hold: their paragraphs are judged by their looks.
    const untrusted = tag === "P" && looks.size >= HEADING_SIZE_RATIO * largestTagged;
    if (tagsHeadings && tag !== undefined && !untrusted && (tagged || tag === "H" || tag === "Title" || NOT_HEADING_TAGS.has(tag))) {
      if (tagged) candidates.push({ ...at, fixed: { by: "tag", level: Number(tagged[1]) } });
      else if (tag === "Title") candidates.push({ ...at, fixed: { by: "tag", level: 0 } });
      else if (tag === "H" && !guardHeading(looks, "tag")) candidates.push({ ...at, ...numbered(looks.text) });
      return;
    }
    // The names under the document's title (a first heading set larger than the body) are its
    // authors, however they are set, and whatever an outline that lists them says.
    const title = candidates.length === 1 ? candidates[0]! : undefined;
    if (title && block.page === title.page && title.looks.size >= HEADING_SIZE_RATIO * body.size && isByline(looks.text)) return;
    const entry = outline?.find(looks.text, pages[block.page]!.number);
    if (entry && !guardHeading(looks, "outline")) {
      candidates.push({ ...at, ...numbered(looks.text), fixed: { by: "outline", level: entry.depth } });
      return;
    }
    const source = headingSource(blocks, k, body, pageBodies[block.page]!);
    if (!source || guardHeading(looks, source)) return;
    if (continuedTitle(looks.text) !== undefined || tableTitles.has(looks.text)) return;
    candidates.push({ ...at, ...numbered(looks.text) });
  });
  return assignLevels(candidates);
}

function numbered(text: string): { number?: SectionNumber } {
  const number = sectionNumber(text);
  return number ? { number } : {};
}

function isTaggedHeading(tag: string | undefined): boolean {
  return tag === "H" || tag === "Title" || TAGGED_LEVEL.test(tag ?? "");
}

/** Every paragraph of the document in reading order. */
function documentBlocks(pages: readonly LaidOutText[]): Block[] {
  const blocks: Block[] = [];
  pages.forEach((page, p) => {
    const frame = textFrame(page.lines);
    page.paragraphs.forEach((paragraph, i) => {
      const lines = page.lines.slice(paragraph.start, paragraph.end);
      if (lines.length === 0) return;
      const tag = paragraph.tag ?? sharedLineRole(lines);
      blocks.push(new Block(p, i, paragraph.kind, tag, lines, frame));
    });
  });
  return blocks;
}

/** The role all the paragraph's lines share on a tagged page (a heading split over lines). */
function sharedLineRole(lines: readonly Line[]): string | undefined {
  const first = lines[0]?.role;
  return first && lines.every((l) => l.role === first) ? first : undefined;
}

/** The body text's style: its size (most characters are set in it) and whether it is bold or in capitals. */
interface BodyStyle {
  size: number;
  bold: boolean;
  caps: boolean;
}

function bodyStyle(pages: readonly LaidOutText[]): BodyStyle {
  const lines = pages.flatMap(textLines);
  let chars = 0;
  let bold = 0;
  let caps = 0;
  for (const line of lines) {
    const n = line.text.length;
    chars += n;
    if (isBoldLine(line)) bold += n;
    if (isCapitals(line.text)) caps += n;
  }
  return { size: bodyFontSize(lines), bold: bold > chars / 2, caps: caps > chars / 2 };
}

/**
 * A page's own body size where it has enough text to tell (slides, a menu, a report's cover set
 * in larger type than the rest): a heading is larger than the text of its page as well as the
 * document's. A page with less text keeps the document's.
 */
function pageBodySize(page: LaidOutText, documentBody: number): number {
  const lines = textLines(page);
  let chars = 0;
  for (const line of lines) chars += line.text.length;
  return chars < MIN_PAGE_BODY_CHARS ? documentBody : Math.max(bodyFontSize(lines), documentBody);
}

/** The lines of a page's running-text paragraphs (not tables, not code). */
function textLines(page: LaidOutText): Line[] {
  return page.paragraphs.flatMap((p) => (p.kind === "text" ? page.lines.slice(p.start, p.end) : []));
}

function looksOf(lines: readonly Line[], frame: TextFrame): HeadingLooks {
  const text = reflowLines(lines);
  return {
    text,
    lines: lines.length,
    size: Math.min(...lines.map((l) => l.fontSize)),
    bold: lines.every(isBoldLine),
    caps: isCapitals(text),
    font: mainFont(lines),
    centred: lines.every((l) => isCentred(l, frame)),
    words: headingWords(text),
  };
}

/**
 * Where a page's text runs across it (from its leftmost line's start to its rightmost line's end),
 * and where its lines that are not centred start.
 */
interface TextFrame {
  left: number;
  right: number;
  flushStarts: number[];
}

function textFrame(lines: readonly Line[]): TextFrame {
  let [left, right] = [Infinity, -Infinity];
  for (const l of lines) [left, right] = [Math.min(left, l.x), Math.max(right, l.x + l.width)];
  const frame = { left, right, flushStarts: [] as number[] };
  for (const l of lines) if (!centredOnFrame(l, frame)) frame.flushStarts.push(l.x);
  return frame;
}

/**
 * A heading line centred on the page's text: its middle within an em of the text's, clear of
 * either edge, and starting where no other text does. A column of a page is flush left whatever its
 * place: the middle column of three sits in the page's middle, but its text starts where its
 * headings do.
 */
function isCentred(line: Line, frame: TextFrame): boolean {
  return centredOnFrame(line, frame) && !frame.flushStarts.some((x) => Math.abs(x - line.x) <= line.fontSize / 4);
}

function centredOnFrame(line: Line, frame: Omit<TextFrame, "flushStarts">): boolean {
  const em = line.fontSize;
  const centre = (frame.left + frame.right) / 2;
  return line.x - frame.left >= CENTRED_MARGIN_EMS * em && frame.right - (line.x + line.width) >= CENTRED_MARGIN_EMS * em && Math.abs(line.x + line.width / 2 - centre) <= em;
}

/** The font that sets most of the lines' characters (a section number may be set in another). */
function mainFont(lines: readonly Line[]): string {
  const chars = new Map<string, number>();
  for (const l of lines) for (const r of l.runs) chars.set(r.fontName, (chars.get(r.fontName) ?? 0) + r.text.length);
  let font = "";
  let most = 0;
  for (const [f, n] of chars) if (n > most) [font, most] = [f, n];
  return font;
}



/**
 * Whether a paragraph looks like a heading beside the body, and by what: set larger (`size`); or,
 * in about the body's size, short and set apart from it by weight or capitals, or numbered as a
 * section (`style`). Either way it must head something — text, a list, a table, or a heading
 * under it that does — and must not carry on a sentence the paragraph before left open.
 */
function headingSource(blocks: readonly Block[], k: number, body: BodyStyle, pageBody: number): HeadingSource | undefined {
  const { looks } = blocks[k]!;
  if (looks.lines > MAX_HEADING_LINES || looks.text.length > MAX_HEADING_CHARS) return undefined;
  const previous = blocks[k - 1];
  if (previous && previous.kind === "text" && LEFT_OPEN.test(previous.lastLine) && !startsWithListMarker(previous.firstLine)) return undefined;
  const larger = body.size > 0 && looks.size >= HEADING_SIZE_RATIO * pageBody;
  const bold = looks.bold && !body.bold;
  const caps = looks.caps && !body.caps;
  const number = sectionNumber(looks.text);
  if (!larger) {
    const smallest = bold && caps ? SMALL_CAPS_HEADING_RATIO * body.size : body.size / HEADING_SIZE_RATIO;
    if (looks.size < smallest || looks.words > MAX_STYLE_WORDS) return undefined;
    if (!bold && !caps && !number) return undefined;
    // The next number of the list just above: an item, not a section ("2. Frangitur…" then "3. Recens…").
    if (number && previous && sameNumbering(previous.firstLine, number)) return undefined;
  }
  const next = headed(blocks, k, number, larger);
  if (!next) return undefined;
  return larger ? "size" : "style";
}


/**
 * What the heading at k heads, when it heads anything: the next paragraph (on its page or at the
 * top of the next) is text, a list, a table or code, or a heading that itself heads text (two
 * headings in a row, a section and its first subsection). A heading told only by its section
 * number needs running text under it that is not the next item of the same numbering.
 */
function headed(blocks: readonly Block[], k: number, number: SectionNumber | undefined, larger: boolean): "content" | undefined {
  const { looks } = blocks[k]!;
  const onlyNumbered = number && !looks.bold && !looks.caps;
  for (let j = k + 1; j <= k + 2 && j < blocks.length; j++) {
    const next = blocks[j]!;
    if (next.kind !== "text") return onlyNumbered ? undefined : "content";
    if (startsWithListMarker(next.firstLine)) return onlyNumbered ? undefined : "content";
    if (number && sameNumbering(next.firstLine, number)) return undefined;
    // Running text under it (more lines than a heading has) is what it heads.
    if (next.long) return "content";
    // A name over a short block of address (of any size), or in the body's size over an e-mail,
    // is a letterhead, not a section.
    if (next.looks.lines <= 3 && next.looks.words <= 16 && isAddressLine(next.looks.text)) return undefined;
    if (!larger && isContactLine(next.looks.text) && isByline(looks.text)) return undefined;
    if (!looksLikeHeadingLine(next.looks)) return "content";
    if (onlyNumbered) return undefined;
  }
  return undefined;
}

/** Short, bold or capitals, and no sentence: a paragraph that may be a heading itself. */
function looksLikeHeadingLine(looks: HeadingLooks): boolean {
  return (looks.bold || looks.caps) && looks.words <= MAX_STYLE_WORDS && looks.lines <= 2 && !/[.!?]$/u.test(looks.text);
}

/**
 * The two are numbered one after the other, at one depth ("2." then "3.", "b)" then "c)"): items
 * of one numbered list, not a section and its text. `text` is the one before or after `number`'s.
 */
function sameNumbering(text: string, number: SectionNumber): boolean {
  const other = sectionNumber(text);
  if (other === undefined || other.scheme !== number.scheme || other.depth !== number.depth) return false;
  const [a, b] = [ordinal(other.label), ordinal(number.label)];
  return a !== undefined && b !== undefined && Math.abs(a - b) === 1;
}

/** The last part of a section number as a count: "3.1.4" is 4, "c" is 3, "IV" is 4. */
function ordinal(label: string): number | undefined {
  const last = label.split(/[.\s]+/u).filter(Boolean).pop() ?? "";
  if (/^\d+$/u.test(last)) return Number(last);
  if (/^[IVXLC]+$/u.test(last)) return romanValue(last);
  if (/^[A-Za-z]$/u.test(last)) return last.toUpperCase().charCodeAt(0) - 64;
  return undefined;
}

// ---- levels

/**
 * Levels for the candidates. Headings are grouped by their looks and the groups ranked, most
 * prominent first (size, weighted up for bold and capitals). Within a group, numbered headings
 * nest by the depth of their numbers, and an unnumbered one stands with the group's shallowest.
 * Where the tags or the outline fix levels, they stand, a group takes the level its fixed
 * members have most, and a group without any stands between the groups around it. Levels are
 * then numbered from 1 without gaps, at most 6.
 */
function assignLevels(candidates: readonly Candidate[]): FoundHeading[] {
  if (candidates.length === 0) return [];
  const groups: { size: number; bold: boolean; caps: boolean; font: string; centred: boolean; members: Candidate[] }[] = [];
  for (const c of candidates) {
    const { size, bold, caps, font, centred } = c.looks;
    const group = groups.find((g) => g.bold === bold && g.caps === caps && g.font === font && g.centred === centred && Math.max(g.size, size) <= SAME_SIZE_RATIO * Math.min(g.size, size));
    if (group) group.members.push(c);
    else groups.push({ size, bold, caps, font, centred, members: [c] });
  }
  // Groups as prominent as each other (one size and weight, another typeface) rank in the order
  // the document first uses them: a title before its sections, a section before its subsections.
  groups.sort((a, b) => prominence(b) - prominence(a));
  // How much deeper a numbered heading is than the shallowest of its group numbered the same way
  // (an appendix's keyword ranks with the keywords, not with "1." and "1.1"). The shallowest
  // depths are worked out once per group: a long document's group holds thousands of headings.
  const shallowestDepths = new Map<(typeof groups)[number], Map<SectionNumber["scheme"], number>>();
  const depthOffset = (group: (typeof groups)[number], c: Candidate) => {
    if (!c.number) return 0;
    let depths = shallowestDepths.get(group);
    if (!depths) {
      depths = new Map();
      for (const m of group.members) if (m.number) depths.set(m.number.scheme, Math.min(depths.get(m.number.scheme) ?? Infinity, m.number.depth));
      shallowestDepths.set(group, depths);
    }
    return c.number.depth - depths.get(c.number.scheme)!;
  };
  const value = new Map<Candidate, number>();
  const fixedLevels = groups.map((g) => g.members.flatMap((m) => (m.fixed ? [m.fixed.level - depthOffset(g, m)] : [])));
  if (fixedLevels.every((f) => f.length === 0)) {
    // Looks alone: the rank of (group, depth) pairs.
    const keys = new Map<Candidate, number>();
    groups.forEach((g, k) => g.members.forEach((m) => keys.set(m, k * 100 + Math.min(99, depthOffset(g, m)))));
    const order = [...new Set(keys.values())].sort((a, b) => a - b);
    for (const [c, key] of keys) value.set(c, order.indexOf(key) + 1);
  } else {
    // Each group's base level: its fixed members' most common, or between its neighbours'.
    const base: (number | undefined)[] = fixedLevels.map((f) => (f.length ? mode(f) : undefined));
    const firstKnown = base.findIndex((b) => b !== undefined);
    const shallowest = minOf(base, (b) => b ?? Infinity);
    groups.forEach((_, k) => {
      if (base[k] !== undefined) return;
      const before = base.slice(0, k).filter((b): b is number => b !== undefined);
      // Below the deepest group more prominent than it; above every fixed level when it is more prominent than all of them.
      base[k] = before.length ? maxOf(before) + 0.5 + k / 1000 : shallowest - (firstKnown - k) / (firstKnown + 1);
    });
    groups.forEach((g, k) => g.members.forEach((m) => value.set(m, m.fixed ? m.fixed.level : base[k]! + depthOffset(g, m))));
  }
  const levels = withoutGaps(value);
  nestByNumbers(candidates, levels);
  nestByKeywords(candidates, levels);
  return candidates.map((c) => ({ page: c.page, paragraph: c.paragraph, level: Math.min(6, levels.get(c)!) }));
}

/** Levels numbered from 1 without gaps, in the order of the values. */
function withoutGaps<T>(value: ReadonlyMap<T, number>): Map<T, number> {
  const used = [...new Set(value.values())].sort((a, b) => a - b);
  return new Map([...value].map(([c, v]) => [c, used.indexOf(v) + 1]));
}

/**
 * A heading numbered under one found before it ("4.2.1" under "4.2") is one level below it,
 * whatever it looks like: a document may set some subsections in another type than their
 * siblings' (RFC 959's mixed-case "4.2.1 Reply Codes" among subsections in capitals). Levels
 * stay numbered without gaps.
 */
function nestByNumbers(candidates: readonly Candidate[], levels: Map<Candidate, number>): void {
  const found = new Map<string, Candidate>();
  let moved = false;
  for (const c of candidates) {
    if (c.number?.scheme !== "decimal") continue;
    const parent = found.get(c.number.label.split(".").slice(0, -1).join("."));
    if (parent && !c.fixed && levels.get(c) !== levels.get(parent)! + 1) {
      levels.set(c, levels.get(parent)! + 1);
      moved = true;
    }
    found.set(c.number.label, c);
  }
  if (moved) for (const [c, level] of withoutGaps(levels)) levels.set(c, level);
}

/**
 * Headings numbered by a keyword nest by the keywords' ranks where they stand, not by their looks:
 * an article under a title that has no chapters is one level below the title, an article under a
 * chapter one below the chapter, though every article looks alike ("TÍTULO I" > "Artículo 1",
 * "TÍTULO II" > "CAPÍTULO I" > "Artículo 8"). A run of such headings starts at the level the first
 * of them was given; a heading shallower than that ends the run (a new part of the document).
 */
function nestByKeywords(candidates: readonly Candidate[], levels: Map<Candidate, number>): void {
  let base: number | undefined;
  let open: { rank: number }[] = [];
  for (const c of candidates) {
    const level = levels.get(c)!;
    if (c.number?.scheme !== "keyword") {
      if (base !== undefined && level < base) [base, open] = [undefined, []];
      continue;
    }
    const rank = c.number.depth;
    while (open.length && open[open.length - 1]!.rank >= rank) open.pop();
    base ??= level;
    levels.set(c, base + open.length);
    open.push({ rank });
  }
}

/** A group's rank key: its size, weighted up for bold and capitals. */
function prominence(group: { size: number; bold: boolean; caps: boolean }): number {
  return group.size * (group.bold ? BOLD_WEIGHT : 1) * (group.caps ? CAPS_WEIGHT : 1);
}

function mode(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = values[0]!;
  for (const [v, n] of counts) if (n > counts.get(best)! || (n === counts.get(best)! && v < best)) best = v;
  return best;
}
