/**
 * Where a stretch of a document view's text stands on its pages: the lines it covers, their
 * boxes merged into column pieces (page-boxes.ts). What a chunk's `boxes` and a paragraph's are
 * made from, so a citation points at the words it quotes.
 *
 * A view's text is rendered from the pages' lines (document-view.ts), a line's words in order;
 * each line is found in it by its first and last word, from where the line before ended. Words
 * are runs of letters and digits, which Markdown never escapes; a line without any, or not
 * found, covers nothing (its neighbours' boxes stand for it).
 */
import type { PageBox, PageRecord, TextFormat } from "../core/records.js";
import type { PageSpan } from "./document-text.js";
import { lineBox, mergeBoxes } from "./page-boxes.js";

/** Where a line's text stands in the view's text (end exclusive; start = end when it was not found). */
export interface LinePlace {
  start: number;
  end: number;
}


/** Markup a view may add between two words of a line (a table's " | ", emphasis, an escape): characters. */
const MARKUP_SLACK = 8;

/** Each page's lines placed in the view's text, by page number. */
export function linePlaces(pages: readonly Pick<PageRecord, "number" | "lines">[], text: string, spans: readonly PageSpan[], format: TextFormat): Map<number, LinePlace[]> {
  const cellMarkup = format === "markdown" ? MARKDOWN_CELL_MARKUP : 0;
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  const out = new Map<number, LinePlace[]>();
  for (const span of spans) {
    const page = byNumber.get(span.number);
    if (!page) continue;
    let cursor = span.start;
    out.set(
      span.number,
      page.lines.map((line) => {
        const place = placeLine(text, line.text, cursor, span.end, cellMarkup);
        if (place.end > place.start) cursor = place.end;
        return place;
      }),
    );
  }
  return out;
}

/**
 * A line found in the view's text by its first and last word: the first near `from` (standing
 * whole, or ending a word broken at the line before: "nition" of "recognition"), the last from
 * about where the line's own text puts it (the view may drop a character or two, never many;
 * markup only adds), standing whole or beginning a word broken at the line's end. A line whose
 * first word is not found has no place; one whose last word is not, ends with its first.
 */
function placeLine(text: string, lineText: string, from: number, to: number, cellMarkup: number): LinePlace {
  const first = firstWord(lineText);
  if (!first) return { start: from, end: from };
  const last = lastWord(lineText);
  const single = last.at === first.at;
  const start = findWord(text, first.word, from, Math.min(to, from + FIRST_WORD_REACH * lineText.length + 8 * MARKUP_SLACK), { left: true, right: single });
  if (start < 0) return { start: from, end: from };
  if (single) return { start, end: start + first.word.length };
  // Not before where the line's own text puts it, less a dropped character or two: the same word
  // earlier in the line ("$10.00" before "$120.00") is not its last.
  const reach = Math.min(to, start + lineText.length + cellMarkup * tabs(lineText, 0, lineText.length) + MARKUP_SLACK);
  const near = Math.max(start + first.word.length, start + last.at - first.at + cellMarkup * tabs(lineText, first.at, last.at) - DROPPED_CHARS);
  let at = findWord(text, last.word, near, reach, { left: false, right: true });
  if (at < 0) at = findWord(text, last.word, start + first.word.length, reach, { left: false, right: true });
  return { start, end: at >= 0 ? at + last.word.length : start + first.word.length };
}

const WORD_AT = /[\p{L}\p{N}]+/u;

function firstWord(lineText: string): { word: string; at: number } | undefined {
  const m = WORD_AT.exec(lineText);
  return m ? { word: m[0], at: m.index } : undefined;
}

/** The line's last word (it has one: its first). */
function lastWord(lineText: string): { word: string; at: number } {
  let end = lineText.length;
  while (end > 0 && !LETTER_OR_DIGIT.test(lineText[end - 1]!)) end--;
  let start = end;
  while (start > 0 && LETTER_OR_DIGIT.test(lineText[start - 1]!)) start--;
  return { word: lineText.slice(start, end), at: start };
}

/** The tabs between two places of a line: a table row's cells, apart by " | " in Markdown. */
function tabs(lineText: string, from: number, to: number): number {
  let n = 0;
  for (let i = lineText.indexOf("\t", from); i >= 0 && i < to; i = lineText.indexOf("\t", i + 1)) n++;
  return n;
}

/** What Markdown writes between two cells of a row (" | ") beyond the tab the line has. */
const MARKDOWN_CELL_MARKUP = 2;

/** Characters a view may render fewer than the line's own text holds before its last word (spaces collapsed). */
const DROPPED_CHARS = 2;

/** A line's first word is looked for up to this many times the line's length past where the line before ended. */
const FIRST_WORD_REACH = 2;

/**
 * A reader of where stretches of a view's text stand: for the text from `start` to `end` (view
 * offsets) on pages `from`..`to`, the boxes of the lines it covers, merged into column pieces.
 * Pages without a frame (`toDisplay`) give none. Lines are placed once, each page's line boxes
 * made once, whatever the number of stretches asked for (every chunk of a document).
 */
export function spanBoxes(
  pages: readonly Pick<PageRecord, "number" | "lines" | "toDisplay">[],
  text: string,
  spans: readonly PageSpan[],
  format: TextFormat,
): (start: number, end: number, from: number, to: number) => PageBox[] {
  const places = linePlaces(pages, text, spans, format);
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  const lineBoxes = new Map<number, PageBox[]>();
  const boxesOf = (page: Pick<PageRecord, "number" | "lines" | "toDisplay">) => {
    let boxes = lineBoxes.get(page.number);
    if (!boxes) lineBoxes.set(page.number, (boxes = page.lines.map((line) => lineBox(page.number, page.toDisplay!, line))));
    return boxes;
  };
  return (start, end, from, to) => {
    const covered: PageBox[] = [];
    for (let number = from; number <= to; number++) {
      const page = byNumber.get(number);
      if (!page?.toDisplay) continue;
      const placed = places.get(number);
      if (!placed) continue;
      placed.forEach((place, k) => {
        if (place.end > place.start && place.end > start && place.start < end) covered.push(boxesOf(page)[k]!);
      });
    }
    return mergeBoxes(covered);
  };
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The first place from `from` where `word` ends by `to`, standing whole ("a" is not the "a" of
 * "larger"); failing that, where it may run on into a word on the side that is allowed to (`mayJoin`:
 * `left` for a line's first word, the end of a word broken at the line before; `right` for its
 * last). -1 when there is none.
 */
function findWord(text: string, word: string, from: number, to: number, mayJoin: { left: boolean; right: boolean }): number {
  const strict = scan(text, word, from, to, true, true);
  return strict >= 0 || (!mayJoin.left && !mayJoin.right) ? strict : scan(text, word, from, to, !mayJoin.left, !mayJoin.right);
}

function scan(text: string, word: string, from: number, to: number, left: boolean, right: boolean): number {
  for (let at = text.indexOf(word, from); at >= 0 && at + word.length <= to; at = text.indexOf(word, at + 1)) {
    if (left && LETTER_OR_DIGIT.test(text[at - 1] ?? "")) continue;
    if (right && LETTER_OR_DIGIT.test(text[at + word.length] ?? "")) continue;
    return at;
  }
  return -1;
}
