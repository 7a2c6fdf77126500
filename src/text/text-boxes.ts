/**
 * Where a stretch of a document view's text stands on its pages: the lines it covers, their
 * boxes merged into column pieces (page-boxes.ts). What a chunk's `boxes` and a paragraph's are
 * made from, so a citation points at the words it quotes.
 *
 * A view's text is rendered from the pages' lines (document-view.ts), a line's words in order;
 * each line is found in it word by word, from where the line before ended. Words are runs of
 * letters and digits, which Markdown never escapes; a line without any, or not found, covers
 * nothing (its neighbours' boxes stand for it).
 */
import type { Line, PageBox, PageRecord } from "../core/records.js";
import type { PageSpan } from "./document-text.js";
import { lineBox, mergeBoxes } from "./page-boxes.js";

/** Where a line's text stands in the view's text (end exclusive; start = end when it was not found). */
export interface LinePlace {
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Markup a view may add between two words of a line (a table's " | ", emphasis, an escape): characters. */
const MARKUP_SLACK = 8;

/** Each page's lines placed in the view's text, by page number. */
export function linePlaces(pages: readonly Pick<PageRecord, "number" | "lines">[], text: string, spans: readonly PageSpan[]): Map<number, LinePlace[]> {
  const byNumber = new Map(pages.map((p) => [p.number, p]));
  const out = new Map<number, LinePlace[]>();
  for (const span of spans) {
    const page = byNumber.get(span.number);
    if (!page) continue;
    let cursor = span.start;
    out.set(
      span.number,
      page.lines.map((line) => {
        const place = placeLine(text, line.text, cursor, span.end);
        if (place.end > place.start) cursor = place.end;
        return place;
      }),
    );
  }
  return out;
}

/**
 * A line's words found one after the other in the view's text: the first near `from`, each next
 * one close after the one before (the line's own characters between them and a view's markup).
 * The first word may end a word broken at the line before ("nition" of "recognition"), the last
 * may begin one; the words between stand whole. A word not found ends the line's place there.
 */
function placeLine(text: string, lineText: string, from: number, to: number): LinePlace {
  const words = [...lineText.matchAll(WORD)];
  if (words.length === 0) return { start: from, end: from };
  const first = words[0]!;
  const start = findWord(text, first[0], from, Math.min(to, from + FIRST_WORD_REACH * lineText.length + MARKUP_SLACK * 8), { left: true, right: words.length === 1 });
  if (start < 0) return { start: from, end: from };
  let end = start + first[0].length;
  for (let k = 1; k < words.length; k++) {
    const word = words[k]!;
    const between = word.index! - (words[k - 1]!.index! + words[k - 1]![0].length);
    const at = findWord(text, word[0], end, Math.min(to, end + between + MARKUP_SLACK + word[0].length), { left: false, right: k === words.length - 1 });
    if (at < 0) break;
    end = at + word[0].length;
  }
  return { start, end };
}

/** A line's first word is looked for up to this many times the line's length past where the line before ended. */
const FIRST_WORD_REACH = 2;

/**
 * The boxes of the lines that the text from `start` to `end` (view offsets) covers, on pages
 * `from`..`to`, merged into column pieces. Pages without a frame (`toDisplay`) give none.
 */
export function spanBoxes(pages: readonly Pick<PageRecord, "number" | "lines" | "toDisplay">[], places: ReadonlyMap<number, readonly LinePlace[]>, start: number, end: number): PageBox[] {
  const boxes: PageBox[] = [];
  for (const page of pages) {
    const placed = places.get(page.number);
    if (!placed || !page.toDisplay) continue;
    page.lines.forEach((line: Line, k) => {
      const place = placed[k]!;
      if (place.end > place.start && place.end > start && place.start < end) boxes.push(lineBox(page.number, page.toDisplay!, line));
    });
  }
  return mergeBoxes(boxes);
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
